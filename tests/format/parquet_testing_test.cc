// Every file of the shared parquet-testing folder: good files open and agree with the table in
// its README (rows, row groups, writer, codecs, encodings, page index, bloom filters); files
// under bad_data/ open or fail with a clean error naming the file, never crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "testing/files.h"

namespace pqsift {
namespace {

// One row of the README's table.
struct ReadmeRow {
  std::string file;  // "data/x.parquet"
  std::string writer;
  int64_t row_groups = -1;
  int64_t rows = -1;
  std::string page_index;  // "no", "OI", "CI+OI"
  std::string bloom;       // "yes", "no"
  std::string codecs;      // "SNAPPY,ZSTD"
  std::string encodings;   // "PLAIN,RLE"
};

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(' ');
  return s.substr(b, e - b + 1);
}

// The table rows of parquet-testing/README.md, keyed by "data/..." or "bad_data/...".
std::map<std::string, ReadmeRow> ParseReadme(const std::string& dir) {
  std::map<std::string, ReadmeRow> rows;
  std::ifstream in(dir + "/README.md");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| data/", 0) != 0 && line.rfind("| bad_data/", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(Trim(cell));
    // file | KB | writer | row groups | rows | page index | bloom | codecs | encodings | features
    if (cells.size() < 9) continue;
    ReadmeRow r;
    r.file = cells[0];
    r.writer = cells[2];
    r.row_groups = std::stoll(cells[3]);
    r.rows = std::stoll(cells[4]);
    r.page_index = cells[5];
    r.bloom = cells[6];
    r.codecs = cells[7];
    r.encodings = cells[8];
    rows[r.file] = r;
  }
  return rows;
}

std::string Join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += (out.empty() ? "" : ",") + x;
  return out;
}

// "data/x.parquet" for a path under the parquet-testing folder.
std::string Key(const std::string& path) {
  std::filesystem::path p(path);
  return p.parent_path().filename().string() + "/" + p.filename().string();
}

TEST(ParquetTestingTest, FolderIsPresentAndReadmeParses) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  std::map<std::string, ReadmeRow> rows = ParseReadme(dir);
  EXPECT_GE(rows.size(), 45u);
  // Every file in the folders has a row, and every row a file.
  std::set<std::string> on_disk;
  for (const char* sub : {"data", "bad_data"}) {
    for (const std::string& f : testing::ParquetTestingFiles(sub)) on_disk.insert(Key(f));
  }
  std::set<std::string> in_readme;
  for (const auto& [key, row] : rows) in_readme.insert(key);
  EXPECT_EQ(on_disk, in_readme);
  EXPECT_EQ(rows.at("data/alltypes_tiny_pages.parquet").rows, 7300);
  EXPECT_EQ(rows.at("bad_data/ARROW-GH-41317.parquet").row_groups, 2);
}

std::vector<std::string> AllFiles() {
  std::vector<std::string> files = testing::ParquetTestingFiles("data");
  for (std::string& f : testing::ParquetTestingFiles("bad_data")) files.push_back(std::move(f));
  return files;
}

class ParquetTestingFileTest : public ::testing::TestWithParam<std::string> {
 protected:
  static const std::map<std::string, ReadmeRow>& Readme() {
    static const std::map<std::string, ReadmeRow> rows = ParseReadme(testing::ParquetTestingDir());
    return rows;
  }
  bool IsBad() const { return Key(GetParam()).rfind("bad_data/", 0) == 0; }
};

// Checks an opened file against its README row.
void ExpectMatchesReadme(const ParquetMetadata& md, const ReadmeRow& row) {
  EXPECT_EQ(md.num_rows(), row.rows);
  EXPECT_EQ(static_cast<int64_t>(md.num_row_groups()), row.row_groups);
  int64_t sum = 0;
  std::set<std::string> codecs, encodings;
  bool has_oi = false, has_ci = false, has_bloom = false;
  for (const RowGroup& rg : md.file().row_groups) {
    sum += rg.num_rows;
    for (const ColumnChunk& c : rg.columns) {
      has_oi |= c.offset_index_offset.has_value();
      has_ci |= c.column_index_offset.has_value();
      if (!c.meta_data) continue;
      codecs.insert(CodecName(c.meta_data->codec));
      for (Encoding e : c.meta_data->encodings) encodings.insert(EncodingName(e));
      has_bloom |= c.meta_data->bloom_filter_offset.has_value();
    }
  }
  EXPECT_EQ(sum, row.rows);
  EXPECT_EQ(md.file().created_by.value_or(""), row.writer);
  EXPECT_EQ(Join(codecs), row.codecs);
  EXPECT_EQ(Join(encodings), row.encodings);
  EXPECT_EQ(has_oi ? (has_ci ? "CI+OI" : "OI") : (has_ci ? "CI" : "no"), row.page_index);
  EXPECT_EQ(has_bloom ? "yes" : "no", row.bloom);
}

TEST_P(ParquetTestingFileTest, OpensOrFailsCleanly) {
  const std::string& path = GetParam();
  auto it = Readme().find(Key(path));
  ASSERT_NE(it, Readme().end()) << Key(path) << " is not in the README";
  auto file = OpenLocalFile(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto md = ReadParquetMetadata(**file);
  if (!IsBad()) {
    ASSERT_TRUE(md.ok()) << md.status().ToString();
  } else if (!md.ok()) {
    // A clean error: not OK, names the file first.
    EXPECT_NE(md.status().code(), StatusCode::kOk);
    EXPECT_EQ(md.status().message().rfind(path + ": ", 0), 0u) << md.status().message();
    EXPECT_NE(md.status().code(), StatusCode::kInternal) << md.status().ToString();
    return;
  }
  ExpectMatchesReadme(**md, it->second);
  // Opening costs one read for these small footers.
  EXPECT_EQ((*file)->stats().read_requests, 1u);
  EXPECT_EQ((*file)->stats().bytes_read, std::min<uint64_t>((*file)->size(), 64 * 1024));
}

INSTANTIATE_TEST_SUITE_P(Files, ParquetTestingFileTest, ::testing::ValuesIn(AllFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::SafeTestName(Key(info.param));
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParquetTestingFileTest);

TEST(ParquetTestingTest, KnownBadFiles) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  // PARQUET-1481: a schema element with an invalid physical type.
  std::string bad = dir + "/bad_data/PARQUET-1481.parquet";
  auto file = OpenLocalFile(bad);
  ASSERT_TRUE(file.ok());
  auto md = ReadParquetMetadata(**file);
  ASSERT_FALSE(md.ok());
  EXPECT_EQ(md.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(md.status().message().rfind(bad + ": ", 0), 0u) << md.status().message();
  EXPECT_NE(md.status().message().find("unknown physical type"), std::string::npos)
      << md.status().message();

  // ARROW-GH-41317 (its pages are bad, its footer is fine) opens.
  auto ok_file = OpenLocalFile(dir + "/bad_data/ARROW-GH-41317.parquet");
  ASSERT_TRUE(ok_file.ok());
  auto ok_md = ReadParquetMetadata(**ok_file);
  ASSERT_TRUE(ok_md.ok()) << ok_md.status().ToString();
  EXPECT_EQ((*ok_md)->num_rows(), 5);
  EXPECT_EQ((*ok_md)->num_row_groups(), 2u);
}

TEST(ParquetTestingTest, SchemasOfNestedFiles) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  struct Expect {
    const char* file;
    const char* path;
    int def;
    int rep;
  };
  const Expect cases[] = {
      // Legacy 2-level list: repeated primitive inside a LIST group.
      {"old_list_structure.parquet", "a.array.array", 2, 2},
      {"nested_maps.snappy.parquet", "a.key_value.value.key_value.value", 4, 2},
      {"repeated_primitive_no_list.parquet", "Int32_list", 1, 1},
      {"nulls.snappy.parquet", "b_struct.b_c_int", 2, 0},
  };
  for (const Expect& e : cases) {
    SCOPED_TRACE(e.file);
    auto file = OpenLocalFile(dir + "/data/" + e.file);
    ASSERT_TRUE(file.ok());
    auto md = ReadParquetMetadata(**file);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    const ColumnDescriptor* c = (*md)->schema().FindColumn(e.path);
    ASSERT_NE(c, nullptr) << "no column " << e.path;
    EXPECT_EQ(c->max_definition_level, e.def);
    EXPECT_EQ(c->max_repetition_level, e.rep);
  }
}

TEST(ParquetTestingTest, UnknownLogicalTypeFileOpens) {
  std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  auto file = OpenLocalFile(dir + "/data/unknown-logical-type.parquet");
  ASSERT_TRUE(file.ok());
  auto md = ReadParquetMetadata(**file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  int unrecognized = 0;
  for (const SchemaElement& e : (*md)->file().schema) {
    if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kUnrecognized) ++unrecognized;
  }
  EXPECT_GE(unrecognized, 1);
}

}  // namespace
}  // namespace pqsift
