#include "io/http_client.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "io/curl_library.h"

namespace pqsift::io {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kMaxErrorBody = uint64_t{64} << 10;
constexpr uint64_t kMinGap = uint64_t{64} << 10;
// A Retry-After longer than this is not waited for in full.
constexpr int kMaxRetryAfterMs = 30'000;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

bool ParseU64(std::string_view s, uint64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// Copies `data` to byte `at` of the body, which fills `into`'s spans one after the other.
// REQUIRES: at + n is at most their sizes together.
void Scatter(const std::vector<std::span<uint8_t>>& into, uint64_t at, const char* data, size_t n) {
  for (const std::span<uint8_t>& piece : into) {
    if (n == 0) return;
    if (at >= piece.size()) {
      at -= piece.size();
      continue;
    }
    const size_t k = std::min<uint64_t>(n, piece.size() - at);
    std::memcpy(piece.data() + at, data, k);
    data += k;
    n -= k;
    at = 0;
  }
}

bool Transient(long status) { return status >= 500 || status == 429 || status == 408; }

// Transport failures a new try may cure (the server or the path hiccuped); not name
// resolution, TLS, or our own refusals (a body longer than asked for: CURLE_WRITE_ERROR).
bool TransientCurl(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR: return true;
    default: return false;
  }
}

}  // namespace

std::string HttpStatusText(long status) {
  static const std::map<long, const char*> kReasons = {
      {200, "OK"},
      {206, "Partial Content"},
      {301, "Moved Permanently"},
      {302, "Found"},
      {304, "Not Modified"},
      {307, "Temporary Redirect"},
      {400, "Bad Request"},
      {401, "Unauthorized"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {405, "Method Not Allowed"},
      {408, "Request Timeout"},
      {412, "Precondition Failed"},
      {416, "Range Not Satisfiable"},
      {429, "Too Many Requests"},
      {500, "Internal Server Error"},
      {501, "Not Implemented"},
      {502, "Bad Gateway"},
      {503, "Service Unavailable"},
      {504, "Gateway Timeout"},
  };
  auto it = kReasons.find(status);
  std::string out = std::to_string(status);
  if (it != kReasons.end()) out += std::string(" ") + it->second;
  return out;
}

bool ParseContentRange(std::string_view text, ContentRange* out) {
  text = Trim(text);
  if (!StartsWithNoCase(text, "bytes ")) return false;
  text.remove_prefix(6);
  text = Trim(text);
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view span = text.substr(0, slash), total = text.substr(slash + 1);
  *out = ContentRange{};
  if (total != "*") {
    uint64_t t = 0;
    if (!ParseU64(total, &t)) return false;
    out->total = t;
  }
  if (span == "*") return out->total.has_value();
  size_t dash = span.find('-');
  uint64_t first = 0, last = 0;
  if (dash == std::string_view::npos || !ParseU64(span.substr(0, dash), &first) ||
      !ParseU64(span.substr(dash + 1), &last) || last < first) {
    return false;
  }
  if (out->total && last >= *out->total) return false;
  out->range = ByteRange{first, last - first + 1};
  return true;
}

// One request on its way: its easy handle while in flight, its tries, its response so far.
struct Transfer {
  HttpRequest request;
  HttpClient::Callback done;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  HttpResponse response;
  long header_status = 0;   // of the response whose headers are arriving
  std::string retry_after;  // its Retry-After header
  uint64_t into_size = 0;   // request.into_size()
  bool overflow = false;    // the body was longer than `into` / max_body
  int tries = 0;            // sends so far
  Clock::time_point sent;
  char error[CURL_ERROR_SIZE] = {};
};

struct HttpClient::Loop {
  explicit Loop(const HttpOptions& options) : options(options) {}

  const HttpOptions& options;
  std::once_flag started;
  Status start_status;                // set once by Start
  const CurlLibrary* curl = nullptr;  // loaded by Start
  std::thread thread;
  CURLM* multi = nullptr;

  std::mutex mu;
  std::deque<std::unique_ptr<Transfer>> incoming;  // submitted, not yet seen by the thread
  bool stop = false;

  // I/O thread only.
  std::deque<std::unique_ptr<Transfer>> ready;                          // waiting for a free slot
  std::multimap<Clock::time_point, std::unique_ptr<Transfer>> backoff;  // retries, by due time
  std::map<CURL*, std::unique_ptr<Transfer>> active;
  std::vector<CURL*> spare;  // finished easy handles, reset and reused
  std::mt19937_64 random{std::random_device{}()};

  // Measurements for CoalesceGap (exponentially weighted).
  std::atomic<double> latency_seconds{0};
  std::atomic<double> bytes_per_second{0};

  // Loads libcurl (curl_library.h) and starts the loop's thread, once; the load's error after.
  Status Start() {
    std::call_once(started, [this] {
      Result<const CurlLibrary*> loaded = LoadCurl();
      if (!loaded.ok()) {
        start_status = loaded.status();
        return;
      }
      curl = *loaded;
      multi = curl->multi_init();
      curl->multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                         static_cast<long>(std::max(1, options.max_parallel_requests)));
      curl->multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
      thread = std::thread([this] { Run(); });
    });
    return start_status;
  }

  void Submit(std::unique_ptr<Transfer> t) {
    if (Status st = Start(); !st.ok()) {
      Fail(*t, Status::IOError(t->request.display + ": " + st.message()));
      return;
    }
    std::lock_guard<std::mutex> lock(mu);
    if (stop) {
      Fail(*t, Status::IOError(t->request.display + ": the HTTP client is shutting down"));
      return;
    }
    incoming.push_back(std::move(t));
    curl->multi_wakeup(multi);
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!thread.joinable()) return;
      stop = true;
    }
    curl->multi_wakeup(multi);
    thread.join();
    curl->multi_cleanup(multi);
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
      // A new response (after a redirect or a 100 Continue): forget the previous headers.
      long status = 0;
      size_t space = line.find(' ');
      if (space != std::string_view::npos) {
        std::string_view code = line.substr(space + 1, 3);
        std::from_chars(code.data(), code.data() + code.size(), status);
      }
      t->header_status = status;
      HttpResponse fresh;
      fresh.retries = t->response.retries;
      t->response = std::move(fresh);
      return size * count;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return size * count;
    std::string_view name = line.substr(0, colon), value = Trim(line.substr(colon + 1));
    auto is = [&](std::string_view n) {
      return name.size() == n.size() && StartsWithNoCase(name, n);
    };
    if (is("content-range")) t->response.content_range = value;
    if (is("etag")) t->response.etag = value;
    if (is("last-modified")) t->response.last_modified = value;
    if (is("content-length")) t->response.content_length = value;
    if (is("retry-after")) t->retry_after = std::string(value);
    return size * count;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    size_t n = size * count;
    bool success = t->header_status >= 200 && t->header_status < 300;
    uint64_t announced = 0;
    if (success && t->response.received == 0 && ParseU64(t->response.content_length, &announced) &&
        announced > (t->request.into.empty() ? t->request.max_body : t->into_size)) {
      t->overflow = true;  // longer than allowed: not worth receiving up to the limit first
      return 0;
    }
    if (success && t->response.received == 0 && announced > 0 && t->request.into.empty()) {
      t->response.body.reserve(announced);  // a whole file from a server that ignores Range
    }
    if (success && !t->request.into.empty()) {
      if (t->response.received + n > t->into_size) {
        t->overflow = true;
        return 0;  // aborts: CURLE_WRITE_ERROR
      }
      Scatter(t->request.into, t->response.received, data, n);
    } else {
      uint64_t limit = success ? t->request.max_body : kMaxErrorBody;
      if (t->response.body.size() + n > limit) {
        if (!success) return size * count;  // an error body is only for the message: its start
        t->overflow = true;
        return 0;
      }
      t->response.body.append(data, n);
    }
    t->response.received += n;
    return size * count;
  }

  void Configure(Transfer& t) {
    CURL* easy = nullptr;
    if (!spare.empty()) {
      easy = spare.back();
      spare.pop_back();
      curl->easy_reset(easy);
    } else {
      easy = curl->easy_init();
    }
    t.easy = easy;
    const HttpRequest& r = t.request;
    curl->easy_setopt(easy, CURLOPT_URL, r.url.c_str());
    curl->easy_setopt(easy, CURLOPT_PRIVATE, &t);
    curl->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl->easy_setopt(easy, CURLOPT_ERRORBUFFER, t.error);
    curl->easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Loop::OnHeader);
    curl->easy_setopt(easy, CURLOPT_HEADERDATA, &t);
    curl->easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Loop::OnBody);
    curl->easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    curl->easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                      static_cast<long>(options.connect_timeout_ms));
    // A stall: less than one byte per second for the stall time (libcurl counts in seconds).
    curl->easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl->easy_setopt(easy, CURLOPT_LOW_SPEED_TIME,
                      std::max(1L, static_cast<long>((options.stall_timeout_ms + 999) / 1000)));
    curl->easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    // Receive in pieces of up to 512 KiB instead of libcurl's 16 KiB: a scan's ranges are
    // megabytes, and 16 KiB pieces cost a system call and a callback each (a 1 GB full scan over
    // loopback spent ~0.3 s of CPU more).
    curl->easy_setopt(easy, CURLOPT_BUFFERSIZE, 512L * 1024);
    curl->easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, nullptr);  // bytes as stored: no gzip
    curl->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    if (!options.ca_bundle.empty())
      curl->easy_setopt(easy, CURLOPT_CAINFO, options.ca_bundle.c_str());
    if (options.insecure) {
      curl->easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
      curl->easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (r.follow_redirects) {
      curl->easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
      curl->easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
      curl->easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    }
    if (r.head) curl->easy_setopt(easy, CURLOPT_NOBODY, 1L);
    std::string range;
    if (r.range) {
      range = std::to_string(r.range->offset) + "-" +
              std::to_string(r.range->offset + r.range->length - 1);
    } else if (r.suffix > 0) {
      range = "-" + std::to_string(r.suffix);
    }
    if (!range.empty()) curl->easy_setopt(easy, CURLOPT_RANGE, range.c_str());  // copied
    if (t.headers != nullptr) curl->slist_free_all(t.headers);
    t.headers = nullptr;
    for (const std::string& h : r.headers) t.headers = curl->slist_append(t.headers, h.c_str());
    if (t.headers != nullptr) curl->easy_setopt(easy, CURLOPT_HTTPHEADER, t.headers);
    if (!r.aws_sigv4.empty()) {
      curl->easy_setopt(easy, CURLOPT_AWS_SIGV4, r.aws_sigv4.c_str());
      curl->easy_setopt(easy, CURLOPT_USERPWD, r.credentials.c_str());
    }
  }

  void Launch(std::unique_ptr<Transfer> t) {
    t->response = HttpResponse{};
    t->retry_after.clear();
    t->header_status = 0;
    t->overflow = false;
    t->error[0] = '\0';
    ++t->tries;
    t->response.retries = t->tries - 1;
    Configure(*t);
    t->sent = Clock::now();
    CURL* easy = t->easy;
    curl->multi_add_handle(multi, easy);
    active.emplace(easy, std::move(t));
  }

  void Release(Transfer& t) {
    curl->multi_remove_handle(multi, t.easy);
    spare.push_back(t.easy);
    t.easy = nullptr;
  }

  void Fail(Transfer& t, Status status) {
    if (t.headers != nullptr) curl->slist_free_all(t.headers);
    t.headers = nullptr;
    int retries = t.tries > 0 ? t.tries - 1 : 0;
    t.done(std::move(status), retries);
  }

  void Succeed(Transfer& t) {
    if (t.headers != nullptr) curl->slist_free_all(t.headers);
    t.headers = nullptr;
    int retries = t.tries > 0 ? t.tries - 1 : 0;
    t.response.status = t.header_status;
    t.done(std::move(t.response), retries);
  }

  // The delay before try number t.tries + 1: Retry-After when the server gave one (capped),
  // else random in [0, base * 2^(tries-1)], capped.
  Clock::duration Backoff(const Transfer& t) {
    int64_t cap = options.retry_max_ms;
    uint64_t seconds = 0;
    if (!t.retry_after.empty() && ParseU64(t.retry_after, &seconds)) {
      return std::chrono::milliseconds(std::min<int64_t>(
          std::min<int64_t>(static_cast<int64_t>(seconds) * 1000, kMaxRetryAfterMs),
          std::max<int64_t>(cap, 0) * 4));
    }
    int shift = std::min(t.tries - 1, 20);
    int64_t ceiling = std::min<int64_t>(cap, int64_t{options.retry_base_ms} << shift);
    std::uniform_int_distribution<int64_t> pick(0, std::max<int64_t>(ceiling, 0));
    return std::chrono::milliseconds(pick(random));
  }

  void Measure(const Transfer& t) {
    curl_off_t first_byte = 0, total = 0;
    curl->easy_getinfo(t.easy, CURLINFO_STARTTRANSFER_TIME_T, &first_byte);
    curl->easy_getinfo(t.easy, CURLINFO_TOTAL_TIME_T, &total);
    double latency = static_cast<double>(first_byte) / 1e6;
    double old = latency_seconds.load();
    latency_seconds.store(old == 0 ? latency : 0.8 * old + 0.2 * latency);
    double body_seconds = static_cast<double>(total - first_byte) / 1e6;
    if (t.response.received >= (uint64_t{256} << 10) && body_seconds > 0) {
      double rate = static_cast<double>(t.response.received) / body_seconds;
      double old_rate = bytes_per_second.load();
      bytes_per_second.store(old_rate == 0 ? rate : 0.8 * old_rate + 0.2 * rate);
    }
  }

  void Finish(std::unique_ptr<Transfer> t, CURLcode code) {
    Measure(*t);
    Release(*t);
    const std::string& name = t->request.display;
    bool retry = false;
    std::string why;
    long status = t->header_status;
    if (code == CURLE_WRITE_ERROR && t->overflow) {
      std::string message = name + ": the server sent more bytes than were asked for";
      if (status == 200 && (t->request.range || t->request.suffix)) {
        message += " (it does not honour Range requests";
        if (!t->response.content_length.empty()) {
          message += "; the whole file is " + t->response.content_length + " bytes";
        }
        message += ")";
      }
      if (!t->request.too_long_hint.empty()) message += ": " + t->request.too_long_hint;
      Fail(*t, Status::IOError(message));
      return;
    }
    if (code != CURLE_OK) {
      why = curl->easy_strerror(code);
      if (t->error[0] != '\0') why = t->error;
      retry = TransientCurl(code);
      if (!retry) {
        Fail(*t, Status::IOError(name + ": " + why));
        return;
      }
    } else if (Transient(status)) {
      retry = true;
      why = "HTTP " + HttpStatusText(status);
    } else if (status >= 200 && status < 300 && !t->request.into.empty() && !t->request.head &&
               t->response.received != t->into_size) {
      retry = true;  // truncated: the connection ended early with a wrong Content-Length
      why = "truncated body (" + std::to_string(t->response.received) + " of " +
            std::to_string(t->into_size) + " bytes)";
    }
    if (!retry) {
      Succeed(*t);
      return;
    }
    if (t->tries > options.max_retries) {
      Fail(*t,
           Status::IOError(name + ": " + why + " (after " + std::to_string(t->tries) + " tries)"));
      return;
    }
    Clock::time_point due = Clock::now() + Backoff(*t);
    backoff.emplace(due, std::move(t));
  }

  void Run() {
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        while (!incoming.empty()) {
          ready.push_back(std::move(incoming.front()));
          incoming.pop_front();
        }
        if (stop) break;
      }
      Clock::time_point now = Clock::now();
      while (!backoff.empty() && backoff.begin()->first <= now) {
        ready.push_back(std::move(backoff.begin()->second));
        backoff.erase(backoff.begin());
      }
      const size_t slots = static_cast<size_t>(std::max(1, options.max_parallel_requests));
      while (!ready.empty() && active.size() < slots) {
        std::unique_ptr<Transfer> t = std::move(ready.front());
        ready.pop_front();
        Launch(std::move(t));
      }
      int running = 0;
      curl->multi_perform(multi, &running);
      int queued = 0;
      while (CURLMsg* msg = curl->multi_info_read(multi, &queued)) {
        if (msg->msg != CURLMSG_DONE) continue;
        auto it = active.find(msg->easy_handle);
        if (it == active.end()) continue;
        std::unique_ptr<Transfer> t = std::move(it->second);
        active.erase(it);
        Finish(std::move(t), msg->data.result);
      }
      int timeout_ms = 1000;
      if (!backoff.empty()) {
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(backoff.begin()->first -
                                                                          Clock::now());
        timeout_ms = static_cast<int>(std::clamp<int64_t>(wait.count(), 0, timeout_ms));
      }
      if (!ready.empty() && active.size() < slots) timeout_ms = 0;
      curl->multi_poll(multi, nullptr, 0, timeout_ms, nullptr);
    }
    // Shutting down: everything not finished ends with an error.
    auto cancel = [this](Transfer& t) {
      Fail(t, Status::IOError(t.request.display + ": cancelled (the HTTP client shut down)"));
    };
    for (auto& [easy, t] : active) {
      curl->multi_remove_handle(multi, easy);
      curl->easy_cleanup(easy);
      t->easy = nullptr;
      cancel(*t);
    }
    active.clear();
    for (auto& t : ready) cancel(*t);
    for (auto& [due, t] : backoff) cancel(*t);
    std::lock_guard<std::mutex> lock(mu);
    for (auto& t : incoming) cancel(*t);
    for (CURL* easy : spare) curl->easy_cleanup(easy);
    spare.clear();
  }
};

HttpClient::HttpClient(HttpOptions options)
    : options_(std::move(options)), loop_(std::make_unique<Loop>(options_)) {}

HttpClient::~HttpClient() { loop_->Stop(); }

void HttpClient::Start(HttpRequest request, Callback done) {
  auto t = std::make_unique<Transfer>();
  t->request = std::move(request);
  t->into_size = t->request.into_size();
  t->done = std::move(done);
  loop_->Submit(std::move(t));
}

Result<HttpResponse> HttpClient::Fetch(HttpRequest request, int* retries) {
  std::mutex mu;
  std::condition_variable cv;
  std::optional<Result<HttpResponse>> out;
  int tried = 0;
  Start(std::move(request), [&](Result<HttpResponse> response, int r) {
    std::lock_guard<std::mutex> lock(mu);
    out.emplace(std::move(response));
    tried = r;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return out.has_value(); });
  if (retries != nullptr) *retries = tried;
  return std::move(*out);
}

uint64_t HttpClient::CoalesceGap() const {
  double gap = loop_->latency_seconds.load() * loop_->bytes_per_second.load();
  uint64_t cap = std::max(kMinGap, options_.max_coalesce_gap);
  if (!(gap > 0)) return kMinGap;
  return std::clamp(static_cast<uint64_t>(gap), kMinGap, cap);
}

}  // namespace pqsift::io
