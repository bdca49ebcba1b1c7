// Nested columns in the writer: the shredder's levels on small known cases (the Dremel
// encoding, by hand), then random struct, list (of structs, of lists, of maps), and map columns
// with random nullability at every level and random list lengths, written under several page
// sizes (so pages split inside the batches) and read back equal through pqsift's reader, with
// every page starting at a record and agreeing with its page index entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "write/random_columns.h"
#include "write/shredder.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

using testing::Nulls;

// ---- building nested arrays by hand ----

std::shared_ptr<ArrowBuffer> Bits(const std::vector<bool>& valid, int64_t* null_count) {
  BitmapBuilder b;
  for (bool v : valid) b.Append(v);
  *null_count = b.null_count();
  return b.FinishValidity();
}

std::shared_ptr<Array> ListOf(std::shared_ptr<const DataType> type,
                              const std::vector<int64_t>& offsets, const std::vector<bool>& valid,
                              std::shared_ptr<Array> child) {
  auto a = std::make_shared<Array>();
  a->type = std::move(type);
  a->length = static_cast<int64_t>(valid.size());
  TypedBufferBuilder<int64_t> o;
  o.Append(offsets.data(), static_cast<int64_t>(offsets.size()));
  a->buffers = {Bits(valid, &a->null_count), o.Finish()};
  a->children = {std::move(child)};
  return a;
}

std::shared_ptr<Array> Int32s(const std::vector<std::optional<int32_t>>& values) {
  FixedWidthArrayBuilder<int32_t> b(Int32());
  for (const auto& v : values) b.Append(v);
  return b.Finish();
}

// Random arrays of any type: nulls at every nullable level, list lengths 0..max_list (null
// lists sometimes keep a non-empty range, which readers must ignore), struct children sliced
// (a non-zero child offset).
class RandomNested {
 public:
  RandomNested(uint32_t seed, int max_list)
      : rng_(seed), flat_(seed + 1, 40), max_list_(max_list) {}

  std::shared_ptr<Array> Make(const DataType& type, bool nullable, int64_t n) {
    std::vector<bool> valid(static_cast<size_t>(n));
    for (auto&& v : valid) v = !nullable || rng_() % 6 != 0;
    auto t = std::make_shared<DataType>(type);
    switch (type.id) {
      case TypeId::kStruct: {
        auto a = std::make_shared<Array>();
        a->type = t;
        a->length = n;
        a->buffers = {Bits(valid, &a->null_count)};
        for (const Field& f : type.children) {
          const int64_t pad = static_cast<int64_t>(rng_() % 3);
          auto child = Make(*f.type, f.nullable, n + pad);
          a->children.push_back(pad == 0 ? child : *Slice(*child, pad, n));
        }
        return a;
      }
      case TypeId::kLargeList:
      case TypeId::kMap: {
        // Long lists at the top only, so that lists of lists stay small.
        const uint64_t longest = depth_ == 0 ? max_list_ : std::min(max_list_, 3);
        std::vector<int64_t> offsets{0};
        for (bool v : valid) {
          int64_t length =
              v ? static_cast<int64_t>(rng_() % (longest + 1)) : (rng_() % 4 == 0 ? 1 : 0);
          offsets.push_back(offsets.back() + length);
        }
        const Field& item = type.children[0];
        ++depth_;
        auto child = Make(*item.type, item.nullable, offsets.back());
        --depth_;
        if (type.id == TypeId::kLargeList) return ListOf(t, offsets, valid, child);
        auto a = ListOf(t, offsets, valid, child);
        TypedBufferBuilder<int32_t> narrow;
        for (int64_t o : offsets) narrow.Append(static_cast<int32_t>(o));
        a->buffers[1] = narrow.Finish();
        return a;
      }
      default: return flat_.Make(type, n, nullable ? Nulls::kSome : Nulls::kNone);
    }
  }

 private:
  std::mt19937_64 rng_;
  testing::RandomColumns flat_;
  int max_list_;
  int depth_ = 0;  // lists around the array being made
};

std::shared_ptr<BatchSchema> NestedSchema() {
  auto s = std::make_shared<BatchSchema>();
  s->fields = {
      {"id", Int64(), false},
      {"s",
       Struct({{"a", Int32(), true},
               {"b", LargeUtf8(), false},
               {"c", Struct({{"d", Float64(), true}}), true}}),
       true},
      {"l", LargeList(Field{"element", Int64(), true}), true},
      {"ls",
       LargeList(Field{"element", Struct({{"x", Int32(), true}, {"y", LargeUtf8(), true}}), true}),
       true},
      {"ll", LargeList(Field{"element", LargeList(Field{"element", LargeUtf8(), true}), true}),
       true},
      {"m", Map(Field{"key", LargeUtf8(), false}, Field{"value", Int32(), true}), true},
      {"deep",
       LargeList(Field{"item",
                       Map(Field{"key", Int32(), false}, Field{"value", LargeList(Int16()), true}),
                       true}),
       false},
      {"req", LargeList(Field{"element", Decimal128(38, 4), false}), false},
      {"sl", Struct({{"tags", LargeList(LargeBinary()), true}, {"flag", Boolean(), true}}), false},
  };
  return s;
}

std::shared_ptr<RecordBatch> RandomBatch(uint32_t seed, int max_list, int64_t rows) {
  RandomNested gen(seed, max_list);
  auto batch = std::make_shared<RecordBatch>();
  batch->schema = NestedSchema();
  batch->num_rows = rows;
  for (const Field& f : batch->schema->fields) {
    batch->columns.push_back(gen.Make(*f.type, f.nullable, rows));
  }
  return batch;
}

// ---- the shredder on known cases ----

struct Levels {
  std::vector<int16_t> def, rep;
  std::vector<int64_t> slots, record_entries;
};

Levels ShredOne(const Field& field, const Array& column, size_t leaf = 0) {
  auto plan = write::PlanColumn(field);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  write::ShreddedLeaf out;
  Status st = write::Shred(plan->leaves.at(leaf), column, 0, column.length, out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return {out.definition_levels, out.repetition_levels, out.slots, out.record_entries};
}

TEST(Shredder, ListLevels) {
  // [[1, 2], [], null, [null], [3]] as an optional list of optional int32: definition 0 null
  // list, 1 empty list, 2 null element, 3 value; repetition 1 for the second element on.
  auto child = Int32s({1, 2, std::nullopt, 3});
  auto type = LargeList(Field{"element", Int32(), true});
  auto list = ListOf(type, {0, 2, 2, 2, 3, 4}, {true, true, false, true, true}, child);
  Field field{"l", type, true};
  auto plan = write::PlanColumn(field);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->leaves.size(), 1u);
  EXPECT_EQ(plan->leaves[0].path, "l.list.element");
  EXPECT_EQ(plan->leaves[0].max_definition_level, 3);
  EXPECT_EQ(plan->leaves[0].max_repetition_level, 1);
  ASSERT_EQ(plan->elements.size(), 3u);
  EXPECT_EQ(plan->elements[0].converted_type, ConvertedType::kList);
  EXPECT_EQ(plan->elements[1].repetition_type, Repetition::kRepeated);
  EXPECT_EQ(plan->elements[2].name, "element");

  Levels lv = ShredOne(field, *list);
  EXPECT_EQ(lv.def, (std::vector<int16_t>{3, 3, 1, 0, 2, 3}));
  EXPECT_EQ(lv.rep, (std::vector<int16_t>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(lv.slots, (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(lv.record_entries, (std::vector<int64_t>{0, 2, 3, 4, 5, 6}));

  // A slice starting at the third row: the same levels from there on, slots unchanged.
  auto sliced = *Slice(*list, 2, 3);
  Levels tail = ShredOne(field, *sliced);
  EXPECT_EQ(tail.def, (std::vector<int16_t>{0, 2, 3}));
  EXPECT_EQ(tail.slots, (std::vector<int64_t>{3}));
}

TEST(Shredder, NestedListAndStructLevels) {
  // list<list<int32 not null> not null> not null: [[[1], []], [], [[2, 3]]] -> definition 0
  // empty outer, 1 empty inner, 2 value; repetition 0 new row, 1 new inner list, 2 next value.
  auto values = Int32s({1, 2, 3});
  auto inner_type = LargeList(Field{"element", Int32(), false});
  auto inner = ListOf(inner_type, {0, 1, 1, 3}, {true, true, true}, values);
  auto outer_type = LargeList(Field{"element", inner_type, false});
  auto outer = ListOf(outer_type, {0, 2, 2, 3}, {true, true, true}, inner);
  Levels lv = ShredOne(Field{"ll", outer_type, false}, *outer);
  EXPECT_EQ(lv.def, (std::vector<int16_t>{2, 1, 0, 2, 2}));
  EXPECT_EQ(lv.rep, (std::vector<int16_t>{0, 1, 0, 0, 2}));

  // struct<a: int32> nullable with a nullable field: a null struct stops at definition 0, a
  // null field at 1; no repetition levels.
  auto a = Int32s({7, std::nullopt, 9});
  auto struct_type = Struct({{"a", Int32(), true}});
  auto st = std::make_shared<Array>();
  st->type = struct_type;
  st->length = 3;
  st->buffers = {Bits({true, true, false}, &st->null_count)};
  st->children = {a};
  Levels s = ShredOne(Field{"s", struct_type, true}, *st);
  EXPECT_EQ(s.def, (std::vector<int16_t>{2, 1, 0}));
  EXPECT_TRUE(s.rep.empty());
  EXPECT_EQ(s.slots, (std::vector<int64_t>{0}));
}

TEST(Shredder, RejectsNullsWhereTheFieldIsNotNullable) {
  auto child = Int32s({1, std::nullopt});
  auto type = LargeList(Field{"element", Int32(), false});
  auto list = ListOf(type, {0, 2}, {true}, child);
  write::ShreddedLeaf out;
  auto plan = write::PlanColumn(Field{"l", type, true});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(write::Shred(plan->leaves[0], *list, 0, 1, out).code(), StatusCode::kInvalidArgument);
  // Offsets past the child's values.
  auto bad = ListOf(type, {0, 5}, {true}, Int32s({1, 2}));
  EXPECT_EQ(write::Shred(plan->leaves[0], *bad, 0, 1, out).code(), StatusCode::kInvalidArgument);
}

// ---- random nested columns, written and read back ----

struct NestedCase {
  std::string name;
  int max_list;
  int64_t page_rows;
  int64_t page_bytes;
  bool dictionary;
  bool v2;
  CompressionCodec codec;
};

class NestedRoundTrip : public ::testing::TestWithParam<NestedCase> {};

TEST_P(NestedRoundTrip, ReadsBackEqualWithPagesAtRecords) {
  const NestedCase& c = GetParam();
  const int64_t rows = 1500;
  auto batch = RandomBatch(static_cast<uint32_t>(c.page_rows * 7 + c.max_list), c.max_list, rows);
  ASSERT_TRUE(ValidateRecordBatch(*batch).ok()) << ValidateRecordBatch(*batch).ToString();
  WriterOptions options;
  options.compression = c.codec;
  options.dictionary = c.dictionary;
  options.data_page_v2 = c.v2;
  options.page_rows = c.page_rows;
  options.page_bytes = c.page_bytes;
  options.row_group_rows = 1000;  // two row groups, the second partial
  options.dictionary_page_bytes = 600;
  options.column_encodings["l.list.element"] = Encoding::kDeltaBinaryPacked;
  options.bloom_filters["m.key_value.key"] = {};
  testing::Written w = testing::Write(*batch, options, 333);
  ASSERT_NE(w.metadata, nullptr);
  EXPECT_EQ(w.metadata->num_rows(), rows);
  EXPECT_EQ(w.metadata->schema().num_columns(), 15u);
  testing::ExpectReadsBack(w, *batch);
  testing::ExpectPageIndexMatchesPages(w);
  // Pages did split: some chunk has several pages (the page index check read each alone).
  int64_t pages = 0;
  for (const RowGroup& rg : w.metadata->file().row_groups) {
    for (const ColumnChunk& chunk : rg.columns) {
      EXPECT_FALSE(chunk.meta_data->statistics->null_count == std::nullopt);
      for (const PageEncodingStats& e : *chunk.meta_data->encoding_stats) {
        if (e.page_type != PageType::kDictionaryPage) pages += e.count;
      }
    }
  }
  EXPECT_GT(pages, 2 * 15);
}

INSTANTIATE_TEST_SUITE_P(Cases, NestedRoundTrip,
                         ::testing::Values(NestedCase{"tiny_pages", 3, 2, int64_t{1} << 20, true,
                                                      false, CompressionCodec::kSnappy},
                                           NestedCase{"long_lists_small_bytes", 40, 20000, 400,
                                                      false, true, CompressionCodec::kZstd},
                                           NestedCase{"mid_pages_v2", 6, 97, int64_t{1} << 20, true,
                                                      true, CompressionCodec::kUncompressed},
                                           NestedCase{"short_lists_v1", 1, 500, 2000, true, false,
                                                      CompressionCodec::kGzip}),
                         [](const auto& info) { return info.param.name; });

TEST(NestedWriter, PagePrunedScansFetchOnlyTheNestedPagesTheyNeed) {
  // Nested columns beside a sorted `row`: their pages end elsewhere (bytes, not rows), so each
  // column is read for exactly the selected rows from the pages that hold them; the rest stay
  // in the file. The rows equal the input's.
  const int64_t rows = 3000;
  auto batch = RandomBatch(11, 4, rows);
  auto schema = std::make_shared<BatchSchema>(*batch->schema);
  FixedWidthArrayBuilder<int64_t> row(Int64());
  for (int64_t r = 0; r < rows; ++r) row.Append(r);
  schema->fields.push_back({"row", Int64(), false});
  batch->schema = schema;
  batch->columns.push_back(row.Finish());
  WriterOptions options;
  options.page_rows = 97;
  options.page_bytes = 700;
  options.row_group_rows = 2000;
  testing::Written w = testing::Write(*batch, options);
  ASSERT_NE(w.metadata, nullptr);
  const std::vector<std::pair<int64_t, int64_t>> ranges = {{100, 160}, {1990, 2010}, {2900, 2903}};
  std::string filter;
  std::vector<int64_t> expected;
  for (const auto& [lo, hi] : ranges) {
    filter += (filter.empty() ? "" : " OR ") +
              ("row BETWEEN " + std::to_string(lo) + " AND " + std::to_string(hi));
    for (int64_t r = lo; r <= hi; ++r) expected.push_back(r);
  }
  ScanOptions scan;
  scan.filter = filter;
  scan.threads = 1;
  scan.batch_size = 16;
  auto scanner = Scanner::Open({w.file}, {w.metadata}, scan);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  size_t at = 0;
  for (;;) {
    auto got = (*scanner)->Next();
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    if (*got == nullptr) break;
    for (int64_t r = 0; r < (*got)->num_rows; ++r, ++at) {
      ASSERT_LT(at, expected.size());
      for (size_t c = 0; c < batch->columns.size(); ++c) {
        auto want = Slice(*batch->columns[c], expected[at], 1);
        auto have = Slice(*(*got)->columns[c], r, 1);
        ASSERT_TRUE(want.ok() && have.ok());
        ASSERT_TRUE(ArrayEquals(**want, **have))
            << batch->schema->fields[c].name << " at input row " << expected[at];
      }
    }
  }
  EXPECT_EQ(at, expected.size());
  ScanStats stats = (*scanner)->stats();
  EXPECT_GT(stats.pages_not_fetched, stats.pages_total / 2);
}

TEST(NestedWriter, RejectsWhatItCannotWrite) {
  std::vector<uint8_t> out;
  auto schema = NestedSchema();
  WriterOptions sorted;
  sorted.sort_by.push_back({"id"});
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), schema, sorted).status().code(),
            StatusCode::kNotSupported);
  auto empty_struct = std::make_shared<BatchSchema>();
  empty_struct->fields.push_back({"e", Struct({}), true});
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), empty_struct).status().code(),
            StatusCode::kNotSupported);

  // A null element under a non-nullable list element: an error naming the column.
  auto list_schema = std::make_shared<BatchSchema>();
  auto type = LargeList(Field{"element", Int32(), false});
  list_schema->fields.push_back({"l", type, true});
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("x", &out), list_schema);
  ASSERT_TRUE(writer.ok());
  RecordBatch batch;
  batch.schema = list_schema;
  batch.num_rows = 1;
  batch.columns.push_back(ListOf(type, {0, 2}, {true}, Int32s({1, std::nullopt})));
  Status st = (*writer)->Write(batch);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'l'"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace pqsift
