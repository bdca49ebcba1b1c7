// DuckDB's rounding functions of a number to an integer value: floor, ceil (ceiling), round
// (half away from zero) and trunc (toward zero), of a float (the same float type) or of a
// decimal's unscaled value at its scale (the result at scale 0); and round(x, digits), to
// `digits` places after the point (RoundFloatTo; a decimal's RoundDecimal by 10^(scale -
// digits), the result at scale `digits`). Shared by the binder (literals),
// the evaluator (rows) and the prover (bounds: each function never decreases, so a range's
// bounds map to the bounds of its image).
// Pure functions; thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "expr/value.h"

namespace pqsift::expr {

enum class Rounding : uint8_t { kFloor, kCeil, kRound, kTrunc };

// By DuckDB's names ("ceiling" is ceil); nullopt for other names.
inline std::optional<Rounding> RoundingNamed(std::string_view name) {
  if (name == "floor") return Rounding::kFloor;
  if (name == "ceil" || name == "ceiling") return Rounding::kCeil;
  if (name == "round") return Rounding::kRound;
  if (name == "trunc") return Rounding::kTrunc;
  return std::nullopt;
}

inline double RoundFloat(Rounding r, double x) {
  switch (r) {
    case Rounding::kFloor: return std::floor(x);
    case Rounding::kCeil: return std::ceil(x);
    case Rounding::kRound: return std::round(x);
    case Rounding::kTrunc: return std::trunc(x);
  }
  return x;
}

// DuckDB's round(x, digits) of a double: x * 10^digits rounded half away from zero and divided
// back (digits < 0: x / 10^-digits rounded and multiplied back). Where that is not finite, x
// itself (digits >= 0) or 0 (digits < 0), as DuckDB returns. Never decreasing wherever
// |x * 10^digits| < 2^52 (RoundsMonotonically): the prover maps bounds only there.
inline double RoundFloatTo(double x, int32_t digits) {
  if (digits == 0) return std::round(x);
  if (digits < 0) {
    const double modifier = std::pow(10.0, -static_cast<double>(digits));
    const double rounded = std::round(x / modifier) * modifier;
    return std::isfinite(rounded) ? rounded : 0;
  }
  const double modifier = std::pow(10.0, static_cast<double>(digits));
  const double rounded = std::round(x * modifier) / modifier;
  return std::isfinite(rounded) ? rounded : x;
}

inline bool RoundsMonotonically(double x, int32_t digits) {
  const double scaled = digits < 0 ? x / std::pow(10.0, -static_cast<double>(digits))
                                   : x * std::pow(10.0, static_cast<double>(digits));
  return std::fabs(scaled) < 4503599627370496.0;  // 2^52: every step below is exact
}

// The unscaled decimal `v` whose scale is `unit` (10^scale, cast.h PowerOfTen: computed once
// per column, not per value) rounded to an integer (scale 0). Cannot overflow: |v| < 10^38 and
// the result is no larger in magnitude than |v| / unit + 1.
inline int128 RoundDecimal(Rounding r, int128 v, int128 unit) {
  if (unit == 1) return v;
  const int128 q = v / unit;  // toward zero
  const int128 rest = v % unit;
  switch (r) {
    case Rounding::kFloor: return rest < 0 ? q - 1 : q;
    case Rounding::kCeil: return rest > 0 ? q + 1 : q;
    case Rounding::kRound: {
      const int128 twice = rest < 0 ? -2 * rest : 2 * rest;
      if (twice < unit) return q;
      return v < 0 ? q - 1 : q + 1;  // half away from zero
    }
    case Rounding::kTrunc: return q;
  }
  return q;
}

}  // namespace pqsift::expr
