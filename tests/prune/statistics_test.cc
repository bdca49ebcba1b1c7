// The trust rules of prune/statistics.h: one test per rule, each with statistics crafted to
// break it, plus parquet-testing files that exercise a rule.
#include "prune/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <limits>

#include "column/arrow_type.h"
#include "testing/parquet_files.h"

namespace pqsift::prune {
namespace {

using expr::int128;
using expr::Value;
using Kind = LogicalType::Kind;

template <typename T>
std::string LE(T v) {
  std::string s(sizeof v, '\0');
  std::memcpy(s.data(), &v, sizeof v);
  return s;
}

LogicalType Logical(Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}
LogicalType IntType(int8_t bits, bool is_signed) {
  LogicalType t = Logical(Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}
LogicalType DecimalType(int32_t precision, int32_t scale) {
  LogicalType t = Logical(Kind::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

ColumnDescriptor Column(PhysicalType physical, LogicalType logical = {},
                        std::optional<ColumnOrder> order = ColumnOrder::kTypeDefined,
                        int32_t type_length = 0) {
  ColumnDescriptor c;
  c.path = "c";
  c.physical_type = physical;
  c.logical_type = logical;
  c.column_order = order;
  c.type_length = type_length;
  c.max_definition_level = 1;
  return c;
}

class StatisticsTest : public ::testing::Test {
 protected:
  // A view that outlives the Statistics that holds it.
  std::string_view Keep(std::string bytes) { return storage_.emplace_back(std::move(bytes)); }

  Statistics NewStats(std::string min, std::string max, std::optional<int64_t> nulls = 0) {
    Statistics s;
    s.min_value = Keep(std::move(min));
    s.max_value = Keep(std::move(max));
    s.null_count = nulls;
    return s;
  }
  Statistics OldStats(std::string min, std::string max, std::optional<int64_t> nulls = 0) {
    Statistics s;
    s.min = Keep(std::move(min));
    s.max = Keep(std::move(max));
    s.null_count = nulls;
    return s;
  }

  static ColumnBounds Bounds(const ColumnDescriptor& c, const Statistics& s,
                             int64_t num_rows = 100) {
    Result<std::shared_ptr<const DataType>> type = column::ArrowTypeForLeaf(c);
    EXPECT_TRUE(type.ok()) << type.status().ToString();
    if (!type.ok()) return {};
    return BoundsFromStatistics(c, **type, s, num_rows);
  }

  std::deque<std::string> storage_;
};

void ExpectInt(const std::optional<Value>& v, int128 expected) {
  ASSERT_TRUE(v.has_value());
  ASSERT_EQ(v->kind, Value::Kind::kInt);
  EXPECT_TRUE(v->i == expected) << expr::DebugString(*v);
}
void ExpectFloat(const std::optional<Value>& v, double expected) {
  ASSERT_TRUE(v.has_value());
  ASSERT_EQ(v->kind, Value::Kind::kFloat);
  EXPECT_EQ(v->f, expected);
}
void ExpectNoBounds(const ColumnBounds& b) {
  EXPECT_FALSE(b.min.has_value()) << expr::DebugString(*b.min);
  EXPECT_FALSE(b.max.has_value()) << expr::DebugString(*b.max);
}

TEST_F(StatisticsTest, SignedIntFromMinMaxValueUnderTypeDefinedOrder) {
  ColumnBounds b = Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(-5), LE<int32_t>(7)));
  ExpectInt(b.min, -5);
  ExpectInt(b.max, 7);
  EXPECT_EQ(b.null_count, 0);
  EXPECT_EQ(b.num_rows, 100);
  EXPECT_FALSE(b.may_contain_nan);
}

TEST_F(StatisticsTest, MinMaxValueWithoutColumnOrderIsIgnored) {
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt64, {}, std::nullopt),
                        NewStats(LE<int64_t>(1), LE<int64_t>(2))));
}

TEST_F(StatisticsTest, MinMaxValueUnderUnknownColumnOrderIsIgnored) {
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt64, {}, ColumnOrder::kUnknown),
                        NewStats(LE<int64_t>(1), LE<int64_t>(2))));
}

TEST_F(StatisticsTest, DeprecatedMinMaxTrustedForSignedIntegersWithoutColumnOrder) {
  ColumnBounds b = Bounds(Column(PhysicalType::kInt64, {}, std::nullopt),
                          OldStats(LE<int64_t>(-9), LE<int64_t>(9)));
  ExpectInt(b.min, -9);
  ExpectInt(b.max, 9);
}

TEST_F(StatisticsTest, DeprecatedMinMaxTrustedForDatesTimestampsAndIntDecimals) {
  ColumnBounds date = Bounds(Column(PhysicalType::kInt32, Logical(Kind::kDate), std::nullopt),
                             OldStats(LE<int32_t>(10), LE<int32_t>(20)));
  ExpectInt(date.min, 10);
  LogicalType ts = Logical(Kind::kTimestamp);
  ts.unit = TimeUnit::kMillis;
  ColumnBounds stamp = Bounds(Column(PhysicalType::kInt64, ts, std::nullopt),
                              OldStats(LE<int64_t>(1000), LE<int64_t>(2000)));
  ExpectInt(stamp.max, 2000);
  ColumnBounds dec = Bounds(Column(PhysicalType::kInt32, DecimalType(9, 2), std::nullopt),
                            OldStats(LE<int32_t>(-150), LE<int32_t>(250)));
  ExpectInt(dec.min, -150);
  ExpectInt(dec.max, 250);
}

TEST_F(StatisticsTest, UnsignedIntUsesUnsignedValueFromMinMaxValue) {
  ColumnBounds b = Bounds(Column(PhysicalType::kInt32, IntType(32, false)),
                          NewStats(LE<int32_t>(1), LE<int32_t>(-1)));  // 1 .. 2^32-1
  ExpectInt(b.min, 1);
  ExpectInt(b.max, 4294967295LL);
  ColumnBounds b64 = Bounds(Column(PhysicalType::kInt64, IntType(64, false)),
                            NewStats(LE<int64_t>(0), LE<int64_t>(-1)));
  ExpectInt(b64.max, (int128{1} << 64) - 1);
}

TEST_F(StatisticsTest, UnsignedIntRefusesDeprecatedSignedMinMax) {
  // Values 1 and 2^31 + 1 sorted by signed comparison: min 2^31+1, max 1. Read as unsigned
  // they would not bound the values; refused outright.
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32, IntType(32, false), std::nullopt),
                        OldStats(LE<int32_t>(INT32_MIN + 1), LE<int32_t>(1))));
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32, IntType(8, false), std::nullopt),
                        OldStats(LE<int32_t>(1), LE<int32_t>(2))));
}

TEST_F(StatisticsTest, NarrowIntegerBoundOutsideItsTypeIsNoBound) {
  // The decoder narrows INT32 to int8 / uint8; a claimed 300 cannot be a decoded value.
  ColumnBounds s8 = Bounds(Column(PhysicalType::kInt32, IntType(8, true)),
                           NewStats(LE<int32_t>(-3), LE<int32_t>(300)));
  ExpectNoBounds(s8);  // one impossible claim makes the other suspect too
  ColumnBounds u8 = Bounds(Column(PhysicalType::kInt32, IntType(8, false)),
                           NewStats(LE<int32_t>(0), LE<int32_t>(255)));
  ExpectInt(u8.max, 255);
  ColumnBounds u16 = Bounds(Column(PhysicalType::kInt32, IntType(16, false)),
                            NewStats(LE<int32_t>(0), LE<int32_t>(70000)));
  EXPECT_FALSE(u16.max.has_value());
}

TEST_F(StatisticsTest, TemporalBoundsStayInTheColumnsUnit) {
  LogicalType ts = Logical(Kind::kTimestamp);
  ts.unit = TimeUnit::kMillis;
  ColumnBounds b = Bounds(Column(PhysicalType::kInt64, ts),
                          NewStats(LE<int64_t>(1700000000000), LE<int64_t>(1700000001000)));
  ExpectInt(b.min, 1700000000000);
  LogicalType time = Logical(Kind::kTime);
  time.unit = TimeUnit::kMillis;
  ColumnBounds t =
      Bounds(Column(PhysicalType::kInt32, time), NewStats(LE<int32_t>(5), LE<int32_t>(6)));
  ExpectInt(t.max, 6);
}

TEST_F(StatisticsTest, DecimalsOnBytesAreSignedBigEndianUnscaled) {
  // -2 .. 258 on FIXED_LEN_BYTE_ARRAY(3).
  ColumnBounds flba = Bounds(
      Column(PhysicalType::kFixedLenByteArray, DecimalType(7, 2), ColumnOrder::kTypeDefined, 3),
      NewStats(std::string("\xff\xff\xfe", 3), std::string("\x00\x01\x02", 3)));
  ExpectInt(flba.min, -2);
  ExpectInt(flba.max, 258);
  ColumnBounds ba = Bounds(Column(PhysicalType::kByteArray, DecimalType(38, 0)),
                           NewStats(std::string("\x80", 1), std::string(16, '\x7f')));
  ExpectInt(ba.min, -128);
  ASSERT_TRUE(ba.max.has_value());
  EXPECT_TRUE(ba.max->i > 0);
  // Longer than 16 bytes: no bound.
  ColumnBounds wide = Bounds(Column(PhysicalType::kByteArray, DecimalType(38, 0)),
                             NewStats(std::string(17, '\0'), std::string(17, '\0')));
  ExpectNoBounds(wide);
}

TEST_F(StatisticsTest, DeprecatedMinMaxRefusedForDecimalsOnBytes) {
  ExpectNoBounds(
      Bounds(Column(PhysicalType::kFixedLenByteArray, DecimalType(7, 2), std::nullopt, 3),
             OldStats(std::string("\x00\x00\x01", 3), std::string("\x00\x00\x02", 3))));
}

TEST_F(StatisticsTest, StringsUseMinMaxValueAndRefuseDeprecatedFields) {
  ColumnBounds b = Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kString)),
                          NewStats("apple", "\xc3\xa9t\xc3\xa9"));
  ASSERT_TRUE(b.min && b.max);
  EXPECT_EQ(b.min->bytes, "apple");
  EXPECT_EQ(b.max->bytes, "\xc3\xa9t\xc3\xa9");
  // Signed byte order puts "\xc3..." before "apple": the deprecated fields are never used.
  ExpectNoBounds(Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kString)),
                        OldStats("\xc3\xa9t\xc3\xa9", "apple")));
  ExpectNoBounds(Bounds(Column(PhysicalType::kByteArray, {}, std::nullopt), OldStats("a", "b")));
}

TEST_F(StatisticsTest, FixedLenByteArrayBoundOfAnotherWidthIsNoBound) {
  ColumnDescriptor c = Column(PhysicalType::kFixedLenByteArray, {}, ColumnOrder::kTypeDefined, 4);
  ExpectNoBounds(Bounds(c, NewStats("abcd", "abc")));
  ColumnBounds ok = Bounds(c, NewStats("abcd", "abcz"));
  ASSERT_TRUE(ok.min && ok.max);
  EXPECT_EQ(ok.max->bytes, "abcz");
}

TEST_F(StatisticsTest, Float16DecodesHalfPrecision) {
  ColumnDescriptor c = Column(PhysicalType::kFixedLenByteArray, Logical(Kind::kFloat16),
                              ColumnOrder::kTypeDefined, 2);
  ColumnBounds b = Bounds(c, NewStats(LE<uint16_t>(0xbc00), LE<uint16_t>(0x4000)));
  ExpectFloat(b.min, -1.0);
  ExpectFloat(b.max, 2.0);
}

TEST_F(StatisticsTest, Int96HasNoBounds) {
  std::string twelve(12, '\x01');
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt96), NewStats(twelve, twelve)));
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt96, {}, std::nullopt), OldStats(twelve, twelve)));
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt96, {}, ColumnOrder::kInt96Timestamp),
                        NewStats(twelve, twelve)));
}

TEST_F(StatisticsTest, IntervalHasNoDefinedOrder) {
  std::string twelve(12, '\x01');
  ExpectNoBounds(Bounds(Column(PhysicalType::kFixedLenByteArray, Logical(Kind::kInterval),
                               ColumnOrder::kTypeDefined, 12),
                        NewStats(twelve, twelve)));
}

TEST_F(StatisticsTest, FloatNaNBoundIsNoBound) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnBounds b = Bounds(Column(PhysicalType::kDouble), NewStats(LE(nan), LE(3.0)));
  EXPECT_FALSE(b.min.has_value());
  ExpectFloat(b.max, 3.0);
  ColumnBounds c =
      Bounds(Column(PhysicalType::kDouble, {}, std::nullopt), OldStats(LE(1.0), LE(nan)));
  ExpectFloat(c.min, 1.0);
  EXPECT_FALSE(c.max.has_value());
  ColumnBounds f = Bounds(Column(PhysicalType::kFloat), NewStats(LE(std::nanf("")), LE(2.5f)));
  EXPECT_FALSE(f.min.has_value());
  ExpectFloat(f.max, 2.5);
}

TEST_F(StatisticsTest, FloatZeroBoundsAreWidenedToTheOutsideZero) {
  ColumnBounds b = Bounds(Column(PhysicalType::kDouble), NewStats(LE(0.0), LE(-0.0)));
  ASSERT_TRUE(b.min && b.max);
  EXPECT_TRUE(std::signbit(b.min->f));   // +0 read as -0: the chunk may hold -0
  EXPECT_FALSE(std::signbit(b.max->f));  // -0 read as +0
}

TEST_F(StatisticsTest, FloatMayContainNaNUnlessNaNCountIsZero) {
  Statistics s = NewStats(LE(1.0), LE(2.0));
  EXPECT_TRUE(Bounds(Column(PhysicalType::kDouble), s).may_contain_nan);
  s.nan_count = 3;
  EXPECT_TRUE(Bounds(Column(PhysicalType::kDouble), s).may_contain_nan);
  s.nan_count = 0;
  EXPECT_FALSE(Bounds(Column(PhysicalType::kDouble), s).may_contain_nan);
}

TEST_F(StatisticsTest, AllNaNChunkIsTheNaNPoint) {
  Statistics s;
  s.null_count = 10;
  s.nan_count = 90;
  ColumnBounds b = Bounds(Column(PhysicalType::kDouble), s, 100);
  ASSERT_TRUE(b.min && b.max);
  EXPECT_TRUE(std::isnan(b.min->f) && std::isnan(b.max->f));
  s.nan_count = 89;  // one value is neither NULL nor NaN: nothing known
  ExpectNoBounds(Bounds(Column(PhysicalType::kDouble), s, 100));
}

TEST_F(StatisticsTest, Ieee754TotalOrderTrustedForFloatsOnly) {
  ColumnBounds d = Bounds(Column(PhysicalType::kDouble, {}, ColumnOrder::kIeee754TotalOrder),
                          NewStats(LE(-1.5), LE(8.0)));
  ExpectFloat(d.min, -1.5);
  ExpectFloat(d.max, 8.0);
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32, {}, ColumnOrder::kIeee754TotalOrder),
                        NewStats(LE<int32_t>(1), LE<int32_t>(2))));
}

TEST_F(StatisticsTest, InexactBoundsAreStillBoundsButNotValues) {
  Statistics s = NewStats("ab", "ac");
  s.is_min_value_exact = false;
  s.is_max_value_exact = true;
  ColumnBounds b = Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kString)), s);
  ASSERT_TRUE(b.min && b.max);
  EXPECT_FALSE(b.min_is_exact);
  EXPECT_TRUE(b.max_is_exact);
  Statistics unflagged = NewStats("ab", "ac");
  EXPECT_FALSE(
      Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kString)), unflagged).max_is_exact);
}

TEST_F(StatisticsTest, NullCountAbsentIsUnknownNotZero) {
  ColumnBounds b =
      Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(1), LE<int32_t>(2), std::nullopt));
  EXPECT_FALSE(b.null_count.has_value());
  EXPECT_FALSE(BoundsFromStatistics(Column(PhysicalType::kInt32), *Int32(), std::nullopt, 5)
                   .null_count.has_value());
}

TEST_F(StatisticsTest, RequiredColumnHasNoNullsWithoutStatistics) {
  ColumnDescriptor c = Column(PhysicalType::kInt32);
  c.max_definition_level = 0;
  EXPECT_EQ(BoundsFromStatistics(c, *Int32(), std::nullopt, 5).null_count, 0);
  EXPECT_EQ(Bounds(c, NewStats(LE<int32_t>(1), LE<int32_t>(2), std::nullopt)).null_count, 0);
  // A claim of NULLs in a column that cannot hold any is not believed.
  EXPECT_EQ(Bounds(c, NewStats(LE<int32_t>(1), LE<int32_t>(2), 100)).null_count, 0);
  c.max_repetition_level = 1;
  EXPECT_FALSE(BoundsFromStatistics(c, *Int32(), std::nullopt, 5).null_count.has_value());
}

TEST_F(StatisticsTest, ImpossibleNullCountIsUnknown) {
  EXPECT_FALSE(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(1), LE<int32_t>(2), -1))
                   .null_count.has_value());
  EXPECT_FALSE(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(1), LE<int32_t>(2), 101))
                   .null_count.has_value());
  EXPECT_EQ(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(1), LE<int32_t>(2), 100))
                .null_count,
            100);
}

TEST_F(StatisticsTest, RepeatedColumnNullCountCountsValuesNotRows) {
  ColumnDescriptor c = Column(PhysicalType::kInt32);
  c.max_repetition_level = 1;
  EXPECT_FALSE(Bounds(c, NewStats(LE<int32_t>(1), LE<int32_t>(2), 3)).null_count.has_value());
}

// Definition level histograms (SizeStatistics, column index): a second witness of the null
// count of a non-repeated column. `s.a` under an optional struct `s` has max level 2: level 0
// is a NULL `s`, level 1 a NULL `a` in a present `s`, level 2 a value; both NULL levels make
// `s.a IS NULL` TRUE (DuckDB), so the null count is every entry below 2.
ColumnDescriptor StructField() {
  ColumnDescriptor c = Column(PhysicalType::kInt32);
  c.path = "s.a";
  c.max_definition_level = 2;
  return c;
}

TEST_F(StatisticsTest, LevelHistogramGivesTheNullCountWhenStatisticsHaveNone) {
  const std::vector<int64_t> levels = {30, 5, 65};
  ColumnBounds b = BoundsFromStatistics(
      StructField(), *Int32(), NewStats(LE<int32_t>(1), LE<int32_t>(2), std::nullopt), 100, levels);
  EXPECT_EQ(b.null_count, 35);
  EXPECT_TRUE(b.null_count_from_levels);
  ExpectInt(b.min, 1);
  // No statistics at all: the histogram alone.
  b = BoundsFromStatistics(StructField(), *Int32(), std::nullopt, 100,
                           std::vector<int64_t>{0, 0, 100});
  EXPECT_EQ(b.null_count, 0);
  b = BoundsFromStatistics(StructField(), *Int32(), std::nullopt, 100,
                           std::vector<int64_t>{60, 40, 0});
  EXPECT_EQ(b.null_count, 100);
  // Agreeing witnesses: the statistics' (not marked as from levels).
  b = BoundsFromStatistics(StructField(), *Int32(), NewStats(LE<int32_t>(1), LE<int32_t>(2), 35),
                           100, levels);
  EXPECT_EQ(b.null_count, 35);
  EXPECT_FALSE(b.null_count_from_levels);
}

TEST_F(StatisticsTest, DisagreeingNullCountAndHistogramAreBothUntrusted) {
  // A null_count of 5 that left out the 30 rows whose struct is NULL, against levels that
  // count them: one of the claims is wrong, and which one is unknown, so neither is believed.
  ColumnBounds b =
      BoundsFromStatistics(StructField(), *Int32(), NewStats(LE<int32_t>(1), LE<int32_t>(2), 5),
                           100, std::vector<int64_t>{30, 5, 65});
  EXPECT_FALSE(b.null_count.has_value());
  ExpectInt(b.max, 2);  // the bounds are another claim, still believed
  b = BoundsFromStatistics(StructField(), *Int32(), NewStats(LE<int32_t>(1), LE<int32_t>(2), 0),
                           100, std::vector<int64_t>{1, 0, 99});
  EXPECT_FALSE(b.null_count.has_value());
}

TEST_F(StatisticsTest, MalformedHistogramProvesNothing) {
  auto nulls = [](const std::vector<int64_t>& h, int64_t rows = 100) {
    return BoundsFromStatistics(StructField(), *Int32(), std::nullopt, rows, h).null_count;
  };
  EXPECT_FALSE(nulls({0, 100}).has_value());        // max + 1 counts needed: too short
  EXPECT_FALSE(nulls({0, 0, 100, 0}).has_value());  // too long
  EXPECT_FALSE(nulls({0, 0, 99}).has_value());      // adds up to 99 entries, not 100 rows
  EXPECT_FALSE(nulls({0, 0, 101}).has_value());     // more entries than rows
  EXPECT_FALSE(nulls({-1, 1, 100}).has_value());    // a negative count
  EXPECT_FALSE(nulls({INT64_MAX, INT64_MAX, 2}, 0).has_value());  // the sum overflows
  EXPECT_FALSE(nulls({}).has_value());                            // none
  // A malformed histogram leaves the statistics' own null count alone.
  EXPECT_EQ(
      BoundsFromStatistics(StructField(), *Int32(), NewStats(LE<int32_t>(1), LE<int32_t>(2), 7),
                           100, std::vector<int64_t>{1, 2})
          .null_count,
      7);
}

TEST_F(StatisticsTest, HistogramOfARepeatedColumnCountsEntriesNotRows) {
  // l.list.element (max rep 1, max def 3): 100 rows, but a row holds any number of entries,
  // and one whose histogram happens to add up to the row count still says nothing per row.
  ColumnDescriptor c = Column(PhysicalType::kInt32);
  c.max_definition_level = 3;
  c.max_repetition_level = 1;
  EXPECT_FALSE(NullRowsFromLevels(c, std::vector<int64_t>{0, 0, 0, 100}, 100).has_value());
  EXPECT_FALSE(
      BoundsFromStatistics(c, *Int32(), std::nullopt, 100, std::vector<int64_t>{0, 0, 0, 100})
          .null_count.has_value());
  // A required column needs no histogram (and none is written).
  ColumnDescriptor required = Column(PhysicalType::kInt32);
  required.max_definition_level = 0;
  EXPECT_FALSE(NullRowsFromLevels(required, std::vector<int64_t>{100}, 100).has_value());
  EXPECT_EQ(BoundsFromStatistics(required, *Int32(), std::nullopt, 100).null_count, 0);
}

TEST_F(StatisticsTest, ChunkHistogramMustAddUpToTheChunksValueCount) {
  ColumnMetaData chunk;
  chunk.num_values = 100;
  chunk.size_statistics.emplace();
  chunk.size_statistics->definition_level_histogram = {10, 0, 90};
  EXPECT_EQ(BoundsFromChunk(StructField(), *Int32(), chunk, 100).null_count, 10);
  chunk.num_values = 101;  // the footer's value count disagrees: not this chunk's histogram
  EXPECT_FALSE(BoundsFromChunk(StructField(), *Int32(), chunk, 100).null_count.has_value());
  chunk.num_values = 100;
  chunk.size_statistics.reset();
  EXPECT_FALSE(BoundsFromChunk(StructField(), *Int32(), chunk, 100).null_count.has_value());
}

TEST_F(StatisticsTest, PageIndexHistogramsGiveEachPagesNullCount) {
  // Three pages of s.a (max level 2), no null_counts: pages of 10, 20 and 30 rows.
  format::ColumnIndex index;
  index.null_pages = {false, true, false};
  index.min_values = {Keep(LE<int32_t>(1)), "", Keep(LE<int32_t>(5))};
  index.max_values = {Keep(LE<int32_t>(4)), "", Keep(LE<int32_t>(9))};
  index.definition_level_histograms = {0, 0, 10, 15, 5, 0, 3, 0, 27};
  ColumnBounds p0 = BoundsFromPageIndex(StructField(), *Int32(), index, 0, 10);
  EXPECT_EQ(p0.null_count, 0);
  ExpectInt(p0.min, 1);
  ColumnBounds p1 = BoundsFromPageIndex(StructField(), *Int32(), index, 1, 20);
  EXPECT_EQ(p1.null_count, 20);  // the null page confirmed by its levels
  ExpectNoBounds(p1);
  ColumnBounds p2 = BoundsFromPageIndex(StructField(), *Int32(), index, 2, 30);
  EXPECT_EQ(p2.null_count, 3);
  // A page whose histogram does not add up to its rows (offset index) proves nothing.
  EXPECT_FALSE(BoundsFromPageIndex(StructField(), *Int32(), index, 2, 31).null_count.has_value());
  // A null page whose levels say it holds values: nothing known (as an unconfirmed null count).
  index.definition_level_histograms = {0, 0, 10, 0, 0, 20, 3, 0, 27};
  p1 = BoundsFromPageIndex(StructField(), *Int32(), index, 1, 20);
  EXPECT_FALSE(p1.null_count.has_value());
  // A list of the wrong length (not 3 counts per page) is not used for any page.
  index.definition_level_histograms = {0, 0, 10, 15, 5, 0, 3, 0};
  EXPECT_FALSE(BoundsFromPageIndex(StructField(), *Int32(), index, 0, 10).null_count.has_value());
  // Disagreeing with null_counts: unknown.
  index.definition_level_histograms = {0, 0, 10, 15, 5, 0, 3, 0, 27};
  index.null_counts = std::vector<int64_t>{0, 20, 2};
  EXPECT_EQ(BoundsFromPageIndex(StructField(), *Int32(), index, 0, 10).null_count, 0);
  EXPECT_FALSE(BoundsFromPageIndex(StructField(), *Int32(), index, 2, 30).null_count.has_value());
}

TEST_F(StatisticsTest, AllNullChunkWithoutMinMax) {
  Statistics s;
  s.null_count = 100;
  ColumnBounds b = Bounds(Column(PhysicalType::kInt32), s);
  ExpectNoBounds(b);
  EXPECT_EQ(b.null_count, 100);
}

TEST_F(StatisticsTest, MalformedStatisticsGiveNoBoundsNotErrors) {
  // Wrong lengths.
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int64_t>(1), "")));
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(1), "")));
  ExpectNoBounds(Bounds(Column(PhysicalType::kDouble), NewStats(LE<float>(1), LE<float>(2))));
  // min > max.
  ExpectNoBounds(Bounds(Column(PhysicalType::kInt32), NewStats(LE<int32_t>(5), LE<int32_t>(4))));
  ExpectNoBounds(
      Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kString)), NewStats("b", "a")));
  // A boolean is one bit in one byte.
  ExpectNoBounds(Bounds(Column(PhysicalType::kBoolean), NewStats("\x02", "\x01")));
}

TEST_F(StatisticsTest, BooleanBounds) {
  ColumnBounds b = Bounds(Column(PhysicalType::kBoolean, {}, std::nullopt),
                          OldStats(std::string("\x00", 1), "\x01"));
  ASSERT_TRUE(b.min && b.max);
  EXPECT_FALSE(b.min->b);
  EXPECT_TRUE(b.max->b);
}

TEST_F(StatisticsTest, UnrecognizedLogicalTypeRefusesTypeDefinedBounds) {
  ExpectNoBounds(
      Bounds(Column(PhysicalType::kByteArray, Logical(Kind::kUnrecognized)), NewStats("a", "b")));
}

// parquet-testing files: the bounds each rule leaves, column by column.
ColumnBounds FileBounds(const testing::OpenedFile& f, const std::string& path, int row_group = 0) {
  const ColumnDescriptor* c = f.metadata->schema().FindColumn(path);
  EXPECT_NE(c, nullptr) << path;
  if (c == nullptr) return {};
  auto type = column::ArrowTypeForLeaf(*c);
  EXPECT_TRUE(type.ok());
  if (!type.ok()) return {};
  int leaf = static_cast<int>(c - f.metadata->schema().columns().data());
  const RowGroup& rg = f.metadata->file().row_groups[row_group];
  return BoundsFromStatistics(*c, **type, rg.columns[leaf].meta_data->statistics, rg.num_rows);
}

TEST(StatisticsFiles, DeprecatedOnlyStatsTrustedForIntDecimalNotForByteDecimal) {
  PQSIFT_TESTING_FILE_OR_SKIP(int_path, "int32_decimal.parquet");
  testing::OpenedFile ints = testing::OpenParquet(int_path);
  ASSERT_NE(ints.metadata, nullptr);
  ASSERT_EQ(ints.metadata->schema().num_columns(), 1u);
  std::string name = ints.metadata->schema().columns()[0].path;
  ColumnBounds b = FileBounds(ints, name);
  // The file holds 1.00 .. 24.00 as DECIMAL(4,2) on INT32.
  ExpectInt(b.min, 100);
  ExpectInt(b.max, 2400);

  PQSIFT_TESTING_FILE_OR_SKIP(flba_path, "fixed_length_decimal.parquet");
  testing::OpenedFile flba = testing::OpenParquet(flba_path);
  ASSERT_NE(flba.metadata, nullptr);
  ColumnBounds f = FileBounds(flba, flba.metadata->schema().columns()[0].path);
  ExpectNoBounds(f);  // deprecated min/max on bytes: never
}

TEST(StatisticsFiles, Int96ColumnOfSparkFileHasNoBounds) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
  testing::OpenedFile f = testing::OpenParquet(path);
  ASSERT_NE(f.metadata, nullptr);
  ExpectNoBounds(FileBounds(f, "timestamp_col"));
  ColumnBounds id = FileBounds(f, "id");
  ASSERT_TRUE(id.min && id.max);
  EXPECT_TRUE(id.min->i <= id.max->i);
  EXPECT_EQ(id.null_count, 0);
}

TEST(StatisticsFiles, DeprecatedOnlyStatsOfParquetMr18) {
  // parquet-mr 1.8.1 wrote only the deprecated fields, and no column orders.
  PQSIFT_TESTING_FILE_OR_SKIP(path, "datapage_v2.snappy.parquet");
  testing::OpenedFile f = testing::OpenParquet(path);
  ASSERT_NE(f.metadata, nullptr);
  ColumnBounds a = FileBounds(f, "a");  // a string: signed byte order, refused
  ExpectNoBounds(a);
  EXPECT_EQ(a.null_count, 1);
  ColumnBounds b = FileBounds(f, "b");  // INT32: signed order is its order
  ExpectInt(b.min, 1);
  ExpectInt(b.max, 5);
  ColumnBounds d = FileBounds(f, "d");  // BOOLEAN
  ASSERT_TRUE(d.min && d.max);
  EXPECT_FALSE(d.min->b);
  EXPECT_TRUE(d.max->b);
  ColumnBounds e = FileBounds(f, "e.list.element");  // repeated: null count counts values
  EXPECT_FALSE(e.null_count.has_value());
}

}  // namespace
}  // namespace pqsift::prune
