// variant_get (src/variant/get.h): paths and conversions over an arrow.parquet.variant array,
// NULL for missing paths, Variant nulls and values that do not convert.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/layout.h"
#include "variant/builder.h"
#include "variant/get.h"
#include "variant/shredding.h"

namespace pqsift::variant {
namespace {

std::span<const uint8_t> Span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Dictionary: a, b (sorted).
const std::string kMetadata(
    "\x11\x02\x00\x01\x02"
    "ab",
    7);

// One row per value; nullopt is a NULL row.
std::shared_ptr<Array> Variants(const std::vector<std::optional<std::string>>& values) {
  BitmapBuilder validity;
  LargeBinaryBuilder md, v;
  for (const auto& value : values) {
    validity.Append(value.has_value());
    md.Append(value ? kMetadata : "");
    v.Append(value.value_or(""));
  }
  auto binary = [&](LargeBinaryBuilder& b) {
    auto a = std::make_shared<Array>();
    a->type = LargeBinary();
    a->length = static_cast<int64_t>(values.size());
    a->buffers.resize(3);
    b.Finish(&a->buffers[1], &a->buffers[2]);
    return a;
  };
  auto out = std::make_shared<Array>();
  out->type = VariantArrowType();
  out->length = static_cast<int64_t>(values.size());
  out->null_count = validity.null_count();
  out->buffers.push_back(validity.FinishValidity());
  out->children = {binary(md), binary(v)};
  return out;
}

// {"a": x}
std::string ObjectA(const std::string& x) {
  std::string out;
  std::vector<FieldBytes> f = {{0, "a", Span(x)}};
  EncodeObject(out, f);
  return out;
}

std::string Int(Type t, int64_t v) {
  std::string s;
  EncodeInteger(s, t, v);
  return s;
}

TEST(VariantGetTest, BigintFromEveryNumberAndNullWhereNothingConverts) {
  std::string dec, dbl, str, bad, null, boolean, arr;
  EncodeDecimal(dec, Type::kDecimal8, Decimal{-12350, 2});  // -123.50 rounds to -124
  EncodeDouble(dbl, 3.5);                                   // rounds to 4 (ties to even)
  EncodeString(str, "42");
  EncodeString(bad, "4x2");
  EncodeNull(null);
  EncodeBoolean(boolean, true);
  EncodeArray(arr, {Span(str)});
  auto variants = Variants({ObjectA(Int(Type::kInt8, -34)), ObjectA(dec), ObjectA(dbl),
                            ObjectA(str), ObjectA(bad), ObjectA(null), ObjectA(boolean),
                            std::nullopt, Int(Type::kInt64, 7), ObjectA(arr)});
  auto steps = ParsePath("$.a");
  ASSERT_TRUE(steps.ok());
  auto got = VariantGet(*variants, *steps, SqlType::kBigint);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(ValidateArray(**got).ok());
  const std::vector<std::optional<int64_t>> expected = {
      -34, -124, 4, 42, std::nullopt, std::nullopt, 1, std::nullopt, std::nullopt, std::nullopt};
  const int64_t* v = (*got)->buffers[1]->as<int64_t>();
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ((*got)->IsValid(static_cast<int64_t>(i)), expected[i].has_value());
    if (expected[i]) {
      EXPECT_EQ(v[i], *expected[i]);
    }
  }
  // An index path into the array.
  auto first = VariantGet(*variants, *ParsePath("$.a[0]"), SqlType::kBigint);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE((*first)->IsValid(9));
  EXPECT_EQ((*first)->buffers[1]->as<int64_t>()[9], 42);
}

// DuckDB 1.5.6 casts a variant DOUBLE or FLOAT to BIGINT to the nearest integer with ties to
// even, a DECIMAL half away from zero: CAST(2.5::DOUBLE::VARIANT AS BIGINT) is 2,
// CAST(2.50::DECIMAL(5,2)::VARIANT AS BIGINT) is 3 (checked with the DuckDB node API).
TEST(VariantGetTest, BigintRoundsFloatsTiesToEvenAndDecimalsHalfAwayFromZero) {
  struct Case {
    std::string encoded;
    int64_t expected;
  };
  std::vector<Case> cases;
  auto dbl = [&](double v, int64_t expected) {
    Case c{"", expected};
    EncodeDouble(c.encoded, v);
    cases.push_back(c);
  };
  auto flt = [&](float v, int64_t expected) {
    Case c{"", expected};
    EncodeFloat(c.encoded, v);
    cases.push_back(c);
  };
  auto dec = [&](int64_t unscaled, int32_t scale, int64_t expected) {
    Case c{"", expected};
    EncodeDecimal(c.encoded, Type::kDecimal8, Decimal{unscaled, scale});
    cases.push_back(c);
  };
  dbl(2.5, 2);
  dbl(3.5, 4);
  dbl(-2.5, -2);
  dbl(-3.5, -4);
  dbl(0.5, 0);
  dbl(-0.5, 0);
  dbl(1.5, 2);
  dbl(2.5000001, 3);
  dbl(2.4999999, 2);
  dbl(-2.5000001, -3);
  dbl(9223372036854774784.0, 9223372036854774784);  // the largest double below 2^63
  flt(2.5F, 2);
  flt(0.5F, 0);
  dec(250, 2, 3);
  dec(-250, 2, -3);
  dec(50, 2, 1);
  dec(350, 2, 4);
  dec(249, 2, 2);
  dec(-35, 1, -4);
  std::vector<std::optional<std::string>> rows;
  for (const Case& c : cases) rows.push_back(c.encoded);
  std::string big, nan;
  EncodeDouble(big, 9223372036854775808.0);  // 2^63: out of range, NULL
  EncodeDouble(nan, std::nan(""));
  rows.push_back(big);
  rows.push_back(nan);
  auto got = VariantGet(*Variants(rows), {}, SqlType::kBigint);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const int64_t* v = (*got)->buffers[1]->as<int64_t>();
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    ASSERT_TRUE((*got)->IsValid(static_cast<int64_t>(i)));
    EXPECT_EQ(v[i], cases[i].expected);
  }
  EXPECT_FALSE((*got)->IsValid(static_cast<int64_t>(cases.size())));
  EXPECT_FALSE((*got)->IsValid(static_cast<int64_t>(cases.size() + 1)));
}

TEST(VariantGetTest, VarcharDoubleBooleanDate) {
  std::string str, dec, date, ts, obj;
  EncodeString(str, "x\"y");
  EncodeDecimal(dec, Type::kDecimal4, Decimal{1234, 2});
  EncodeDate(date, 19000);
  EncodeTicks(ts, Type::kTimestampMicros, -1);  // 1969-12-31
  obj = ObjectA(Int(Type::kInt16, 5));
  auto variants = Variants({ObjectA(str), ObjectA(dec), ObjectA(date), ObjectA(ts), ObjectA(obj)});
  auto path = *ParsePath("a");
  auto text = VariantGet(*variants, path, SqlType::kVarchar);
  ASSERT_TRUE(text.ok());
  auto s = [&](int64_t i) {
    const int64_t* o = layout::Offsets<int64_t>(**text);
    return std::string(reinterpret_cast<const char*>((*text)->buffers[2]->data()) + o[i],
                       static_cast<size_t>(o[i + 1] - o[i]));
  };
  EXPECT_EQ(s(0), "x\"y");
  EXPECT_EQ(s(1), "12.34");
  EXPECT_EQ(s(2), "\"2022-01-08\"");
  EXPECT_EQ(s(4), "{\"a\":5}");
  auto d = VariantGet(*variants, path, SqlType::kDouble);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)->buffers[1]->as<double>()[1], 12.34);
  EXPECT_FALSE((*d)->IsValid(0));
  auto day = VariantGet(*variants, path, SqlType::kDate);
  ASSERT_TRUE(day.ok());
  EXPECT_EQ((*day)->buffers[1]->as<int32_t>()[2], 19000);
  EXPECT_EQ((*day)->buffers[1]->as<int32_t>()[3], -1);
  EXPECT_FALSE((*day)->IsValid(0));
  auto b = VariantGet(*variants, path, SqlType::kBoolean);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->null_count, 5);
  EXPECT_FALSE(ParseSqlType("HUGEINT").ok());
  EXPECT_EQ(*ParseSqlType("bigint"), SqlType::kBigint);
}

}  // namespace
}  // namespace pqsift::variant
