// INTERVAL literals of the filter language and their arithmetic with dates and timestamps, as
// DuckDB computes them: `DATE '1998-12-01' - INTERVAL '90' DAY` is TIMESTAMP '1998-09-02
// 00:00:00` (TPC-H writes its date ranges so). Folded when binding: an interval meets literals
// only. Pure functions, any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "expr/value.h"

namespace pqsift::expr {

// DuckDB's three parts, each signed; none of them converts into another (a month has no fixed
// number of days).
struct Interval {
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
};

// The interval of INTERVAL '<text>' [unit] or INTERVAL <number> [unit]. With `unit` empty the
// text holds "<number> <unit>" pairs ('90 days', '1 year -2 months', '1.5 hours'); with a unit
// it is a number. Units, singular or plural: year, quarter, month, week, day, hour, minute,
// second, millisecond, microsecond. A fraction is exact down to microseconds for week and
// below ('1.5 days' is 1 day and 12 hours, as DuckDB's); years, quarters and months take whole
// numbers. nullopt, with *error set, when malformed or beyond 64 bits.
std::optional<Interval> ParseInterval(std::string_view text, std::string_view unit,
                                      std::string* error);

// Whether `word` names an interval unit (INTERVAL 90 DAY), singular or plural.
bool IsIntervalUnit(std::string_view word);

// `nanos` (since the epoch) plus `sign` (+1 or -1) times `interval`, as DuckDB adds: the months
// first, the day kept unless past the new month's end, then clamped to it (Jan 31 + 1 month is
// Feb 28 or 29); then the days; then the microseconds. nullopt beyond +-2^63 microseconds.
std::optional<int128> AddInterval(int128 nanos, const Interval& interval, int sign);

// An instant given as its day since the epoch and the microseconds into that day (a date's
// midnight, or a timestamp split as cast.h's SplitTimestamp splits it), plus `sign` times
// `interval` (AddInterval), in microseconds since the epoch: DuckDB's DATE or TIMESTAMP +
// INTERVAL of a column's value. nullopt beyond +-2^63 microseconds.
std::optional<int64_t> ShiftedMicros(int64_t day, int64_t micros_of_day, const Interval& interval,
                                     int sign);

// The interval as DuckDB prints one's parts: "1 year 2 months 3 days 04:00:00".
std::string IntervalText(const Interval& interval);

}  // namespace pqsift::expr
