// Schema::Build: the tree, paths and levels of flat and nested schemas (struct, 3-level list,
// legacy 2-level list, map), ConvertedType resolution per LogicalTypes.md, and malformed
// element lists.
#include "pqsift/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using testing::Group;
using testing::Leaf;
using testing::Root;
using Kind = LogicalType::Kind;

Schema MustBuild(const std::vector<SchemaElement>& elements,
                 const std::vector<ColumnOrder>* orders = nullptr) {
  Result<Schema> s = Schema::Build(elements, orders);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : Schema();
}

Status BuildError(const std::vector<SchemaElement>& elements) {
  Result<Schema> s = Schema::Build(elements, nullptr);
  return s.status();
}

struct Expected {
  std::string path;
  int16_t def;
  int16_t rep;
  PhysicalType type;
};

void ExpectColumns(const Schema& s, const std::vector<Expected>& expected) {
  ASSERT_EQ(s.num_columns(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].path);
    const ColumnDescriptor& c = s.columns()[i];
    EXPECT_EQ(c.path, expected[i].path);
    EXPECT_EQ(c.max_definition_level, expected[i].def);
    EXPECT_EQ(c.max_repetition_level, expected[i].rep);
    EXPECT_EQ(c.physical_type, expected[i].type);
    // The descriptor and its node agree.
    const SchemaNode& n = s.nodes()[c.node];
    EXPECT_TRUE(n.is_leaf());
    EXPECT_EQ(n.column_index, static_cast<int32_t>(i));
    EXPECT_EQ(n.max_definition_level, c.max_definition_level);
    EXPECT_EQ(n.max_repetition_level, c.max_repetition_level);
    EXPECT_EQ(s.FindColumn(c.path), &c);
  }
}

TEST(SchemaTest, FlatSchema) {
  Schema s = MustBuild({Root(3), Leaf("a", PhysicalType::kInt32),
                        Leaf("b", PhysicalType::kByteArray, Repetition::kOptional),
                        Leaf("c", PhysicalType::kDouble, Repetition::kRepeated)});
  ExpectColumns(s, {{"a", 0, 0, PhysicalType::kInt32},
                    {"b", 1, 0, PhysicalType::kByteArray},
                    {"c", 1, 1, PhysicalType::kDouble}});
  ASSERT_EQ(s.nodes().size(), 4u);
  const SchemaNode& root = s.root();
  EXPECT_EQ(root.name, "schema");
  EXPECT_FALSE(root.repetition.has_value());
  EXPECT_FALSE(root.is_leaf());
  EXPECT_EQ(root.parent, -1);
  EXPECT_EQ(root.column_index, -1);
  EXPECT_EQ(root.children, (std::vector<int32_t>{1, 2, 3}));
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(s.nodes()[i].parent, 0);
  EXPECT_EQ(s.columns()[1].path_parts, (std::vector<std::string_view>{"b"}));
  EXPECT_EQ(s.FindColumn("d"), nullptr);
  EXPECT_EQ(s.FindColumn(""), nullptr);
}

TEST(SchemaTest, RootOnlyHasNoColumns) {
  Schema s = MustBuild({Root(0)});
  EXPECT_EQ(s.num_columns(), 0u);
  EXPECT_EQ(s.nodes().size(), 1u);
}

TEST(SchemaTest, NestedStructs) {
  // a: optional group { b: required int32, c: optional group { d: repeated int64 } }, e: int32
  Schema s = MustBuild({Root(2), Group("a", 2, Repetition::kOptional),
                        Leaf("b", PhysicalType::kInt32), Group("c", 1, Repetition::kOptional),
                        Leaf("d", PhysicalType::kInt64, Repetition::kRepeated),
                        Leaf("e", PhysicalType::kInt32)});
  ExpectColumns(s, {{"a.b", 1, 0, PhysicalType::kInt32},
                    {"a.c.d", 3, 1, PhysicalType::kInt64},
                    {"e", 0, 0, PhysicalType::kInt32}});
  EXPECT_EQ(s.columns()[1].path_parts, (std::vector<std::string_view>{"a", "c", "d"}));
  EXPECT_EQ(s.root().children, (std::vector<int32_t>{1, 5}));
  EXPECT_EQ(s.nodes()[1].children, (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(s.nodes()[3].children, (std::vector<int32_t>{4}));
  EXPECT_EQ(s.nodes()[4].parent, 3);
  EXPECT_EQ(s.nodes()[3].max_definition_level, 2);  // groups carry levels too
  EXPECT_EQ(s.nodes()[1].column_index, -1);
}

TEST(SchemaTest, ThreeLevelList) {
  SchemaElement list = Group("my_list", 1, Repetition::kOptional);
  list.converted_type = ConvertedType::kList;
  Schema s = MustBuild({Root(1), list, Group("list", 1, Repetition::kRepeated),
                        Leaf("element", PhysicalType::kInt32, Repetition::kOptional)});
  ExpectColumns(s, {{"my_list.list.element", 3, 1, PhysicalType::kInt32}});
  EXPECT_EQ(s.nodes()[1].logical_type.kind, Kind::kList);
}

TEST(SchemaTest, LegacyTwoLevelList) {
  SchemaElement list = Group("my_list", 1, Repetition::kOptional);
  list.converted_type = ConvertedType::kList;
  Schema s =
      MustBuild({Root(1), list, Leaf("element", PhysicalType::kInt32, Repetition::kRepeated)});
  ExpectColumns(s, {{"my_list.element", 2, 1, PhysicalType::kInt32}});
}

TEST(SchemaTest, NestedListsAddRepetitionLevels) {
  // list<list<int32>> in the 3-level form: two repeated groups.
  Schema s = MustBuild(
      {Root(1), Group("outer", 1, Repetition::kOptional), Group("list", 1, Repetition::kRepeated),
       Group("element", 1, Repetition::kOptional), Group("list", 1, Repetition::kRepeated),
       Leaf("element", PhysicalType::kInt32, Repetition::kOptional)});
  ExpectColumns(s, {{"outer.list.element.list.element", 5, 2, PhysicalType::kInt32}});
}

TEST(SchemaTest, Map) {
  SchemaElement map = Group("m", 1, Repetition::kOptional);
  map.converted_type = ConvertedType::kMap;
  SchemaElement kv = Group("key_value", 2, Repetition::kRepeated);
  kv.converted_type = ConvertedType::kMapKeyValue;
  SchemaElement key = Leaf("key", PhysicalType::kByteArray);
  key.converted_type = ConvertedType::kUtf8;
  Schema s = MustBuild(
      {Root(1), map, kv, key, Leaf("value", PhysicalType::kInt32, Repetition::kOptional)});
  ExpectColumns(s, {{"m.key_value.key", 2, 1, PhysicalType::kByteArray},
                    {"m.key_value.value", 3, 1, PhysicalType::kInt32}});
  EXPECT_EQ(s.nodes()[1].logical_type.kind, Kind::kMap);
  EXPECT_EQ(s.nodes()[2].logical_type.kind, Kind::kMapKeyValue);
  EXPECT_EQ(s.columns()[0].logical_type.kind, Kind::kString);
  EXPECT_EQ(s.columns()[0].converted_type, ConvertedType::kUtf8);
}

TEST(SchemaTest, SampleSchema) {
  FileMetaData m = testing::SampleFileMetaData();
  Schema s = MustBuild(m.schema, &*m.column_orders);
  ExpectColumns(s, {{"id", 0, 0, PhysicalType::kInt64},
                    {"name", 1, 0, PhysicalType::kByteArray},
                    {"price", 1, 0, PhysicalType::kFixedLenByteArray},
                    {"point.ts", 2, 0, PhysicalType::kInt64},
                    {"point.t", 1, 0, PhysicalType::kInt64},
                    {"tags.list.element", 3, 1, PhysicalType::kInt32}});
  EXPECT_EQ(s.columns()[2].type_length, 16);
  EXPECT_EQ(s.columns()[2].logical_type, testing::DecimalLogical(38, 4));
  EXPECT_EQ(s.nodes()[1].field_id, 1);
  for (const ColumnDescriptor& c : s.columns())
    EXPECT_EQ(c.column_order, ColumnOrder::kTypeDefined);
}

TEST(SchemaTest, LeafWithTypeAndZeroNumChildrenIsALeaf) {
  // Some writers (parquet-cpp) set num_children = 0 on leaves; Arrow and parquet-rs read them as
  // leaves, which is what the column chunks of such files expect.
  SchemaElement a = Leaf("a", PhysicalType::kInt32);
  a.num_children = 0;
  Schema s = MustBuild({Root(2), a, Leaf("b", PhysicalType::kInt64)});
  ExpectColumns(s, {{"a", 0, 0, PhysicalType::kInt32}, {"b", 0, 0, PhysicalType::kInt64}});
}

TEST(SchemaTest, ElementWithoutTypeOrChildrenIsAnEmptyGroup) {
  // Neither a type nor children: an empty group (as Arrow and parquet-rs read it), not a leaf.
  SchemaElement empty;
  empty.name = "empty";
  empty.repetition_type = Repetition::kOptional;
  Schema s = MustBuild({Root(2), empty, Leaf("b", PhysicalType::kInt64)});
  ExpectColumns(s, {{"b", 0, 0, PhysicalType::kInt64}});
  EXPECT_FALSE(s.nodes()[1].is_leaf());
  EXPECT_TRUE(s.nodes()[1].children.empty());
}

// ---- converted type resolution ----

struct ConvertedCase {
  ConvertedType converted;
  LogicalType expected;
  const char* name;
};

TEST(SchemaTest, ConvertedTypesResolvePerLogicalTypesMd) {
  const ConvertedCase cases[] = {
      {ConvertedType::kUtf8, testing::MakeLogical(Kind::kString), "STRING"},
      {ConvertedType::kMap, testing::MakeLogical(Kind::kMap), "MAP"},
      {ConvertedType::kMapKeyValue, testing::MakeLogical(Kind::kMapKeyValue), "MAP_KEY_VALUE"},
      {ConvertedType::kList, testing::MakeLogical(Kind::kList), "LIST"},
      {ConvertedType::kEnum, testing::MakeLogical(Kind::kEnum), "ENUM"},
      {ConvertedType::kDate, testing::MakeLogical(Kind::kDate), "DATE"},
      {ConvertedType::kTimeMillis, testing::TemporalLogical(Kind::kTime, TimeUnit::kMillis, true),
       "TIME(MILLIS,UTC)"},
      {ConvertedType::kTimeMicros, testing::TemporalLogical(Kind::kTime, TimeUnit::kMicros, true),
       "TIME(MICROS,UTC)"},
      {ConvertedType::kTimestampMillis,
       testing::TemporalLogical(Kind::kTimestamp, TimeUnit::kMillis, true),
       "TIMESTAMP(MILLIS,UTC)"},
      {ConvertedType::kTimestampMicros,
       testing::TemporalLogical(Kind::kTimestamp, TimeUnit::kMicros, true),
       "TIMESTAMP(MICROS,UTC)"},
      {ConvertedType::kUint8, testing::IntLogical(8, false), "INT(8,unsigned)"},
      {ConvertedType::kUint16, testing::IntLogical(16, false), "INT(16,unsigned)"},
      {ConvertedType::kUint32, testing::IntLogical(32, false), "INT(32,unsigned)"},
      {ConvertedType::kUint64, testing::IntLogical(64, false), "INT(64,unsigned)"},
      {ConvertedType::kInt8, testing::IntLogical(8, true), "INT(8,signed)"},
      {ConvertedType::kInt16, testing::IntLogical(16, true), "INT(16,signed)"},
      {ConvertedType::kInt32, testing::IntLogical(32, true), "INT(32,signed)"},
      {ConvertedType::kInt64, testing::IntLogical(64, true), "INT(64,signed)"},
      {ConvertedType::kJson, testing::MakeLogical(Kind::kJson), "JSON"},
      {ConvertedType::kBson, testing::MakeLogical(Kind::kBson), "BSON"},
      {ConvertedType::kInterval, testing::MakeLogical(Kind::kInterval), "INTERVAL"},
      {static_cast<ConvertedType>(77), testing::MakeLogical(Kind::kNone), "NONE"},
  };
  for (const ConvertedCase& c : cases) {
    SCOPED_TRACE(c.name);
    SchemaElement e = Leaf("x", PhysicalType::kInt32);
    e.converted_type = c.converted;
    LogicalType t = ResolveLogicalType(e);
    EXPECT_EQ(t, c.expected);
    EXPECT_EQ(LogicalTypeName(t), c.name);
  }
}

TEST(SchemaTest, ConvertedDecimalTakesScaleAndPrecisionFromTheElement) {
  SchemaElement e = Leaf("d", PhysicalType::kInt32);
  e.converted_type = ConvertedType::kDecimal;
  e.precision = 9;
  e.scale = 2;
  EXPECT_EQ(ResolveLogicalType(e), testing::DecimalLogical(9, 2));
  EXPECT_EQ(LogicalTypeName(ResolveLogicalType(e)), "DECIMAL(9,2)");
  Schema s = MustBuild({Root(1), e});
  EXPECT_EQ(s.columns()[0].logical_type, testing::DecimalLogical(9, 2));
}

TEST(SchemaTest, LogicalTypeWinsOverConvertedType) {
  SchemaElement e = Leaf("ts", PhysicalType::kInt64);
  e.converted_type = ConvertedType::kTimestampMillis;
  e.logical_type = testing::TemporalLogical(Kind::kTimestamp, TimeUnit::kNanos, false);
  EXPECT_EQ(ResolveLogicalType(e), *e.logical_type);
  EXPECT_EQ(LogicalTypeName(ResolveLogicalType(e)), "TIMESTAMP(NANOS,LOCAL)");
}

TEST(SchemaTest, UnrecognizedLogicalTypeFallsBackToConvertedOrStays) {
  LogicalType future;
  future.kind = Kind::kUnrecognized;
  future.unrecognized_id = 50;
  SchemaElement e = Leaf("x", PhysicalType::kInt32);
  e.logical_type = future;
  EXPECT_EQ(ResolveLogicalType(e), future);
  e.converted_type = ConvertedType::kDate;
  EXPECT_EQ(ResolveLogicalType(e).kind, Kind::kDate);
  SchemaElement plain = Leaf("y", PhysicalType::kInt32);
  EXPECT_EQ(ResolveLogicalType(plain).kind, Kind::kNone);
  EXPECT_EQ(LogicalTypeName(ResolveLogicalType(plain)), "NONE");
}

// ---- column orders ----

TEST(SchemaTest, ColumnOrdersApplyOnlyWhenTheirCountMatchesTheLeaves) {
  std::vector<SchemaElement> elements = {Root(2), Leaf("a", PhysicalType::kInt32),
                                         Leaf("b", PhysicalType::kFloat)};
  std::vector<ColumnOrder> right = {ColumnOrder::kTypeDefined, ColumnOrder::kIeee754TotalOrder};
  Schema s = MustBuild(elements, &right);
  EXPECT_EQ(s.columns()[0].column_order, ColumnOrder::kTypeDefined);
  EXPECT_EQ(s.columns()[1].column_order, ColumnOrder::kIeee754TotalOrder);

  for (const std::vector<ColumnOrder>& wrong :
       {std::vector<ColumnOrder>{}, std::vector<ColumnOrder>{ColumnOrder::kTypeDefined},
        std::vector<ColumnOrder>(3, ColumnOrder::kTypeDefined)}) {
    SCOPED_TRACE(wrong.size());
    Schema w = MustBuild(elements, &wrong);
    for (const ColumnDescriptor& c : w.columns()) EXPECT_FALSE(c.column_order.has_value());
  }
  Schema none = MustBuild(elements, nullptr);
  for (const ColumnDescriptor& c : none.columns()) EXPECT_FALSE(c.column_order.has_value());
}

// ---- malformed element lists ----

void ExpectCorruption(const std::vector<SchemaElement>& elements, const std::string& message) {
  Status st = BuildError(elements);
  EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
  EXPECT_EQ(st.message(), message);
}

TEST(SchemaMalformedTest, NoElements) { ExpectCorruption({}, "schema has no elements"); }

TEST(SchemaMalformedTest, NumChildrenBeyondTheElements) {
  ExpectCorruption({Root(3), Leaf("a", PhysicalType::kInt32), Leaf("b", PhysicalType::kInt32)},
                   "schema element 0 ('schema'): num_children 3 exceeds the elements left");
  ExpectCorruption({Root(1), Group("g", 5), Leaf("a", PhysicalType::kInt32)},
                   "schema element 1 ('g'): num_children 5 exceeds the elements left");
  ExpectCorruption({Root(INT32_MAX), Leaf("a", PhysicalType::kInt32)},
                   "schema element 0 ('schema'): num_children 2147483647 exceeds the elements "
                   "left");
}

TEST(SchemaMalformedTest, NegativeNumChildren) {
  ExpectCorruption({Root(1), Group("g", -1), Leaf("a", PhysicalType::kInt32)},
                   "schema element 1 ('g'): negative num_children");
  ExpectCorruption({Root(-2)}, "schema element 0 ('schema'): negative num_children");
}

TEST(SchemaMalformedTest, GroupStillExpectingChildrenAtTheEnd) {
  ExpectCorruption({Root(2), Group("g", 1), Leaf("a", PhysicalType::kInt32)},
                   "schema ends while group 'schema' still expects children");
}

TEST(SchemaMalformedTest, MissingRepetition) {
  SchemaElement a = Leaf("a", PhysicalType::kInt32);
  a.repetition_type.reset();
  ExpectCorruption({Root(1), a}, "schema element 1 ('a'): no repetition type");
  ExpectCorruption({Root(1), Group("g", 1, std::nullopt), Leaf("x", PhysicalType::kInt32)},
                   "schema element 1 ('g'): no repetition type");
}

TEST(SchemaMalformedTest, UnsupportedRepetition) {
  SchemaElement a = Leaf("a", PhysicalType::kInt32);
  a.repetition_type = Repetition::kVector;
  ExpectCorruption({Root(1), a}, "schema element 1 ('a'): repetition VECTOR is not supported");
  a.repetition_type = static_cast<Repetition>(-1);
  ExpectCorruption({Root(1), a}, "schema element 1 ('a'): repetition UNKNOWN(-1) is not supported");
}

TEST(SchemaMalformedTest, UnknownPhysicalType) {
  ExpectCorruption({Root(1), Leaf("a", static_cast<PhysicalType>(8))},
                   "schema element 1 ('a'): unknown physical type 8");
  ExpectCorruption({Root(1), Leaf("a", static_cast<PhysicalType>(-3))},
                   "schema element 1 ('a'): unknown physical type -3");
}

TEST(SchemaMalformedTest, FixedLenByteArrayNeedsAWidth) {
  SchemaElement f = Leaf("f", PhysicalType::kFixedLenByteArray);
  ExpectCorruption({Root(1), f},
                   "schema element 1 ('f'): FIXED_LEN_BYTE_ARRAY without a valid type_length");
  f.type_length = -4;
  ExpectCorruption({Root(1), f},
                   "schema element 1 ('f'): FIXED_LEN_BYTE_ARRAY without a valid type_length");
  f.type_length = 12;
  Schema s = MustBuild({Root(1), f});
  EXPECT_EQ(s.columns()[0].type_length, 12);
}

TEST(SchemaMalformedTest, BadDecimalParameters) {
  struct Case {
    int32_t precision;
    int32_t scale;
  };
  for (Case c : {Case{0, 0}, Case{-5, 0}, Case{9, -1}, Case{4, 5}}) {
    SchemaElement d = Leaf("d", PhysicalType::kInt64);
    d.logical_type = testing::DecimalLogical(c.precision, c.scale);
    ExpectCorruption({Root(1), d}, "schema element 1 ('d'): DECIMAL with precision " +
                                       std::to_string(c.precision) + " and scale " +
                                       std::to_string(c.scale));
  }
  // A converted DECIMAL without precision is the same mistake.
  SchemaElement legacy = Leaf("d", PhysicalType::kInt32);
  legacy.converted_type = ConvertedType::kDecimal;
  legacy.scale = 2;
  ExpectCorruption({Root(1), legacy},
                   "schema element 1 ('d'): DECIMAL with precision 0 and scale 2");
  // scale == precision and scale 0 are fine.
  SchemaElement edge = Leaf("d", PhysicalType::kInt32);
  edge.logical_type = testing::DecimalLogical(9, 9);
  MustBuild({Root(1), edge});
  edge.logical_type = testing::DecimalLogical(1, 0);
  MustBuild({Root(1), edge});
}

TEST(SchemaMalformedTest, RootNotAGroup) {
  SchemaElement root = Leaf("schema", PhysicalType::kInt32);
  root.repetition_type.reset();
  ExpectCorruption({root}, "schema element 0 ('schema'): the root is not a group");
}

TEST(SchemaMalformedTest, ElementsAfterTheRootIsComplete) {
  ExpectCorruption({Root(1), Leaf("a", PhysicalType::kInt32), Leaf("b", PhysicalType::kInt32)},
                   "schema element 2 ('b'): lies outside the root (the root declares fewer "
                   "children)");
  ExpectCorruption({Root(0), Leaf("a", PhysicalType::kInt32)},
                   "schema element 1 ('a'): lies outside the root (the root declares fewer "
                   "children)");
}

TEST(SchemaMalformedTest, DefinitionLevelsBeyondTheLimit) {
  // 1001 optional groups: the leaf's definition level would pass 1000.
  std::vector<SchemaElement> elements = {Root(1)};
  for (int i = 0; i < 1001; ++i) elements.push_back(Group("g", 1, Repetition::kOptional));
  elements.push_back(Leaf("x", PhysicalType::kInt32));
  Status st = BuildError(elements);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("nesting too deep"), std::string::npos) << st.message();
}

TEST(SchemaMalformedTest, DeepChainOfRequiredGroupsIsRefused) {
  // Required groups add no definition level, so only a depth limit stops a chain of 200,000 of
  // them (2 MB of footer) from costing quadratic time in path building and deep recursion in
  // anything that walks the tree.
  std::vector<SchemaElement> elements = {Root(1)};
  for (int i = 0; i < 200'000; ++i) elements.push_back(Group("g", 1));
  elements.push_back(Leaf("x", PhysicalType::kInt32));
  Status st = BuildError(elements);
  EXPECT_EQ(st, Status::Corruption("schema element 1001 ('g'): nesting too deep"));
}

TEST(SchemaTest, NestingUpToTheLimitIsFine) {
  std::vector<SchemaElement> elements = {Root(1)};
  for (int i = 0; i < 999; ++i) elements.push_back(Group("g", 1, Repetition::kOptional));
  elements.push_back(Leaf("x", PhysicalType::kInt32, Repetition::kOptional));
  Schema s = MustBuild(elements);
  ASSERT_EQ(s.num_columns(), 1u);
  EXPECT_EQ(s.columns()[0].max_definition_level, 1000);
  EXPECT_EQ(s.columns()[0].path_parts.size(), 1000u);
  EXPECT_EQ(s.columns()[0].path.size(), 999u * 2 + 1);
}

TEST(SchemaTest, WideSchemaBuildsQuickly) {
  std::vector<SchemaElement> elements = {Root(100'000)};
  for (int i = 0; i < 100'000; ++i) elements.push_back(Leaf("c", PhysicalType::kInt32));
  Schema s = MustBuild(elements);
  EXPECT_EQ(s.num_columns(), 100'000u);
  EXPECT_EQ(s.columns().back().node, 100'000);
}

}  // namespace
}  // namespace pqsift
