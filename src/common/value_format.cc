#include "common/value_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/civil_date.h"

namespace pqsift {
namespace {

// Floor division and modulo for negative times before the epoch.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t FloorMod(int64_t a, int64_t b) {
  int64_t r = a % b;  // not a - FloorDiv(a, b) * b: that overflows for a near INT64_MIN
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

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
  const CivilDate civil = CivilFromDays(days);
  const int64_t year = civil.year;
  const int64_t month = civil.month;
  const int64_t day = civil.day;
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
  if (scale > static_cast<int32_t>(digits.size()) + 64) {
    // A scale far beyond the digits (only a hostile or absurd schema has one): exponent form,
    // instead of a string as long as the scale.
    std::string out = negative ? "-" : "";
    out.append(digits.rbegin(), digits.rend());
    return out + "e-" + std::to_string(scale);
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
    uint32_t cp = len == 1 ? b : b & (0x7fu >> len);
    for (size_t k = 1; valid && k < len; ++k) {
      auto c = static_cast<uint8_t>(s[i + k]);
      valid = (c >> 6) == 0x2;
      cp = cp << 6 | (c & 0x3fu);
    }
    // Well-formed UTF-8 only (RFC 3629): no overlong forms, surrogates or code points past
    // U+10FFFF, though their bit patterns look like sequences.
    static constexpr uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
    if (valid && len > 1) {
      valid = cp >= kMinForLength[len] && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    }
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

// ---- additions: base64, decimal128, appending forms ----

namespace pqsift {
namespace {

template <typename F>
void AppendFloating(std::string& out, F v) {
  if (std::isnan(v)) {
    out += "nan";
  } else if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
  } else {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
  }
}

}  // namespace

void AppendDouble(std::string& out, double v) { AppendFloating(out, v); }
void AppendFloat(std::string& out, float v) { AppendFloating(out, v); }

void AppendHex(std::string& out, std::span<const uint8_t> bytes) {
  static const char kDigits[] = "0123456789abcdef";
  size_t pos = out.size();
  out.resize(pos + 2 + bytes.size() * 2);
  char* p = out.data() + pos;
  *p++ = '0';
  *p++ = 'x';
  for (uint8_t b : bytes) {
    *p++ = kDigits[b >> 4];
    *p++ = kDigits[b & 15];
  }
}

void AppendBase64(std::string& out, std::span<const uint8_t> bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t pos = out.size();
  out.resize(pos + (bytes.size() + 2) / 3 * 4);
  char* p = out.data() + pos;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    *p++ = kAlphabet[v >> 18];
    *p++ = kAlphabet[(v >> 12) & 63];
    *p++ = kAlphabet[(v >> 6) & 63];
    *p++ = kAlphabet[v & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= uint32_t{bytes[i + 1]} << 8;
    *p++ = kAlphabet[v >> 18];
    *p++ = kAlphabet[(v >> 12) & 63];
    *p++ = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    *p++ = '=';
  }
}

std::string FormatBase64(std::span<const uint8_t> bytes) {
  std::string out;
  AppendBase64(out, bytes);
  return out;
}

void AppendDecimal128(std::string& out, std::span<const uint8_t, 16> le, int32_t scale) {
  using U128 = unsigned __int128;
  U128 v = 0;
  for (int i = 15; i >= 0; --i) v = (v << 8) | le[static_cast<size_t>(i)];
  bool negative = (le[15] & 0x80) != 0;
  if (negative) v = ~v + 1;  // magnitude; -2^127 maps to 2^127, still exact unsigned
  // Digits, least significant first, 19 at a time through 64-bit arithmetic.
  char digits[48];
  int n = 0;
  constexpr uint64_t kChunk = 10000000000000000000ull;  // 10^19
  do {
    uint64_t chunk = static_cast<uint64_t>(v % kChunk);
    v /= kChunk;
    for (int k = 0; k < 19 && (chunk != 0 || v != 0); ++k) {
      digits[n++] = static_cast<char>('0' + chunk % 10);
      chunk /= 10;
    }
  } while (v != 0);
  if (n == 0) digits[n++] = '0';
  // Same shape as FormatDecimalBytes: at least one digit before the point; a negative scale
  // multiplies by 10^-scale.
  if (negative) out += '-';
  if (scale <= 0) {
    for (int k = n; k-- > 0;) out += digits[k];
    out.append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
    return;
  }
  if (n <= scale) {
    out += "0.";
    out.append(static_cast<size_t>(scale - n), '0');
    for (int k = n; k-- > 0;) out += digits[k];
    return;
  }
  for (int k = n; k-- > 0;) {
    out += digits[k];
    if (k == scale) out += '.';
  }
}

std::string FormatDecimal128(std::span<const uint8_t, 16> little_endian, int32_t scale) {
  std::string out;
  AppendDecimal128(out, little_endian, scale);
  return out;
}

}  // namespace pqsift

// ---- additions: fast appending forms of dates, times and timestamps ----

namespace pqsift {
namespace {

constexpr int64_t kFirstFastDay = -719528;  // 0000-01-01
constexpr int64_t kLastFastDay = 2932896;   // 9999-12-31

void Put2(char* p, int64_t v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
}

// FormatDate's text for days in [kFirstFastDay, kLastFastDay] (years 0000-9999: fixed width).
void AppendDateFast(std::string& out, int64_t days) {
  const CivilDate civil = CivilFromDays(days);
  const int64_t year = civil.year;
  const int64_t month = civil.month;
  const int64_t day = civil.day;
  char buf[10];
  Put2(buf, year / 100);
  Put2(buf + 2, year % 100);
  buf[4] = '-';
  Put2(buf + 5, month);
  buf[7] = '-';
  Put2(buf + 8, day);
  out.append(buf, sizeof buf);
}

// FormatClock's text: HH:MM:SS, then the fraction without trailing zeros.
void AppendClock(std::string& out, int64_t seconds, int64_t fraction, TimeUnit unit) {
  char buf[24];
  Put2(buf, seconds / 3600);
  buf[2] = ':';
  Put2(buf + 3, seconds / 60 % 60);
  buf[5] = ':';
  Put2(buf + 6, seconds % 60);
  size_t n = 8;
  if (fraction != 0) {
    int digits = FractionDigits(unit);
    buf[n++] = '.';
    for (int k = digits - 1; k >= 0; --k) {
      buf[n + static_cast<size_t>(k)] = static_cast<char>('0' + fraction % 10);
      fraction /= 10;
    }
    n += static_cast<size_t>(digits);
    while (buf[n - 1] == '0') --n;
  }
  out.append(buf, n);
}

}  // namespace

void AppendDate(std::string& out, int64_t days) {
  if (days >= kFirstFastDay && days <= kLastFastDay) {
    AppendDateFast(out, days);
  } else {
    out += FormatDate(days);
  }
}

void AppendTime(std::string& out, int64_t value, TimeUnit unit) {
  int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = FloorDiv(value, per_second);
  if (seconds < 0 || seconds >= 86400) {
    out += FormatTime(value, unit);
    return;
  }
  AppendClock(out, seconds, FloorMod(value, per_second), unit);
}

void AppendTimestamp(std::string& out, int64_t value, TimeUnit unit, bool utc_adjusted) {
  int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = FloorDiv(value, per_second);
  int64_t days = FloorDiv(seconds, 86400);
  if (days < kFirstFastDay || days > kLastFastDay) {
    out += FormatTimestamp(value, unit, utc_adjusted);
    return;
  }
  AppendDateFast(out, days);
  out += ' ';
  AppendClock(out, FloorMod(seconds, 86400), FloorMod(value, per_second), unit);
  if (utc_adjusted) out += "+00";
}

}  // namespace pqsift
