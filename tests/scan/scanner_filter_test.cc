// The scan with a filter, end to end through Scanner on examples/events.parquet (20,000 rows in
// row groups of 4,096, `id` = 0..19999 sorted, `qty` = id * 31 % 100): the plan prunes by
// row-group statistics, fully matched row groups skip the residual filter, the rows equal an
// unpruned scan's and a brute-force filter's, and limits stop early.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "scan/scanner_internals.h"
#include "testing/files.h"

namespace pqsift {
namespace {

struct ScanOutput {
  std::vector<int64_t> ids;
  ScanStats stats;
};

Result<ScanOutput> ScanIds(const std::string& where, bool prune = true, int64_t limit = -1,
                           int threads = 2, int64_t batch_size = 1000) {
  ScanOptions options;
  options.columns = {"id"};
  options.filter = where;
  options.prune = prune;
  options.limit = limit;
  options.threads = threads;
  options.batch_size = batch_size;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner,
                          Scanner::Open({testing::ExamplePath("events.parquet")}, options));
  ScanOutput out;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    const Array& ids = *batch->columns.at(0);
    EXPECT_EQ(ids.length, batch->num_rows);
    const int64_t* values = ids.buffers[1]->as<int64_t>() + ids.offset;
    for (int64_t i = 0; i < ids.length; ++i) out.ids.push_back(values[i]);
  }
  out.stats = scanner->stats();
  return out;
}

std::vector<int64_t> Expected(const std::function<bool(int64_t id, int64_t qty)>& keep,
                              int64_t limit = -1) {
  std::vector<int64_t> out;
  for (int64_t id = 0; id < 20000; ++id) {
    if (keep(id, id * 31 % 100)) out.push_back(id);
    if (limit >= 0 && static_cast<int64_t>(out.size()) == limit) break;
  }
  return out;
}

TEST(ScannerFilterTest, NarrowRangeReadsOneRowGroup) {
  auto r = ScanIds("id BETWEEN 5000 AND 5010");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ids, Expected([](int64_t id, int64_t) { return id >= 5000 && id <= 5010; }));
  EXPECT_EQ(r->stats.row_groups, 5u);
  EXPECT_EQ(r->stats.row_groups_skipped, 4u);
  EXPECT_EQ(r->stats.row_groups_read, 1u);
  EXPECT_EQ(r->stats.rows_decoded, 4096);
  EXPECT_EQ(r->stats.rows_returned, 11);
}

// `id` is both filter and output column: its output is gathered from the filter's decoded
// windows, cut into the batches the other columns use. Tiny batches cut scattered matches across
// many windows (and make windows of only dropped rows).
TEST(ScannerFilterTest, FilterColumnGatheredAtEveryBatchSize) {
  std::vector<std::pair<std::string, std::function<bool(int64_t, int64_t)>>> cases = {
      {"qty < 50 OR id = 3", [](int64_t id, int64_t q) { return q < 50 || id == 3; }},
      {"id + qty > 19000", [](int64_t id, int64_t q) { return id + q > 19000; }},
      {"id < 100 OR id > 19950", [](int64_t id, int64_t) { return id < 100 || id > 19950; }},
  };
  for (int64_t batch_size : {1, 2, 7, 64, 5000}) {
    for (const auto& [where, keep] : cases) {
      SCOPED_TRACE(where + ", batch size " + std::to_string(batch_size));
      auto r = ScanIds(where, true, -1, 2, batch_size);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r->ids, Expected(keep));
    }
  }
}

TEST(ScannerFilterTest, FilterTrueEverywhereIsFullyMatched) {
  auto r = ScanIds("id >= 0");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ids.size(), 20000u);
  EXPECT_EQ(r->stats.row_groups_fully_matched, 5u);
  EXPECT_EQ(r->stats.filter_seconds, 0.0);  // no residual filter evaluated
}

TEST(ScannerFilterTest, PrunedEqualsUnprunedEqualsBruteForce) {
  struct Case {
    std::string where;
    std::function<bool(int64_t, int64_t)> keep;
  };
  std::vector<Case> cases = {
      {"id < 100 OR id > 19950", [](int64_t id, int64_t) { return id < 100 || id > 19950; }},
      {"qty = 7", [](int64_t, int64_t q) { return q == 7; }},
      {"qty = 7 AND id >= 12000", [](int64_t id, int64_t q) { return q == 7 && id >= 12000; }},
      {"NOT (id < 8192)", [](int64_t id, int64_t) { return id >= 8192; }},
      {"id IN (1, 4095, 4096, 19999, 25000)",
       [](int64_t id, int64_t) { return id == 1 || id == 4095 || id == 4096 || id == 19999; }},
      {"id > 30000", [](int64_t, int64_t) { return false; }},
      {"id IS NULL", [](int64_t, int64_t) { return false; }},
      {"id + qty > 19990", [](int64_t id, int64_t q) { return id + q > 19990; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.where);
    auto pruned = ScanIds(c.where);
    auto unpruned = ScanIds(c.where, /*prune=*/false);
    ASSERT_TRUE(pruned.ok()) << pruned.status().message();
    ASSERT_TRUE(unpruned.ok()) << unpruned.status().message();
    EXPECT_EQ(pruned->ids, Expected(c.keep));
    EXPECT_EQ(unpruned->ids, pruned->ids);
    EXPECT_EQ(unpruned->stats.row_groups_skipped, 0u);
  }
}

TEST(ScannerFilterTest, LimitWithFilterStopsEarly) {
  auto r = ScanIds("qty = 7", true, /*limit=*/5, /*threads=*/2, /*batch_size=*/100);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ids, Expected([](int64_t, int64_t q) { return q == 7; }, 5));
  EXPECT_EQ(r->stats.row_groups_read, 1u);  // the first row group has enough matches
}

TEST(ScannerFilterTest, LimitWithoutFilterSkipsLaterRowGroups) {
  auto r = ScanIds("", true, /*limit=*/5000);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ids, Expected([](int64_t, int64_t) { return true; }, 5000));
  EXPECT_EQ(r->stats.row_groups_read, 2u);
  EXPECT_EQ(r->stats.row_groups_skipped, 3u);
}

TEST(ScannerFilterTest, NoByteIsReadTwice) {
  // The last column chunks end inside the footer's tail read: only the part before it is read.
  ScanOptions options;
  auto scanner = Scanner::Open({testing::ExamplePath("events.parquet")}, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().message();
  ScanEstimate estimate = (*scanner)->Estimate();
  for (;;) {
    auto batch = (*scanner)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().message();
    if (!*batch) break;
  }
  ScanStats stats = (*scanner)->stats();
  EXPECT_LE(stats.bytes_read, stats.file_bytes);
  EXPECT_EQ(stats.bytes_read, estimate.bytes_to_read + 65536);  // + the tail read
}

TEST(ScannerFilterTest, LimitZeroReadsNothing) {
  auto r = ScanIds("qty = 7", true, /*limit=*/0);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->ids.empty());
  EXPECT_EQ(r->stats.row_groups_read, 0u);
}

TEST(ScannerFilterTest, BadFiltersAreInvalidArgument) {
  for (const char* where : {"idd = 1", "id = ", "id = 'abc'"}) {
    SCOPED_TRACE(where);
    auto r = ScanIds(where);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(ScannerFilterTest, ExplainPlanWithoutReadingData) {
  ScanOptions options;
  options.filter = "id BETWEEN 5000 AND 5010";
  auto scanner = Scanner::Open({testing::ExamplePath("events.parquet")}, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().message();
  const prune::AccessPlan& plan = ScannerInternals::Plan(**scanner);
  ASSERT_EQ(plan.files.size(), 1u);
  ASSERT_EQ(plan.files[0].row_groups.size(), 5u);
  for (size_t g = 0; g < 5; ++g) {
    EXPECT_EQ(plan.files[0].row_groups[g].decision(),
              g == 1 ? prune::Decision::kScan : prune::Decision::kSkip);
  }
  ScanEstimate estimate = (*scanner)->Estimate();
  EXPECT_EQ(estimate.row_groups_to_read, 1);
  EXPECT_GT(estimate.bytes_to_read, 0u);
  // Only the footer was read.
  EXPECT_EQ((*scanner)->stats().read_requests, 1u);
}

// A filter as deep as the parser accepts (kMaxExpressionDepth) binds, prunes and evaluates
// (the binder, prover and evaluator recurse over it); one level more, or a few kilobytes of
// nesting, is an error naming the limit, never a stack overflow (the filter fuzzer found a
// 958-byte filter of parentheses that overflowed the parser's stack, and a 40 KB chain of
// "+ 1" crashed the CLI in the binder).
std::string Repeat(std::string_view part, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += part;
  return out;
}

TEST(ScannerFilterTest, DeepestAcceptedFilterScansAndDeeperIsAnError) {
  // id - id + id - ... : a left-deep chain; 254 operators under the comparison are 256 levels.
  const std::string chain = "id" + Repeat(" - id + id", 127) + " < 3";
  const std::string parens = Repeat("(", 256) + "id < 3" + Repeat(")", 256);
  const std::string nots = Repeat("NOT ", 254) + "id < 3";
  for (const std::string& where : {chain, parens, nots}) {
    auto r = ScanIds(where);
    ASSERT_TRUE(r.ok()) << where.substr(0, 40) << ": " << r.status().message();
    EXPECT_EQ(r->ids, (std::vector<int64_t>{0, 1, 2})) << where.substr(0, 40);
  }
  for (const std::string& where :
       {"id" + Repeat(" - id + id", 127) + " + id < 3",
        Repeat("(", 257) + "id < 3" + Repeat(")", 257), "id" + Repeat(" + 1", 100000) + " > 0",
        Repeat("(", 100000) + "id > 0", Repeat("NOT ", 100000) + "id > 0",
        Repeat("- ", 100000) + "id > 0", Repeat("+", 100000) + "id > 0",
        Repeat("abs(", 100000) + "id"}) {
    auto r = ScanIds(where);
    ASSERT_FALSE(r.ok()) << where.substr(0, 40);
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find("more than 256 levels"), std::string::npos)
        << r.status().message();
  }
}

}  // namespace
}  // namespace pqsift
