#include "expr/interval.h"

#include <cctype>
#include <utility>

#include "common/civil_date.h"
#include "expr/lexer.h"
#include "expr/temporal_text.h"

namespace pqsift::expr {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000;
constexpr int128 kNanosPerDay = int128{kMicrosPerDay} * 1000;

// The unit's size: months, or microseconds (days for a day and a week are kept as days).
struct UnitSize {
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
};

std::optional<UnitSize> UnitNamed(std::string_view name) {
  std::string unit = AsciiLower(name);
  if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
  static const std::pair<std::string_view, UnitSize> kUnits[] = {{"year", {12, 0, 0}},
                                                                 {"quarter", {3, 0, 0}},
                                                                 {"month", {1, 0, 0}},
                                                                 {"week", {0, 7, 0}},
                                                                 {"day", {0, 1, 0}},
                                                                 {"hour", {0, 0, 3'600'000'000}},
                                                                 {"minute", {0, 0, 60'000'000}},
                                                                 {"second", {0, 0, 1'000'000}},
                                                                 {"millisecond", {0, 0, 1'000}},
                                                                 {"microsecond", {0, 0, 1}}};
  for (const auto& [name, size] : kUnits) {
    if (unit == name) return size;
  }
  return std::nullopt;
}

// A signed decimal number: its value times 10^6 (micro-units), and whether it had a fraction.
struct Number {
  int128 micro_units = 0;
  bool fraction = false;
};

std::optional<Number> ParseNumber(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128 whole = 0;
  size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    whole = whole * 10 + (text[i++] - '0');
    if (++digits > 20) return std::nullopt;
  }
  Number n;
  int128 fraction = 0;
  int scale = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      n.fraction |= text[i] != '0';
      if (scale < 6) {
        fraction = fraction * 10 + (text[i] - '0');
        ++scale;
      } else if (text[i] != '0') {
        return std::nullopt;  // finer than a microsecond of the unit: not exact
      }
      ++digits;
      ++i;
    }
  }
  if (digits == 0 || i != text.size()) return std::nullopt;
  for (; scale < 6; ++scale) fraction *= 10;
  n.micro_units = whole * 1'000'000 + fraction;
  if (negative) n.micro_units = -n.micro_units;
  return n;
}

bool FitsInt64(int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// interval += number x unit; false when not exact or beyond 64 bits.
bool Accumulate(const Number& n, const UnitSize& unit, Interval* out) {
  const int128 months = int128{unit.months} * n.micro_units;
  if (unit.months != 0) {
    if (n.fraction) return false;  // DuckDB turns a fraction of a month into days: not here
    const int128 m = out->months + months / 1'000'000;
    if (!FitsInt64(m)) return false;
    out->months = static_cast<int64_t>(m);
    return true;
  }
  // Days and smaller: whole days stay days; a fraction of a day becomes microseconds.
  int128 micros = int128{unit.micros} * n.micro_units / 1'000'000;
  if (int128{unit.micros} * n.micro_units % 1'000'000 != 0) return false;
  int128 days = 0;
  if (unit.days != 0) {
    const int128 day_units = int128{unit.days} * n.micro_units;  // micro-days
    days = day_units / 1'000'000;
    micros += day_units % 1'000'000 * kMicrosPerDay / 1'000'000;
  }
  const int128 d = out->days + days;
  const int128 u = out->micros + micros;
  if (!FitsInt64(d) || !FitsInt64(u)) return false;
  out->days = static_cast<int64_t>(d);
  out->micros = static_cast<int64_t>(u);
  return true;
}

}  // namespace

std::optional<Interval> ParseInterval(std::string_view text, std::string_view unit,
                                      std::string* error) {
  auto fail = [&](std::string why) -> std::optional<Interval> {
    *error = std::move(why);
    return std::nullopt;
  };
  Interval out;
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  if (!unit.empty()) {
    std::optional<UnitSize> size = UnitNamed(unit);
    if (!size) return fail("unknown interval unit '" + std::string(unit) + "'");
    std::optional<Number> n = ParseNumber(text);
    if (!n || !Accumulate(*n, *size, &out)) {
      return fail("invalid interval '" + std::string(text) + "' " + std::string(unit));
    }
    return out;
  }
  // "<number> <unit>" pairs.
  bool any = false;
  while (!text.empty()) {
    size_t end = 0;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           !std::isalpha(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    std::string_view number = text.substr(0, end);
    text = trim(text.substr(end));
    size_t word = 0;
    while (word < text.size() && std::isalpha(static_cast<unsigned char>(text[word]))) ++word;
    std::string_view name = text.substr(0, word);
    text = trim(text.substr(word));
    std::optional<UnitSize> size = UnitNamed(name);
    std::optional<Number> n = ParseNumber(number);
    if (!size || !n || !Accumulate(*n, *size, &out)) {
      return fail("invalid interval '" + std::string(number) + " " + std::string(name) +
                  "' (e.g. '90 days', '1 year 2 months')");
    }
    any = true;
  }
  if (!any) return fail("empty interval");
  return out;
}

bool IsIntervalUnit(std::string_view word) { return UnitNamed(word).has_value(); }

std::optional<int128> AddInterval(int128 nanos, const Interval& interval, int sign) {
  int128 day = nanos / kNanosPerDay;
  int128 time = nanos % kNanosPerDay;
  if (time < 0) {
    time += kNanosPerDay;
    day -= 1;
  }
  if (!FitsInt64(day)) return std::nullopt;
  if (interval.months != 0) {
    const CivilDate civil = CivilFromDays(static_cast<int64_t>(day));
    const int128 month_index =
        int128{civil.year} * 12 + (civil.month - 1) + int128{sign} * interval.months;
    if (!FitsInt64(month_index / 12)) return std::nullopt;
    int128 year = month_index / 12;
    int128 month = month_index % 12;
    if (month < 0) {
      month += 12;
      year -= 1;
    }
    const auto y = static_cast<int64_t>(year);
    const auto m = static_cast<int64_t>(month) + 1;
    day = DaysFromCivil(y, m, std::min(civil.day, DaysInMonth(y, m)));
  }
  day += int128{sign} * interval.days;
  const int128 out = day * kNanosPerDay + time + int128{sign} * interval.micros * 1000;
  // Beyond what a microsecond timestamp holds (DuckDB's range): an error for the binder.
  if (!FitsInt64(out / 1000)) return std::nullopt;
  return out;
}

std::optional<int64_t> ShiftedMicros(int64_t day, int64_t micros_of_day, const Interval& interval,
                                     int sign) {
  const int128 nanos = (int128{day} * (kNanosPerDay / 1000) + micros_of_day) * 1000;
  std::optional<int128> shifted = AddInterval(nanos, interval, sign);
  if (!shifted) return std::nullopt;
  return static_cast<int64_t>(*shifted / 1000);  // whole microseconds: AddInterval checked them
}

std::string IntervalText(const Interval& interval) {
  std::string out;
  auto part = [&](int64_t n, const char* unit) {
    if (n == 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(n) + ' ' + unit + (n == 1 || n == -1 ? "" : "s");
  };
  part(interval.months / 12, "year");
  part(interval.months % 12, "month");
  part(interval.days, "day");
  if (interval.micros != 0 || out.empty()) {
    if (!out.empty()) out += ' ';
    out += std::to_string(interval.micros) + " microseconds";
  }
  return out;
}

}  // namespace pqsift::expr
