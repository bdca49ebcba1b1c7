// The one error model of pqsift: every fallible library call returns a Status or a Result<T>.
//
// No exception crosses the library boundary. Malformed Parquet is an expected input, not an
// exceptional one, so errors are ordinary return values that every caller sees in review.
// A Status is a code plus a message; the message names what was expected, what was found
// and where (file, offset, row group, column), e.g.
//   "data.parquet: footer length 912 exceeds the file size 200"
// A broken invariant inside pqsift itself is an assert, not a Status.
//
// Thread safety: Status and Result are values; const methods may be called from several
// threads, non-const ones need external synchronization.
#pragma once

#include <cassert>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pqsift {

// Codes are chosen by what the caller should do next.
enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,    // the caller's request is wrong (bad flag, unknown column)
  kCorruption = 2,         // the file's bytes break the Parquet spec; retrying will not help
  kNotSupported = 3,       // a valid file uses a feature pqsift does not implement
  kIOError = 4,            // the operating system or the network failed
  kOutOfRange = 5,         // a read past the end of a file or buffer
  kResourceExhausted = 6,  // a configured memory or size limit would be exceeded
  kInternal = 7,           // a pqsift bug
  kAuthentication = 8,     // encrypted bytes fail authentication: a wrong key or AAD prefix,
                           // or a tampered or swapped module (Parquet modular encryption)
};

// Returns "Corruption", "IOError", ... for messages and the CLI.
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  // OK. Costs one null pointer: success allocates nothing.
  Status() = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) {
    return {StatusCode::kInvalidArgument, std::move(msg)};
  }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status NotSupported(std::string msg) {
    return {StatusCode::kNotSupported, std::move(msg)};
  }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status OutOfRange(std::string msg) { return {StatusCode::kOutOfRange, std::move(msg)}; }
  static Status ResourceExhausted(std::string msg) {
    return {StatusCode::kResourceExhausted, std::move(msg)};
  }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }
  static Status Authentication(std::string msg) {
    return {StatusCode::kAuthentication, std::move(msg)};
  }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  // The message without the code; empty for OK.
  const std::string& message() const;
  // "Corruption: <message>", or "OK".
  std::string ToString() const;

  // A copy whose message is "<context>: <message>", same code. For adding the file name or the
  // location as an error travels up. OK stays OK.
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code() == b.code() && a.message() == b.message();
  }

 private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  Status(StatusCode code, std::string msg)
      : rep_(std::make_shared<const Rep>(Rep{code, std::move(msg)})) {}

  std::shared_ptr<const Rep> rep_;  // null means OK; shared so copies are cheap
};

// Either a value (success) or a non-OK Status. It never holds an OK status.
//
// Example:
//   Result<uint64_t> size = file.Size();
//   if (!size.ok()) return size.status();
//   Use(*size);
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!std::get<Status>(v_).ok() && "Result constructed from an OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  // OK when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pqsift

// Returns early with the error of a Status-returning expression.
#define PQSIFT_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::pqsift::Status pqsift_status_ = (expr);        \
    if (!pqsift_status_.ok()) return pqsift_status_; \
  } while (false)

#define PQSIFT_CONCAT_INNER_(a, b) a##b
#define PQSIFT_CONCAT_(a, b) PQSIFT_CONCAT_INNER_(a, b)

// `PQSIFT_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from a Result or returns its error.
#define PQSIFT_ASSIGN_OR_RETURN(lhs, expr) \
  PQSIFT_ASSIGN_OR_RETURN_IMPL_(PQSIFT_CONCAT_(pqsift_result_, __LINE__), lhs, expr)
#define PQSIFT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()
