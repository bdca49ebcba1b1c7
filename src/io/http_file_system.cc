// The plain HTTP(S) store: a URL is a file, read by range requests (io/remote_file.h).
#include "io/file_systems.h"
#include "io/remote_file.h"

namespace pqsift::io {
namespace {

// The URL as sent: a character a URL may not hold as it is (a space, a control byte, a
// backslash, '"', '<', '>', '^', '`', '{', '|', '}') percent-encoded, as a browser sends what
// is typed; '%' and everything else as given (an encoded URL stays as it is; libcurl encodes
// non-ASCII bytes).
std::string UrlToSend(const std::string& url) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(url.size());
  for (char c : url) {
    const auto b = static_cast<unsigned char>(c);
    const bool encode = b <= 0x20 || b == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' ||
                        c == '^' || c == '`' || c == '{' || c == '|' || c == '}';
    if (!encode) {
      out += c;
      continue;
    }
    out += '%';
    out += kHex[b >> 4];
    out += kHex[b & 0xF];
  }
  return out;
}

class HttpFileSystem final : public FileSystem {
 public:
  explicit HttpFileSystem(std::shared_ptr<HttpClient> client) : client_(std::move(client)) {}

  Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                 const FileOpenOptions& options) override {
    FileInfo one;
    one.path = path;
    one.known = false;
    if (options.expected != nullptr) one = *options.expected;
    return std::move(OpenMany({&one, 1}, options).front());
  }

  std::vector<Result<std::unique_ptr<RandomAccessFile>>> OpenMany(
      std::span<const FileInfo> files, const FileOpenOptions& options) override {
    std::vector<RemoteTarget> targets;
    std::vector<const FileInfo*> expected;
    for (const FileInfo& f : files) {
      RemoteTarget t;
      t.url = UrlToSend(f.path);
      t.display = RedactUrl(f.path);
      t.follow_redirects = true;
      targets.push_back(std::move(t));
      expected.push_back(f.known ? &f : nullptr);
    }
    return OpenRemoteFiles(client_, std::move(targets), expected, options);
  }

  bool IsFolder(const std::string& path) override { return path.ends_with('/'); }

  Result<std::vector<FileInfo>> List(const std::string& folder) override {
    return Status::NotSupported(RedactUrl(folder) +
                                ": an HTTP server cannot list a folder: name the files, or "
                                "write a manifest there (pqsift index)");
  }

  Result<FileInfo> Stat(const std::string& path) override {
    FileInfo f;
    f.path = path;
    f.known = false;
    return f;
  }

 private:
  std::shared_ptr<HttpClient> client_;
};

}  // namespace

std::shared_ptr<FileSystem> MakeHttpFileSystem(std::shared_ptr<HttpClient> client) {
  return std::make_shared<HttpFileSystem>(std::move(client));
}

}  // namespace pqsift::io
