// A schema with one column of every type family, for the binder and evaluator tests.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "expr/binder.h"
#include "pqsift/schema.h"
#include "testing/sample_metadata.h"

namespace pqsift::expr::testing {

using pqsift::testing::DecimalLogical;
using pqsift::testing::Group;
using pqsift::testing::IntLogical;
using pqsift::testing::MakeLogical;
using pqsift::testing::Root;
using pqsift::testing::TemporalLogical;
using Kind = LogicalType::Kind;

inline SchemaElement Col(std::string_view name, PhysicalType type,
                         std::optional<LogicalType> logical = std::nullopt,
                         int32_t type_length = 0) {
  SchemaElement e = pqsift::testing::Leaf(name, type, Repetition::kOptional);
  e.logical_type = logical;
  if (type_length > 0) e.type_length = type_length;
  return e;
}

// Columns, in order: id int64, i8 int8, u64 uint64, price decimal(10,2), big decimal(38,4),
// f32 float, f64 double, h float16, name string, Region string, bin binary, uuid
// fixed_size_binary[16] (UUID), fsb fixed_size_binary[3], d date32, ts_ms timestamp[ms, UTC],
// ts_us timestamp[us], ts_ns timestamp[ns, UTC], t time64[us], flag bool, flag2 bool, s.a int32,
// s.b string (s is a struct), l.list.element int32 (a list).
inline Schema TestSchema() {
  using P = PhysicalType;
  std::vector<SchemaElement> e = {
      Root(22),
      Col("id", P::kInt64),
      Col("i8", P::kInt32, IntLogical(8, true)),
      Col("u64", P::kInt64, IntLogical(64, false)),
      Col("price", P::kInt64, DecimalLogical(10, 2)),
      Col("big", P::kFixedLenByteArray, DecimalLogical(38, 4), 16),
      Col("f32", P::kFloat),
      Col("f64", P::kDouble),
      Col("h", P::kFixedLenByteArray, MakeLogical(Kind::kFloat16), 2),
      Col("name", P::kByteArray, MakeLogical(Kind::kString)),
      Col("Region", P::kByteArray, MakeLogical(Kind::kString)),
      Col("bin", P::kByteArray),
      Col("uuid", P::kFixedLenByteArray, MakeLogical(Kind::kUuid), 16),
      Col("fsb", P::kFixedLenByteArray, std::nullopt, 3),
      Col("d", P::kInt32, MakeLogical(Kind::kDate)),
      Col("ts_ms", P::kInt64, TemporalLogical(Kind::kTimestamp, TimeUnit::kMillis, true)),
      Col("ts_us", P::kInt64, TemporalLogical(Kind::kTimestamp, TimeUnit::kMicros, false)),
      Col("ts_ns", P::kInt64, TemporalLogical(Kind::kTimestamp, TimeUnit::kNanos, true)),
      Col("t", P::kInt64, TemporalLogical(Kind::kTime, TimeUnit::kMicros, false)),
      Col("flag", P::kBoolean),
      Col("flag2", P::kBoolean),
      Group("s", 2, Repetition::kOptional),
      Col("a", P::kInt32),
      Col("b", P::kByteArray, MakeLogical(Kind::kString)),
      Group("l", 1, Repetition::kOptional),
      Group("list", 1, Repetition::kRepeated),
      Col("element", P::kInt32),
  };
  e[24].logical_type = MakeLogical(Kind::kList);
  Result<Schema> s = Schema::Build(e, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : Schema();
}

}  // namespace pqsift::expr::testing
