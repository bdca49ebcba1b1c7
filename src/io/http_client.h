// The HTTP machinery of the remote stores: one I/O thread driving a libcurl multi handle, so
// requests from any thread run side by side (at most HttpOptions::max_parallel_requests at
// once, the rest queued) over reused keep-alive connections.
//
// Each request is retried on transient failures: connection resets, timeouts and stalls
// (no byte for stall_timeout_ms), truncated bodies, 5xx, 408 and 429 (after its Retry-After,
// capped), with exponential backoff and full jitter: a delay drawn in [0, base * 2^try],
// capped at retry_max_ms, at most max_retries times. Anything else (403, 404, 412, 416, TLS
// and name resolution failures) ends the request at once. The caller judges a successful
// status (a 200 where a range was asked for, a Content-Range that is not the range asked).
//
// Messages name HttpRequest::display (a redacted URL), never the URL itself, a header or the
// signing secret.
//
// Lifetime: a client lives as long as the stores using it (shared_ptr); destroying it stops
// the thread and ends queued requests with an error.
//
// Thread safety: Start, Fetch and CoalesceGap may be called from any thread. Callbacks run on
// the I/O thread: they must be short and must not call Fetch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pqsift/io.h"
#include "pqsift/storage.h"

namespace pqsift::io {

struct HttpRequest {
  std::string url;      // the full URL, sent as is
  std::string display;  // how messages name it (RedactUrl of the URL, or s3://bucket/key)
  bool head = false;    // HEAD instead of GET
  // The Range header: `range` (bytes=offset-end), or the last `suffix` bytes (bytes=-suffix).
  std::optional<ByteRange> range;
  uint64_t suffix = 0;
  std::vector<std::string> headers;  // "Name: value"
  // SigV4 (S3): libcurl's CURLOPT_AWS_SIGV4 parameter and "key:secret" (never in a message).
  std::string aws_sigv4;
  std::string credentials;
  bool follow_redirects = false;
  // A successful body fills these spans one after the other when set (it must be exactly as
  // long as they are together: longer is refused, shorter retried as truncated); else it goes
  // into HttpResponse::body, at most max_body bytes. A body longer than allowed (or announced
  // so by its Content-Length) ends the request at once: IOError "the server sent more bytes
  // than were asked for", then `too_long_hint` when set (what would allow it).
  std::vector<std::span<uint8_t>> into;
  uint64_t into_size() const {
    uint64_t n = 0;
    for (const std::span<uint8_t>& s : into) n += s.size();
    return n;
  }
  uint64_t max_body = uint64_t{64} << 20;
  std::string too_long_hint;
};

struct HttpResponse {
  long status = 0;
  std::string body;       // without `into`, or the body of an error status (at most 64 KiB)
  uint64_t received = 0;  // body bytes received (into `into` or `body`)
  // Headers of the final response ("" when absent).
  std::string content_range;
  std::string etag;
  std::string last_modified;
  std::string content_length;
  int retries = 0;  // how often the request was sent again
};

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // The response, once the request succeeded (any status a retry does not cure: the caller
  // looks at it) or failed for good (IOError naming request.display: a transport error, or
  // retries used up, with the last status). `retries` counts the sends after the first.
  using Callback = std::function<void(Result<HttpResponse> response, int retries)>;
  void Start(HttpRequest request, Callback done);
  // Start and wait. *retries (optional) receives the retry count.
  Result<HttpResponse> Fetch(HttpRequest request, int* retries = nullptr);

  // Bytes worth reading over rather than making another request: the measured latency (time
  // to the first byte) times the measured bandwidth, between 64 KiB and max_coalesce_gap.
  uint64_t CoalesceGap() const;

  const HttpOptions& options() const { return options_; }

 private:
  struct Loop;
  HttpOptions options_;
  std::unique_ptr<Loop> loop_;
};

// "404 Not Found", "503 Service Unavailable", ... (the code alone when unknown).
std::string HttpStatusText(long status);

// Parses "bytes START-END/TOTAL" (TOTAL may be '*') or "bytes */TOTAL". False when malformed.
struct ContentRange {
  std::optional<ByteRange> range;  // absent for "bytes */TOTAL"
  std::optional<uint64_t> total;   // absent for '*'
};
bool ParseContentRange(std::string_view text, ContentRange* out);

}  // namespace pqsift::io
