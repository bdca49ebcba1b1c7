// Text forms of dates, times and timestamps in filter literals (DATE '...', TIMESTAMP '...', and
// strings compared with temporal columns). Proleptic Gregorian calendar, as Parquet and DuckDB.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "expr/value.h"

namespace pqsift::expr {

// Days since 1970-01-01.
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day);

// The days of a month (1..12) of a proleptic Gregorian year: 28 to 31.
int64_t DaysInMonth(int64_t year, int64_t month);

// 'YYYY-MM-DD' (a year of 1 to 6 digits, optionally negative): days since the epoch; nullopt
// when malformed or not a real day (2026-02-30).
std::optional<int64_t> ParseDate(std::string_view text);

// 'HH:MM[:SS[.f{1,9}]]': nanoseconds since midnight; nullopt when malformed or out of range.
std::optional<int64_t> ParseTimeOfDay(std::string_view text);

struct TimestampText {
  int128 nanos = 0;       // since 1970-01-01 00:00:00, in UTC when has_zone
  bool has_zone = false;  // 'Z' or an offset was written
};
// 'YYYY-MM-DD[( |T)HH:MM[:SS[.f{1,9}]]][Z|+hh[:mm]|-hh[:mm]]' (a space may precede the zone).
// An offset is applied, so nanos is UTC when has_zone.
std::optional<TimestampText> ParseTimestamp(std::string_view text);

}  // namespace pqsift::expr
