// The page-header stage through the scanner: a file without a page index whose pages carry their
// statistics in their headers (as pqsift writes them without a page index, and parquet-mr,
// Spark and Impala do). Pages that cannot match are pruned without being fetched or
// decompressed, and every filter returns the rows of an unpruned scan.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "arrow/builder.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

using testing::ScanWritten;
using testing::Write;

constexpr int64_t kRows = 100000;

// id int64 ascending, f float64 (NaN every 97th row, else id / 10), s utf8 "k" + id (5 digits,
// ascending), n int64 nullable (NULL in rows 30000-39999).
RecordBatch Rows() {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false},
                    {"f", Float64(), false},
                    {"s", LargeUtf8(), false},
                    {"n", Int64(), true}};
  FixedWidthArrayBuilder<int64_t> id(Int64()), n(Int64());
  FixedWidthArrayBuilder<double> f(Float64());
  BinaryArrayBuilder s(LargeUtf8());
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    f.Append(i % 97 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(i) / 10);
    std::string text = std::to_string(i);
    s.Append(std::string_view("k" + std::string(5 - text.size(), '0') + text));
    if (i >= 30000 && i < 40000) {
      n.AppendNull();
    } else {
      n.Append(i);
    }
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRows;
  batch.columns = {id.Finish(), f.Finish(), s.Finish(), n.Finish()};
  return batch;
}

testing::Written WriteFile(bool page_index, bool v2) {
  WriterOptions options;
  options.page_rows = 1000;
  options.page_index = page_index;
  options.data_page_v2 = v2;
  options.dictionary = false;
  options.compression = CompressionCodec::kUncompressed;  // chunks of 100k int64: 800 KB
  return Write(Rows(), options, 10000);
}

const StageStats* Stage(const ScanStats& stats, const std::string& name) {
  for (const StageStats& s : stats.stages) {
    if (s.stage == name) return &s;
  }
  return nullptr;
}

TEST(PageHeaderStage, PrunesPagesByTheirHeadersStatistics) {
  for (bool v2 : {false, true}) {
    SCOPED_TRACE(v2 ? "v2" : "v1");
    testing::Written w = WriteFile(false, v2);
    ASSERT_NE(w.metadata, nullptr);
    ScanOptions options;
    options.threads = 2;
    options.filter = "id BETWEEN 12345 AND 12400";
    testing::ScannedBatches scanned = ScanWritten(w, options);
    EXPECT_EQ(scanned.rows(), 56);
    const StageStats* stage = Stage(scanned.stats, "page headers");
    ASSERT_NE(stage, nullptr);
    EXPECT_EQ(stage->rows_pruned, kRows - 1000);  // all pages but [12000, 13000)
    EXPECT_GT(stage->bytes_read, 0u);
    // The pages of the filter column that hold no candidate row are neither fetched (the
    // headers' locations serve as its offset index) nor decompressed.
    EXPECT_LE(scanned.stats.pages_decompressed, 4u + 1u);
    EXPECT_GE(scanned.stats.pages_not_fetched, 99u);

    // Without the stage: every page of the filter column decompressed.
    options.pruning.page_headers = false;
    testing::ScannedBatches without = ScanWritten(w, options);
    EXPECT_EQ(without.rows(), 56);
    EXPECT_GE(without.stats.pages_decompressed, 100u);
  }
}

TEST(PageHeaderStage, EveryFilterReturnsTheRowsOfAnUnprunedScan) {
  testing::Written w = WriteFile(false, false);
  ASSERT_NE(w.metadata, nullptr);
  for (const char* filter :
       {"f > 9990", "f < 5 OR f > 9999.5", "f = 'nan'", "s >= 'k99990'", "s LIKE 'k0123%'",
        "n IS NULL AND id < 30500", "n IS NOT NULL AND id BETWEEN 29990 AND 30010",
        "id = 99999 OR s = 'k00000'", "NOT (id < 99000)", "id > 5 AND f < 1"}) {
    SCOPED_TRACE(filter);
    ScanOptions options;
    options.threads = 2;
    options.filter = filter;
    testing::ScannedBatches pruned = ScanWritten(w, options);
    options.prune = false;
    testing::ScannedBatches unpruned = ScanWritten(w, options);
    EXPECT_GT(unpruned.rows(), 0);
    testing::ExpectSameRows(pruned, unpruned);
    const StageStats* stage = Stage(pruned.stats, "page headers");
    ASSERT_NE(stage, nullptr);
    EXPECT_EQ(stage->row_groups_considered, 1u);
  }
}

TEST(PageHeaderStage, ChunksWithAColumnIndexAreLeftToThePageIndex) {
  testing::Written w = WriteFile(true, false);
  ASSERT_NE(w.metadata, nullptr);
  ScanOptions options;
  options.filter = "id BETWEEN 12345 AND 12400";
  testing::ScannedBatches scanned = ScanWritten(w, options);
  EXPECT_EQ(scanned.rows(), 56);
  const StageStats* stage = Stage(scanned.stats, "page headers");
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(stage->row_groups_considered, 0u);
  EXPECT_EQ(stage->bytes_read, 0u);
}

}  // namespace
}  // namespace pqsift
