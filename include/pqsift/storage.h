// Where files live: local paths, http:// and https:// URLs, s3://bucket/key objects, or a
// store of the caller's own. Everything pqsift opens, lists or reads goes through a Storage,
// so nothing above the I/O layer knows which store it reads.
//
// A FileSystem is one kind of store: it opens files (RandomAccessFile, pqsift/io.h) and lists
// folders. A Storage maps a path's scheme ("s3://", "https://"; none: a local path) to its
// FileSystem; Storage::Make gives local files, HTTP(S) through libcurl and S3 (SigV4 signed
// with the credentials of the usual AWS environment variables and files), and Register adds
// or replaces a scheme's store.
//
// Remote stores open a file with one request: a suffix range (`Range: bytes=-N`) that returns
// the file's last N bytes (its footer, usually) and its size (Content-Range), never a HEAD
// first. The ETag (or Last-Modified) of that response is required of every later read
// (If-Match): a file replaced during a scan is an error naming it, never mixed data. Transient
// failures (5xx, 429 with its Retry-After, resets, truncated bodies, stalls) are retried with
// bounded exponential backoff and jitter; 403 and 404 fail at once, naming the URL and the
// status. Credentials never appear in errors, logs or stats; URLs in messages lose their
// user info and query.
//
// Example:
//   StorageOptions options;
//   options.s3.endpoint = "http://127.0.0.1:9000";  // an S3-compatible store
//   ScanOptions scan;
//   scan.open.storage = Storage::Make(options);
//   auto scanner = Scanner::Open({"s3://bucket/data.parquet"}, scan);
//
// Thread safety: FileSystem and Storage methods may be called from several threads at once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/io.h"
#include "pqsift/status.h"

namespace pqsift {

// A file as a listing or a stat gives it. size 0 with `known` false: not known until the file
// is opened (an explicit URL: asking would cost a request).
struct FileInfo {
  std::string path;
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // modification time, nanoseconds since the epoch (0: unknown)
  std::string version;   // ETag of a remote object (empty: none known)
  bool known = true;     // size, mtime and version are known
};

struct FileOpenOptions {
  // Bytes at the end of the file the caller reads first (a Parquet footer): a store that
  // needs a request to learn the size (HTTP, S3) fetches them with it, so the caller's read
  // costs nothing more.
  uint64_t tail_bytes = 0;
  // The file as listed, when known: a remote store then reads the tail by an explicit range,
  // pins the listed version (If-Match) from the start, and a changed size is an error.
  const FileInfo* expected = nullptr;
  // The counters of the scan the file is opened for (null: the file's own only).
  std::shared_ptr<IoCounters> counters;
  // A local file holds no descriptor between reads (each read reopens it and checks it is the
  // same file): for scans of more files than a process may hold open.
  bool on_demand = false;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Opens `path` for reading. IOError naming the path when it does not exist or cannot be read
  // (a remote store: naming the URL and the HTTP status), InvalidArgument for a folder.
  virtual Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                         const FileOpenOptions& options) = 0;
  // Opens several files side by side: a remote store sends their first requests together (one
  // round trip for all). Result i is files[i]'s; a file's FileInfo, when `known`, is what it
  // is expected to be (FileOpenOptions::expected; `options.expected` is ignored). Default:
  // Open one after the other.
  virtual std::vector<Result<std::unique_ptr<RandomAccessFile>>> OpenMany(
      std::span<const FileInfo> files, const FileOpenOptions& options);

  // Whether `path` names a folder to list rather than a file (local: a directory; remote: a
  // path ending with '/' or naming a bucket alone).
  virtual bool IsFolder(const std::string& path) = 0;
  // Every file below `folder` (recursively), with its size and version, sorted by path.
  // NotSupported for a store that cannot list (plain HTTP: name the files, or use a manifest);
  // IOError when the folder does not exist.
  virtual Result<std::vector<FileInfo>> List(const std::string& folder) = 0;
  // What is known of a file without reading it: local files are stat'ed; remote ones cost no
  // request (known = false, learnt when opened). IOError for a local path that does not exist.
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
};

struct HttpOptions {
  std::string ca_bundle;  // PEM file of trusted CAs (empty: the system's)
  bool insecure = false;  // do not verify the server's certificate or name (explicit only)
  int connect_timeout_ms = 10'000;
  // A transfer that moves no byte for this long is abandoned (and retried).
  int stall_timeout_ms = 30'000;
  // Per store, side by side; more wait their turn. A full scan keeps about latency x bandwidth
  // / request size requests in flight: a 1 GB scan decoding at 0.75 GB/s in ~0.85 MB requests
  // needs ~18 at 20 ms and ~45 at 50 ms (16 left it waiting 1.5 s at 20 ms, 3.6 s at 50 ms;
  // 64: 0.4 s and 0.6 s).
  int max_parallel_requests = 64;
  int max_retries = 5;     // per request, after the first try
  int retry_base_ms = 50;  // backoff: random in [0, base * 2^try], at most retry_max_ms
  int retry_max_ms = 5'000;
  // The largest gap two reads of one file are merged over (the measured latency times the
  // bandwidth decides below it).
  uint64_t max_coalesce_gap = uint64_t{8} << 20;
  // A server that does not honour Range requests (it answers the first read with the whole
  // file: `python3 -m http.server`, some CDNs) has its files of at most this many bytes read
  // whole, once, into memory; a larger file is an error that says so (0: none is).
  uint64_t max_whole_file_bytes = uint64_t{256} << 20;
  // Proxies come from the usual environment variables (http_proxy, https_proxy, no_proxy).
};

struct S3Options {
  // Empty: AWS_REGION, AWS_DEFAULT_REGION, the profile's region, else us-east-1.
  std::string region;
  // Empty: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else https://s3.REGION.amazonaws.com.
  // An S3-compatible store: "http://127.0.0.1:9000".
  std::string endpoint;
  // Empty: AWS_PROFILE, else "default" (in ~/.aws/credentials and ~/.aws/config).
  std::string profile;
  enum class Addressing { kAuto, kPath, kVirtualHost };
  // kAuto: virtual-host style on AWS endpoints, path style on others (S3-compatible stores
  // usually serve only that).
  Addressing addressing = Addressing::kAuto;
  bool anonymous = false;  // unsigned requests (public buckets)
};

struct StorageOptions {
  HttpOptions http;
  S3Options s3;
};

class Storage {
 public:
  // Local files, http(s):// and s3:// with `options`. The HTTP machinery (one I/O thread and
  // its connections, shared by http, https and s3) starts at the first remote request.
  static std::shared_ptr<Storage> Make(const StorageOptions& options = {});
  // The process-wide Make() with default options: what a scan uses when given none.
  static std::shared_ptr<Storage> Default();

  // The store for paths that start with "<scheme>://" (added or replaced).
  void Register(std::string scheme, std::shared_ptr<FileSystem> file_system);
  // The store of `path`: by its scheme, or local without one. InvalidArgument for a scheme
  // nothing is registered for. The store lives as long as this Storage.
  Result<FileSystem*> For(std::string_view path) const;

  // For(path) then Open.
  Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                 const FileOpenOptions& options = {}) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<FileSystem>, std::less<>> by_scheme_;
  std::shared_ptr<FileSystem> local_;
};

// The path's scheme ("s3", "https"), empty for a local path.
std::string_view PathScheme(std::string_view path);

// `url` fit for a message: user info and query string removed (they may hold secrets).
std::string RedactUrl(std::string_view url);

}  // namespace pqsift
