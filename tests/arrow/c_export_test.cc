// Export to the Arrow C Data Interface, checked against the spec at the level of the C structs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "arrow/layout.h"
#include "arrow/test_arrays.h"
#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

void BogusSchemaRelease(ArrowSchema*) {}
void BogusArrayRelease(ArrowArray*) {}

TEST(ExportTypeTest, FormatStringsOfEveryType) {
  const std::map<std::string, std::string> expected = {
      {"bool", "b"},         {"int8", "c"},        {"int16", "s"},       {"int32", "i"},
      {"int64", "l"},        {"uint8", "C"},       {"uint16", "S"},      {"uint32", "I"},
      {"uint64", "L"},       {"float16", "e"},     {"float32", "f"},     {"float64", "g"},
      {"string", "U"},       {"binary", "Z"},      {"fixed", "w:3"},     {"decimal", "d:10,2"},
      {"date", "tdD"},       {"time32", "ttm"},    {"time64us", "ttu"},  {"time64ns", "ttn"},
      {"ts_utc", "tsm:UTC"}, {"ts_local", "tsu:"}, {"ts_ns", "tsn:UTC"}, {"list", "+L"},
      {"struct", "+s"},      {"map", "+m"},        {"map_int", "+m"},    {"nested", "+L"},
      {"dict", "i"},         {"null", "n"},
  };
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    ArrowSchema s;
    ASSERT_TRUE(ExportType(Field{c.name, c.array->type, true}, &s).ok());
    ASSERT_TRUE(expected.count(c.name));
    EXPECT_STREQ(s.format, expected.at(c.name).c_str());
    EXPECT_STREQ(s.name, c.name.c_str());
    EXPECT_EQ(s.flags, ARROW_FLAG_NULLABLE);
    EXPECT_EQ(s.metadata, nullptr);
    // A dictionary type's values: the dictionary member (its own leaf schema).
    if (c.array->type->id == TypeId::kDictionary) {
      ASSERT_NE(s.dictionary, nullptr);
      EXPECT_STREQ(s.dictionary->format, "U");
    } else {
      EXPECT_EQ(s.dictionary, nullptr);
    }
    ASSERT_NE(s.release, nullptr);
    s.release(&s);
    EXPECT_EQ(s.release, nullptr);
  }
}

TEST(ExportTypeTest, NestedChildrenNamesAndNullability) {
  auto type = LargeList(Field{
      "element",
      Struct({Field{"a", Int32(), false}, Field{"m", Map(LargeUtf8(), Float64()), true}}), false});
  ArrowSchema s;
  ASSERT_TRUE(ExportType(Field{"col", type, false}, &s).ok());
  EXPECT_STREQ(s.format, "+L");
  EXPECT_EQ(s.flags, 0);  // not nullable
  ASSERT_EQ(s.n_children, 1);
  ArrowSchema* item = s.children[0];
  EXPECT_STREQ(item->name, "element");
  EXPECT_STREQ(item->format, "+s");
  EXPECT_EQ(item->flags, 0);
  ASSERT_EQ(item->n_children, 2);
  EXPECT_STREQ(item->children[0]->name, "a");
  EXPECT_STREQ(item->children[0]->format, "i");
  EXPECT_EQ(item->children[0]->flags, 0);
  ArrowSchema* map = item->children[1];
  EXPECT_STREQ(map->format, "+m");
  EXPECT_EQ(map->flags, ARROW_FLAG_NULLABLE);
  ASSERT_EQ(map->n_children, 1);
  ArrowSchema* entries = map->children[0];
  EXPECT_STREQ(entries->name, "entries");
  EXPECT_STREQ(entries->format, "+s");
  EXPECT_EQ(entries->flags, 0);
  ASSERT_EQ(entries->n_children, 2);
  EXPECT_STREQ(entries->children[0]->name, "key");
  EXPECT_STREQ(entries->children[0]->format, "U");
  EXPECT_EQ(entries->children[0]->flags, 0);
  EXPECT_STREQ(entries->children[1]->name, "value");
  EXPECT_STREQ(entries->children[1]->format, "g");
  EXPECT_EQ(entries->children[1]->flags, ARROW_FLAG_NULLABLE);
  EXPECT_EQ(entries->children[1]->n_children, 0);
  s.release(&s);
  EXPECT_EQ(s.release, nullptr);
}

TEST(ExportTypeTest, AChildMovedOutOutlivesItsParent) {
  auto type = Struct({Field{"a", Int32(), true}, Field{"b", LargeList(LargeUtf8()), true}});
  ArrowSchema s;
  ASSERT_TRUE(ExportType(Field{"s", type, true}, &s).ok());
  ArrowSchema moved = *s.children[1];
  s.children[1]->release = nullptr;  // moved, per the spec
  s.release(&s);
  EXPECT_STREQ(moved.format, "+L");
  EXPECT_STREQ(moved.children[0]->format, "U");
  moved.release(&moved);  // ASan reports a leak or double free if ownership is wrong
  EXPECT_EQ(moved.release, nullptr);
}

TEST(ExportTypeTest, ErrorsLeaveTheOutputReleased) {
  ArrowSchema s;
  s.release = &BogusSchemaRelease;
  EXPECT_EQ(ExportType(Field{"d", Decimal128(40, 0), true}, &s).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(s.release, nullptr);
  s.release = &BogusSchemaRelease;
  EXPECT_FALSE(ExportType(Field{"x", nullptr, true}, &s).ok());
  EXPECT_EQ(s.release, nullptr);
  EXPECT_FALSE(ExportType(Field{"x", Int32(), true}, nullptr).ok());
}

TEST(ExportSchemaTest, IsAStructOfTheFields) {
  BatchSchema schema;
  schema.fields = {Field{"a", Int64(), false}, Field{"b", LargeUtf8(), true}};
  ArrowSchema s;
  ASSERT_TRUE(ExportSchema(schema, &s).ok());
  EXPECT_STREQ(s.format, "+s");
  EXPECT_STREQ(s.name, "");
  EXPECT_EQ(s.flags, 0);
  ASSERT_EQ(s.n_children, 2);
  EXPECT_STREQ(s.children[0]->name, "a");
  EXPECT_STREQ(s.children[0]->format, "l");
  EXPECT_EQ(s.children[0]->flags, 0);
  EXPECT_STREQ(s.children[1]->name, "b");
  EXPECT_EQ(s.children[1]->flags, ARROW_FLAG_NULLABLE);
  s.release(&s);
}

TEST(ExportArrayTest, SharesBuffersWithTheRightCountsForEveryType) {
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    ArrowArray a;
    ASSERT_TRUE(ExportArray(c.array, &a).ok());
    EXPECT_EQ(a.length, 4);
    EXPECT_EQ(a.offset, 0);
    EXPECT_EQ(a.null_count, c.array->null_count);
    EXPECT_EQ(a.n_buffers, layout::BufferCount(c.array->type->id));
    EXPECT_EQ(a.n_children, static_cast<int64_t>(c.array->children.size()));
    EXPECT_EQ(a.dictionary != nullptr, c.array->dictionary != nullptr);
    ASSERT_NE(a.buffers, nullptr);
    for (int64_t i = 0; i < a.n_buffers; ++i) {
      const auto& mine = c.array->buffers[static_cast<size_t>(i)];
      if (mine != nullptr && mine->size() > 0) {
        EXPECT_EQ(a.buffers[i], mine->data()) << "buffer " << i << " was copied";
      } else if (i > 0) {
        EXPECT_NE(a.buffers[i], nullptr) << "zero-size buffer " << i << " exported as NULL";
      }
    }
    for (int64_t i = 0; i < a.n_children; ++i) {
      EXPECT_EQ(a.children[i]->length, c.array->children[static_cast<size_t>(i)]->length);
      EXPECT_NE(a.children[i]->release, nullptr);
    }
    a.release(&a);
    EXPECT_EQ(a.release, nullptr);
  }
}

TEST(ExportArrayTest, ValidityIsNullWithoutNullsAndSlicesKeepTheirOffset) {
  auto values = MakeFixed<int32_t>(Int32(), {1, 2, 3});
  ArrowArray a;
  ASSERT_TRUE(ExportArray(values, &a).ok());
  EXPECT_EQ(a.n_buffers, 2);
  EXPECT_EQ(a.buffers[0], nullptr);
  EXPECT_EQ(a.null_count, 0);
  a.release(&a);

  auto with_nulls = MakeFixed<int32_t>(Int32(), {1, kNull, 3, kNull});
  auto slice = *Slice(*with_nulls, 1, 2);
  ASSERT_TRUE(ExportArray(slice, &a).ok());
  EXPECT_EQ(a.offset, 1);
  EXPECT_EQ(a.length, 2);
  EXPECT_EQ(a.null_count, 1);
  EXPECT_EQ(a.buffers[0], with_nulls->buffers[0]->data());
  EXPECT_EQ(static_cast<const int32_t*>(a.buffers[1])[a.offset + 1], 3);
  a.release(&a);

  // An empty string array without buffers still exports non-NULL offsets reading 0.
  auto empty = std::make_shared<Array>();
  empty->type = LargeUtf8();
  empty->buffers.resize(3);
  ASSERT_TRUE(ExportArray(empty, &a).ok());
  ASSERT_NE(a.buffers[1], nullptr);
  EXPECT_EQ(static_cast<const int64_t*>(a.buffers[1])[0], 0);
  EXPECT_NE(a.buffers[2], nullptr);
  a.release(&a);
}

TEST(ExportArrayTest, ReleaseFreesEveryBufferAndNotBefore) {
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    auto live = std::make_shared<std::atomic<int>>(0);
    auto counted = testing::WithCountedBuffers(*c.array, live);
    int buffers = live->load();
    ArrowArray a;
    ASSERT_TRUE(ExportArray(counted, &a).ok());
    counted.reset();
    EXPECT_EQ(live->load(), buffers);  // the export keeps them alive
    a.release(&a);
    EXPECT_EQ(live->load(), 0);
  }
}

TEST(ExportArrayTest, AMovedOutChildKeepsOnlyItsOwnBuffers) {
  auto live = std::make_shared<std::atomic<int>>(0);
  auto st = testing::MakeStructOf(
      {{"a", MakeFixed<int32_t>(Int32(), {1, kNull})}, {"b", MakeStrings({"x", "y"})}}, 2,
      {true, false});
  auto counted = testing::WithCountedBuffers(*st, live);
  EXPECT_EQ(live->load(), 1 + 2 + 2);  // struct validity; a: validity, values; b: offsets, data
  ArrowArray parent;
  ASSERT_TRUE(ExportArray(counted, &parent).ok());
  counted.reset();
  ArrowArray child = *parent.children[1];
  parent.children[1]->release = nullptr;
  parent.release(&parent);
  EXPECT_EQ(live->load(), 2);  // b's buffers only
  EXPECT_EQ(std::string(static_cast<const char*>(child.buffers[2]), 2), "xy");
  child.release(&child);
  EXPECT_EQ(live->load(), 0);
}

TEST(ExportArrayTest, RefusesBrokenArraysAndLeavesTheOutputReleased) {
  auto a = std::make_shared<Array>(*MakeFixed<int32_t>(Int32(), {1, 2}));
  a->buffers.pop_back();
  ArrowArray out;
  out.release = &BogusArrayRelease;
  EXPECT_EQ(ExportArray(a, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.release, nullptr);
  out.release = &BogusArrayRelease;
  EXPECT_FALSE(ExportArray(nullptr, &out).ok());
  EXPECT_EQ(out.release, nullptr);
}

TEST(ExportRecordBatchTest, IsAStructArrayOfTheColumns) {
  auto live = std::make_shared<std::atomic<int>>(0);
  auto batch = testing::MakeBatch(
      {{"a", testing::WithCountedBuffers(*MakeFixed<int64_t>(Int64(), {1, 2, 3}), live), false},
       {"b", testing::WithCountedBuffers(*MakeStrings({"x", kNull, "z"}), live)}});
  ArrowArray array;
  ArrowSchema schema;
  ASSERT_TRUE(ExportRecordBatch(*batch, &array, &schema).ok());
  batch.reset();
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 2);
  EXPECT_STREQ(schema.children[1]->name, "b");
  EXPECT_EQ(array.length, 3);
  EXPECT_EQ(array.null_count, 0);
  EXPECT_EQ(array.n_buffers, 1);
  EXPECT_EQ(array.buffers[0], nullptr);
  ASSERT_EQ(array.n_children, 2);
  EXPECT_EQ(static_cast<const int64_t*>(array.children[0]->buffers[1])[2], 3);
  EXPECT_EQ(array.children[1]->null_count, 1);
  EXPECT_GT(live->load(), 0);
  array.release(&array);
  schema.release(&schema);
  EXPECT_EQ(live->load(), 0);
}

TEST(ExportRecordBatchTest, RejectsColumnsThatDoNotMatchTheSchema) {
  auto batch = testing::MakeBatch({{"a", MakeFixed<int64_t>(Int64(), {1, 2, 3})}});
  ArrowArray array;
  ArrowSchema schema;
  ASSERT_TRUE(ExportRecordBatch(*batch, &array, nullptr).ok());  // the schema is optional
  array.release(&array);
  auto wrong_rows = std::make_shared<RecordBatch>(*batch);
  wrong_rows->num_rows = 2;
  array.release = &BogusArrayRelease;
  schema.release = &BogusSchemaRelease;
  EXPECT_EQ(ExportRecordBatch(*wrong_rows, &array, &schema).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(array.release, nullptr);
  EXPECT_EQ(schema.release, nullptr);
  auto wrong_type = std::make_shared<RecordBatch>(*batch);
  wrong_type->columns[0] = MakeFixed<int32_t>(Int32(), {1, 2, 3});
  EXPECT_FALSE(ExportRecordBatch(*wrong_type, &array, &schema).ok());
  auto missing = std::make_shared<RecordBatch>(*batch);
  missing->columns.clear();
  EXPECT_FALSE(ExportRecordBatch(*missing, &array, &schema).ok());
}

}  // namespace
}  // namespace pqsift
