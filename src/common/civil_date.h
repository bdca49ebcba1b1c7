// The proleptic Gregorian calendar: a day count since 1970-01-01 as year, month and day. Shared
// by the text forms (value_format.h) and the filter language's date parts (year(ts), ...).
// Pure functions, any int64 day count (a hostile file may annotate any INT64 as a DATE).
#pragma once

#include <cstdint>

namespace pqsift {

struct CivilDate {
  int64_t year = 1970;
  int64_t month = 1;  // 1..12
  int64_t day = 1;    // 1..31
};

// Civil-from-days over 400-year eras of 146097 days, counted from 0000-03-01. 64-bit arithmetic
// wherever the shift to that origin fits (every date a writer means); 128 bits for the last
// 719,468 day counts below INT64_MAX, so even the extremes convert.
inline CivilDate CivilFromDays(int64_t days) {
  constexpr int64_t kShift = 719468;  // 0000-03-01 to 1970-01-01
  int64_t era = 0;
  int64_t doe = 0;  // day of the era, [0, 146097)
  if (days <= INT64_MAX - kShift) {
    const int64_t z = days + kShift;
    era = z / 146097 - ((z % 146097 != 0) && (z < 0));
    doe = z - era * 146097;
  } else {
    const __int128 z = static_cast<__int128>(days) + kShift;
    era = static_cast<int64_t>(z / 146097);
    doe = static_cast<int64_t>(z - static_cast<__int128>(era) * 146097);
  }
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  CivilDate out;
  out.day = doy - (153 * mp + 2) / 5 + 1;
  out.month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (out.month <= 2);
  return out;
}

}  // namespace pqsift
