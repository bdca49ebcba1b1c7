// The S3 store: s3://bucket/key objects over HTTP(S), signed with SigV4 by libcurl
// (CURLOPT_AWS_SIGV4), folders listed with ListObjectsV2 page by page.
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "io/aws_config.h"
#include "io/file_systems.h"
#include "io/remote_file.h"
#include "io/s3_listing.h"

namespace pqsift::io {
namespace {

// The SHA-256 of an empty body: what a GET signs as its payload.
constexpr const char* kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
// Listing stops past this many pages (1,000 keys each): a server that never ends is an error.
constexpr int kMaxListPages = 100'000;

struct S3Path {
  std::string bucket;
  std::string key;
};

Result<S3Path> ParseS3Path(const std::string& path) {
  if (!path.starts_with("s3://")) return Status::InvalidArgument(path + ": not an s3:// path");
  std::string rest = path.substr(5);
  size_t slash = rest.find('/');
  S3Path out;
  out.bucket = rest.substr(0, slash);
  if (slash != std::string::npos) out.key = rest.substr(slash + 1);
  if (out.bucket.empty()) return Status::InvalidArgument(path + ": no bucket");
  return out;
}

class S3FileSystem final : public FileSystem {
 public:
  S3FileSystem(std::shared_ptr<HttpClient> client, S3Options options)
      : client_(std::move(client)), options_(std::move(options)) {}

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
    std::vector<Result<std::unique_ptr<RandomAccessFile>>> out;
    out.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i) out.emplace_back(Status::Internal("not opened"));
    Result<const S3Config*> config = Config();
    std::vector<RemoteTarget> targets;
    std::vector<const FileInfo*> expected;
    std::vector<size_t> at;
    for (size_t i = 0; i < files.size(); ++i) {
      const std::string& path = files[i].path;
      if (!config.ok()) {
        out[i] = config.status();
        continue;
      }
      Result<S3Path> p = ParseS3Path(path);
      if (!p.ok() || p->key.empty()) {
        out[i] =
            p.ok() ? Status::InvalidArgument(path + ": names a bucket, not an object") : p.status();
        continue;
      }
      RemoteTarget t = Target(**config, *p, "");
      t.display = path;
      targets.push_back(std::move(t));
      expected.push_back(files[i].known ? &files[i] : nullptr);
      at.push_back(i);
    }
    auto opened = OpenRemoteFiles(client_, std::move(targets), expected, options);
    for (size_t k = 0; k < opened.size(); ++k) out[at[k]] = std::move(opened[k]);
    return out;
  }

  bool IsFolder(const std::string& path) override {
    Result<S3Path> p = ParseS3Path(path);
    return p.ok() && (p->key.empty() || p->key.ends_with('/'));
  }

  Result<std::vector<FileInfo>> List(const std::string& folder) override {
    PQSIFT_ASSIGN_OR_RETURN(const S3Config* config, Config());
    PQSIFT_ASSIGN_OR_RETURN(S3Path p, ParseS3Path(folder));
    std::string prefix = p.key;
    std::vector<FileInfo> out;
    std::string token;
    for (int page = 0;; ++page) {
      if (page >= kMaxListPages) {
        return Status::IOError(folder + ": the listing did not end after " +
                               std::to_string(kMaxListPages) + " pages");
      }
      // Query parameters in the order SigV4's canonical query string sorts them.
      std::string query;
      if (!token.empty()) query += "continuation-token=" + UriEncode(token, false) + "&";
      query += "list-type=2";
      if (!prefix.empty()) query += "&prefix=" + UriEncode(prefix, false);
      RemoteTarget t = Target(*config, {p.bucket, ""}, query);
      HttpRequest r;
      r.url = t.url;
      r.display = folder + " (listing)";
      r.headers = t.headers;
      r.aws_sigv4 = t.aws_sigv4;
      r.credentials = t.credentials;
      r.max_body = uint64_t{64} << 20;
      PQSIFT_ASSIGN_OR_RETURN(HttpResponse response, client_->Fetch(std::move(r)));
      if (response.status != 200) return HttpStatusError(folder, response);
      PQSIFT_ASSIGN_OR_RETURN(S3ListPage listed, ParseListObjectsV2(response.body, folder));
      for (S3Object& o : listed.objects) {
        if (o.key.ends_with('/')) continue;  // a folder marker, not a file
        FileInfo f;
        f.path = "s3://" + p.bucket + "/" + o.key;
        f.size = o.size;
        f.mtime_ns = o.mtime_ns;
        f.version = std::move(o.etag);
        out.push_back(std::move(f));
      }
      if (!listed.truncated) break;
      if (listed.next_token == token) {
        return Status::IOError(folder + ": the listing repeats its continuation token");
      }
      token = std::move(listed.next_token);
    }
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    if (out.empty() && !prefix.empty()) {
      return Status::IOError(folder + ": no object under this prefix");
    }
    return out;
  }

  Result<FileInfo> Stat(const std::string& path) override {
    PQSIFT_RETURN_IF_ERROR(ParseS3Path(path).status());
    FileInfo f;
    f.path = path;
    f.known = false;
    return f;
  }

 private:
  // The configuration, resolved at the first use (environment and files read once).
  Result<const S3Config*> Config() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!config_) {
      config_.emplace(
          ResolveS3Config(options_, [](const char* name) { return std::getenv(name); }));
    }
    if (!config_->ok()) return config_->status();
    return &config_->value();
  }

  RemoteTarget Target(const S3Config& config, const S3Path& p, const std::string& query) const {
    RemoteTarget t;
    std::string path = "/" + UriEncode(p.key, true);
    size_t host_start = config.endpoint.find("://") + 3;
    if (config.path_style || p.bucket.find('.') != std::string::npos) {
      t.url = config.endpoint + "/" + UriEncode(p.bucket, false) + path;
    } else {
      t.url = config.endpoint.substr(0, host_start) + p.bucket + "." +
              config.endpoint.substr(host_start) + path;
    }
    if (!query.empty()) t.url += "?" + query;
    t.display = "s3://" + p.bucket + "/" + p.key;
    if (!config.credentials.empty()) {
      t.aws_sigv4 = "aws:amz:" + config.region + ":s3";
      t.credentials = config.credentials.access_key_id + ":" + config.credentials.secret_access_key;
      t.headers.push_back(std::string("x-amz-content-sha256: ") + kEmptyPayloadHash);
      if (!config.credentials.session_token.empty()) {
        t.headers.push_back("x-amz-security-token: " + config.credentials.session_token);
      }
    }
    return t;
  }

  std::shared_ptr<HttpClient> client_;
  S3Options options_;
  std::mutex mu_;
  std::optional<Result<S3Config>> config_;
};

}  // namespace

std::shared_ptr<FileSystem> MakeS3FileSystem(std::shared_ptr<HttpClient> client,
                                             S3Options options) {
  return std::make_shared<S3FileSystem>(std::move(client), std::move(options));
}

}  // namespace pqsift::io
