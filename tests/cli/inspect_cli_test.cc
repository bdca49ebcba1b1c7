// The `pqsift` binary, run as a separate process with stdout and stderr captured apart: exit
// codes (0 ok, 1 a file failed, 2 usage), the one-line "pqsift: " errors, and the inspect
// output (JSON and text) for tests/data/tiny.parquet and for hostile files.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "testing/cli.h"
#include "testing/files.h"
#include "testing/metadata_encoder.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using testing::CliResult;
using testing::ExpectOneErrorLine;
using testing::RunCli;
using testing::TempFile;

const nlohmann::json* ColumnChunkWithLogicalType(const nlohmann::json& j, const std::string& lt) {
  const nlohmann::json& columns = j.at("columns");
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].at("logical_type") == lt) return &j.at("row_groups").at(0).at("columns").at(i);
  }
  return nullptr;
}

TEST(InspectCliTest, JsonForTinyParquet) {
  std::string path = testing::TestDataPath("tiny.parquet");
  CliResult r = RunCli({"inspect", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("file"), path);
  EXPECT_EQ(j.at("num_rows"), 3);
  EXPECT_EQ(j.at("num_columns"), 4);
  EXPECT_EQ(j.at("columns").size(), 4u);
  EXPECT_EQ(j.at("file_size"), std::filesystem::file_size(path));
  ASSERT_EQ(j.at("row_groups").size(), 1u);
  EXPECT_EQ(j.at("row_groups")[0].at("columns").size(), 4u);

  const nlohmann::json* date = ColumnChunkWithLogicalType(j, "DATE");
  ASSERT_NE(date, nullptr);
  EXPECT_EQ(date->at("statistics").at("min"), "2026-01-01");
  EXPECT_EQ(date->at("statistics").at("max"), "2026-01-03");
  const nlohmann::json* decimal = ColumnChunkWithLogicalType(j, "DECIMAL(9,2)");
  ASSERT_NE(decimal, nullptr);
  EXPECT_EQ(decimal->at("statistics").at("min"), "-3.25");
  EXPECT_EQ(decimal->at("statistics").at("max"), "12.50");
  EXPECT_FALSE(decimal->at("statistics").contains("min_invalid"));
}

TEST(InspectCliTest, TextForTinyParquet) {
  CliResult r = RunCli({"inspect", testing::TestDataPath("tiny.parquet")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("3 in 1 row group(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 leaf column(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2026-01-03"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("12.50"), std::string::npos) << r.out;
}

TEST(InspectCliTest, SeveralFilesGiveAJsonArrayInArgumentOrder) {
  std::string tiny = testing::TestDataPath("tiny.parquet");
  std::string events = testing::ExamplePath("events.parquet");
  CliResult r = RunCli({"inspect", "--json", tiny, events});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0].at("file"), tiny);
  EXPECT_EQ(j[1].at("file"), events);
}

TEST(InspectCliTest, MissingFileExitsOneWithOneLine) {
  std::string path = "/nonexistent/dir/missing.parquet";
  CliResult r = RunCli({"inspect", "--json", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  ExpectOneErrorLine(r, path);
  EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
}

TEST(InspectCliTest, NonParquetFileExitsOneWithOneLine) {
  TempFile text("this is not a parquet file at all\n", ".txt");
  for (bool json : {true, false}) {
    CliResult r =
        json ? RunCli({"inspect", "--json", text.path()}) : RunCli({"inspect", text.path()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    ExpectOneErrorLine(r, text.path() + ": not a Parquet file");
  }
  TempFile tiny("PAR1");
  CliResult r = RunCli({"inspect", tiny.path()});
  EXPECT_EQ(r.exit_code, 1);
  ExpectOneErrorLine(r, tiny.path() + ": not a Parquet file (only 4 bytes");
}

TEST(InspectCliTest, OneBadFileAmongGoodOnesStillPrintsTheGoodOnes) {
  std::string tiny = testing::TestDataPath("tiny.parquet");
  CliResult r = RunCli({"inspect", "--json", tiny, "/nonexistent.parquet"});
  EXPECT_EQ(r.exit_code, 1);
  ExpectOneErrorLine(r, "/nonexistent.parquet");
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0].at("num_rows"), 3);
}

TEST(InspectCliTest, DirectoryIsAUsageError) {
  std::string dir = std::filesystem::temp_directory_path().string();
  CliResult r = RunCli({"inspect", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  ExpectOneErrorLine(r, dir + ": is a directory");
}

TEST(InspectCliTest, BadUsageExitsTwo) {
  std::string tiny = testing::TestDataPath("tiny.parquet");
  const std::vector<std::vector<std::string>> cases = {
      {"inspect", "--bogus", tiny}, {"frobnicate"}, {}, {"inspect"}, {"--jsn", "inspect", tiny}};
  for (const std::vector<std::string>& args : cases) {
    std::string joined;
    for (const std::string& a : args) joined += a + " ";
    SCOPED_TRACE(joined);
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    ExpectOneErrorLine(r, "");
  }
}

TEST(InspectCliTest, HelpExitsZero) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, std::vector<std::string>{"inspect", "--help"},
        std::vector<std::string>{"-h"}, std::vector<std::string>{"inspect", "-h"}}) {
    SCOPED_TRACE(args.size());
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("inspect"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
  }
}

TEST(InspectCliTest, InspectHelpMentionsJson) {
  CliResult r = RunCli({"inspect", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FILE"), std::string::npos) << r.out;
}

TEST(InspectCliTest, RootHelpMentionsJson) {
  // The brief asks for `pqsift --help` to mention --json too; the root help lists only the
  // subcommands (an example line in the root footer, e.g. "pqsift inspect --json FILE", would do).
  CliResult r = RunCli({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--json"), std::string::npos) << r.out;
}

TEST(InspectCliTest, VersionExitsZero) {
  CliResult r = RunCli({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("pqsift ", 0), 0u) << r.out;
}

// ---- hostile files through the whole CLI ----

TEST(InspectCliTest, InvalidUtf8IsEscapedNotReplaced) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.created_by = std::string_view("bad\xc0\x80 \xff end", 11);
  m.key_value_metadata = {{"k\xed\xa0\x80", "v"}};
  TempFile f(testing::WrapFooter(testing::EncodeFooter(m)));
  CliResult r = RunCli({"inspect", "--json", f.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);  // strict: valid UTF-8 only
  EXPECT_EQ(j.at("created_by"), "bad\\xc0\\x80 \\xff end");
  EXPECT_EQ(j.at("key_value_metadata")[0].at("key"), "k\\xed\\xa0\\x80");
}

TEST(InspectCliTest, ExtremeStatisticsRenderWithoutCrashing) {
  // DATE on INT64 with int64 extremes, a decimal with 16 bytes, INT96 out of range.
  FileMetaData m;
  m.version = 1;
  SchemaElement d = testing::Leaf("d", PhysicalType::kInt64);
  d.logical_type = testing::MakeLogical(LogicalType::Kind::kDate);
  SchemaElement t = testing::Leaf("t", PhysicalType::kInt96);
  m.schema = {testing::Root(2), d, t};
  m.num_rows = 1;
  RowGroup rg;
  rg.num_rows = 1;
  rg.total_byte_size = 1;
  std::string lo(8, '\0'), hi(8, '\xff');
  lo[7] = '\x80';  // INT64_MIN
  hi[7] = '\x7f';  // INT64_MAX
  std::string int96(12, '\xff');
  ColumnChunk dc = testing::Chunk(PhysicalType::kInt64, {"d"});
  dc.meta_data->statistics.emplace().min_value = lo;
  dc.meta_data->statistics->max_value = hi;
  ColumnChunk tc = testing::Chunk(PhysicalType::kInt96, {"t"});
  tc.meta_data->statistics.emplace().min = std::string_view(int96);
  tc.meta_data->statistics->max = std::string_view("short");
  rg.columns = {dc, tc};
  m.row_groups = {rg};
  TempFile f(testing::WrapFooter(testing::EncodeFooter(m)));
  CliResult r = RunCli({"inspect", "--json", f.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& cols = j.at("row_groups")[0].at("columns");
  EXPECT_EQ(cols[0].at("statistics").at("min"), "-25252734927764585-06-07");
  EXPECT_EQ(cols[0].at("statistics").at("max"), "+25252734927768524-07-27");
  EXPECT_EQ(cols[1].at("statistics").at("max"), "0x73686f7274");
  EXPECT_EQ(cols[1].at("statistics").at("max_invalid"), true);
  EXPECT_EQ(cols[1].at("statistics").at("min_max_source"), "min/max (deprecated)");
  // Human output renders the same file.
  CliResult text = RunCli({"inspect", f.path()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
}

TEST(InspectCliTest, DeeplyNestedSchemaIsRefusedNotACrash) {
  // 100,000 nested required groups: refused when the schema is built, so nothing walks (and
  // recurses through) such a tree.
  FileMetaData m;
  m.version = 1;
  m.schema = {testing::Root(1)};
  for (int i = 0; i < 100'000; ++i) m.schema.push_back(testing::Group("g", 1));
  m.schema.push_back(testing::Leaf("x", PhysicalType::kInt32));
  m.num_rows = 0;
  TempFile f(testing::WrapFooter(testing::EncodeFooter(m)));
  CliResult r = RunCli({"inspect", "--json", f.path()});
  EXPECT_EQ(r.exit_code, 1);
  ExpectOneErrorLine(r, "nesting too deep");
}

TEST(InspectCliTest, EveryParquetTestingFileExitsZeroOrOneWithOneLine) {
  std::vector<std::string> files = testing::ParquetTestingFiles("data");
  for (std::string& f : testing::ParquetTestingFiles("bad_data")) files.push_back(std::move(f));
  if (files.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  std::vector<std::string> args = {"inspect", "--json"};
  args.insert(args.end(), files.begin(), files.end());
  CliResult r = RunCli(args);
  // PARQUET-1481 fails; the rest print.
  EXPECT_EQ(r.exit_code, 1);
  ExpectOneErrorLine(r, "PARQUET-1481.parquet: ");
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.size(), files.size() - 1);
}

TEST(InspectCliTest, EncryptedColumnsAreNamedInTheTextViewAndMarkedInJson) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  std::string path = dir + "/data/encrypt_columns_plaintext_footer.parquet.encrypted";
  CliResult text = RunCli({"inspect", path});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  columns 'float_field', 'double_field' are encrypted (Parquet modular "
                          "encryption); reading needs its key\n"),
            std::string::npos)
      << text.out;
  CliResult json = RunCli({"inspect", "--json", path});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  int encrypted = 0;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  for (const auto& c : j["row_groups"][0]["columns"]) {
    if (c.contains("encrypted")) ++encrypted;
  }
  EXPECT_EQ(encrypted, 2);
}

}  // namespace
}  // namespace pqsift
