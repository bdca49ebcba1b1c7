#include "pqsift/status.h"

namespace pqsift {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "Invalid argument";
    case StatusCode::kCorruption: return "Corruption";
    case StatusCode::kNotSupported: return "Not supported";
    case StatusCode::kIOError: return "IO error";
    case StatusCode::kOutOfRange: return "Out of range";
    case StatusCode::kResourceExhausted: return "Resource exhausted";
    case StatusCode::kInternal: return "Internal error";
    case StatusCode::kAuthentication: return "Authentication failed";
  }
  return "Unknown";
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(code()));
  out += ": ";
  out += rep_->message;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += rep_->message;
  return Status(code(), std::move(msg));
}

}  // namespace pqsift
