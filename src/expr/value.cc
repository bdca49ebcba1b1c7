#include "expr/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace pqsift::expr {
namespace {

template <typename T>
int ThreeWay(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// NaN equals NaN and sorts above every number; -0.0 == +0.0 falls out of operator<.
int CompareFloat(double a, double b) {
  bool a_nan = std::isnan(a);
  bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return ThreeWay<int>(a_nan, b_nan);
  return ThreeWay(a, b);
}

std::string Int128ToString(int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Work with negative values so the most negative int128 does not overflow.
  std::string digits;
  int128 n = negative ? v : -v;
  while (n != 0) {
    digits.push_back(static_cast<char>('0' - static_cast<int>(n % 10)));
    n /= 10;
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

}  // namespace

namespace {

// A 128-bit integer as a double the way DuckDB converts its HUGEINT: the two 64-bit halves
// converted and combined, each step rounding.
double WideToDouble(int128 v) {
  auto upper = static_cast<int64_t>(v >> 64);
  auto lower = static_cast<uint64_t>(v);
  constexpr auto kMaxLower = static_cast<double>(UINT64_MAX);
  if (upper == -1) return -static_cast<double>(UINT64_MAX - lower) - 1;
  double high = static_cast<double>(upper) * kMaxLower;
  return static_cast<double>(lower) + high;
}

template <typename Real>
Real IntegerToReal(int128 v, bool wide) {
  if (wide) return static_cast<Real>(WideToDouble(v));
  return static_cast<Real>(static_cast<int64_t>(v));
}

}  // namespace

template <typename Real>
Real DecimalToReal(int128 unscaled, int32_t scale, bool wide) {
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                       1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                       1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
                                       1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38};
  scale = std::clamp(scale, 0, 38);
  const auto divisor = static_cast<Real>(kPowers[scale]);
  constexpr int128 kExact = int128{1} << std::numeric_limits<Real>::digits;
  if (scale == 0 || (unscaled >= -kExact && unscaled <= kExact)) {
    return IntegerToReal<Real>(unscaled, wide) / divisor;
  }
  int128 power = 1;
  for (int32_t k = 0; k < scale; ++k) power *= 10;
  Real whole = IntegerToReal<Real>(unscaled / power, wide);
  Real fraction = IntegerToReal<Real>(unscaled % power, wide) / divisor;
  return whole + fraction;
}

template float DecimalToReal<float>(int128, int32_t, bool);
template double DecimalToReal<double>(int128, int32_t, bool);

int Compare(const Value& a, const Value& b) {
  switch (a.kind) {
    case Value::Kind::kBool: return ThreeWay<int>(a.b, b.b);
    case Value::Kind::kInt: return ThreeWay(a.i, b.i);
    case Value::Kind::kFloat: return CompareFloat(a.f, b.f);
    case Value::Kind::kBytes: {
      int c = a.bytes.compare(b.bytes);  // char_traits<char>::compare is unsigned (memcmp)
      return ThreeWay(c, 0);
    }
    case Value::Kind::kNull: break;
  }
  return 0;
}

std::string DebugString(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNull: return "NULL";
    case Value::Kind::kBool: return v.b ? "TRUE" : "FALSE";
    case Value::Kind::kInt: return Int128ToString(v.i);
    case Value::Kind::kFloat: {
      char text[32];
      std::snprintf(text, sizeof(text), "%.17g", v.f);
      return text;
    }
    case Value::Kind::kBytes: {
      bool printable = true;
      for (unsigned char c : v.bytes) printable = printable && c >= 0x20 && c < 0x7f;
      if (printable) {
        std::string out = "'";
        for (char c : v.bytes) {
          if (c == '\'') out += '\'';
          out += c;
        }
        return out + "'";
      }
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out = "X'";
      for (unsigned char c : v.bytes) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      return out + "'";
    }
  }
  return "?";
}

}  // namespace pqsift::expr
