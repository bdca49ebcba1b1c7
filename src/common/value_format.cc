#include "common/value_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace pqsift {
namespace {

// Floor division and modulo for negative times before the epoch.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return 1000;
    case TimeUnit::kMicros: return 1000000;
    case TimeUnit::kNanos: return 1000000000;
  }
  return 1;
}

int FractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return 3;
    case TimeUnit::kMicros: return 6;
    case TimeUnit::kNanos: return 9;
  }
  return 0;
}

// HH:MM:SS[.fraction] for `seconds` in [0, 86400) and `fraction` units of the second.
std::string FormatClock(int64_t seconds, int64_t fraction, TimeUnit unit) {
  char buf[48];
  int n = std::snprintf(
      buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(seconds / 3600),
      static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  std::string out(buf, static_cast<size_t>(n));
  if (fraction != 0) {
    int digits = FractionDigits(unit);
    std::snprintf(buf, sizeof buf, ".%0*lld", digits, static_cast<long long>(fraction));
    std::string frac(buf);
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out;
}

}  // namespace

std::string FormatDate(int64_t days) {
  // Civil-from-days over 400-year eras of 146097 days, counted from 0000-03-01.
  int64_t z = days + 719468;
  int64_t era = FloorDiv(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t day = doy - (153 * mp + 2) / 5 + 1;
  int64_t month = mp < 10 ? mp + 3 : mp - 9;
  int64_t year = yoe + era * 400 + (month <= 2);
  char buf[96];
  if (year >= 0 && year <= 9999) {
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", static_cast<long long>(year),
                  static_cast<long long>(month), static_cast<long long>(day));
  } else {
    std::snprintf(buf, sizeof buf, "%+05lld-%02lld-%02lld", static_cast<long long>(year),
                  static_cast<long long>(month), static_cast<long long>(day));
  }
  return buf;
}

std::string FormatTime(int64_t value, TimeUnit unit) {
  int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = FloorDiv(value, per_second);
  int64_t fraction = FloorMod(value, per_second);
  if (seconds < 0 || seconds > 86400) return std::to_string(value);  // not a time of day
  return FormatClock(seconds, fraction, unit);
}

std::string FormatTimestamp(int64_t value, TimeUnit unit, bool utc_adjusted) {
  int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = FloorDiv(value, per_second);
  int64_t fraction = FloorMod(value, per_second);
  int64_t days = FloorDiv(seconds, 86400);
  std::string out = FormatDate(days);
  out += ' ';
  out += FormatClock(FloorMod(seconds, 86400), fraction, unit);
  if (utc_adjusted) out += "+00";
  return out;
}

std::string FormatDecimal(int64_t unscaled, int32_t scale) {
  uint8_t be[8];
  for (int i = 0; i < 8; ++i)
    be[i] = static_cast<uint8_t>(static_cast<uint64_t>(unscaled) >> (56 - 8 * i));
  return FormatDecimalBytes(be, scale);
}

std::string FormatDecimalBytes(std::span<const uint8_t> big_endian, int32_t scale) {
  if (big_endian.empty()) return "0";
  bool negative = (big_endian[0] & 0x80) != 0;
  // Magnitude as big-endian bytes (two's complement negated when negative).
  std::vector<uint8_t> mag(big_endian.begin(), big_endian.end());
  if (negative) {
    for (uint8_t& b : mag) b = static_cast<uint8_t>(~b);
    for (size_t i = mag.size(); i-- > 0;) {
      if (++mag[i] != 0) break;
    }
  }
  // Repeated division by 10 of the big-endian magnitude; digits come out least significant first.
  std::string digits;
  bool nonzero = true;
  while (nonzero) {
    unsigned remainder = 0;
    nonzero = false;
    for (uint8_t& b : mag) {
      unsigned cur = remainder * 256 + b;
      b = static_cast<uint8_t>(cur / 10);
      remainder = cur % 10;
      nonzero |= b != 0;
    }
    digits.push_back(static_cast<char>('0' + remainder));
  }
  if (scale > 0) {
    while (static_cast<int32_t>(digits.size()) <= scale) digits.push_back('0');
    digits.insert(digits.begin() + scale, '.');
  } else if (scale < 0) {
    digits.insert(0, static_cast<size_t>(-scale), '0');
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

std::string FormatDouble(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return {buf, res.ptr};
}

std::string FormatFloat(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return {buf, res.ptr};
}

float HalfToFloat(uint16_t bits) {
  int sign = bits >> 15;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
  }
  return sign ? -magnitude : magnitude;
}

std::string FormatHex(std::span<const uint8_t> bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  out.reserve(2 + bytes.size() * 2);
  for (uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::string FormatUuid(std::span<const uint8_t> bytes) {
  std::string hex = FormatHex(bytes).substr(2);
  if (hex.size() != 32) return "0x" + hex;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::string FormatText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  auto escape = [&](uint8_t b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", b);
    out += buf;
  };
  while (i < s.size()) {
    auto b = static_cast<uint8_t>(s[i]);
    size_t len = b < 0x80           ? 1
                 : (b >> 5) == 0x6  ? 2
                 : (b >> 4) == 0xe  ? 3
                 : (b >> 3) == 0x1e ? 4
                                    : 0;
    bool valid = len > 0 && i + len <= s.size();
    for (size_t k = 1; valid && k < len; ++k) valid = (static_cast<uint8_t>(s[i + k]) >> 6) == 0x2;
    if (!valid || (len == 1 && b < 0x20)) {
      escape(b);
      ++i;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace pqsift
