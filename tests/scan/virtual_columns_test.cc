// The virtual columns (ScanOptions::row_index_column, filename_column; scan/virtual_columns.h):
// in the test file every row's id is its position in the file, so under every stage, slicing,
// LIMIT and top-k the row index must equal the id; filters on the row index prune by themselves
// (the "row positions" stage) and mix with filters on file columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "arrow/dictionary.h"
#include "scan/scan_test_file.h"

namespace pqsift {
namespace {

using testing::DrainScanner;
using testing::Int64Column;
using testing::ScanTestFile;

const ScanTestFile& File() {
  static const ScanTestFile* file = new ScanTestFile();
  return *file;
}

struct Scanned {
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<int64_t>> positions;
  ScanStats stats;
  std::string explain;
};

Scanned Scan(ScanOptions options) {
  Scanned out;
  if (options.columns.empty()) options.columns = {"id", "pos"};
  options.row_index_column = "pos";
  auto scanner = File().Open(options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  auto batches = DrainScanner(**scanner);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return out;
  out.ids = Int64Column(*batches, 0);
  out.positions = Int64Column(*batches, 1);
  out.stats = (*scanner)->stats();
  for (const StageStats& s : out.stats.stages) out.explain += s.stage + ";";
  return out;
}

void ExpectPositionsAreIds(const Scanned& s) {
  ASSERT_EQ(s.ids.size(), s.positions.size());
  for (size_t i = 0; i < s.ids.size(); ++i) {
    ASSERT_EQ(s.ids[i], s.positions[i]) << "row " << i;
  }
}

std::vector<std::optional<int64_t>> Range(int64_t begin, int64_t end) {
  std::vector<std::optional<int64_t>> out;
  for (int64_t i = begin; i < end; ++i) out.push_back(i);
  return out;
}

TEST(VirtualColumns, RowIndexUnderEveryPruningStage) {
  for (int64_t slice_rows : {int64_t{0}, int64_t{37}}) {
    for (const char* where : {"", "id BETWEEN 1234 AND 5678", "v = 3", "s IN ('k1', 'k30')",
                              "id >= 9990 OR id < 5", "f > 20 AND id * 3 > 100"}) {
      ScanOptions options;
      options.filter = where;
      options.slice_rows = slice_rows;
      options.batch_size = 111;
      Scanned s = Scan(options);
      ExpectPositionsAreIds(s);
      if (std::string(where).empty()) {
        EXPECT_EQ(s.ids.size(), 10000u);
      }
    }
  }
}

TEST(VirtualColumns, FilterOnRowIndexIsItsOwnStage) {
  ScanOptions options;
  options.filter = "pos BETWEEN 2345 AND 2444";
  Scanned s = Scan(options);
  EXPECT_EQ(s.positions, Range(2345, 2445));
  ExpectPositionsAreIds(s);
  EXPECT_EQ(s.explain.find("row positions"), 0u) << s.explain;
  EXPECT_EQ(s.stats.row_groups_read, 1u);
  // Pages of 100 rows: only the two holding rows 2345..2444 of each column are read.
  EXPECT_GT(s.stats.pages_not_fetched, 0u);
  EXPECT_EQ(s.stats.stages.front().row_groups_skipped, 9u);
}

TEST(VirtualColumns, RowIndexConditionsCombine) {
  struct Case {
    const char* where;
    std::vector<std::optional<int64_t>> expected;
  };
  auto concat = [](std::vector<std::optional<int64_t>> a,
                   const std::vector<std::optional<int64_t>>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const Case cases[] = {
      {"pos < 3 OR pos >= 9998", concat(Range(0, 3), Range(9998, 10000))},
      {"pos IN (5, 7000, 12000, -1)", {5, 7000}},
      {"pos = 42", {42}},
      {"NOT (pos > 2) AND NOT pos IN (1)", {0, 2}},
      {"pos > 9997 AND (pos <> 9998)", {9999}},
      {"pos >= 20000", {}},
      {"pos IS NULL", {}},
      {"(pos < 10 OR id > 9995) AND NOT pos IN (1, 3, 5, 7, 9, 9997, 9999) AND pos * 2 < 20000",
       {0, 2, 4, 6, 8, 9996, 9998}},
      {"pos < 1000 AND id >= 990", Range(990, 1000)},
      {"pos IN (3, NULL) OR pos = 8", {3, 8}},
      {"NOT (pos IN (3, NULL)) OR pos = 8", {8}},
  };
  for (const Case& c : cases) {
    for (bool prune : {true, false}) {
      ScanOptions options;
      options.filter = c.where;
      options.prune = prune;
      Scanned s = Scan(options);
      EXPECT_EQ(s.positions, c.expected) << c.where << (prune ? "" : " --no-prune");
      ExpectPositionsAreIds(s);
    }
  }
}

TEST(VirtualColumns, RowIndexWithLimitAndTopK) {
  ScanOptions options;
  options.filter = "v = 3";
  options.limit = 5;
  Scanned s = Scan(options);
  EXPECT_EQ(s.positions.size(), 5u);
  ExpectPositionsAreIds(s);

  ScanOptions unfiltered;
  unfiltered.limit = 1500;
  unfiltered.batch_size = 700;
  s = Scan(unfiltered);
  EXPECT_EQ(s.positions, Range(0, 1500));

  for (const char* order : {"pos DESC", "id DESC", "s, pos DESC"}) {
    ScanOptions top;
    top.order_by = order;
    top.limit = 4;
    top.filter = "pos < 5000";
    s = Scan(top);
    ASSERT_EQ(s.positions.size(), 4u) << order;
    ExpectPositionsAreIds(s);
    if (std::string(order) != "s, pos DESC") {
      EXPECT_EQ(s.positions.front(), 4999) << order;
    }
  }
}

TEST(VirtualColumns, OnlyTheVirtualColumnsAndFilename) {
  ScanOptions options;
  options.columns = {"pos", "name"};
  options.filename_column = "name";
  options.filter = "name = 'test.parquet' AND pos > 9997";
  options.row_index_column = "pos";
  auto scanner = File().Open(options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Int64Column(*batches, 0), (std::vector<std::optional<int64_t>>{9998, 9999}));
  int64_t rows = 0;
  for (const auto& b : *batches) rows += b->num_rows;
  EXPECT_EQ(rows, 2);

  options.filter = "name LIKE '%other%'";
  scanner = File().Open(options);
  ASSERT_TRUE(scanner.ok());
  batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok());
  EXPECT_TRUE(Int64Column(*batches, 0).empty());
  EXPECT_EQ((*scanner)->stats().row_groups_read, 0u);
}

// Two files of the same rows under two names, scanned as one.
Result<std::unique_ptr<Scanner>> OpenTwoFiles(ScanOptions options) {
  std::vector<std::shared_ptr<RandomAccessFile>> files = {
      MakeMemoryFile("a.parquet", File().bytes), MakeMemoryFile("b.parquet", File().bytes)};
  return Scanner::Open(files, {File().metadata, File().metadata}, options);
}

// Column `c` of every batch as strings: a large_string column's values or a dictionary column's
// (checked to be valid first).
std::vector<std::string> StringColumn(const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                      size_t c) {
  std::vector<std::string> out;
  for (const auto& b : batches) {
    std::shared_ptr<Array> a = b->columns[c];
    EXPECT_TRUE(ValidateArray(*a).ok()) << ValidateArray(*a).ToString();
    if (a->type->id == TypeId::kDictionary) a = *DecodeDictionary(*a);
    const int64_t* o = a->buffers[1]->as<int64_t>() + a->offset;
    for (int64_t i = 0; i < a->length; ++i) {
      out.emplace_back(a->buffers[2]->as<char>() + o[i], static_cast<size_t>(o[i + 1] - o[i]));
    }
  }
  return out;
}

TEST(VirtualColumns, FilenameIsOneDictionaryValuePerFile) {
  ScanOptions options;
  options.columns = {"id", "name"};
  options.filename_column = "name";
  options.batch_size = 700;
  options.filter = "id < 3334 OR name = 'b.parquet'";
  auto scanner = OpenTwoFiles(options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  EXPECT_EQ(*(*scanner)->schema()->fields[1].type, *Dictionary(LargeUtf8()));
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::set<const Array*> dictionaries;
  for (const auto& b : *batches) {
    ASSERT_TRUE(ValidateRecordBatch(*b).ok()) << ValidateRecordBatch(*b).ToString();
    const Array& name = *b->columns[1];
    ASSERT_EQ(name.type->id, TypeId::kDictionary);
    EXPECT_EQ(name.dictionary->length, 1);  // the file's name, once
    EXPECT_EQ(name.buffers[1]->size(), static_cast<size_t>(name.length) * 4);  // then 4 bytes a row
    EXPECT_EQ(name.null_count, 0);
    dictionaries.insert(name.dictionary.get());
  }
  EXPECT_EQ(dictionaries.size(), 2u);  // every batch of a file shares the file's
  std::vector<std::optional<int64_t>> ids = Int64Column(*batches, 0);
  std::vector<std::string> names = StringColumn(*batches, 1);
  ASSERT_EQ(names.size(), ids.size());
  size_t a = 0, b = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "a.parquet") {
      ++a;
      EXPECT_LT(*ids[i], 3334) << i;
    } else {
      ASSERT_EQ(names[i], "b.parquet") << i;
      ++b;
    }
  }
  EXPECT_EQ(a, 3334u);
  EXPECT_EQ(b, 10000u);
}

TEST(VirtualColumns, TopKAndLimitByFilenameAcrossFiles) {
  for (const char* order : {"name DESC, id", "name, id DESC"}) {
    ScanOptions options;
    options.columns = {"name", "id"};
    options.filename_column = "name";
    options.order_by = order;
    options.limit = 3;
    auto scanner = OpenTwoFiles(options);
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    auto batches = DrainScanner(**scanner);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    const bool desc = std::string(order) == "name DESC, id";
    EXPECT_EQ(StringColumn(*batches, 0),
              std::vector<std::string>(3, desc ? "b.parquet" : "a.parquet"))
        << order;
    EXPECT_EQ(Int64Column(*batches, 1),
              desc ? Range(0, 3) : (std::vector<std::optional<int64_t>>{9999, 9998, 9997}))
        << order;
  }
}

TEST(VirtualColumns, FilenameWrittenToParquetIsAStringColumn) {
  ScanOptions options;
  options.columns = {"id", "name"};
  options.filename_column = "name";
  options.filter = "id < 1500";
  auto scanner = OpenTwoFiles(options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  std::vector<uint8_t> bytes;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("out.parquet", &bytes), (*scanner)->schema());
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok());
  for (const auto& b : *batches) ASSERT_TRUE((*writer)->Write(*b).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto md = ReadParquetMetadata(*MakeMemoryFile("out.parquet", bytes));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  auto back = Scanner::Open({MakeMemoryFile("out.parquet", bytes)}, {*md}, ScanOptions{});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*(*back)->schema()->fields[1].type, *LargeUtf8());
  auto read = DrainScanner(**back);
  ASSERT_TRUE(read.ok());
  std::vector<std::string> expected(1500, "a.parquet");
  expected.resize(3000, "b.parquet");
  EXPECT_EQ(StringColumn(*read, 1), expected);
}

TEST(VirtualColumns, NameClashIsAnError) {
  ScanOptions options;
  options.row_index_column = "ID";
  auto scanner = File().Open(options);
  ASSERT_FALSE(scanner.ok());
  EXPECT_NE(scanner.status().message().find("virtual column 'ID'"), std::string::npos)
      << scanner.status().ToString();
}

}  // namespace
}  // namespace pqsift
