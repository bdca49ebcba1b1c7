// Page pruning end to end on the parquet-testing files that carry a page index: for each
// predicate the pruned scan returns exactly the rows (in the same order) of the --no-prune scan,
// and selective predicates leave pages unfetched.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/output/batch_writer.h"
#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

struct ScanText {
  std::string rows;  // JSON Lines
  ScanStats stats;
};

Result<ScanText> Scan(const std::string& path, const std::string& where, bool prune,
                      std::vector<std::string> columns = {}, int64_t batch_size = 100) {
  ScanOptions options;
  options.filter = where;
  options.prune = prune;
  options.columns = std::move(columns);
  options.threads = 2;
  options.batch_size = batch_size;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({path}, options));
  std::ostringstream out;
  PQSIFT_ASSIGN_OR_RETURN(auto writer,
                          cli::MakeBatchWriter(cli::OutputFormat::kJsonLines, out, {}));
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    PQSIFT_RETURN_IF_ERROR(writer->Write(*batch));
  }
  PQSIFT_RETURN_IF_ERROR(writer->Finish());
  return ScanText{out.str(), scanner->stats()};
}

// Pruned == unpruned for every predicate; returns the pages left unfetched over all of them.
uint64_t ExpectSameRows(const std::string& path, const std::vector<std::string>& predicates,
                        const std::vector<std::string>& columns = {}) {
  uint64_t not_fetched = 0;
  for (const std::string& where : predicates) {
    SCOPED_TRACE(path + " --where " + where);
    auto pruned = Scan(path, where, true, columns);
    auto unpruned = Scan(path, where, false, columns);
    EXPECT_TRUE(pruned.ok()) << pruned.status().ToString();
    EXPECT_TRUE(unpruned.ok()) << unpruned.status().ToString();
    if (!pruned.ok() || !unpruned.ok()) continue;
    EXPECT_EQ(pruned->rows, unpruned->rows);
    EXPECT_EQ(pruned->stats.rows_returned, unpruned->stats.rows_returned);
    not_fetched += pruned->stats.pages_not_fetched;
  }
  return not_fetched;
}

TEST(PageIndexScan, AllTypesTinyPages) {
  for (const char* name : {"alltypes_tiny_pages.parquet"}) {
    PQSIFT_TESTING_FILE_OR_SKIP(path, name);
    uint64_t not_fetched = ExpectSameRows(
        path, {"id BETWEEN 3000 AND 3100", "id < 50 OR id > 7250", "id = 0", "id >= 7299",
               "int_col = 3 AND id BETWEEN 1000 AND 1500", "bigint_col >= 50 AND id < 1000",
               "string_col = '5' AND id > 6000", "tinyint_col IS NULL", "id IS NOT NULL AND id < 7",
               "bool_col AND id BETWEEN 200 AND 230", "date_string_col LIKE '01/0%'", "month = 7",
               "float_col > 5.5 AND id < 300", "double_col IN (10.1, 20.2)",
               "NOT (id BETWEEN 10 AND 7290)", "id BETWEEN 3000 AND 3100 OR month = 12",
               "year = 2010 AND month < 2"});
    EXPECT_GT(not_fetched, 0u) << name;
    // Projections of other columns than the filter's, in another order.
    ExpectSameRows(path, {"id BETWEEN 3000 AND 3100", "month = 3 AND int_col > 4"},
                   {"string_col", "timestamp_col", "bigint_col"});
  }
}

TEST(PageIndexScan, SelectiveRangeFetchesFewPages) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
  auto pruned = Scan(path, "id BETWEEN 3000 AND 3100", true);
  auto unpruned = Scan(path, "id BETWEEN 3000 AND 3100", false);
  ASSERT_TRUE(pruned.ok()) << pruned.status().ToString();
  ASSERT_TRUE(unpruned.ok()) << unpruned.status().ToString();
  EXPECT_EQ(pruned->stats.rows_returned, 101);
  EXPECT_LT(pruned->stats.bytes_read, unpruned->stats.bytes_read);
  EXPECT_GT(pruned->stats.bytes_not_fetched, 0u);
  EXPECT_LT(pruned->stats.rows_decoded, 300);  // the filter column only on the kept pages
}

TEST(PageIndexScan, DescendingFixedLengthByteArray) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "fixed_length_byte_array.parquet");
  ExpectSameRows(path,
                 {"flba_field < X'00000064'", "flba_field BETWEEN X'00000190' AND X'000001F4'",
                  "flba_field IS NULL", "flba_field >= X'000003E0' OR flba_field IS NULL",
                  "flba_field = X'000001F4'"});
  // The whole file came with the footer's read: nothing to leave unfetched, but the filter is
  // evaluated on the one page that may match only.
  auto pruned = Scan(path, "flba_field < X'00000064'", true);
  ASSERT_TRUE(pruned.ok());
  EXPECT_EQ(pruned->stats.rows_decoded, 100);
}

TEST(PageIndexScan, ChecksumFiles) {
  for (const char* name : {
           "datapage_v1-snappy-compressed-checksum.parquet",
           "datapage_v1-uncompressed-checksum.parquet",
       }) {
    PQSIFT_TESTING_FILE_OR_SKIP(path, name);
    auto metadata = testing::OpenParquet(path);
    ASSERT_NE(metadata.metadata, nullptr);
    const Schema& schema = metadata.metadata->schema();
    std::string a = schema.columns().front().path;
    ExpectSameRows(path, {a + " < 0", a + " > 1000000000", a + " IS NULL", a + " = 50462976"});
  }
}

}  // namespace
}  // namespace pqsift
