// The CSV, JSON Lines, table and none writers (src/cli/output/), and the value_format
// additions they use (base64, decimal128, appending forms).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arrow/test_arrays.h"
#include "cli/output/batch_writer.h"
#include "common/value_format.h"

namespace pqsift::cli {
namespace {

using pqsift::testing::Dec;
using pqsift::testing::kNull;
using pqsift::testing::MakeBatch;
using pqsift::testing::MakeFixed;
using pqsift::testing::MakeStrings;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

std::string Render(OutputFormat format, const Batches& batches, const OutputOptions& options = {}) {
  std::ostringstream out;
  auto writer = MakeBatchWriter(format, out, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return "";
  for (const auto& b : batches) {
    Status st = (*writer)->Write(*b);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Status st = (*writer)->Finish();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out.str();
}

std::string Csv(const Batches& b, const OutputOptions& o = {}) {
  return Render(OutputFormat::kCsv, b, o);
}
std::string Jsonl(const Batches& b, const OutputOptions& o = {}) {
  return Render(OutputFormat::kJsonLines, b, o);
}
std::string Table(const Batches& b, const OutputOptions& o = {}) {
  return Render(OutputFormat::kTable, b, o);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// ---- every type, exact text ----

const char* const kEveryTypeCsv =
    "bool,int8,int16,int32,int64,uint8,uint16,uint32,uint64,float16,float32,float64,string,"
    "binary,fixed,decimal,date,time32,time64us,time64ns,ts_utc,ts_local,ts_ns,list,struct,map,"
    "map_int,nested,dict,null\n"
    "true,-128,-32768,-2147483648,-9223372036854775808,0,0,0,0,1,1.5,0.1,a,0x00ff,0x616263,"
    "123.45,1970-01-01,00:00:00,00:00:00,00:00:00,1970-01-01 00:00:00+00,1970-01-01 00:00:00,"
    "1970-01-01 00:00:00+00,\"[1,2]\",\"{\"\"a\"\":1,\"\"b\"\":\"\"x\"\"}\",\"{\"\"k\"\":1}\","
    "\"[{\"\"key\"\":7,\"\"value\"\":\"\"v\"\"},{\"\"key\"\":8,\"\"value\"\":null}]\","
    "\"[{\"\"x\"\":1,\"\"y\"\":[\"\"x\"\"]},{\"\"x\"\":2,\"\"y\"\":null}]\",a,\n"
    ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n"
    "false,0,0,0,0,1,1,1,1,nan,nan,-0,\"\",0x,0x010203,-0.05,2022-01-08,01:02:03.004,"
    "00:00:00.000001,00:00:00.000000001,1970-01-01 00:00:01.5+00,1970-01-01 00:00:00.000001,"
    "1970-01-01 00:00:00.000000001+00,[],\"{\"\"a\"\":null,\"\"b\"\":\"\"y\"\"}\",{},[],[null],b,\n"
    "true,127,32767,2147483647,9223372036854775807,255,65535,4294967295,18446744073709551615,"
    "-inf,inf,1e+300,\"h\xc3\xa9llo, \"\"q\"\"\n\",0x616263,0x78797a,0.00,1969-12-31,"
    "23:59:59.999,23:59:59.999999,00:00:00.000000005,1969-12-31 23:59:59.999+00,"
    "1970-01-02 00:00:00,1970-01-01 00:00:00.000000002+00,\"[null,3]\","
    "\"{\"\"a\"\":4,\"\"b\"\":null}\",\"{\"\"a\"\":null,\"\"b\"\":2}\",[],[],\"q,\"\"r\"\"\",\n";

const char* const kEveryTypeJson[] = {
    R"({"bool":true,"int8":-128,"int16":-32768,"int32":-2147483648,"int64":"-9223372036854775808",)"
    R"("uint8":0,"uint16":0,"uint32":0,"uint64":0,"float16":1,"float32":1.5,"float64":0.1,)"
    R"("string":"a","binary":"0x00ff","fixed":"0x616263","decimal":123.45,"date":"1970-01-01",)"
    R"("time32":"00:00:00","time64us":"00:00:00","time64ns":"00:00:00",)"
    R"("ts_utc":"1970-01-01 00:00:00+00","ts_local":"1970-01-01 00:00:00",)"
    R"("ts_ns":"1970-01-01 00:00:00+00","list":[1,2],"struct":{"a":1,"b":"x"},"map":{"k":1},)"
    R"("map_int":[{"key":7,"value":"v"},{"key":8,"value":null}],)"
    R"("nested":[{"x":1,"y":["x"]},{"x":2,"y":null}],"dict":"a","null":null})",
    R"({"bool":null,"int8":null,"int16":null,"int32":null,"int64":null,"uint8":null,)"
    R"("uint16":null,"uint32":null,"uint64":null,"float16":null,"float32":null,"float64":null,)"
    R"("string":null,"binary":null,"fixed":null,"decimal":null,"date":null,"time32":null,)"
    R"("time64us":null,"time64ns":null,"ts_utc":null,"ts_local":null,"ts_ns":null,"list":null,)"
    R"("struct":null,"map":null,"map_int":null,"nested":null,"dict":null,"null":null})",
    R"({"bool":false,"int8":0,"int16":0,"int32":0,"int64":0,"uint8":1,"uint16":1,"uint32":1,)"
    R"("uint64":1,"float16":"NaN","float32":"NaN","float64":-0,"string":"","binary":"0x",)"
    R"("fixed":"0x010203","decimal":-0.05,"date":"2022-01-08","time32":"01:02:03.004",)"
    R"("time64us":"00:00:00.000001","time64ns":"00:00:00.000000001",)"
    R"("ts_utc":"1970-01-01 00:00:01.5+00","ts_local":"1970-01-01 00:00:00.000001",)"
    R"("ts_ns":"1970-01-01 00:00:00.000000001+00","list":[],"struct":{"a":null,"b":"y"},)"
    R"("map":{},"map_int":[],"nested":[null],"dict":"b","null":null})",
    R"({"bool":true,"int8":127,"int16":32767,"int32":2147483647,"int64":"9223372036854775807",)"
    R"("uint8":255,"uint16":65535,"uint32":4294967295,"uint64":"18446744073709551615",)"
    R"("float16":"-Infinity","float32":"Infinity","float64":1e+300,)"
    "\"string\":\"h\xc3\xa9llo, \\\"q\\\"\\n\","
    R"("binary":"0x616263","fixed":"0x78797a","decimal":0.00,"date":"1969-12-31",)"
    R"("time32":"23:59:59.999","time64us":"23:59:59.999999","time64ns":"00:00:00.000000005",)"
    R"("ts_utc":"1969-12-31 23:59:59.999+00","ts_local":"1970-01-02 00:00:00",)"
    R"("ts_ns":"1970-01-01 00:00:00.000000002+00","list":[null,3],"struct":{"a":4,"b":null},)"
    R"("map":{"a":null,"b":2},"map_int":[],"nested":[],"dict":"q,\"r\"","null":null})",
};

TEST(CsvWriterTest, EveryTypeExactly) {
  EXPECT_EQ(Csv({MakeBatch(pqsift::testing::EveryTypeColumns())}), kEveryTypeCsv);
}

TEST(JsonLinesWriterTest, EveryTypeExactlyAndParseable) {
  std::string out = Jsonl({MakeBatch(pqsift::testing::EveryTypeColumns())});
  auto lines = Lines(out);
  ASSERT_EQ(lines.size(), 4u);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i], kEveryTypeJson[i]) << "row " << i;
    auto parsed = nlohmann::json::parse(lines[i], nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << lines[i];
    EXPECT_EQ(parsed.size(), 30u);
  }
  auto row3 = nlohmann::json::parse(lines[3]);
  EXPECT_EQ(row3["string"], "h\xc3\xa9llo, \"q\"\n");
  EXPECT_EQ(row3["int64"], "9223372036854775807");
}

TEST(OutputTest, SlicedColumnsRenderTheirOwnRows) {
  auto full = pqsift::testing::EveryTypeColumns();
  std::vector<pqsift::testing::NamedArray> sliced;
  for (auto& c : full) sliced.push_back({c.name, *Slice(*c.array, 2, 2), c.nullable});
  auto lines = Lines(Jsonl({MakeBatch(sliced)}));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], kEveryTypeJson[2]);
  EXPECT_EQ(lines[1], kEveryTypeJson[3]);
  // A struct sliced inside a list: the list's offsets and the struct's offset both apply.
  auto inner = pqsift::testing::MakeStructOf({{"k", MakeFixed<int32_t>(Int32(), {0, 1, 2, 3, 4})}},
                                             5, {true, true, false, true, true});
  auto list = pqsift::testing::MakeList(*Slice(*inner, 1, 4), {0, 2, 4});
  EXPECT_EQ(Jsonl({MakeBatch({{"l", list}})}),
            "{\"l\":[{\"k\":1},null]}\n{\"l\":[{\"k\":3},{\"k\":4}]}\n");
  EXPECT_EQ(Csv({MakeBatch({{"l", *Slice(*list, 1, 1)}})}),
            "l\n\"[{\"\"k\"\":3},{\"\"k\"\":4}]\"\n");
}

// ---- CSV ----

TEST(CsvWriterTest, QuotesOnlyWhatRfc4180Requires) {
  auto batch = MakeBatch({{"plain", MakeStrings({"abc", "a,b", "say \"hi\"", "line\nbreak",
                                                 "cr\rhere", " spaced ", "", kNull})}});
  EXPECT_EQ(Csv({batch}),
            "plain\nabc\n\"a,b\"\n\"say \"\"hi\"\"\"\n\"line\nbreak\"\n\"cr\rhere\"\n spaced \n"
            "\"\"\n\n");
}

TEST(CsvWriterTest, QuotesHeaderNamesAndHonoursDelimiterAndLineEndOptions) {
  auto batch = MakeBatch(
      {{"a,b", MakeFixed<int32_t>(Int32(), {1, kNull})}, {"c;d", MakeStrings({"x;y", "z"})}});
  EXPECT_EQ(Csv({batch}), "\"a,b\",c;d\n1,x;y\n,z\n");
  OutputOptions o;
  o.csv_delimiter = ';';
  o.csv_crlf = true;
  EXPECT_EQ(Csv({batch}, o), "a,b;\"c;d\"\r\n1;\"x;y\"\r\n;z\r\n");
  o.csv_header = false;
  EXPECT_EQ(Csv({batch}, o), "1;\"x;y\"\r\n;z\r\n");
  // Delimiters that numbers, dates or hex can contain make those fields quoted too.
  auto numbers = MakeBatch({{"f", MakeFixed<double>(Float64(), {1.5, 2})},
                            {"t", MakeFixed<int64_t>(Timestamp(TimeUnit::kMillis, ""), {0, 1})},
                            {"b", MakeStrings({"\x01", "x"}, LargeBinary())}});
  o = {};
  o.csv_delimiter = '.';
  EXPECT_EQ(Csv({numbers}, o),
            "f.t.b\n\"1.5\".1970-01-01 00:00:00.0x01\n2.\"1970-01-01 00:00:00.001\".0x78\n");
  o.csv_delimiter = ' ';
  EXPECT_EQ(Csv({numbers}, o),
            "f t b\n1.5 \"1970-01-01 00:00:00\" 0x01\n2 \"1970-01-01 00:00:00.001\" 0x78\n");
  o.csv_delimiter = 'x';
  EXPECT_EQ(Csv({numbers}, o),
            "fxtxb\n1.5x1970-01-01 00:00:00x\"0x01\"\n2x1970-01-01 00:00:00.001x\"0x78\"\n");
  o = {};
  o.csv_delimiter = '\t';
  EXPECT_EQ(Csv({batch}, o), "a,b\tc;d\n1\tx;y\n\tz\n");
}

TEST(CsvWriterTest, OneHeaderAcrossBatchesAndNothingWithoutColumnsOrBatches) {
  auto b1 = MakeBatch({{"v", MakeFixed<int64_t>(Int64(), {1, 2})}});
  auto empty = MakeBatch({{"v", MakeFixed<int64_t>(Int64(), {})}});
  auto b2 = MakeBatch({{"v", MakeFixed<int64_t>(Int64(), {3})}});
  EXPECT_EQ(Csv({b1, empty, b2}), "v\n1\n2\n3\n");
  EXPECT_EQ(Csv({empty}), "v\n");  // the header even with no rows
  EXPECT_EQ(Csv({}), "");
  EXPECT_EQ(Csv({MakeBatch({}, 3)}), "");  // zero columns
}

TEST(CsvWriterTest, NullsInsideNestedValuesAreJsonNulls) {
  auto list = pqsift::testing::MakeList(MakeStrings({kNull, "a\"b"}), {0, 2, 2}, {true, false});
  EXPECT_EQ(Csv({MakeBatch({{"l", list}})}), "l\n\"[null,\"\"a\\\"\"b\"\"]\"\n\n");
}

TEST(CsvWriterTest, BinaryAsHexOrBase64) {
  auto batch = MakeBatch({{"b", MakeStrings({std::string("\x00\xfb\xff", 3), ""}, LargeBinary())}});
  EXPECT_EQ(Csv({batch}), "b\n0x00fbff\n0x\n");
  OutputOptions o;
  o.binary_as_base64 = true;
  EXPECT_EQ(Csv({batch}, o), "b\nAPv/\n\"\"\n");  // empty base64 is an empty value
}

// ---- JSON Lines ----

TEST(JsonLinesWriterTest, IntegersBeyondDoublePrecisionAreStrings) {
  const int64_t safe = (int64_t{1} << 53) - 1;
  auto batch =
      MakeBatch({{"i", MakeFixed<int64_t>(Int64(), {safe, safe + 1, -safe, -safe - 1})},
                 {"u", MakeFixed<uint64_t>(UInt64(), {uint64_t(safe), uint64_t(safe) + 1, 0, 5})}});
  EXPECT_EQ(Jsonl({batch}),
            "{\"i\":9007199254740991,\"u\":9007199254740991}\n"
            "{\"i\":\"9007199254740992\",\"u\":\"9007199254740992\"}\n"
            "{\"i\":-9007199254740991,\"u\":0}\n"
            "{\"i\":\"-9007199254740992\",\"u\":5}\n");
  OutputOptions exact;
  exact.json_exact_numbers = true;
  EXPECT_EQ(Lines(Jsonl({batch}, exact))[1], "{\"i\":9007199254740992,\"u\":9007199254740992}");
}

TEST(JsonLinesWriterTest, DecimalsAreNumbersUpToPrecision15ThenStrings) {
  auto batch = MakeBatch(
      {{"p15", MakeFixed<std::array<uint8_t, 16>>(Decimal128(15, 3), {Dec(-123456789012345)})},
       {"p16", MakeFixed<std::array<uint8_t, 16>>(Decimal128(16, 3), {Dec(1)})},
       {"neg_scale", MakeFixed<std::array<uint8_t, 16>>(Decimal128(5, -2), {Dec(-12)})}});
  EXPECT_EQ(Jsonl({batch}), "{\"p15\":-123456789012.345,\"p16\":\"0.001\",\"neg_scale\":-1200}\n");
  OutputOptions exact;
  exact.json_exact_numbers = true;
  EXPECT_EQ(Jsonl({batch}, exact),
            "{\"p15\":-123456789012.345,\"p16\":0.001,\"neg_scale\":-1200}\n");
  // A double-based parser recovers every precision-15 value's digits exactly.
  auto parsed = nlohmann::json::parse(Lines(Jsonl({batch}))[0]);
  EXPECT_EQ(FormatDouble(parsed["p15"].get<double>()), "-123456789012.345");
}

TEST(JsonLinesWriterTest, StringsAreEscapedAndInvalidUtf8Replaced) {
  auto batch = MakeBatch({{"s", MakeStrings({std::string("q\"b\\s/\x01\t\r\n\b\f\x1f\x7f", 14),
                                             "\xe2\x82\xac \xf0\x9f\x98\x80",
                                             std::string("bad\xff\xc3", 5), "\xed\xa0\x80"})}});
  auto lines = Lines(Jsonl({batch}));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "{\"s\":\"q\\\"b\\\\s/\\u0001\\t\\r\\n\\b\\f\\u001f\x7f\"}");
  EXPECT_EQ(lines[1], "{\"s\":\"\xe2\x82\xac \xf0\x9f\x98\x80\"}");         // UTF-8 as is
  EXPECT_EQ(lines[2], "{\"s\":\"bad\xef\xbf\xbd\xef\xbf\xbd\"}");           // one U+FFFD per byte
  EXPECT_EQ(lines[3], "{\"s\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"}");  // a surrogate
  for (const auto& l : lines) EXPECT_FALSE(nlohmann::json::parse(l, nullptr, false).is_discarded());
  EXPECT_EQ(nlohmann::json::parse(lines[0])["s"],
            std::string("q\"b\\s/\x01\t\r\n\b\f\x1f\x7f", 14));
}

TEST(JsonLinesWriterTest, KeysAreEscapedAndZeroColumnsGiveEmptyObjects) {
  auto batch = MakeBatch({{"a\"b\n", MakeFixed<int8_t>(Int8(), {1})}});
  EXPECT_EQ(Jsonl({batch}), "{\"a\\\"b\\n\":1}\n");
  EXPECT_EQ(Jsonl({MakeBatch({}, 2)}), "{}\n{}\n");
  EXPECT_EQ(Jsonl({MakeBatch({{"v", MakeFixed<int8_t>(Int8(), {})}})}), "");
}

TEST(JsonLinesWriterTest, MapsWithStringKeysAreObjectsOthersArraysOfPairs) {
  auto by_string = pqsift::testing::MakeMapOf(
      MakeStrings({"x", "x", "y"}), MakeFixed<double>(Float64(), {1.5, kNull, 2}), {0, 2, 3});
  auto by_date = pqsift::testing::MakeMapOf(
      MakeFixed<int32_t>(Date32(), {0, 1}),
      pqsift::testing::MakeList(MakeFixed<bool>(Boolean(), {true, kNull}), {0, 2, 2}), {0, 2});
  EXPECT_EQ(Jsonl({MakeBatch({{"m", by_string}})}),
            "{\"m\":{\"x\":1.5,\"x\":null}}\n{\"m\":{\"y\":2}}\n");
  EXPECT_EQ(Jsonl({MakeBatch({{"m", by_date}})}),
            "{\"m\":[{\"key\":\"1970-01-01\",\"value\":[true,null]},"
            "{\"key\":\"1970-01-02\",\"value\":[]}]}\n");
}

TEST(JsonLinesWriterTest, FloatsUseShortestTextAndStringsForNonFinite) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto batch = MakeBatch(
      {{"f", MakeFixed<float>(Float32(), {0.1f, -nan, 3e38f, 1e-45f})},
       {"d", MakeFixed<double>(Float64(),
                               {1.0 / 3, -std::numeric_limits<double>::infinity(), 5e-324, 100})},
       {"h", MakeFixed<uint16_t>(Float16(), {0x3555, 0x7c00, 0x0001, 0x8000})}});
  EXPECT_EQ(Jsonl({batch}),
            "{\"f\":0.1,\"d\":0.3333333333333333,\"h\":0.33325195}\n"
            "{\"f\":\"NaN\",\"d\":\"-Infinity\",\"h\":\"Infinity\"}\n"
            "{\"f\":3e+38,\"d\":5e-324,\"h\":5.9604645e-08}\n"
            "{\"f\":1e-45,\"d\":100,\"h\":-0}\n");
}

TEST(JsonLinesWriterTest, BinaryAsBase64) {
  OutputOptions o;
  o.binary_as_base64 = true;
  auto batch =
      MakeBatch({{"b", MakeStrings({"M", "Ma", "Man", ""}, LargeBinary())},
                 {"f", pqsift::testing::MakeFixedBinary(2, {"hi", kNull, "\xff\xfe", "ok"})}});
  EXPECT_EQ(Jsonl({batch}, o),
            "{\"b\":\"TQ==\",\"f\":\"aGk=\"}\n{\"b\":\"TWE=\",\"f\":null}\n"
            "{\"b\":\"TWFu\",\"f\":\"//4=\"}\n{\"b\":\"\",\"f\":\"b2s=\"}\n");
}

// ---- table ----

TEST(TableWriterTest, AlignsNumbersRightAndShowsTypesAndNulls) {
  auto batch = MakeBatch({{"id", MakeFixed<int64_t>(Int64(), {1, 200, kNull})},
                          {"name", MakeStrings({"ann", kNull, "b\xc3\xa9"})},
                          {"score", MakeFixed<double>(Float64(), {1.5, -2, 10})}});
  EXPECT_EQ(Table({batch}),
            "   id | name         |  score\n"
            "int64 | large_string | double\n"
            "------+--------------+-------\n"
            "    1 | ann          |    1.5\n"
            "  200 | NULL         |     -2\n"
            " NULL | b\xc3\xa9           |     10\n"
            "(3 rows)\n");
}

TEST(TableWriterTest, CutsLongCellsAndEscapesControlCharacters) {
  OutputOptions o;
  o.table_max_column_width = 6;
  auto batch = MakeBatch(
      {{"text", MakeStrings({"abcdefghij", "tab\there",
                             "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"})}});
  EXPECT_EQ(Table({batch}, o),
            "text\n"
            "large\xe2\x80\xa6\n"
            "------\n"
            "abcde\xe2\x80\xa6\n"
            "tab\\x\xe2\x80\xa6\n"
            "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\xa6\n"
            "(3 rows)\n");
}

TEST(TableWriterTest, ShowsAtMostMaxRowsAndCountsTheRestAcrossBatches) {
  OutputOptions o;
  o.table_max_rows = 3;
  auto b1 = MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {1, 2})}});
  auto b2 = MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {3, 4, 5})}});
  auto b3 = MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {6})}});
  EXPECT_EQ(Table({b1, b2, b3}, o),
            "    v\nint32\n-----\n    1\n    2\n    3\n... (3 more rows)\n");
  o.table_max_rows = 0;
  EXPECT_EQ(Table({b3}, o), "    v\nint32\n-----\n... (1 more row)\n");
  EXPECT_EQ(Table({MakeBatch({}, 2)}), "(no columns)\n(2 rows)\n");
  EXPECT_EQ(Table({}), "(no columns)\n(0 rows)\n");
  EXPECT_EQ(Table({MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {})}})}),
            "    v\nint32\n-----\n(0 rows)\n");
}

// ---- none, options, errors ----

TEST(NoneWriterTest, WritesNothing) {
  EXPECT_EQ(Render(OutputFormat::kNone, {MakeBatch(pqsift::testing::EveryTypeColumns())}), "");
}

TEST(BatchWriterTest, RejectsBadOptions) {
  std::ostringstream out;
  OutputOptions o;
  o.csv_delimiter = '"';
  EXPECT_EQ(MakeBatchWriter(OutputFormat::kCsv, out, o).status().code(),
            StatusCode::kInvalidArgument);
  o = {};
  o.table_max_column_width = 3;
  EXPECT_FALSE(MakeBatchWriter(OutputFormat::kTable, out, o).ok());
  o = {};
  o.table_max_rows = -1;
  EXPECT_FALSE(MakeBatchWriter(OutputFormat::kTable, out, o).ok());
}

TEST(BatchWriterTest, RejectsBatchesThatChangeShapeOrAreBroken) {
  for (OutputFormat format : {OutputFormat::kCsv, OutputFormat::kJsonLines, OutputFormat::kTable}) {
    std::ostringstream out;
    auto writer = *MakeBatchWriter(format, out, {});
    ASSERT_TRUE(writer->Write(*MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {1})}})).ok());
    EXPECT_EQ(writer->Write(*MakeBatch({{"v", MakeFixed<int64_t>(Int64(), {1})}})).code(),
              StatusCode::kInvalidArgument);
    EXPECT_FALSE(writer->Write(*MakeBatch({{"w", MakeFixed<int32_t>(Int32(), {1})}})).ok());
    auto short_column = MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {1})}}, 2);
    EXPECT_FALSE(writer->Write(*short_column).ok());
    auto broken = std::make_shared<Array>(*MakeFixed<int32_t>(Int32(), {1, 2}));
    broken->buffers[1]->Resize(4);
    EXPECT_FALSE(writer->Write(*MakeBatch({{"v", broken}})).ok());
  }
}

TEST(BatchWriterTest, AFailingStreamIsAnIoError) {
  for (OutputFormat format : {OutputFormat::kCsv, OutputFormat::kJsonLines, OutputFormat::kTable}) {
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    auto writer = *MakeBatchWriter(format, out, {});
    Status st = writer->Write(*MakeBatch({{"v", MakeFixed<int32_t>(Int32(), {1})}}));
    if (st.ok()) st = writer->Finish();
    EXPECT_EQ(st.code(), StatusCode::kIOError);
  }
}

TEST(BatchWriterTest, LargeBatchesAreWrittenInBlocksAndCompletely) {
  TypedBufferBuilder<int64_t> values;
  BinaryArrayBuilder text;
  const int64_t n = 300000;
  for (int64_t i = 0; i < n; ++i) {
    values.Append(i * 7);
    text.Append(i % 3 == 0 ? std::string_view("a,b") : std::string_view("plain"));
  }
  auto ints = std::make_shared<Array>();
  ints->type = Int64();
  ints->length = n;
  ints->buffers = {nullptr, values.Finish()};
  auto batch = MakeBatch({{"i", ints}, {"s", text.Finish()}});
  std::string csv = Csv({batch});
  auto lines = Lines(csv);
  ASSERT_EQ(lines.size(), static_cast<size_t>(n + 1));
  EXPECT_EQ(lines[1], "0,\"a,b\"");
  EXPECT_EQ(lines[n], std::to_string((n - 1) * 7) + ",plain");
  EXPECT_EQ(Lines(Jsonl({batch})).size(), static_cast<size_t>(n));
}

// ---- value_format additions ----

TEST(ValueFormatAdditionsTest, Base64MatchesRfc4648Vectors) {
  auto b64 = [](std::string_view s) {
    return FormatBase64(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  };
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  EXPECT_EQ(b64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(b64("\xff\xff\xfe"), "///+");
}

TEST(ValueFormatAdditionsTest, Decimal128GivesTheSameTextAsFormatDecimalBytes) {
  std::mt19937_64 rng(42);
  std::vector<std::array<uint8_t, 16>> values = {Dec(0), Dec(1), Dec(-1), Dec(INT64_MIN),
                                                 Dec(INT64_MAX)};
  std::array<uint8_t, 16> min{}, max{};
  min[15] = 0x80;
  max.fill(0xff);
  max[15] = 0x7f;
  values.push_back(min);
  values.push_back(max);
  for (int i = 0; i < 2000; ++i) {
    std::array<uint8_t, 16> v;
    uint64_t lo = rng(), hi = rng();
    int bits = static_cast<int>(rng() % 128);  // vary magnitudes
    if (bits < 64) {
      hi = static_cast<uint64_t>(static_cast<int64_t>(lo << (63 - bits)) >> 63);
      lo = bits == 0 ? lo : lo >> (64 - bits);
    }
    std::memcpy(v.data(), &lo, 8);
    std::memcpy(v.data() + 8, &hi, 8);
    values.push_back(v);
  }
  for (const auto& v : values) {
    std::array<uint8_t, 16> be;
    for (int k = 0; k < 16; ++k) be[static_cast<size_t>(k)] = v[static_cast<size_t>(15 - k)];
    for (int32_t scale : {0, 1, 2, 5, 18, 19, 20, 38, 40, -1, -3}) {
      ASSERT_EQ(FormatDecimal128(v, scale), FormatDecimalBytes(be, scale)) << scale;
    }
  }
  EXPECT_EQ(FormatDecimal128(max, 0), "170141183460469231731687303715884105727");
  EXPECT_EQ(FormatDecimal128(min, 0), "-170141183460469231731687303715884105728");
  EXPECT_EQ(FormatDecimal128(Dec(-5), 3), "-0.005");
}

TEST(ValueFormatAdditionsTest, AppendingFormsEqualTheFormatFunctions) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 5000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    float f;
    uint32_t fbits = static_cast<uint32_t>(bits);
    std::memcpy(&f, &fbits, 4);
    std::string a = "x", b = "x";
    AppendDouble(a, d);
    AppendFloat(b, f);
    ASSERT_EQ(a, "x" + FormatDouble(d));
    ASSERT_EQ(b, "x" + FormatFloat(f));
  }
  // Dates, times and timestamps: random values over every range, and the fast path's edges.
  std::vector<int64_t> days = {-719528, -719529, 2932896, 2932897, 0, -1, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 20000; ++i) {
    days.push_back(static_cast<int64_t>(rng() % 4000000) - 1000000);
  }
  for (int64_t d : days) {
    std::string a;
    AppendDate(a, d);
    ASSERT_EQ(a, FormatDate(d)) << d;
  }
  for (TimeUnit unit : {TimeUnit::kMillis, TimeUnit::kMicros, TimeUnit::kNanos}) {
    std::vector<int64_t> values = {0, -1, 1, INT64_MIN, INT64_MAX, 86400000, 86399999, 1000};
    for (int i = 0; i < 20000; ++i) {
      values.push_back(static_cast<int64_t>(rng()));  // anything
      values.push_back(static_cast<int64_t>(rng() % 200000000000000000) - 50000000000000000);
      values.push_back(static_cast<int64_t>(rng() % 100000000000));    // times
      values.push_back(static_cast<int64_t>(rng() % 1000) * 1000000);  // zeros
    }
    for (int64_t v : values) {
      for (bool utc : {false, true}) {
        std::string a;
        AppendTimestamp(a, v, unit, utc);
        ASSERT_EQ(a, FormatTimestamp(v, unit, utc)) << v;
      }
      std::string t;
      AppendTime(t, v, unit);
      ASSERT_EQ(t, FormatTime(v, unit)) << v;
    }
  }
  std::string hex;
  const uint8_t bytes[] = {0x00, 0xab, 0xff};
  AppendHex(hex, bytes);
  EXPECT_EQ(hex, FormatHex(bytes));
}

}  // namespace
}  // namespace pqsift::cli
