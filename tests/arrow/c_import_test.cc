// Import from the Arrow C Data Interface: round trips through export, memory sharing and the
// single release, hand-built C structs, and the checks on untrusted input.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "arrow/test_arrays.h"
#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

// Exports `array` and imports it back.
Result<std::shared_ptr<Array>> RoundTrip(const std::shared_ptr<Array>& array,
                                         bool nullable = true) {
  ArrowArray c_array;
  ArrowSchema c_schema;
  PQSIFT_RETURN_IF_ERROR(ExportArray(array, &c_array));
  Status st = ExportType(Field{"x", array->type, nullable}, &c_schema);
  if (!st.ok()) {
    c_array.release(&c_array);
    return st;
  }
  auto out = ImportArray(&c_array, &c_schema);
  EXPECT_EQ(c_array.release, nullptr);  // moved into the import
  c_schema.release(&c_schema);
  return out;
}

TEST(ImportTest, EveryTypeRoundTripsEqualAndSharesMemory) {
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    auto back = RoundTrip(c.array);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*(*back)->type, *c.array->type);
    EXPECT_TRUE(ArrayEquals(**back, *c.array));
    for (size_t i = 1; i < c.array->buffers.size(); ++i) {
      const auto& mine = c.array->buffers[i];
      if (mine != nullptr && mine->size() > 0) {
        ASSERT_NE((*back)->buffers[i], nullptr);
        EXPECT_EQ((*back)->buffers[i]->data(), mine->data()) << "buffer " << i << " copied";
        EXPECT_FALSE((*back)->buffers[i]->owns_memory());
      }
    }
    // Slices round-trip too (offset and the recomputed null count).
    auto slice = *Slice(*c.array, 1, 3);
    auto sliced_back = RoundTrip(slice);
    ASSERT_TRUE(sliced_back.ok()) << sliced_back.status().ToString();
    EXPECT_EQ((*sliced_back)->offset, 1);
    EXPECT_TRUE(ArrayEquals(**sliced_back, *slice));
  }
}

TEST(ImportTest, TheCStructIsReleasedOnceWhenTheLastBufferDrops) {
  auto live = std::make_shared<std::atomic<int>>(0);
  auto st = testing::WithCountedBuffers(
      *testing::MakeStructOf(
          {{"a", MakeFixed<int32_t>(Int32(), {1, kNull})}, {"b", MakeStrings({"x", "y"})}}, 2),
      live);
  ArrowArray c_array;
  ArrowSchema c_schema;
  ASSERT_TRUE(ExportArray(st, &c_array).ok());
  ASSERT_TRUE(ExportType(Field{"s", st->type, true}, &c_schema).ok());
  st.reset();
  auto imported = ImportArray(&c_array, &c_schema);
  c_schema.release(&c_schema);
  ASSERT_TRUE(imported.ok());
  std::shared_ptr<ArrowBuffer> keep = (*imported)->children[1]->buffers[2];
  imported = Status::Internal("drop");  // drops the imported array
  EXPECT_GT(live->load(), 0);           // one buffer still references the C struct
  EXPECT_EQ(std::string(keep->as<char>(), keep->size()), "xy");
  keep.reset();
  EXPECT_EQ(live->load(), 0);  // released (ASan would report a double release)
}

// ---- hand-built C structs, independent of our exporter ----

struct HandMade {
  int releases = 0;
};

void HandMadeRelease(ArrowArray* a) {
  ++static_cast<HandMade*>(a->private_data)->releases;
  a->release = nullptr;
}

void NoopSchemaRelease(ArrowSchema* s) { s->release = nullptr; }

ArrowSchema LeafSchema(const char* format) {
  ArrowSchema s{};
  s.format = format;
  s.name = "v";
  s.flags = ARROW_FLAG_NULLABLE;
  s.release = &NoopSchemaRelease;
  return s;
}

TEST(ImportTest, HandBuiltInt32ArrayWithUnknownNullCount) {
  alignas(8) static const int32_t values[] = {10, 20, 30, 40};
  static const uint8_t validity[] = {0b1101};
  const void* buffers[] = {validity, values};
  HandMade tracker;
  ArrowArray c{};
  c.length = 3;
  c.offset = 1;
  c.null_count = -1;  // unknown: computed on import
  c.n_buffers = 2;
  c.buffers = buffers;
  c.release = &HandMadeRelease;
  c.private_data = &tracker;
  ArrowSchema s = LeafSchema("i");
  {
    auto a = ImportArray(&c, &s);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    EXPECT_EQ(c.release, nullptr);
    EXPECT_EQ((*a)->null_count, 1);  // bits 1..3 of 1101 are 0,1,1
    EXPECT_FALSE((*a)->IsValid(0));
    EXPECT_TRUE(ArrayEquals(**a, *MakeFixed<int32_t>(Int32(), {kNull, 30, 40})));
    EXPECT_EQ(tracker.releases, 0);
  }
  EXPECT_EQ(tracker.releases, 1);
}

TEST(ImportTest, RejectsMalformedArraysAndStillReleasesThem) {
  alignas(8) static const int64_t offsets[] = {0, 2, 1};  // decreasing
  static const char data[] = "abc";
  const void* buffers[] = {nullptr, offsets, data};
  struct Case {
    std::string name;
    std::function<void(ArrowArray&)> tweak;
    const char* format;
    StatusCode code;
  };
  std::vector<Case> cases = {
      {"decreasing offsets", [](ArrowArray&) {}, "U", StatusCode::kInvalidArgument},
      {"wrong n_buffers", [](ArrowArray& c) { c.n_buffers = 2; }, "U",
       StatusCode::kInvalidArgument},
      {"negative length", [](ArrowArray& c) { c.length = -1; }, "U", StatusCode::kInvalidArgument},
      {"null_count too big", [](ArrowArray& c) { c.null_count = 5; }, "U",
       StatusCode::kInvalidArgument},
      {"children on a leaf", [](ArrowArray& c) { c.n_children = 1; }, "U",
       StatusCode::kInvalidArgument},
      {"32-bit offsets", [](ArrowArray&) {}, "u", StatusCode::kNotSupported},
      {"seconds", [](ArrowArray&) {}, "tts", StatusCode::kNotSupported},
      {"bad decimal", [](ArrowArray&) {}, "d:5", StatusCode::kInvalidArgument},
      {"decimal256", [](ArrowArray&) {}, "d:5,2,256", StatusCode::kNotSupported},
      {"bad width", [](ArrowArray&) {}, "w:x", StatusCode::kInvalidArgument},
      {"unknown", [](ArrowArray&) {}, "?", StatusCode::kNotSupported},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    HandMade tracker;
    ArrowArray c{};
    c.length = 2;
    c.null_count = 0;
    c.n_buffers = 3;
    c.buffers = buffers;
    c.release = &HandMadeRelease;
    c.private_data = &tracker;
    k.tweak(c);
    ArrowSchema s = LeafSchema(k.format);
    auto a = ImportArray(&c, &s);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.status().code(), k.code) << a.status().ToString();
    EXPECT_EQ(c.release, nullptr);
    EXPECT_EQ(tracker.releases, 1);
  }
}

TEST(ImportTest, RejectsNullMapKeysFromAHost) {
  // A host's entries struct with a null key (exported from a list of structs whose key field
  // is nullable), wrapped in a hand-built map array whose schema says the key is not null.
  auto keys = MakeStrings({"a", kNull});
  auto values = MakeFixed<int32_t>(Int32(), {1, 2});
  auto entries_type = Struct({Field{"key", LargeUtf8(), true}, Field{"value", Int32(), true}});
  auto entries = *MakeStructArray(entries_type, 2, nullptr, 0, {keys, values});
  auto list_like = *MakeLargeListArray(LargeList(Field{"entries", entries_type, false}), 1, nullptr,
                                       0, testing::OffsetsBuffer<int64_t>({0, 2}), entries);
  ArrowArray c_array;
  ASSERT_TRUE(ExportArray(list_like, &c_array).ok());
  // Re-describe the children as a map: int32 offsets are needed, so build them by hand.
  alignas(8) static const int32_t map_offsets[] = {0, 2};
  const void* map_buffers[] = {nullptr, map_offsets};
  ArrowArray map{};
  map.length = 1;
  map.n_buffers = 2;
  map.buffers = map_buffers;
  map.n_children = 1;
  ArrowArray* entries_c = c_array.children[0];
  map.children = &entries_c;
  HandMade tracker;
  map.release = &HandMadeRelease;
  map.private_data = &tracker;
  ArrowSchema map_schema;
  ASSERT_TRUE(
      ExportType(
          Field{"m", Map(Field{"key", LargeUtf8(), false}, Field{"value", Int32(), true}), true},
          &map_schema)
          .ok());
  auto imported = ImportArray(&map, &map_schema);
  EXPECT_EQ(imported.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(imported.status().message().find("entries.key: non-nullable field is null"),
            std::string::npos)
      << imported.status().ToString();
  EXPECT_EQ(tracker.releases, 1);
  map_schema.release(&map_schema);
  c_array.release(&c_array);
}

TEST(ImportFieldTest, ReadsNamesFlagsAndNestedTypes) {
  auto type = Map(Field{"k", Int32(), false}, Field{"v", LargeList(Decimal128(20, 3)), true});
  ArrowSchema s;
  ASSERT_TRUE(ExportType(Field{"col", type, false}, &s).ok());
  auto field = ImportField(&s);
  ASSERT_TRUE(field.ok()) << field.status().ToString();
  EXPECT_EQ(field->name, "col");
  EXPECT_FALSE(field->nullable);
  EXPECT_EQ(*field->type, *type);
  EXPECT_NE(s.release, nullptr);  // only read
  s.release(&s);

  ArrowSchema tz = LeafSchema("tsn:Europe/Paris");
  auto ts = ImportField(&tz);
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(*ts->type, *Timestamp(TimeUnit::kNanos, "Europe/Paris"));
  ArrowSchema dict = LeafSchema("i");
  ArrowSchema values = LeafSchema("U");
  dict.dictionary = &values;
  auto dictionary = ImportField(&dict);
  ASSERT_TRUE(dictionary.ok()) << dictionary.status().ToString();
  EXPECT_EQ(*dictionary->type, *Dictionary(LargeUtf8()));
  ArrowSchema wide = LeafSchema("l");  // int64 indices: not pqsift's
  wide.dictionary = &values;
  EXPECT_EQ(ImportField(&wide).status().code(), StatusCode::kNotSupported);
  EXPECT_FALSE(ImportField(nullptr).ok());
  ArrowSchema released = LeafSchema("i");
  released.release = nullptr;
  EXPECT_FALSE(ImportField(&released).ok());
}

TEST(ImportFieldTest, SchemasRoundTrip) {
  BatchSchema schema;
  for (const auto& c : testing::EveryTypeColumns()) {
    schema.fields.push_back(Field{c.name, c.array->type, c.name != "int32"});
  }
  ArrowSchema s;
  ASSERT_TRUE(ExportSchema(schema, &s).ok());
  auto back = ImportSchema(&s);
  s.release(&s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->fields, schema.fields);
  ArrowSchema leaf = LeafSchema("i");
  EXPECT_FALSE(ImportSchema(&leaf).ok());  // not a struct
}

TEST(ImportRecordBatchTest, RoundTripsABatch) {
  auto batch = testing::MakeBatch(testing::EveryTypeColumns());
  ArrowArray a;
  ArrowSchema s;
  ASSERT_TRUE(ExportRecordBatch(*batch, &a, &s).ok());
  auto back = ImportRecordBatch(&a, &s);
  s.release(&s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->num_rows, 4);
  EXPECT_EQ((*back)->schema->fields, batch->schema->fields);
  ASSERT_EQ((*back)->columns.size(), batch->columns.size());
  for (size_t i = 0; i < batch->columns.size(); ++i) {
    EXPECT_TRUE(ArrayEquals(*(*back)->columns[i], *batch->columns[i])) << i;
  }
  EXPECT_TRUE(ValidateRecordBatch(**back).ok());
}

}  // namespace
}  // namespace pqsift
