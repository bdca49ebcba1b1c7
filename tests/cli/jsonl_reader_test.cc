// The JSON Lines reader of `pqsift convert`: inference (shared with CSV: JSON strings stay
// strings unless they are dates or timestamps), nested objects and arrays as struct and list
// columns, missing keys as NULL, --schema, batches that cross the inference sample, and errors
// naming the line.
#include "cli/input/jsonl_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "arrow/test_arrays.h"

namespace pqsift::cli {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

struct ReadResult {
  Status status;
  std::shared_ptr<const BatchSchema> schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

ReadResult ReadJson(const std::string& text, JsonLinesOptions options = {}) {
  ReadResult r;
  std::istringstream in(text);
  auto reader = JsonLinesReader::Open(in, "t.jsonl", options);
  if (!reader.ok()) {
    r.status = reader.status();
    return r;
  }
  r.schema = (*reader)->schema();
  for (;;) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      r.status = batch.status();
      return r;
    }
    if (*batch == nullptr) break;
    Status valid = ValidateRecordBatch(**batch);
    EXPECT_TRUE(valid.ok()) << valid.ToString();
    r.batches.push_back(*batch);
  }
  return r;
}

TEST(JsonLinesReader, InfersScalarTypesAndMissingKeysAreNull) {
  ReadResult r = ReadJson(
      "{\"i\": 1, \"d\": 1.5, \"b\": true, \"day\": \"2024-01-02\", \"s\": \"007\", \"e\": \"\"}\n"
      "\n"
      "{\"i\": null, \"d\": 2, \"b\": false, \"s\": \"x\"}\r\n"
      "{\"d\": -1e3, \"day\": \"1970-01-01\", \"s\": \"12\", \"late\": 5}\n");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.batches.size(), 1u);
  const RecordBatch& b = *r.batches[0];
  ASSERT_EQ(r.schema->fields.size(), 7u);
  EXPECT_EQ(r.schema->fields[6].name, "late");
  EXPECT_TRUE(ArrayEquals(*b.columns[0], *MakeFixed<int64_t>(Int64(), {1, kNull, kNull})));
  EXPECT_TRUE(ArrayEquals(*b.columns[1], *MakeFixed<double>(Float64(), {1.5, 2, -1000})));
  EXPECT_TRUE(ArrayEquals(*b.columns[2], *MakeFixed<bool>(Boolean(), {true, false, kNull})));
  EXPECT_TRUE(ArrayEquals(*b.columns[3], *MakeFixed<int32_t>(Date32(), {19724, kNull, 0})));
  // Strings of digits stay strings (a JSON string is never a number).
  EXPECT_TRUE(ArrayEquals(*b.columns[4], *MakeStrings({"007", "x", "12"})));
  EXPECT_EQ(r.schema->fields[5].type->id, TypeId::kLargeString);
  EXPECT_TRUE(ArrayEquals(*b.columns[6], *MakeFixed<int64_t>(Int64(), {kNull, kNull, 5})));
}

TEST(JsonLinesReader, ObjectsAndArraysAreStructsAndLists) {
  ReadResult r = ReadJson(
      "{\"s\": {\"a\": 1, \"t\": [\"x\", null]}, \"l\": [[1, 2], []], \"mixed\": 1}\n"
      "{\"s\": null, \"l\": null, \"mixed\": {\"k\": [true]}}\n"
      "{\"s\": {\"b\": \"q\"}, \"l\": [null, [3]]}\n");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.batches.size(), 1u);
  const auto& f = r.schema->fields;
  auto s_type = Struct({{"a", Int64(), true},
                        {"t", LargeList(Field{"element", LargeUtf8(), true}), true},
                        {"b", LargeUtf8(), true}});
  EXPECT_TRUE(*f[0].type == *s_type) << f[0].type->ToString();
  auto l_type = LargeList(Field{"element", LargeList(Field{"element", Int64(), true}), true});
  EXPECT_TRUE(*f[1].type == *l_type) << f[1].type->ToString();
  // Numbers and objects in one column: the values' JSON text.
  EXPECT_EQ(f[2].type->id, TypeId::kLargeString);
  const RecordBatch& b = *r.batches[0];
  EXPECT_TRUE(ArrayEquals(*b.columns[2], *MakeStrings({"1", "{\"k\":[true]}", kNull})));
  const Array& s = *b.columns[0];
  EXPECT_EQ(s.null_count, 1);
  EXPECT_TRUE(ArrayEquals(*s.children[0], *MakeFixed<int64_t>(Int64(), {1, kNull, kNull})));
  EXPECT_TRUE(ArrayEquals(*s.children[2], *MakeStrings({kNull, kNull, "q"})));
  const Array& l = *b.columns[1];
  EXPECT_EQ(l.null_count, 1);
  const int64_t* offsets = l.buffers[1]->as<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(offsets, offsets + 4), (std::vector<int64_t>{0, 2, 2, 4}));
  EXPECT_EQ(l.children[0]->null_count, 1);
  EXPECT_TRUE(ArrayEquals(*l.children[0]->children[0], *MakeFixed<int64_t>(Int64(), {1, 2, 3})));
}

TEST(JsonLinesReader, SchemaGivesTypesAndBatchesCrossTheSample) {
  std::string text;
  for (int i = 0; i < 25; ++i) {
    text += "{\"id\": " + std::to_string(i) + ", \"p\": \"" + std::to_string(i) + ".50\"}\n";
  }
  JsonLinesOptions options;
  options.batch_rows = 10;
  options.infer_rows = 7;
  options.schema = "id:int32,p:decimal(5,2)";
  ReadResult r = ReadJson(text, options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.batches.size(), 3u);
  EXPECT_EQ(r.batches[2]->num_rows, 5);
  EXPECT_EQ(r.schema->fields[0].type->id, TypeId::kInt32);
  EXPECT_EQ(r.schema->fields[1].type->id, TypeId::kDecimal128);
  EXPECT_TRUE(ArrayEquals(*r.batches[1]->columns[0],
                          *MakeFixed<int32_t>(Int32(), {10, 11, 12, 13, 14, 15, 16, 17, 18, 19})));
}

TEST(JsonLinesReader, ErrorsNameTheLine) {
  ReadResult r = ReadJson("{\"a\": 1}\n{\"a\": 2\n");
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status.message().find("line 2"), std::string::npos) << r.status.ToString();
  r = ReadJson("[1]\n");
  EXPECT_NE(r.status.message().find("line 1: not a JSON object"), std::string::npos);
  JsonLinesOptions few;
  few.infer_rows = 1;
  r = ReadJson("{\"a\": 1}\n{\"a\": \"x\"}\n", few);
  EXPECT_NE(r.status.message().find("line 2, column 'a': 'x' is not a valid int64"),
            std::string::npos)
      << r.status.ToString();
  r = ReadJson("{\"a\": {\"b\": 1}}\n{\"a\": 3}\n", few);
  EXPECT_NE(r.status.message().find("3 is not an object"), std::string::npos)
      << r.status.ToString();
  few.schema = "zz:int64";
  EXPECT_EQ(ReadJson("{\"a\": 1}\n", few).status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadJson("").status.code(), StatusCode::kInvalidArgument);
  // Nesting deeper than the reader follows: an error, not a recursion as deep as the line.
  r = ReadJson("{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}\n");
  EXPECT_NE(r.status.message().find("nest deeper than 64"), std::string::npos)
      << r.status.ToString();
}

}  // namespace
}  // namespace pqsift::cli
