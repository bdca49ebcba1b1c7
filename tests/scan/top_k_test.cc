// Top-k scans (ScanOptions::order_by with a limit): the first K rows in ORDER BY order, checked
// against a sort of all rows written here (NULLs placed as asked, NaN above every number, -0 =
// +0), and the pruning that the heap's runtime filter buys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "expr/order_by.h"
#include "scan/scan_test_file.h"

namespace pqsift {
namespace {

using testing::DrainScanner;
using testing::Int64Column;
using testing::ScanTestFile;
using testing::ScanTestRow;
using testing::ScanTestRowAt;

int Three(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) == std::isnan(b) ? 0 : std::isnan(a) ? 1 : -1;
  return a < b ? -1 : b < a ? 1 : 0;
}

// <0, 0, >0: row a before, tied with, after row b under `keys`.
int CompareRows(const ScanTestRow& a, const ScanTestRow& b,
                const std::vector<expr::OrderKey>& keys) {
  for (const expr::OrderKey& key : keys) {
    int c = 0;
    if (key.column == "v" && (!a.v || !b.v)) {
      if (!a.v && !b.v) continue;
      c = !a.v == key.nulls_first ? -1 : 1;
      if (c != 0) return c;
    }
    if (key.column == "id") c = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    if (key.column == "v") c = *a.v < *b.v ? -1 : *a.v > *b.v ? 1 : 0;
    if (key.column == "f") c = Three(a.f, b.f);
    if (key.column == "s") c = a.s.compare(b.s) < 0 ? -1 : a.s.compare(b.s) > 0 ? 1 : 0;
    if (key.descending) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

struct TopKResult {
  std::vector<int64_t> ids;
  ScanStats stats;
};

Result<TopKResult> RunTopK(const ScanTestFile& file, const std::string& order_by, int64_t k,
                           const std::string& where = "", int threads = 2) {
  ScanOptions options;
  options.columns = {"id", "s"};
  options.order_by = order_by;
  options.limit = k;
  options.filter = where;
  options.threads = threads;
  options.batch_size = 300;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, file.Open(options));
  PQSIFT_ASSIGN_OR_RETURN(auto batches, DrainScanner(*scanner));
  TopKResult out;
  for (const auto& id : Int64Column(batches, 0)) out.ids.push_back(*id);
  out.stats = scanner->stats();
  return out;
}

// The rows a top-k returned are in order and are a right answer: the same sequence of keys as
// the reference, and rows tied with the last one on every key drawn from those tied rows.
void ExpectTopK(const ScanTestFile& file, const std::string& order_by, int64_t k,
                const std::string& where = "", std::function<bool(const ScanTestRow&)> keep = {}) {
  SCOPED_TRACE("ORDER BY " + order_by + " LIMIT " + std::to_string(k) + " WHERE " + where);
  auto keys = expr::ParseOrderBy(order_by);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  std::vector<ScanTestRow> all;
  for (int64_t id = 0; id < ScanTestFile::kRows; ++id) {
    ScanTestRow r = ScanTestRowAt(id);
    if (!keep || keep(r)) all.push_back(r);
  }
  std::stable_sort(all.begin(), all.end(), [&](const ScanTestRow& a, const ScanTestRow& b) {
    return CompareRows(a, b, *keys) < 0;
  });
  size_t expected = std::min<size_t>(all.size(), static_cast<size_t>(k));
  for (int threads : {1, 2}) {
    auto got = RunTopK(file, order_by, k, where, threads);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(got->ids.size(), expected);
    EXPECT_EQ(got->stats.rows_returned, static_cast<int64_t>(expected));
    std::vector<int64_t> seen = got->ids;
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "a row twice";
    for (size_t i = 0; i < expected; ++i) {
      ScanTestRow row = ScanTestRowAt(got->ids[i]);
      ASSERT_TRUE(!keep || keep(row)) << "row " << row.id << " does not pass the filter";
      ASSERT_EQ(CompareRows(row, all[i], *keys), 0)
          << "position " << i << ": got id " << row.id << ", expected a row like id " << all[i].id;
    }
  }
}

TEST(TopK, MatchesAFullSort) {
  ScanTestFile file;
  for (int64_t k : {1, 10, 25, 999, 1000, 1001, 4000}) {
    ExpectTopK(file, "id DESC", k);
    ExpectTopK(file, "v DESC, id", k);
    ExpectTopK(file, "v NULLS FIRST, id DESC", k);
    ExpectTopK(file, "v DESC NULLS FIRST, id", k);
    ExpectTopK(file, "f DESC, id", k);  // NaN first: greatest
    ExpectTopK(file, "f, s DESC, id", k);
    ExpectTopK(file, "s, id", k);
    ExpectTopK(file, "v", k);  // ties on the only key: any of the tied rows
    ExpectTopK(file, "v nulls first", k);
  }
}

TEST(TopK, WithAFilter) {
  ScanTestFile file;
  ExpectTopK(file, "v DESC, id", 50, "(id < 2000 OR id > 7000) AND s <> 'k4'",
             [](const ScanTestRow& r) { return (r.id < 2000 || r.id > 7000) && r.s != "k4"; });
  ExpectTopK(file, "f, id DESC", 20, "v IS NULL", [](const ScanTestRow& r) { return !r.v; });
}

TEST(TopK, LimitBeyondTheRowsAndZero) {
  ScanTestFile file;
  ExpectTopK(file, "s DESC, id", 20000);
  auto none = RunTopK(file, "id", 0);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->ids.empty());
  EXPECT_EQ(none->stats.row_groups_read, 0u);
}

TEST(TopK, PrunesRowGroupsThatCannotBeatTheHeap) {
  ScanTestFile file;
  auto desc = RunTopK(file, "id DESC", 10);
  ASSERT_TRUE(desc.ok());
  EXPECT_EQ(desc->ids.front(), 9999);
  EXPECT_EQ(desc->stats.row_groups_read, 1u);
  EXPECT_EQ(desc->stats.row_groups_skipped_at_runtime, 9u);
  // Inclusive bound with a second key: still only the best row group.
  auto asc = RunTopK(file, "id, s", 1500);
  ASSERT_TRUE(asc.ok());
  EXPECT_EQ(asc->stats.row_groups_read, 2u);
  EXPECT_EQ(asc->stats.row_groups_skipped_at_runtime, 8u);
}

// One row group of 10,000 rows in slices of 500: the slices go most promising first by the
// page index of the first key, so the heap's bound rules out the other slices' pages.
TEST(TopK, InsideOneRowGroupTheMostPromisingSlicesFirst) {
  ScanTestFile file(ScanTestFile::kRows);
  file.slice_rows = 500;
  for (int64_t k : {1, 10, 999, 4000}) {
    ExpectTopK(file, "id DESC", k);
    ExpectTopK(file, "id", k);
    ExpectTopK(file, "v DESC NULLS FIRST, id", k);
    ExpectTopK(file, "f DESC, id", k);  // NaN first: greatest
    ExpectTopK(file, "s, id", k);
  }
  ExpectTopK(file, "v DESC, id", 50, "(id < 2000 OR id > 7000) AND s <> 'k4'",
             [](const ScanTestRow& r) { return (r.id < 2000 || r.id > 7000) && r.s != "k4"; });
  // id ascends with the rows: the last slice first, then no other page can beat the 10th row.
  auto desc = RunTopK(file, "id DESC", 10);
  ASSERT_TRUE(desc.ok());
  EXPECT_EQ(desc->ids.front(), 9999);
  EXPECT_EQ(desc->ids.back(), 9990);
  // id and s of the last 500 rows (5 pages each) and the dictionary page of s
  EXPECT_LE(desc->stats.pages_decompressed, 11u);
  auto asc = RunTopK(file, "id", 10);
  ASSERT_TRUE(asc.ok());
  EXPECT_EQ(asc->ids.front(), 0);
  EXPECT_LE(asc->stats.pages_decompressed, 11u);
}

TEST(TopK, HiddenKeysAndErrors) {
  ScanTestFile file;
  ScanOptions options;
  options.columns = {"s"};
  options.order_by = "id DESC";
  options.limit = 3;
  auto scanner = file.Open(options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  ASSERT_EQ((*scanner)->schema()->fields.size(), 1u);
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok());
  ASSERT_EQ(batches->size(), 1u);
  EXPECT_EQ((*batches)[0]->num_rows, 3);
  for (const char* bad : {" ", "id DESC,", "nope", "id NULLS", "id DESC LAST"}) {
    options.order_by = bad;
    EXPECT_EQ(file.Open(options).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  options.order_by = "id";
  options.limit = -1;
  EXPECT_EQ(file.Open(options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqsift
