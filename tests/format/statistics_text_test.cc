// RenderStatisticsValue: statistics bytes (PLAIN, no length prefix) as text in each physical
// and logical type, and nullopt for byte lengths that do not fit the type.
#include "format/statistics_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "testing/sample_metadata.h"

namespace pqsift::format {
namespace {

using Kind = LogicalType::Kind;
using pqsift::testing::DecimalLogical;
using pqsift::testing::IntLogical;
using pqsift::testing::MakeLogical;
using pqsift::testing::TemporalLogical;

ColumnDescriptor Col(PhysicalType type, LogicalType logical = {}, int32_t type_length = 0) {
  ColumnDescriptor c;
  c.path.assign(3, 'c');  // (GCC 12 warns falsely on assigning a short literal here)
  c.physical_type = type;
  c.logical_type = logical;
  c.type_length = type_length;
  return c;
}

template <typename T>
std::string LE(T v) {
  std::string s(sizeof v, '\0');
  std::memcpy(s.data(), &v, sizeof v);
  return s;
}

std::string Hex(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

std::string Render(std::string_view bytes, const ColumnDescriptor& c) {
  std::optional<std::string> r = RenderStatisticsValue(bytes, c);
  return r ? *r : "<nullopt>";
}

TEST(StatisticsTextTest, Boolean) {
  ColumnDescriptor c = Col(PhysicalType::kBoolean);
  EXPECT_EQ(Render(Hex({1}), c), "true");
  EXPECT_EQ(Render(Hex({0}), c), "false");
  EXPECT_EQ(Render("", c), "<nullopt>");
  EXPECT_EQ(Render(Hex({1, 0}), c), "<nullopt>");
}

TEST(StatisticsTextTest, PlainIntegers) {
  EXPECT_EQ(Render(LE<int32_t>(-5), Col(PhysicalType::kInt32)), "-5");
  EXPECT_EQ(Render(LE<int32_t>(INT32_MIN), Col(PhysicalType::kInt32)), "-2147483648");
  EXPECT_EQ(Render(LE<int64_t>(INT64_MAX), Col(PhysicalType::kInt64)), "9223372036854775807");
  EXPECT_EQ(Render(LE<int32_t>(7), Col(PhysicalType::kInt32, IntLogical(16, true))), "7");
  EXPECT_EQ(Render(LE<int32_t>(-1), Col(PhysicalType::kInt32, IntLogical(8, true))), "-1");
}

TEST(StatisticsTextTest, UnsignedIntegers) {
  EXPECT_EQ(Render(LE<int32_t>(-1), Col(PhysicalType::kInt32, IntLogical(32, false))),
            "4294967295");
  EXPECT_EQ(Render(LE<int32_t>(255), Col(PhysicalType::kInt32, IntLogical(8, false))), "255");
  EXPECT_EQ(Render(LE<int32_t>(65535), Col(PhysicalType::kInt32, IntLogical(16, false))), "65535");
  EXPECT_EQ(Render(LE<int64_t>(-1), Col(PhysicalType::kInt64, IntLogical(64, false))),
            "18446744073709551615");  // UINT_64 max
  EXPECT_EQ(Render(LE<int64_t>(INT64_MIN), Col(PhysicalType::kInt64, IntLogical(64, false))),
            "9223372036854775808");
}

TEST(StatisticsTextTest, Dates) {
  ColumnDescriptor c = Col(PhysicalType::kInt32, MakeLogical(Kind::kDate));
  EXPECT_EQ(Render(LE<int32_t>(20454), c), "2026-01-01");
  EXPECT_EQ(Render(LE<int32_t>(-1), c), "1969-12-31");
  EXPECT_EQ(Render(LE<int32_t>(INT32_MIN), c), "-5877641-06-23");
  // DATE on INT64 (not allowed by the spec, possible in a hostile file): no overflow.
  ColumnDescriptor wide = Col(PhysicalType::kInt64, MakeLogical(Kind::kDate));
  EXPECT_EQ(Render(LE<int64_t>(INT64_MAX), wide), "+25252734927768524-07-27");
  EXPECT_EQ(Render(LE<int64_t>(INT64_MIN), wide), "-25252734927764585-06-07");
}

TEST(StatisticsTextTest, Times) {
  EXPECT_EQ(
      Render(LE<int32_t>(45296789),
             Col(PhysicalType::kInt32, TemporalLogical(Kind::kTime, TimeUnit::kMillis, true))),
      "12:34:56.789");
  EXPECT_EQ(
      Render(LE<int64_t>(45296000001),
             Col(PhysicalType::kInt64, TemporalLogical(Kind::kTime, TimeUnit::kMicros, false))),
      "12:34:56.000001");
  EXPECT_EQ(Render(LE<int64_t>(1), Col(PhysicalType::kInt64,
                                       TemporalLogical(Kind::kTime, TimeUnit::kNanos, false))),
            "00:00:00.000000001");
}

TEST(StatisticsTextTest, TimestampsInEachUnit) {
  auto ts = [](TimeUnit unit, bool utc) {
    return Col(PhysicalType::kInt64, TemporalLogical(Kind::kTimestamp, unit, utc));
  };
  EXPECT_EQ(Render(LE<int64_t>(1700000000123), ts(TimeUnit::kMillis, true)),
            "2023-11-14 22:13:20.123+00");
  EXPECT_EQ(Render(LE<int64_t>(1700000000123456), ts(TimeUnit::kMicros, false)),
            "2023-11-14 22:13:20.123456");
  EXPECT_EQ(Render(LE<int64_t>(-1), ts(TimeUnit::kNanos, true)),
            "1969-12-31 23:59:59.999999999+00");
  EXPECT_EQ(Render(LE<int64_t>(-1500), ts(TimeUnit::kMillis, false)), "1969-12-31 23:59:58.5");
  EXPECT_EQ(Render(LE<int64_t>(INT64_MIN), ts(TimeUnit::kNanos, false)),
            "1677-09-21 00:12:43.145224192");
}

TEST(StatisticsTextTest, Int96) {
  ColumnDescriptor c = Col(PhysicalType::kInt96);
  auto int96 = [](int64_t nanos, int32_t julian_day) { return LE(nanos) + LE(julian_day); };
  EXPECT_EQ(Render(int96(0, 2440588), c), "1970-01-01 00:00:00");
  EXPECT_EQ(Render(int96(3600000000001, 2440589), c), "1970-01-02 01:00:00.000000001");
  EXPECT_EQ(Render(int96(0, 2440587), c), "1969-12-31 00:00:00");
  // 2009-03-01 (Julian day 2454892), a date Spark writes in parquet-testing's int96 file.
  EXPECT_EQ(Render(int96(0, 2454892), c), "2009-03-01 00:00:00");
  // Beyond the int64 nanosecond range: hex, not an overflowed date.
  EXPECT_EQ(Render(int96(0, INT32_MAX), c), "0x0000000000000000ffffff7f");
  EXPECT_EQ(Render(int96(INT64_MIN, INT32_MIN), c), "0x000000000000008000000080");
  EXPECT_EQ(Render(std::string(8, '\0'), c), "<nullopt>");
}

TEST(StatisticsTextTest, FloatsAndDoubles) {
  EXPECT_EQ(Render(LE<float>(1.5f), Col(PhysicalType::kFloat)), "1.5");
  EXPECT_EQ(Render(LE<float>(0.1f), Col(PhysicalType::kFloat)), "0.1");
  EXPECT_EQ(Render(LE<double>(0.1), Col(PhysicalType::kDouble)), "0.1");
  EXPECT_EQ(Render(LE<double>(-0.0), Col(PhysicalType::kDouble)), "-0");
  EXPECT_EQ(Render(LE<double>(std::nan("")), Col(PhysicalType::kDouble)), "nan");
  EXPECT_EQ(Render(LE<float>(-INFINITY), Col(PhysicalType::kFloat)), "-inf");
}

TEST(StatisticsTextTest, Float16) {
  ColumnDescriptor c = Col(PhysicalType::kFixedLenByteArray, MakeLogical(Kind::kFloat16), 2);
  EXPECT_EQ(Render(Hex({0x00, 0x3c}), c), "1");  // little endian 0x3c00
  EXPECT_EQ(Render(Hex({0x00, 0xc0}), c), "-2");
  EXPECT_EQ(Render(Hex({0x01, 0x00}), c), "5.9604645e-08");  // smallest subnormal
  EXPECT_EQ(Render(Hex({0xff, 0x7b}), c), "65504");
  EXPECT_EQ(Render(Hex({0x00, 0x7c}), c), "inf");
  EXPECT_EQ(Render(Hex({0x00, 0xfc}), c), "-inf");
  EXPECT_EQ(Render(Hex({0x00, 0x7e}), c), "nan");
  EXPECT_EQ(Render(Hex({0x00, 0x80}), c), "-0");
  EXPECT_EQ(Render(Hex({0x00}), c), "<nullopt>");
}

TEST(StatisticsTextTest, DecimalsFromEveryPhysicalType) {
  ColumnDescriptor i32 = Col(PhysicalType::kInt32, DecimalLogical(9, 2));
  EXPECT_EQ(Render(LE<int32_t>(-325), i32), "-3.25");
  EXPECT_EQ(Render(LE<int32_t>(1250), i32), "12.50");
  EXPECT_EQ(Render(LE<int32_t>(999999999), Col(PhysicalType::kInt32, DecimalLogical(9, 9))),
            "0.999999999");  // scale == precision
  EXPECT_EQ(Render(LE<int32_t>(-7), Col(PhysicalType::kInt32, DecimalLogical(5, 0))), "-7");
  ColumnDescriptor i64 = Col(PhysicalType::kInt64, DecimalLogical(18, 4));
  EXPECT_EQ(Render(LE<int64_t>(-123456789012345678), i64), "-12345678901234.5678");
  ColumnDescriptor flba = Col(PhysicalType::kFixedLenByteArray, DecimalLogical(38, 4), 16);
  std::string minus_one(16, '\xff');
  EXPECT_EQ(Render(minus_one, flba), "-0.0001");
  std::string max128(16, '\xff');
  max128[0] = 0x7f;
  EXPECT_EQ(Render(max128, flba), "17014118346046923173168730371588410.5727");
  ColumnDescriptor ba = Col(PhysicalType::kByteArray, DecimalLogical(30, 2));
  EXPECT_EQ(Render(Hex({0xfe, 0xd4}), ba), "-3.00");
  EXPECT_EQ(
      Render(Hex({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}), ba),
      "0.01");
  std::string wide(20, '\x00');  // 20 bytes: 2^152
  wide[0] = 0x01;
  EXPECT_EQ(Render(wide, Col(PhysicalType::kByteArray, DecimalLogical(60, 0))),
            "5708990770823839524233143877797980545530986496");
}

TEST(StatisticsTextTest, FixedLenByteArrayMustHaveItsExactWidth) {
  ColumnDescriptor flba = Col(PhysicalType::kFixedLenByteArray, DecimalLogical(38, 4), 16);
  EXPECT_EQ(Render(std::string(15, '\0'), flba), "<nullopt>");  // a truncated bound
  EXPECT_EQ(Render(std::string(17, '\0'), flba), "<nullopt>");
  ColumnDescriptor plain = Col(PhysicalType::kFixedLenByteArray, {}, 3);
  EXPECT_EQ(Render(Hex({0xab, 0x00, 0x01}), plain), "0xab0001");
  EXPECT_EQ(Render(Hex({0xab}), plain), "<nullopt>");
}

TEST(StatisticsTextTest, Uuid) {
  ColumnDescriptor c = Col(PhysicalType::kFixedLenByteArray, MakeLogical(Kind::kUuid), 16);
  std::string u = Hex({0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14,
                       0x17, 0x40, 0x00});
  EXPECT_EQ(Render(u, c), "123e4567-e89b-12d3-a456-426614174000");
}

TEST(StatisticsTextTest, TextAndBinary) {
  ColumnDescriptor str = Col(PhysicalType::kByteArray, MakeLogical(Kind::kString));
  EXPECT_EQ(Render("hello", str), "hello");
  EXPECT_EQ(Render("", str), "");
  EXPECT_EQ(Render("bad\xff", str), "bad\\xff");
  EXPECT_EQ(Render("\xc0\x80", str), "\\xc0\\x80");
  EXPECT_EQ(Render("{\"a\":1}", Col(PhysicalType::kByteArray, MakeLogical(Kind::kJson))),
            "{\"a\":1}");
  EXPECT_EQ(Render("RED", Col(PhysicalType::kByteArray, MakeLogical(Kind::kEnum))), "RED");
  // Plain binary and BSON: hex.
  EXPECT_EQ(Render("hi", Col(PhysicalType::kByteArray)), "0x6869");
  EXPECT_EQ(Render("", Col(PhysicalType::kByteArray)), "0x");
  EXPECT_EQ(Render("hi", Col(PhysicalType::kByteArray, MakeLogical(Kind::kBson))), "0x6869");
}

TEST(StatisticsTextTest, WrongByteLengthsAreNullopt) {
  struct Case {
    PhysicalType type;
    size_t bad_length;
  };
  for (Case c :
       {Case{PhysicalType::kInt32, 3}, Case{PhysicalType::kInt32, 8}, Case{PhysicalType::kInt64, 4},
        Case{PhysicalType::kInt64, 0}, Case{PhysicalType::kInt96, 8},
        Case{PhysicalType::kInt96, 16}, Case{PhysicalType::kFloat, 8},
        Case{PhysicalType::kDouble, 4}, Case{PhysicalType::kBoolean, 4}}) {
    SCOPED_TRACE(PhysicalTypeName(c.type) + " of " + std::to_string(c.bad_length));
    EXPECT_EQ(Render(std::string(c.bad_length, '\x01'), Col(c.type)), "<nullopt>");
    // A logical type does not change that.
    EXPECT_EQ(Render(std::string(c.bad_length, '\x01'), Col(c.type, DecimalLogical(9, 2))),
              "<nullopt>");
  }
  EXPECT_EQ(Render("abcd", Col(static_cast<PhysicalType>(99))), "<nullopt>");
}

TEST(StatisticsTextTest, HugeDecimalScaleIsNotRenderedAsMegabytesOfZeros) {
  // BYTE_ARRAY decimals have no precision limit in the spec, so Schema::Build accepts
  // DECIMAL(20000000, 20000000); rendering a one-byte bound must not build a 20 MB string
  // (with scale 2^31-1 it would be gigabytes: unbounded allocation from a few footer bytes).
  ColumnDescriptor c = Col(PhysicalType::kByteArray, DecimalLogical(20'000'000, 20'000'000));
  std::optional<std::string> text = RenderStatisticsValue(Hex({0x05}), c);
  if (text) {
    EXPECT_LE(text->size(), 4096u) << "rendered " << text->size() << " characters";
  }
}

}  // namespace
}  // namespace pqsift::format
