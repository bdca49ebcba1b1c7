#include "io/remote_file.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>

namespace pqsift::io {
namespace {

constexpr uint64_t kMinTailBytes = 8;  // a Parquet file ends with a length and "PAR1"

// The text between <Code> and </Code> of an S3 error body (no secrets: a fixed vocabulary).
std::string S3ErrorCode(const std::string& body) {
  size_t open = body.find("<Code>");
  if (open == std::string::npos) return "";
  open += 6;
  size_t close = body.find("</Code>", open);
  if (close == std::string::npos || close - open > 64) return "";
  std::string code = body.substr(open, close - open);
  for (char c : code) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return "";
  }
  return code;
}

HttpRequest MakeRequest(const RemoteTarget& target) {
  HttpRequest r;
  r.url = target.url;
  r.display = target.display;
  r.headers = target.headers;
  r.aws_sigv4 = target.aws_sigv4;
  r.credentials = target.credentials;
  r.follow_redirects = target.follow_redirects;
  return r;
}

// What pins the version seen first: a strong ETag (If-Match), else Last-Modified
// (If-Unmodified-Since); none when the server gave neither.
std::string PinHeader(const HttpResponse& response) {
  const std::string& etag = response.etag;
  if (!etag.empty() && !etag.starts_with("W/")) return "If-Match: " + etag;
  if (!response.last_modified.empty()) return "If-Unmodified-Since: " + response.last_modified;
  return "";
}

class RemoteFile final : public RandomAccessFile {
 public:
  RemoteFile(std::shared_ptr<HttpClient> client, RemoteTarget target, uint64_t size,
             std::string version, std::string pin)
      : RandomAccessFile(target.display, size),
        client_(std::move(client)),
        target_(std::move(target)),
        version_(std::move(version)),
        pin_(std::move(pin)) {}

  // Takes the bytes the opening request fetched.
  void TakeTail(uint64_t offset, Buffer bytes) { Hold(offset, std::move(bytes)); }
  // Counts the opening request (and its retries) as the file's first.
  void CountOpening(uint64_t bytes, int retries) const {
    CountRequest(bytes);
    for (int i = 0; i < retries; ++i) CountRetry();
  }

  uint64_t coalesce_gap() const override { return client_->CoalesceGap(); }
  bool remote() const override { return true; }
  // Fewer, larger requests: each costs a round trip and the server's work per request, and an
  // object store its fee; 16 MiB still leaves a wide scan's columns several requests in flight.
  uint64_t max_merged_read() const override { return uint64_t{16} << 20; }
  std::string version() const override { return version_; }

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    int retries = 0;
    Result<HttpResponse> response = client_->Fetch(Request({offset, out.size()}, {out}), &retries);
    for (int i = 0; i < retries; ++i) CountRetry();
    if (!response.ok()) return response.status();
    return Check(*response, {offset, out.size()});
  }

  void DoStartReads(std::vector<ScatterRead> reads,
                    std::function<void(Status)> done) const override {
    struct Pending {
      std::mutex mu;
      size_t left;
      Status first_error;
      std::function<void(Status)> done;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = reads.size();
    pending->done = std::move(done);
    for (ScatterRead& read : reads) {
      const ByteRange range = read.range;
      client_->Start(Request(range, std::move(read.into)),
                     [this, pending, range](Result<HttpResponse> response, int retries) {
                       for (int r = 0; r < retries; ++r) CountRetry();
                       Status status = response.ok() ? Check(*response, range) : response.status();
                       std::function<void(Status)> finish;
                       Status result;
                       {
                         std::lock_guard<std::mutex> lock(pending->mu);
                         if (!status.ok() && pending->first_error.ok()) {
                           pending->first_error = std::move(status);
                         }
                         if (--pending->left > 0) return;
                         finish = std::move(pending->done);
                         result = pending->first_error;
                       }
                       finish(std::move(result));
                     });
    }
  }

 private:
  HttpRequest Request(ByteRange range, std::vector<std::span<uint8_t>> into) const {
    HttpRequest r = MakeRequest(target_);
    r.range = range;
    r.into = std::move(into);
    if (!pin_.empty()) r.headers.push_back(pin_);
    return r;
  }

  // A response to a range read must be that range of the file first seen.
  Status Check(const HttpResponse& response, ByteRange range) const {
    if (response.status == 412) {
      return Status::IOError(name() +
                             ": the file changed during the scan (HTTP 412 Precondition Failed: "
                             "its version is no longer the one first read)");
    }
    if (response.status == 200) {
      // The whole file, which is what was asked only when the range is the whole file.
      if (range.offset == 0 && range.length == size()) return Status::OK();
      return Status::IOError(name() +
                             ": the server answered a range request with the whole "
                             "file (it does not honour Range requests)");
    }
    if (response.status != 206) return HttpStatusError(name(), response);
    ContentRange got;
    if (!ParseContentRange(response.content_range, &got) || !got.range || *got.range != range) {
      return Status::IOError(name() + ": asked for bytes " + std::to_string(range.offset) + "-" +
                             std::to_string(range.end() - 1) + ", got '" + response.content_range +
                             "'");
    }
    if (got.total && *got.total != size()) {
      return Status::IOError(name() + ": the file changed during the scan (its size was " +
                             std::to_string(size()) + " bytes, now " + std::to_string(*got.total) +
                             ")");
    }
    return Status::OK();
  }

  std::shared_ptr<HttpClient> client_;
  RemoteTarget target_;
  std::string version_;
  std::string pin_;
};

// The file, from the response to its tail request (a suffix range, or the explicit range
// [expected size - tail, expected size) of a listed file).
Result<std::unique_ptr<RemoteFile>> FromTailResponse(std::shared_ptr<HttpClient> client,
                                                     RemoteTarget target, const FileInfo* expected,
                                                     HttpResponse response) {
  const std::string name = target.display;
  uint64_t size = 0;
  uint64_t held_offset = 0;
  bool hold = !response.body.empty();
  if (response.status == 416) {
    // Nothing satisfies a suffix range of an empty file: "bytes */0".
    ContentRange got;
    if (!ParseContentRange(response.content_range, &got) || !got.total || *got.total != 0) {
      return HttpStatusError(name, response);
    }
    hold = false;
  } else if (response.status == 206) {
    ContentRange got;
    if (!ParseContentRange(response.content_range, &got) || !got.range || !got.total ||
        got.range->length != response.body.size()) {
      return Status::IOError(name + ": a tail read returned Content-Range '" +
                             response.content_range + "' with " +
                             std::to_string(response.body.size()) + " bytes");
    }
    size = *got.total;
    // Bytes of the file wherever they are; the footer read fetches the tail when they are not.
    held_offset = got.range->offset;
  } else if (response.status == 200) {
    // A server that ignores Range sends the whole file (at most max_whole_file_bytes, else the
    // request failed): held, the file is read from memory.
    size = response.body.size();
  } else if (response.status == 412) {
    return Status::IOError(name + ": the file changed since it was listed (HTTP 412)");
  } else {
    return HttpStatusError(name, response);
  }
  if (expected != nullptr && expected->size != size) {
    return Status::IOError(name + ": the file changed since it was listed (" +
                           std::to_string(expected->size) + " bytes then, " + std::to_string(size) +
                           " now)");
  }
  std::string version = response.etag.empty() ? response.last_modified : response.etag;
  std::string pin = PinHeader(response);
  auto file = std::make_unique<RemoteFile>(std::move(client), std::move(target), size,
                                           std::move(version), std::move(pin));
  if (hold) {
    file->TakeTail(held_offset,
                   Buffer::CopyOf({reinterpret_cast<const uint8_t*>(response.body.data()),
                                   response.body.size()}));
  }
  return file;
}

}  // namespace

Status HttpStatusError(const std::string& name, const HttpResponse& response) {
  std::string message = name + ": HTTP " + HttpStatusText(response.status);
  std::string code = S3ErrorCode(response.body);
  if (!code.empty()) message += " (" + code + ")";
  if (response.status == 416) return Status::OutOfRange(message);
  return Status::IOError(message);
}

std::vector<Result<std::unique_ptr<RandomAccessFile>>> OpenRemoteFiles(
    const std::shared_ptr<HttpClient>& client, std::vector<RemoteTarget> targets,
    std::span<const FileInfo* const> expected, const FileOpenOptions& options) {
  const uint64_t tail = std::max(options.tail_bytes, kMinTailBytes);
  // A server that ignores Range answers the tail read with the whole file: taken as the file
  // when it is small enough (FromTailResponse holds it, and no read makes a request after).
  // Some S3 emulators answer a suffix range with more (bytes 0-N for "-N"): taken too, and the
  // footer read fetches the tail then.
  const uint64_t whole_file_limit = client->options().max_whole_file_bytes;
  const uint64_t max_body = std::max(2 * tail, whole_file_limit);
  const std::string hint =
      whole_file_limit == 0
          ? "reading such a server's files whole is off (--max-whole-file-bytes)"
          : "files of at most " + std::to_string(whole_file_limit) +
                " bytes are read whole from such a server (--max-whole-file-bytes)";
  std::mutex mu;
  std::condition_variable cv;
  size_t left = targets.size();
  std::vector<std::optional<Result<HttpResponse>>> responses(targets.size());
  std::vector<int> retries(targets.size(), 0);
  {
    IoCounters::Wait wait(options.counters.get());
    for (size_t i = 0; i < targets.size(); ++i) {
      HttpRequest r = MakeRequest(targets[i]);
      r.max_body = max_body;
      r.too_long_hint = hint;
      const FileInfo* listed = expected[i];
      if (listed != nullptr && listed->size > 0) {
        uint64_t n = std::min(tail, listed->size);
        r.range = ByteRange{listed->size - n, n};
      } else {
        r.suffix = tail;
      }
      if (listed != nullptr && !listed->version.empty()) {
        r.headers.push_back("If-Match: " + listed->version);
      }
      client->Start(std::move(r), [&, i](Result<HttpResponse> response, int tried) {
        std::lock_guard<std::mutex> lock(mu);
        responses[i].emplace(std::move(response));
        retries[i] = tried;
        if (--left == 0) cv.notify_all();
      });
    }
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return left == 0; });
  }
  std::vector<Result<std::unique_ptr<RandomAccessFile>>> out;
  out.reserve(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    uint64_t fetched = 0;
    Result<std::unique_ptr<RemoteFile>> file =
        responses[i]->ok() ? Result<std::unique_ptr<RemoteFile>>(nullptr)
                           : Result<std::unique_ptr<RemoteFile>>(responses[i]->status());
    if (responses[i]->ok()) {
      HttpResponse response = std::move(*responses[i]).value();
      fetched = response.body.size();
      file = FromTailResponse(client, std::move(targets[i]), expected[i], std::move(response));
    }
    if (!file.ok()) {
      // A failed opening request still counts, in the scan's counters.
      if (options.counters) {
        options.counters->AddRequest(fetched);
        for (int r = 0; r < retries[i]; ++r) options.counters->AddRetry();
      }
      out.emplace_back(file.status());
      continue;
    }
    (*file)->ShareCounters(options.counters);
    (*file)->CountOpening(fetched, retries[i]);  // the file's (and the scan's) first request
    out.emplace_back(std::unique_ptr<RandomAccessFile>(std::move(file).value()));
  }
  return out;
}

}  // namespace pqsift::io
