// Text forms of values: dates, times, timestamps, decimals, floats, half floats, hex, UUIDs and
// text with invalid UTF-8. Expected dates were computed independently (Python's datetime and
// an arbitrary-precision civil-from-days).
#include "common/value_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace pqsift {
namespace {

std::span<const uint8_t> Bytes(const std::vector<uint8_t>& v) { return {v.data(), v.size()}; }

// ---- dates ----

TEST(FormatDateTest, AroundTheEpoch) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(1), "1970-01-02");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(20454), "2026-01-01");
  EXPECT_EQ(FormatDate(20456), "2026-01-03");
}

TEST(FormatDateTest, LeapDays) {
  EXPECT_EQ(FormatDate(11016), "2000-02-29");  // divisible by 400: leap
  EXPECT_EQ(FormatDate(11017), "2000-03-01");
  EXPECT_EQ(FormatDate(19782), "2024-02-29");
  EXPECT_EQ(FormatDate(-25509), "1900-02-28");  // divisible by 100 only: not leap
  EXPECT_EQ(FormatDate(-25508), "1900-03-01");
}

TEST(FormatDateTest, FourDigitYearsAndBeyond) {
  EXPECT_EQ(FormatDate(2932896), "9999-12-31");
  EXPECT_EQ(FormatDate(2932897), "+10000-01-01");
  EXPECT_EQ(FormatDate(-719162), "0001-01-01");
  EXPECT_EQ(FormatDate(-719528), "0000-01-01");
  EXPECT_EQ(FormatDate(-719529), "-0001-12-31");
  EXPECT_EQ(FormatDate(-141438), "1582-10-04");  // proleptic Gregorian, no Julian switch
  EXPECT_EQ(FormatDate(-1000000000), "-2735938-12-29");
  EXPECT_EQ(FormatDate(INT32_MAX), "+5881580-07-11");
  EXPECT_EQ(FormatDate(INT32_MIN), "-5877641-06-23");
}

TEST(FormatDateTest, TheWholeInt64RangeWithoutOverflow) {
  // DATE annotates INT32, but a hostile file may put it on INT64: no overflow (the sanitizer
  // build checks), and still the right date.
  EXPECT_EQ(FormatDate(INT64_MAX), "+25252734927768524-07-27");
  EXPECT_EQ(FormatDate(INT64_MIN), "-25252734927764585-06-07");
  EXPECT_EQ(FormatDate(INT64_MAX - 719468), "+25252734927766554-09-25");
}

TEST(FormatDateTest, MatchesASimpleDayByDayCount) {
  // Walk day by day from 1600-01-01 (days -135140) for 160,000 days.
  int64_t days = -135140;
  int year = 1600, month = 1, day = 1;
  auto leap = [](int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
  const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int i = 0; i < 160000; ++i, ++days) {
    char expected[48];
    std::snprintf(expected, sizeof expected, "%04d-%02d-%02d", year, month, day);
    ASSERT_EQ(FormatDate(days), expected) << days;
    int len = kDays[month - 1] + (month == 2 && leap(year));
    if (++day > len) {
      day = 1;
      if (++month > 12) {
        month = 1;
        ++year;
      }
    }
  }
}

// ---- times ----

TEST(FormatTimeTest, EachUnit) {
  EXPECT_EQ(FormatTime(0, TimeUnit::kMillis), "00:00:00");
  EXPECT_EQ(FormatTime(45296789, TimeUnit::kMillis), "12:34:56.789");
  EXPECT_EQ(FormatTime(1500, TimeUnit::kMillis), "00:00:01.5");  // trailing zeros dropped
  EXPECT_EQ(FormatTime(86399999, TimeUnit::kMillis), "23:59:59.999");
  EXPECT_EQ(FormatTime(1, TimeUnit::kMicros), "00:00:00.000001");
  EXPECT_EQ(FormatTime(45296000000, TimeUnit::kMicros), "12:34:56");
  EXPECT_EQ(FormatTime(86399999999999, TimeUnit::kNanos), "23:59:59.999999999");
  EXPECT_EQ(FormatTime(123456780, TimeUnit::kNanos), "00:00:00.12345678");
}

TEST(FormatTimeTest, OutsideADayIsTheRawNumber) {
  EXPECT_EQ(FormatTime(-1, TimeUnit::kMillis), "-1");
  EXPECT_EQ(FormatTime(86401000, TimeUnit::kMillis), "86401000");
  EXPECT_EQ(FormatTime(INT64_MIN, TimeUnit::kNanos), "-9223372036854775808");
  EXPECT_EQ(FormatTime(INT64_MAX, TimeUnit::kMicros), "9223372036854775807");
}

// ---- timestamps ----

TEST(FormatTimestampTest, EachUnitWithAndWithoutUtc) {
  EXPECT_EQ(FormatTimestamp(0, TimeUnit::kMillis, true), "1970-01-01 00:00:00+00");
  EXPECT_EQ(FormatTimestamp(0, TimeUnit::kMillis, false), "1970-01-01 00:00:00");
  EXPECT_EQ(FormatTimestamp(1700000000123456, TimeUnit::kMicros, true),
            "2023-11-14 22:13:20.123456+00");
  EXPECT_EQ(FormatTimestamp(1700000000123, TimeUnit::kMillis, false), "2023-11-14 22:13:20.123");
  EXPECT_EQ(FormatTimestamp(1700000000000000001, TimeUnit::kNanos, false),
            "2023-11-14 22:13:20.000000001");
  EXPECT_EQ(FormatTimestamp(1700000000100000, TimeUnit::kMicros, false), "2023-11-14 22:13:20.1");
}

TEST(FormatTimestampTest, NegativeValuesAndFractions) {
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kMillis, false), "1969-12-31 23:59:59.999");
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kNanos, true), "1969-12-31 23:59:59.999999999+00");
  EXPECT_EQ(FormatTimestamp(-1000000, TimeUnit::kMicros, false), "1969-12-31 23:59:59");
  EXPECT_EQ(FormatTimestamp(-86400000, TimeUnit::kMillis, false), "1969-12-31 00:00:00");
  EXPECT_EQ(FormatTimestamp(-86400001, TimeUnit::kMillis, false), "1969-12-30 23:59:59.999");
}

TEST(FormatTimestampTest, Int64Extremes) {
  EXPECT_EQ(FormatTimestamp(INT64_MAX, TimeUnit::kNanos, false), "2262-04-11 23:47:16.854775807");
  EXPECT_EQ(FormatTimestamp(INT64_MIN, TimeUnit::kNanos, false), "1677-09-21 00:12:43.145224192");
  EXPECT_EQ(FormatTimestamp(INT64_MAX, TimeUnit::kMicros, true),
            "+294247-01-10 04:00:54.775807+00");
  EXPECT_EQ(FormatTimestamp(INT64_MIN, TimeUnit::kMicros, false), "-290308-12-21 19:59:05.224192");
  EXPECT_EQ(FormatTimestamp(INT64_MAX, TimeUnit::kMillis, false), "+292278994-08-17 07:12:55.807");
  EXPECT_EQ(FormatTimestamp(INT64_MIN, TimeUnit::kMillis, false), "-292275055-05-16 16:47:04.192");
}

// ---- decimals ----

TEST(FormatDecimalTest, FromInt64) {
  EXPECT_EQ(FormatDecimal(-325, 2), "-3.25");
  EXPECT_EQ(FormatDecimal(1250, 2), "12.50");
  EXPECT_EQ(FormatDecimal(0, 2), "0.00");
  EXPECT_EQ(FormatDecimal(5, 3), "0.005");
  EXPECT_EQ(FormatDecimal(-5, 3), "-0.005");
  EXPECT_EQ(FormatDecimal(123, 0), "123");
  EXPECT_EQ(FormatDecimal(-1, 0), "-1");
  EXPECT_EQ(FormatDecimal(12345, 5), "0.12345");  // scale == precision
  EXPECT_EQ(FormatDecimal(99999, 5), "0.99999");
  EXPECT_EQ(FormatDecimal(INT64_MAX, 0), "9223372036854775807");
  EXPECT_EQ(FormatDecimal(INT64_MIN, 0), "-9223372036854775808");
  EXPECT_EQ(FormatDecimal(INT64_MIN, 18), "-9.223372036854775808");
  EXPECT_EQ(FormatDecimal(INT64_MIN, 19), "-0.9223372036854775808");
  EXPECT_EQ(FormatDecimal(7, -2), "700");
}

TEST(FormatDecimalTest, FromBigEndianBytesOfAnyLength) {
  EXPECT_EQ(FormatDecimalBytes(Bytes({0xff}), 0), "-1");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0x80}), 0), "-128");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0x7f}), 1), "12.7");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0x00, 0x80}), 0), "128");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0xfe, 0xd4}), 2), "-3.00");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0xff, 0xff, 0xff, 0xff, 0xff}), 2), "-0.01");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0x00, 0x00, 0x00, 0x00}), 3), "0.000");
  EXPECT_EQ(FormatDecimalBytes(Bytes({0x05}), -2), "500");
}

TEST(FormatDecimalTest, SixteenBytesAndMore) {
  std::vector<uint8_t> max128(16, 0xff);
  max128[0] = 0x7f;
  EXPECT_EQ(FormatDecimalBytes(Bytes(max128), 0), "170141183460469231731687303715884105727");
  EXPECT_EQ(FormatDecimalBytes(Bytes(max128), 38), "1.70141183460469231731687303715884105727");
  std::vector<uint8_t> min128(16, 0x00);
  min128[0] = 0x80;
  EXPECT_EQ(FormatDecimalBytes(Bytes(min128), 0), "-170141183460469231731687303715884105728");
  EXPECT_EQ(FormatDecimalBytes(Bytes(min128), 40), "-0.0170141183460469231731687303715884105728");
  // 10^40 in 17 bytes: 0x1d6329f1c35ca4bfabb9f5610000000000.
  std::vector<uint8_t> big = {0x1d, 0x63, 0x29, 0xf1, 0xc3, 0x5c, 0xa4, 0xbf, 0xab,
                              0xb9, 0xf5, 0x61, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(FormatDecimalBytes(Bytes(big), 0), "1" + std::string(40, '0'));
  EXPECT_EQ(FormatDecimalBytes(Bytes(big), 40), "1." + std::string(40, '0'));
  // 32 bytes of 0xff is -1 whatever the length.
  EXPECT_EQ(FormatDecimalBytes(Bytes(std::vector<uint8_t>(32, 0xff)), 3), "-0.001");
}

TEST(FormatDecimalTest, BytesAgreeWithInt64) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    int64_t v = static_cast<int64_t>(rng());
    if (i % 3 == 0) v >>= (i % 60);
    int32_t scale = static_cast<int32_t>(i % 25);
    std::vector<uint8_t> be(8);
    for (int k = 0; k < 8; ++k)
      be[k] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (56 - 8 * k));
    std::string text = FormatDecimalBytes(Bytes(be), scale);
    ASSERT_EQ(FormatDecimal(v, scale), text);
    // Read back: the digits without the point are the value.
    std::string digits;
    for (char c : text) {
      if (c != '.') digits += c;
    }
    ASSERT_EQ(std::strtoll(digits.c_str(), nullptr, 10), v) << text;
    if (scale > 0) {
      ASSERT_EQ(text.size() - text.find('.') - 1, static_cast<size_t>(scale)) << text;
    }
  }
}

// ---- floating point ----

TEST(FormatFloatTest, ShortestRoundTripDoubles) {
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(1.5), "1.5");
  EXPECT_EQ(FormatDouble(-0.0), "-0");
  EXPECT_EQ(FormatDouble(0.0), "0");
  EXPECT_EQ(FormatDouble(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(FormatDouble(5e-324), "5e-324");
  EXPECT_EQ(FormatDouble(1e300), "1e+300");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  EXPECT_EQ(FormatDouble(std::nan("")), "nan");
  EXPECT_EQ(FormatDouble(-std::nan("")), "nan");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  std::mt19937_64 rng(1);
  for (int i = 0; i < 5000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    if (!std::isfinite(d)) continue;
    std::string s = FormatDouble(d);
    ASSERT_EQ(std::strtod(s.c_str(), nullptr), d) << s;
  }
}

TEST(FormatFloatTest, ShortestRoundTripFloats) {
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatFloat(16777216.0f), "16777216");
  EXPECT_EQ(FormatFloat(std::numeric_limits<float>::max()), "3.4028235e+38");
  EXPECT_EQ(FormatFloat(std::numeric_limits<float>::denorm_min()), "1e-45");
  EXPECT_EQ(FormatFloat(-0.0f), "-0");
  EXPECT_EQ(FormatFloat(std::nanf("")), "nan");
  EXPECT_EQ(FormatFloat(-std::numeric_limits<float>::infinity()), "-inf");
  std::mt19937 rng(2);
  for (int i = 0; i < 5000; ++i) {
    uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    if (!std::isfinite(f)) continue;
    std::string s = FormatFloat(f);
    ASSERT_EQ(std::strtof(s.c_str(), nullptr), f) << s;
  }
}

TEST(HalfToFloatTest, NormalSubnormalSpecial) {
  EXPECT_EQ(HalfToFloat(0x0000), 0.0f);
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(HalfToFloat(0x7bff), 65504.0f);                  // largest normal
  EXPECT_EQ(HalfToFloat(0x0400), std::ldexp(1.0f, -14));     // smallest normal
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));     // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x03ff), std::ldexp(1023.0f, -24));  // largest subnormal
  EXPECT_EQ(HalfToFloat(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(HalfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7e00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0xfc01)));
  EXPECT_EQ(FormatFloat(HalfToFloat(0x0001)), "5.9604645e-08");
}

TEST(HalfToFloatTest, EveryHalfMatchesItsDefinition) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    float got = HalfToFloat(static_cast<uint16_t>(bits));
    if (exponent == 31) {
      ASSERT_EQ(std::isnan(got), mantissa != 0) << bits;
      if (mantissa == 0) {
        ASSERT_TRUE(std::isinf(got)) << bits;
      }
      continue;
    }
    double magnitude = exponent == 0 ? mantissa * std::pow(2.0, -24)
                                     : (1.0 + mantissa / 1024.0) * std::pow(2.0, exponent - 15);
    ASSERT_EQ(static_cast<double>(got), sign ? -magnitude : magnitude) << bits;
  }
}

// ---- bytes ----

TEST(FormatBytesTest, Hex) {
  EXPECT_EQ(FormatHex({}), "0x");
  EXPECT_EQ(FormatHex(Bytes({0x00, 0xab, 0xff, 0x10})), "0x00abff10");
}

TEST(FormatBytesTest, Uuid) {
  std::vector<uint8_t> u = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                            0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
  EXPECT_EQ(FormatUuid(Bytes(u)), "123e4567-e89b-12d3-a456-426614174000");
  u.pop_back();
  EXPECT_EQ(FormatUuid(Bytes(u)),
            "0x123e4567e89b12d3a45642661417"
            "40");
  EXPECT_EQ(FormatUuid({}), "0x");
}

TEST(FormatTextTest, ValidUtf8IsKept) {
  EXPECT_EQ(FormatText(""), "");
  EXPECT_EQ(FormatText("plain ascii ~"), "plain ascii ~");
  EXPECT_EQ(FormatText("h\xc3\xa9llo"), "h\xc3\xa9llo");          // é
  EXPECT_EQ(FormatText("\xe2\x82\xac"), "\xe2\x82\xac");          // €
  EXPECT_EQ(FormatText("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");  // U+1F600
  EXPECT_EQ(FormatText("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");  // U+10FFFF
  EXPECT_EQ(FormatText("\xef\xbf\xbd"), "\xef\xbf\xbd");          // U+FFFD itself
}

TEST(FormatTextTest, ControlCharactersAreEscaped) {
  EXPECT_EQ(FormatText(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(FormatText("tab\there\n"), "tab\\x09here\\x0a");
  EXPECT_EQ(FormatText("\x1f"), "\\x1f");
}

TEST(FormatTextTest, InvalidBytesAreEscapedOneByOne) {
  EXPECT_EQ(FormatText("\xff"), "\\xff");
  EXPECT_EQ(FormatText("a\x80z"), "a\\x80z");  // lone continuation byte
  EXPECT_EQ(FormatText("\xc3"), "\\xc3");      // truncated at the end
  EXPECT_EQ(FormatText("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(FormatText("\xe2\x82z"), "\\xe2\\x82z");  // broken in the middle
  EXPECT_EQ(FormatText("\xf8\x88\x80\x80\x80"), "\\xf8\\x88\\x80\\x80\\x80");  // 5-byte form
}

TEST(FormatTextTest, OverlongSurrogatesAndOutOfRangeAreInvalid) {
  // Well-formed UTF-8 (RFC 3629) excludes these, though their bit patterns look right.
  EXPECT_EQ(FormatText("\xc0\x80"), "\\xc0\\x80");                    // overlong NUL
  EXPECT_EQ(FormatText("\xc1\xbf"), "\\xc1\\xbf");                    // overlong '\x7f'
  EXPECT_EQ(FormatText("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong '/'
  EXPECT_EQ(FormatText("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");  // overlong '/'
  EXPECT_EQ(FormatText("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // U+D800, a surrogate
  EXPECT_EQ(FormatText("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");           // U+DFFF
  EXPECT_EQ(FormatText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // U+110000
  EXPECT_EQ(FormatText("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
  // Their neighbours are fine.
  EXPECT_EQ(FormatText("\xc2\x80"), "\xc2\x80");                  // U+0080
  EXPECT_EQ(FormatText("\xe0\xa0\x80"), "\xe0\xa0\x80");          // U+0800
  EXPECT_EQ(FormatText("\xed\x9f\xbf"), "\xed\x9f\xbf");          // U+D7FF
  EXPECT_EQ(FormatText("\xee\x80\x80"), "\xee\x80\x80");          // U+E000
  EXPECT_EQ(FormatText("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80");  // U+10000
}

TEST(FormatTextTest, OutputIsAlwaysValidUtf8) {
  // Whatever the input, the output decodes as UTF-8 (so JSON output never needs replacement).
  auto valid = [](const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
      auto b = static_cast<uint8_t>(s[i]);
      size_t len = b < 0x80                 ? 1
                   : b >= 0xc2 && b <= 0xdf ? 2
                   : b >= 0xe0 && b <= 0xef ? 3
                   : b >= 0xf0 && b <= 0xf4 ? 4
                                            : 0;
      if (len == 0 || i + len > s.size()) return false;
      uint32_t cp = len == 1 ? b : b & (0x7f >> len);
      for (size_t k = 1; k < len; ++k) {
        auto c = static_cast<uint8_t>(s[i + k]);
        if ((c >> 6) != 2) return false;
        cp = cp << 6 | (c & 0x3f);
      }
      const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
      i += len;
    }
    return true;
  };
  std::mt19937 rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 8, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 4 == 0 ? 0x80 | (rng() & 0x3f) : rng());
    std::string out = FormatText(s);
    ASSERT_TRUE(valid(out)) << FormatHex({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
  }
}

}  // namespace
}  // namespace pqsift
