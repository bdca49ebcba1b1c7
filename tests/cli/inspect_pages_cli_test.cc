// `pqsift inspect --pages` through the binary: the JSON and text listings of files pqsift wrote
// and of other writers' files (v1, v2, page index), the --row-group / --column selection and its
// usage errors, and hostile files: a bad page header stops its chunk's listing with one error
// line naming the file, row group, column and offset, and the command exits 1.
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "format/metadata_encoder.h"
#include "pqsift/writer.h"
#include "testing/cli.h"
#include "testing/files.h"
#include "testing/metadata_encoder.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::ExpectOneErrorLine;
using testing::Lines;
using testing::RunCli;
using testing::TempFile;

// 300 rows: a (int64, required) and s (string, nullable: NULL every 3rd row), pages of 100 rows.
std::string WriteFile(bool v2) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"a", Int64(), false}, {"s", LargeUtf8(), true}};
  FixedWidthArrayBuilder<int64_t> a(Int64());
  BinaryArrayBuilder s(LargeUtf8());
  for (int64_t i = 0; i < 300; ++i) {
    a.Append(i);
    if (i % 3 == 0) {
      s.AppendNull();
    } else {
      s.Append(std::string_view("v" + std::to_string(i % 7)));
    }
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 300;
  batch.columns = {a.Finish(), s.Finish()};
  WriterOptions options;
  options.page_rows = 100;
  options.data_page_v2 = v2;
  options.page_checksums = v2;
  std::vector<uint8_t> bytes;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("w.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return std::string(bytes.begin(), bytes.end());
}

const json& OnlyChunk(const json& j) {
  EXPECT_EQ(j.at("row_groups").size(), 1u);
  EXPECT_EQ(j.at("row_groups")[0].at("columns").size(), 1u);
  return j.at("row_groups")[0].at("columns")[0];
}

TEST(InspectPagesCliTest, PqsiftFileV1AndV2AsJson) {
  for (bool v2 : {false, true}) {
    SCOPED_TRACE(v2);
    TempFile f(WriteFile(v2));
    CliResult r = RunCli({"inspect", "--pages", "--json", f.path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    json j = json::parse(r.out);
    EXPECT_EQ(j.at("file"), f.path());
    const json& columns = j.at("row_groups")[0].at("columns");
    ASSERT_EQ(columns.size(), 2u);
    for (const json& c : columns) {
      EXPECT_EQ(c.at("offset_index"), "present");
      EXPECT_EQ(c.at("num_rows"), 300);
      EXPECT_FALSE(c.contains("error"));
      EXPECT_FALSE(c.contains("offset_index_unmatched"));
      int64_t next_offset = c.at("offset").get<int64_t>();
      int64_t row = 0;
      int data = 0;
      for (const json& p : c.at("pages")) {
        EXPECT_EQ(p.at("offset"), next_offset);
        next_offset +=
            p.at("header_size").get<int64_t>() + p.at("compressed_page_size").get<int64_t>();
        EXPECT_EQ(p.at("crc"), v2);
        if (p.at("page_type") == "DICTIONARY_PAGE") {
          EXPECT_FALSE(p.contains("num_rows"));
          EXPECT_FALSE(p.contains("offset_index"));
          continue;
        }
        ++data;
        EXPECT_EQ(p.at("page_type"), v2 ? "DATA_PAGE_V2" : "DATA_PAGE");
        EXPECT_EQ(p.at("first_row"), row);
        EXPECT_EQ(p.at("num_rows"), 100);
        EXPECT_EQ(p.at("num_rows_source"), "header");
        EXPECT_EQ(p.at("offset_index").at("first_row_index"), row);
        EXPECT_EQ(p.at("offset_index").at("size_matches"), true);
        if (v2) {
          int64_t nulls = c.at("path") == "s" ? 34 - (row == 0 ? 0 : 1) : 0;
          EXPECT_EQ(p.at("num_nulls"), nulls) << p.dump();
          EXPECT_EQ(p.contains("definition_levels_byte_length"), true);
        } else {
          EXPECT_FALSE(p.contains("num_nulls"));
        }
        row += 100;
      }
      EXPECT_EQ(data, 3);
      EXPECT_EQ(next_offset, c.at("offset").get<int64_t>() + c.at("length").get<int64_t>());
    }
  }
}

TEST(InspectPagesCliTest, TextIsAlignedAndSelectsRowGroupAndColumn) {
  TempFile f(WriteFile(true));
  CliResult r = RunCli({"inspect", "--pages", "--row-group", "0", "--column", "s", f.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 7u) << r.out;
  EXPECT_EQ(lines[0], "file: " + f.path());
  EXPECT_EQ(lines[1], "");
  EXPECT_EQ(lines[2].rfind("row group 0, column 's' (BYTE_ARRAY, SNAPPY): 4 page(s) in ", 0), 0u)
      << lines[2];
  EXPECT_NE(lines[2].find("rows 300; offset index: lists 3 of 3 data page(s)"), std::string::npos)
      << lines[2];
  EXPECT_EQ(lines[3].rfind("  offset  type        encoding", 0), 0u) << lines[3];
  EXPECT_NE(lines[4].find("dictionary  PLAIN"), std::string::npos) << lines[4];
  EXPECT_NE(lines[5].find("data v2     RLE_DICTIONARY"), std::string::npos) << lines[5];
  // Columns line up: every row of the table is as long as its header up to the "crc" column.
  size_t crc_at = lines[3].find("crc");
  ASSERT_NE(crc_at, std::string::npos);
  for (size_t i = 4; i < 8 && i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].substr(crc_at, 3), "yes") << lines[i];
  }
  EXPECT_EQ(r.out.find("column 'a'"), std::string::npos);
}

TEST(InspectPagesCliTest, ParquetTestingFilesWithPageIndexAndV2Pages) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << "parquet-testing data folder not found; skipping";
  {
    std::string path = dir + "/data/alltypes_tiny_pages.parquet";
    CliResult r = RunCli({"inspect", "--pages", "--json", "--column", "id", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json parsed = json::parse(r.out);
    const json& c = OnlyChunk(parsed);
    EXPECT_EQ(c.at("offset_index"), "present");
    EXPECT_GT(c.at("pages").size(), 10u);
    int64_t rows = 0;
    for (const json& p : c.at("pages")) {
      if (p.at("page_type") == "DICTIONARY_PAGE") continue;
      EXPECT_EQ(p.at("offset_index").at("first_row_index"), rows);
      EXPECT_EQ(p.at("first_row"), rows);
      rows += p.at("num_rows").get<int64_t>();
    }
    EXPECT_EQ(rows, 7300);
  }
  {
    std::string path = dir + "/data/datapage_v2.snappy.parquet";
    CliResult r = RunCli({"inspect", "--pages", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("data v2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("column 'e.list.element'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("offset index: none"), std::string::npos) << r.out;
    // Header statistics rendered in the logical type: a string, a boolean.
    EXPECT_NE(
        r.out.find(
            "RLE_DICTIONARY       5          0     5      1           6             4  abc  abc"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("false  true"), std::string::npos) << r.out;
  }
  {
    // Nested v1 pages and no offset index: rows unknown.
    std::string path = dir + "/data/nested_lists.snappy.parquet";
    CliResult r = RunCli({"inspect", "--pages", "--json", "--column",
                          "a.list.element.list.element.list.element", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json parsed = json::parse(r.out);
    const json& c = OnlyChunk(parsed);
    EXPECT_FALSE(c.contains("num_rows"));
    for (const json& p : c.at("pages")) EXPECT_FALSE(p.contains("num_rows")) << p.dump();
  }
}

TEST(InspectPagesCliTest, SelectionErrorsAreUsageErrors) {
  TempFile f(WriteFile(false));
  struct Case {
    std::vector<std::string> args;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {{"inspect", "--pages", "--row-group", "1", f.path()},
       f.path() + ": no row group 1 (the file has 1)"},
      {{"inspect", "--pages", "--column", "nope", f.path()}, f.path() + ": no leaf column 'nope'"},
      {{"inspect", "--row-group", "0", f.path()}, "--pages"},
      {{"inspect", "--column", "a", f.path()}, "--pages"},
      {{"inspect", "--pages", "--row-group", "x", f.path()}, "--row-group"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.needle);
    CliResult r = RunCli(c.args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out.find("page(s)"), std::string::npos) << r.out;
    ExpectOneErrorLine(r, c.needle);
  }
}

// A file whose one chunk holds two good v1 pages then a header of garbage.
std::string HostileFile(int64_t* bad_offset, bool bad_range = false) {
  std::string body;
  for (int i = 0; i < 2; ++i) {
    format::PageHeader h;
    h.type = PageType::kDataPage;
    h.data_page_header.emplace().num_values = 1;
    h.compressed_page_size = 4;
    h.uncompressed_page_size = 4;
    body += format::MetadataEncoder().PageHeader(h).Take();
    body += std::string("\x07\x00\x00\x00", 4);
  }
  *bad_offset = 4 + static_cast<int64_t>(body.size());
  body += std::string(6, '\xff');
  FileMetaData m = testing::OneColumnFileMetaData(3);
  ColumnMetaData& meta = *m.row_groups[0].columns[0].meta_data;
  meta.total_compressed_size = static_cast<int64_t>(body.size());
  if (bad_range) meta.total_compressed_size = 1 << 30;
  return testing::WrapFooter(testing::EncodeFooter(m), body);
}

TEST(InspectPagesCliTest, AMalformedHeaderEndsItsChunkWithOneErrorLine) {
  int64_t bad = 0;
  TempFile f(HostileFile(&bad));
  std::string where = f.path() + ": row group 0, column 'x', page at offset " + std::to_string(bad);
  CliResult text = RunCli({"inspect", "--pages", f.path()});
  EXPECT_EQ(text.exit_code, 1);
  ExpectOneErrorLine(text, where);
  EXPECT_NE(text.out.find("2 page(s) in"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rows ?; offset index: none; stopped at offset " + std::to_string(bad)),
            std::string::npos)
      << text.out;
  EXPECT_EQ(Lines(text.out).size(), 6u) << text.out;  // file, blank, chunk, header, 2 pages

  CliResult j = RunCli({"inspect", "--pages", "--json", f.path()});
  EXPECT_EQ(j.exit_code, 1);
  ExpectOneErrorLine(j, where);
  const json parsed = json::parse(j.out);
  const json& c = OnlyChunk(parsed);
  EXPECT_EQ(c.at("pages").size(), 2u);
  EXPECT_EQ(c.at("error").get<std::string>().rfind(where, 0), 0u);
  EXPECT_FALSE(c.contains("num_rows"));
  EXPECT_EQ(c.at("stopped_at"), bad);
}

TEST(InspectPagesCliTest, AChunkOutsideTheFileIsAnError) {
  int64_t bad = 0;
  TempFile f(HostileFile(&bad, true));
  CliResult r = RunCli({"inspect", "--pages", f.path()});
  EXPECT_EQ(r.exit_code, 1);
  ExpectOneErrorLine(r, f.path() + ": row group 0, column 'x'");
  EXPECT_NE(r.out.find("not listed"), std::string::npos) << r.out;
}

TEST(InspectPagesCliTest, EveryParquetTestingFileListsOrFailsWithErrorLines) {
  std::vector<std::string> files = testing::ParquetTestingFiles("data");
  for (std::string& f : testing::ParquetTestingFiles("bad_data")) files.push_back(std::move(f));
  if (files.empty()) GTEST_SKIP() << "parquet-testing data folder not found; skipping";
  for (bool as_json : {true, false}) {
    std::vector<std::string> args = {"inspect", "--pages"};
    if (as_json) args.push_back("--json");
    args.insert(args.end(), files.begin(), files.end());
    CliResult r = RunCli(args);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << r.err;
    for (const std::string& line : Lines(r.err)) EXPECT_EQ(line.rfind("pqsift: ", 0), 0u) << line;
    if (as_json) {
      EXPECT_TRUE(json::accept(r.out));
    }
  }
}

}  // namespace
}  // namespace pqsift
