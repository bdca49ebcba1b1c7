// Storage: a path's scheme to its store (include/pqsift/storage.h).
#include "pqsift/storage.h"

#include "io/file_systems.h"

namespace pqsift {

std::vector<Result<std::unique_ptr<RandomAccessFile>>> FileSystem::OpenMany(
    std::span<const FileInfo> files, const FileOpenOptions& options) {
  std::vector<Result<std::unique_ptr<RandomAccessFile>>> out;
  out.reserve(files.size());
  for (const FileInfo& f : files) {
    FileOpenOptions one = options;
    one.expected = f.known ? &f : nullptr;
    out.push_back(Open(f.path, one));
  }
  return out;
}

std::shared_ptr<Storage> Storage::Make(const StorageOptions& options) {
  auto storage = std::make_shared<Storage>();
  storage->local_ = io::MakeLocalFileSystem();
  auto client = std::make_shared<io::HttpClient>(options.http);
  auto http = io::MakeHttpFileSystem(client);
  storage->Register("http", http);
  storage->Register("https", http);
  storage->Register("s3", io::MakeS3FileSystem(client, options.s3));
  return storage;
}

std::shared_ptr<Storage> Storage::Default() {
  // Never destroyed: its I/O thread may serve scans until the process exits.
  static auto* storage = new std::shared_ptr<Storage>(Make());
  return *storage;
}

void Storage::Register(std::string scheme, std::shared_ptr<FileSystem> file_system) {
  std::lock_guard<std::mutex> lock(mu_);
  by_scheme_[std::move(scheme)] = std::move(file_system);
}

Result<FileSystem*> Storage::For(std::string_view path) const {
  std::string_view scheme = PathScheme(path);
  std::lock_guard<std::mutex> lock(mu_);
  if (scheme.empty()) {
    if (!local_) return Status::InvalidArgument(std::string(path) + ": no local store");
    return local_.get();
  }
  auto it = by_scheme_.find(scheme);
  if (it == by_scheme_.end()) {
    return Status::InvalidArgument(RedactUrl(path) + ": no store for '" + std::string(scheme) +
                                   "://' paths");
  }
  return it->second.get();
}

Result<std::unique_ptr<RandomAccessFile>> Storage::Open(const std::string& path,
                                                        const FileOpenOptions& options) const {
  PQSIFT_ASSIGN_OR_RETURN(FileSystem * fs, For(path));
  return fs->Open(path, options);
}

std::string_view PathScheme(std::string_view path) {
  size_t colon = path.find("://");
  if (colon == std::string_view::npos || colon == 0) return {};
  std::string_view scheme = path.substr(0, colon);
  for (char c : scheme) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '+' || c == '-' || c == '.';
    if (!ok) return {};
  }
  return scheme;
}

std::string RedactUrl(std::string_view url) {
  std::string_view scheme = PathScheme(url);
  if (scheme.empty()) return std::string(url);
  size_t query = url.find_first_of("?#");
  if (query != std::string_view::npos) url = url.substr(0, query);
  size_t host_start = scheme.size() + 3;
  size_t path_start = url.find('/', host_start);
  std::string_view authority =
      url.substr(host_start, path_start == std::string_view::npos ? std::string_view::npos
                                                                  : path_start - host_start);
  size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  std::string out(url.substr(0, host_start));
  out += authority.substr(at + 1);
  if (path_start != std::string_view::npos) out += url.substr(path_start);
  return out;
}

}  // namespace pqsift
