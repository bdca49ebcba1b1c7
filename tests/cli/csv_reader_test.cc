// The CSV reader of `pqsift convert`: quoting, NULLs, type inference, --schema, errors, and
// batches that cross the inference sample.
#include "cli/input/csv_reader.h"

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

ReadResult ReadCsv(const std::string& text, CsvOptions options = {}) {
  ReadResult r;
  std::istringstream in(text);
  auto reader = CsvReader::Open(in, "t.csv", options);
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
    EXPECT_TRUE(ValidateRecordBatch(**batch).ok());
    r.batches.push_back(*batch);
  }
  return r;
}

TEST(CsvReader, InfersTypesAndReadsNullsAndQuotes) {
  ReadResult r = ReadCsv(
      "i,d,b,day,ts,tsz,s\r\n"
      "1,1.5,true,2024-01-02,2024-01-02 03:04:05,2024-01-02T03:04:05Z,\"a,b\"\r\n"
      ",2,false,,2024-01-02 03:04:05.000001,2024-01-02 04:04:05+01:00,\"say \"\"hi\"\"\"\r\n"
      "-7,,,1970-01-01,,,\"two\nlines\"\r\n"
      "3,1e3,TRUE,2000-02-29,2000-02-29,2000-02-29Z,\"\"\r\n");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.batches.size(), 1u);
  const RecordBatch& b = *r.batches[0];
  EXPECT_EQ(b.num_rows, 4);
  EXPECT_TRUE(ArrayEquals(*b.columns[0], *MakeFixed<int64_t>(Int64(), {1, kNull, -7, 3})));
  EXPECT_TRUE(ArrayEquals(*b.columns[1], *MakeFixed<double>(Float64(), {1.5, 2, kNull, 1000})));
  EXPECT_TRUE(ArrayEquals(*b.columns[2], *MakeFixed<bool>(Boolean(), {true, false, kNull, true})));
  EXPECT_TRUE(ArrayEquals(*b.columns[3], *MakeFixed<int32_t>(Date32(), {19724, kNull, 0, 11016})));
  const int64_t t = 1704164645;  // 2024-01-02 03:04:05
  EXPECT_TRUE(ArrayEquals(*b.columns[4], *MakeFixed<int64_t>(Timestamp(TimeUnit::kMicros, ""),
                                                             {t * 1000000, t * 1000000 + 1, kNull,
                                                              int64_t{951782400} * 1000000})));
  EXPECT_TRUE(ArrayEquals(*b.columns[5], *MakeFixed<int64_t>(Timestamp(TimeUnit::kMicros, "UTC"),
                                                             {t * 1000000, t * 1000000, kNull,
                                                              int64_t{951782400} * 1000000})));
  // An empty unquoted field is NULL, an empty quoted one the empty string.
  EXPECT_TRUE(ArrayEquals(*b.columns[6], *MakeStrings({"a,b", "say \"hi\"", "two\nlines", ""})));
}

TEST(CsvReader, SchemaOverridesInference) {
  CsvOptions options;
  options.schema = "price:decimal(6,2), id:int16,t:time_ms,u:uint64";
  ReadResult r = ReadCsv(
      "id,price,t,u,rest\n1,12.5,01:02:03.004,18446744073709551615,x\n"
      "2,-0.07,00:00,0,\n",
      options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const RecordBatch& b = *r.batches[0];
  EXPECT_TRUE(ArrayEquals(*b.columns[0], *MakeFixed<int16_t>(Int16(), {1, 2})));
  EXPECT_TRUE(
      ArrayEquals(*b.columns[1], *MakeFixed<std::array<uint8_t, 16>>(
                                     Decimal128(6, 2), {testing::Dec(1250), testing::Dec(-7)})));
  EXPECT_TRUE(
      ArrayEquals(*b.columns[2], *MakeFixed<int32_t>(Time32(TimeUnit::kMillis), {3723004, 0})));
  EXPECT_TRUE(ArrayEquals(*b.columns[3], *MakeFixed<uint64_t>(UInt64(), {UINT64_MAX, 0})));
  EXPECT_TRUE(ArrayEquals(*b.columns[4], *MakeStrings({"x", kNull})));
}

TEST(CsvReader, BatchesCrossTheInferenceSample) {
  std::string text = "n\n";
  for (int i = 0; i < 10; ++i) text += std::to_string(i) + "\n";
  CsvOptions options;
  options.batch_rows = 3;
  options.infer_rows = 4;
  ReadResult r = ReadCsv(text, options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.batches.size(), 4u);
  int64_t expected = 0;
  for (const auto& b : r.batches) {
    for (int64_t i = 0; i < b->num_rows; ++i, ++expected) {
      EXPECT_EQ(b->columns[0]->buffers[1]->as<int64_t>()[b->columns[0]->offset + i], expected);
    }
  }
  EXPECT_EQ(expected, 10);
}

TEST(CsvReader, ErrorsNameTheRecordAndColumn) {
  CsvOptions options;
  options.infer_rows = 2;
  ReadResult bad_value = ReadCsv("a,b\n1,x\n2,y\nthree,z\n", options);
  EXPECT_EQ(bad_value.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad_value.status.message().find("record 3, column 'a': 'three' is not a valid int64"),
            std::string::npos)
      << bad_value.status.message();
  ReadResult short_record = ReadCsv("a,b\n1,x\n2\n");
  EXPECT_NE(short_record.status.message().find("record 2 has 1 fields"), std::string::npos)
      << short_record.status.message();
  EXPECT_EQ(ReadCsv("a,b\n\"open,1\n").status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadCsv("").status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadCsv("a,a\n1,2\n").status.code(), StatusCode::kInvalidArgument);
  CsvOptions unknown;
  unknown.schema = "zz:int64";
  EXPECT_EQ(ReadCsv("a\n1\n", unknown).status.code(), StatusCode::kInvalidArgument);
  unknown.schema = "a:int99";
  EXPECT_EQ(ReadCsv("a\n1\n", unknown).status.code(), StatusCode::kInvalidArgument);
}

TEST(CsvReader, LastLineWithoutBreakAndOneColumnNulls) {
  ReadResult r = ReadCsv("s\nx\n\ny");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(ArrayEquals(*r.batches[0]->columns[0], *MakeStrings({"x", kNull, "y"})));
}

}  // namespace
}  // namespace pqsift::cli
