// The arithmetic of casts between integer-domain types (integers, decimals, dates, times,
// timestamps): powers of ten, ticks per unit, exact rescaling and the factor a widening cast
// multiplies by. The one home of these rules: the binder (literals moved into a column's domain),
// the evaluator (casts of columns), the prover (bounds through a cast) and variant_get (decimals
// to integers) all call it, so they cannot disagree.
//
// Pure functions on values; thread-safe; no errors (an impossible conversion is nullopt).
#pragma once

#include <cstdint>
#include <optional>

#include "pqsift/array.h"

namespace pqsift::cast {

using int128 = __int128;

// 10^n for 0 <= n <= 38 (the largest power an int128 holds); 1 for n <= 0. Callers keep n <= 38
// (beyond it the product wraps).
int128 Pow10(int n);

// 10^k, or nullopt when k is outside [0, 38].
std::optional<int128> PowerOfTen(int k);

// Ticks of `unit` in one second (1000, 10^6, 10^9) and their decimal digits (3, 6, 9).
int64_t TicksPerSecond(TimeUnit unit);
int TickDigits(TimeUnit unit);

// Beyond every value of every integer domain (int64 ticks, unsigned 64-bit, 38-digit decimals):
// a result further out is clamped here, which changes no comparison.
int128 ClampLimit();

// num * mul / div in a domain of integer ticks: its floor, and whether it is a tick (exact).
// Results beyond ClampLimit() are clamped to it (and reported exact).
struct Ticks {
  int128 floor = 0;
  bool exact = true;
};
Ticks ScaleExact(int128 num, int128 mul, int128 div);

// The factor the evaluator multiplies an integer-domain value by when casting up to `to`: a
// decimal to a larger scale (integers are scale 0), a date to a timestamp (ticks per day), a time
// or timestamp to a finer unit. Nullopt for any other target. Time zones are not looked at (the
// binder compares timestamps of any zones as instants; see IntCastFactor for the prover's rule).
std::optional<int128> ScaleUpFactor(const DataType& from, const DataType& to);

// The factor an integer-domain cast multiplies by (exact, >= 1) when the cast is a pure
// widening whose image of a bound is a bound: integers to integers (1), to a decimal of a scale
// no smaller, times and same-zone timestamps to a finer unit, dates to dates and to local or UTC
// timestamps. Nullopt otherwise.
std::optional<int128> IntCastFactor(const DataType& from, const DataType& to);

// A timestamp (any unit; a zoned one as UTC) as DuckDB splits it into a day and the
// microseconds into that day: nanoseconds are first truncated to microseconds, toward zero (its
// TIMESTAMP_NS to TIMESTAMP cast: 1 ns before 1970 is 1970-01-01 00:00:00), then the day is
// floored (1969-12-31 23:00 is 1969-12-31). Both steps never decrease as the ticks grow, so the
// prover pushes bounds through it. No overflow for any int64.
struct TimestampDay {
  int64_t day = 0;
  int64_t micros = 0;  // [0, 86,400,000,000)
};
TimestampDay SplitTimestamp(int64_t ticks, TimeUnit unit);

// Whether values of `type` split into a day and a time: a date (its midnight) or a timestamp.
bool SplitsIntoDays(const DataType& type);
// The day and time of a value of such a type (days for a date, ticks for a timestamp), the one
// split the date functions, the evaluator and the prover share. REQUIRES: SplitsIntoDays(type).
TimestampDay SplitDateOrTimestamp(int64_t value, const DataType& type);

// Whether CAST(from AS to) is a timestamp to its day (SplitTimestamp's day).
bool CastsToDay(const DataType& from, const DataType& to);

}  // namespace pqsift::cast
