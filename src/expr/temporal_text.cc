#include "expr/temporal_text.h"

namespace pqsift::expr {
namespace {

constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int64_t kSecondsPerDay = 86400;

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Reads exactly `n` digits at text[*i]; false when there are not that many.
bool Digits(std::string_view text, size_t* i, size_t n, int64_t* out) {
  if (*i + n > text.size()) return false;
  int64_t v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = text[*i + k];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *i += n;
  *out = v;
  return true;
}

std::optional<int64_t> ParseDatePrefix(std::string_view text, size_t* i) {
  bool negative = *i < text.size() && text[*i] == '-';
  if (negative) ++*i;
  size_t start = *i;
  int64_t year = 0;
  while (*i < text.size() && text[*i] >= '0' && text[*i] <= '9' && *i - start < 6) {
    year = year * 10 + (text[*i] - '0');
    ++*i;
  }
  if (*i == start) return std::nullopt;
  if (negative) year = -year;
  int64_t month = 0;
  int64_t day = 0;
  if (*i >= text.size() || text[*i] != '-') return std::nullopt;
  ++*i;
  if (!Digits(text, i, 2, &month) || *i >= text.size() || text[*i] != '-') return std::nullopt;
  ++*i;
  if (!Digits(text, i, 2, &day)) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return std::nullopt;
  return DaysFromCivil(year, month, day);
}

std::optional<int64_t> ParseTimePrefix(std::string_view text, size_t* i) {
  int64_t h = 0;
  int64_t m = 0;
  int64_t s = 0;
  if (!Digits(text, i, 2, &h) || *i >= text.size() || text[*i] != ':') return std::nullopt;
  ++*i;
  if (!Digits(text, i, 2, &m)) return std::nullopt;
  int64_t fraction = 0;
  if (*i < text.size() && text[*i] == ':') {
    ++*i;
    if (!Digits(text, i, 2, &s)) return std::nullopt;
    if (*i < text.size() && text[*i] == '.') {
      ++*i;
      int digits = 0;
      while (*i < text.size() && text[*i] >= '0' && text[*i] <= '9') {
        if (++digits > 9) return std::nullopt;
        fraction = fraction * 10 + (text[*i] - '0');
        ++*i;
      }
      if (digits == 0) return std::nullopt;
      for (int k = digits; k < 9; ++k) fraction *= 10;
    }
  }
  if (h > 23 || m > 59 || s > 59) return std::nullopt;
  return ((h * 60 + m) * 60 + s) * kNanosPerSecond + fraction;
}

}  // namespace

int64_t DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day) {
  // Count from 0000-03-01 so the leap day ends a year; eras of 400 years have 146097 days.
  year -= month <= 2 ? 1 : 0;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  int64_t year_of_era = year - era * 400;
  int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

std::optional<int64_t> ParseDate(std::string_view text) {
  size_t i = 0;
  std::optional<int64_t> days = ParseDatePrefix(text, &i);
  if (!days || i != text.size()) return std::nullopt;
  return days;
}

std::optional<int64_t> ParseTimeOfDay(std::string_view text) {
  size_t i = 0;
  std::optional<int64_t> nanos = ParseTimePrefix(text, &i);
  if (!nanos || i != text.size()) return std::nullopt;
  return nanos;
}

std::optional<TimestampText> ParseTimestamp(std::string_view text) {
  size_t i = 0;
  std::optional<int64_t> days = ParseDatePrefix(text, &i);
  if (!days) return std::nullopt;
  TimestampText out;
  out.nanos = static_cast<int128>(*days) * kSecondsPerDay * kNanosPerSecond;
  if (i < text.size() && (text[i] == ' ' || text[i] == 'T')) {
    ++i;
    std::optional<int64_t> time = ParseTimePrefix(text, &i);
    if (!time) return std::nullopt;
    out.nanos += *time;
  }
  if (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size()) {
    if (text[i] == 'Z' || text[i] == 'z') {
      ++i;
    } else if (text[i] == '+' || text[i] == '-') {
      int64_t sign = text[i] == '+' ? 1 : -1;
      ++i;
      int64_t h = 0;
      int64_t m = 0;
      if (!Digits(text, &i, 2, &h)) return std::nullopt;
      if (i < text.size() && text[i] == ':') ++i;
      if (i < text.size() && !Digits(text, &i, 2, &m)) return std::nullopt;
      if (h > 23 || m > 59) return std::nullopt;
      // Local time = UTC + offset, so UTC = local - offset.
      out.nanos -= static_cast<int128>(sign * (h * 3600 + m * 60)) * kNanosPerSecond;
    } else {
      return std::nullopt;
    }
    out.has_zone = true;
  }
  if (i != text.size()) return std::nullopt;
  return out;
}

}  // namespace pqsift::expr
