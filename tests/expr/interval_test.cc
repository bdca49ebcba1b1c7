// INTERVAL literals: parsing DuckDB's forms, and adding them to instants as DuckDB does (the
// expected instants are DuckDB 1.5's own results).
#include "expr/interval.h"

#include <gtest/gtest.h>

#include <string>

#include "expr/temporal_text.h"

namespace pqsift::expr {
namespace {

std::string Parsed(std::string_view text, std::string_view unit = "") {
  std::string error;
  std::optional<Interval> i = ParseInterval(text, unit, &error);
  if (!i) return "error: " + error;
  return std::to_string(i->months) + "m " + std::to_string(i->days) + "d " +
         std::to_string(i->micros) + "us";
}

TEST(IntervalTest, ParsesDuckDBsForms) {
  EXPECT_EQ(Parsed("90", "DAY"), "0m 90d 0us");
  EXPECT_EQ(Parsed("1", "years"), "12m 0d 0us");
  EXPECT_EQ(Parsed("3", "quarter"), "9m 0d 0us");
  EXPECT_EQ(Parsed("90 days"), "0m 90d 0us");
  EXPECT_EQ(Parsed(" 1 year 2 months -3 days "), "14m -3d 0us");
  EXPECT_EQ(Parsed("2 weeks 1 hour"), "0m 14d 3600000000us");
  EXPECT_EQ(Parsed("1.5 days"), "0m 1d 43200000000us");
  EXPECT_EQ(Parsed("-1.5 days"), "0m -1d -43200000000us");
  EXPECT_EQ(Parsed("0.3 days"), "0m 0d 25920000000us");
  EXPECT_EQ(Parsed("100 milliseconds 7 microseconds"), "0m 0d 100007us");
  EXPECT_EQ(Parsed("10", "second"), "0m 0d 10000000us");
  // A fraction of a month is days in DuckDB, truncated in one form and not the other: refused.
  EXPECT_EQ(Parsed("1.5 months"),
            "error: invalid interval '1.5 months' (e.g. '90 days', "
            "'1 year 2 months')");
  EXPECT_EQ(Parsed("1.5", "month"), "error: invalid interval '1.5' month");
  EXPECT_EQ(Parsed("1 fortnight"),
            "error: invalid interval '1 fortnight' (e.g. '90 days', "
            "'1 year 2 months')");
  EXPECT_EQ(Parsed(""), "error: empty interval");
  EXPECT_EQ(Parsed("days"), "error: invalid interval ' days' (e.g. '90 days', '1 year 2 months')");
  EXPECT_EQ(Parsed("99999999999999999999 days"),
            "error: invalid interval '99999999999999999999 days' (e.g. '90 days', '1 year 2 "
            "months')");
  EXPECT_TRUE(IsIntervalUnit("Hours"));
  EXPECT_FALSE(IsIntervalUnit("fortnight"));
}

int128 Day(int y, int m, int d) { return int128{DaysFromCivil(y, m, d)} * 86'400'000'000'000; }

TEST(IntervalTest, AddsMonthsThenDaysThenMicrosAsDuckDB) {
  const int128 hour = int128{3'600'000'000'000};
  auto add = [](int128 at, std::string_view text, int sign) {
    std::string error;
    return AddInterval(at, *ParseInterval(text, "", &error), sign);
  };
  EXPECT_EQ(add(Day(1998, 12, 1), "90 days", -1), Day(1998, 9, 2));
  EXPECT_EQ(add(Day(2024, 1, 31), "1 month", 1), Day(2024, 2, 29));  // clamped to the month
  EXPECT_EQ(add(Day(2024, 3, 31), "1 month", -1), Day(2024, 2, 29));
  EXPECT_EQ(add(Day(2024, 2, 29), "1 year", 1), Day(2025, 2, 28));
  EXPECT_EQ(add(Day(2023, 2, 28), "1 year", 1), Day(2024, 2, 28));
  EXPECT_EQ(add(Day(2024, 1, 31) + 10 * hour, "1 month 2 days 3 hours", 1),
            Day(2024, 3, 2) + 13 * hour);
  EXPECT_EQ(add(Day(2024, 1, 1), "1 year -1 day", 1), Day(2024, 12, 31));
  EXPECT_EQ(add(Day(2024, 1, 1), "1.5 days", -1), Day(2023, 12, 30) + 12 * hour);
  EXPECT_EQ(add(Day(1969, 12, 31) + hour, "2 months", 1), Day(1970, 2, 28) + hour);
  EXPECT_EQ(add(Day(1, 1, 1), "1 month", -1), Day(0, 12, 1));
  EXPECT_FALSE(add(Day(294000, 1, 1), "1000 years", 1).has_value());  // past DuckDB's range
}

}  // namespace
}  // namespace pqsift::expr
