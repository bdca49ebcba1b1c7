// A typed scalar in the comparison domain of a column: a filter literal, or a statistics bound.
//
// Every column type maps to one Value kind, so comparing a literal with a column, or a bound
// with a literal, is one comparison in one domain:
//   boolean                                        -> kBool
//   int8..int64, uint8..uint64, date32 (days), time32/time64 and timestamp (ticks in the
//   column's unit), decimal128 (the unscaled integer, in the column's scale)  -> kInt (int128)
//   float16, float32, float64                      -> kFloat (double)
//   large_utf8, large_binary, fixed_size_binary    -> kBytes (compared as unsigned bytes)
// Ordering follows DuckDB and PostgreSQL: NaN equals NaN and sorts above every number;
// -0.0 equals +0.0. NULL is not a value here: it is kNull and never compares.
#pragma once

#include <cstdint>
#include <string>

namespace pqsift::expr {

using int128 = __int128;

struct Value {
  enum class Kind : uint8_t { kNull, kBool, kInt, kFloat, kBytes };
  Kind kind = Kind::kNull;
  bool b = false;
  int128 i = 0;
  double f = 0;
  std::string bytes;

  static Value Null() { return {}; }
  static Value Bool(bool v) { return {Kind::kBool, v, 0, 0, {}}; }
  static Value Int(int128 v) { return {Kind::kInt, false, v, 0, {}}; }
  static Value Float(double v) { return {Kind::kFloat, false, 0, v, {}}; }
  static Value Bytes(std::string v) { return {Kind::kBytes, false, 0, 0, std::move(v)}; }

  bool is_null() const { return kind == Kind::kNull; }
};

// Total order within one kind (NaN last, -0 == +0, bytes unsigned lexicographic).
// REQUIRES: a.kind == b.kind, neither is kNull. Returns <0, 0 or >0.
int Compare(const Value& a, const Value& b);

// unscaled * 10^-scale as DuckDB casts a DECIMAL to FLOAT or DOUBLE, to the bit (Real is float
// or double). Not always the nearest Real: when |unscaled| exceeds Real's exact integers, the
// integer and fractional parts are converted apart and added. `wide` says the decimal is held in
// 128 bits (precision over 18), whose halves go through a double first. Literals and evaluated
// columns convert the same way, so `CAST(d AS DOUBLE) = x` finds the row x was written from, and
// results agree with DuckDB's row for row.
template <typename Real>
Real DecimalToReal(int128 unscaled, int32_t scale, bool wide);

// For explain and error messages: 42, 1.5, 'text', X'00ff', TRUE, NULL (not type-aware: a
// timestamp prints as its ticks; use FormatValue with a type for the user-facing form).
std::string DebugString(const Value& v);

}  // namespace pqsift::expr
