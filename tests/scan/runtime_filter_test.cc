// Runtime filters (pqsift/runtime_filter.h): a bound or value set published before or during a
// scan skips the row groups and pages whose statistics rule it out, filters the rows read, and
// never drops a row it admits.
#include "pqsift/runtime_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "scan/scan_test_file.h"

namespace pqsift {
namespace {

using testing::DrainScanner;
using testing::Int64Column;
using testing::ScanTestFile;

std::shared_ptr<Array> Int64s(const std::vector<int64_t>& values) {
  FixedWidthArrayBuilder<int64_t> b(Int64());
  for (int64_t v : values) b.Append(v);
  return b.Finish();
}

ScanOptions WithFilter(std::shared_ptr<RuntimeFilter> filter, std::string where = "") {
  ScanOptions options;
  options.columns = {"id", "v"};
  options.runtime_filter = std::move(filter);
  options.filter = std::move(where);
  options.threads = 1;
  options.batch_size = 250;
  return options;
}

// The ids a scan returns, sorted.
std::vector<int64_t> Ids(const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  std::vector<int64_t> out;
  for (const auto& id : Int64Column(batches, 0)) out.push_back(*id);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int64_t> IdsWhere(const ScanTestFile& file, const std::string& where) {
  auto scanner = file.Open(WithFilter(nullptr, where));
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto batches = DrainScanner(**scanner);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  return Ids(*batches);
}

TEST(RuntimeFilter, BoundPublishedMidScanSkipsLaterRowGroups) {
  ScanTestFile file;
  auto filter = std::make_shared<RuntimeFilter>(std::vector<std::string>{"id"});
  auto scanner = file.Open(WithFilter(filter));
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto first = (*scanner)->Next();
  ASSERT_TRUE(first.ok() && *first != nullptr);
  ASSERT_TRUE(filter->PublishUpperBound(0, *Int64s({2500}), 0, false).ok());
  auto rest = DrainScanner(**scanner);
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  rest->insert(rest->begin(), *first);
  std::vector<int64_t> ids = Ids(*rest);
  // Every admitted row is there (row groups launched before the publish return all theirs).
  std::set<int64_t> got(ids.begin(), ids.end());
  for (int64_t id = 0; id < 2500; ++id) ASSERT_TRUE(got.count(id)) << id;
  EXPECT_EQ(got.size(), ids.size());
  EXPECT_LT(ids.back(), 3000);
  ScanStats stats = (*scanner)->stats();
  EXPECT_GE(stats.row_groups_skipped_at_runtime, 7u);
  EXPECT_LE(stats.row_groups_read, 3u);
}

TEST(RuntimeFilter, ValueSetReadsOnlyTheRowGroupsAndPagesHoldingIt) {
  ScanTestFile file;
  auto filter = std::make_shared<RuntimeFilter>(std::vector<std::string>{"id"});
  ASSERT_TRUE(filter->PublishValueSet(0, *Int64s({9999, 5, 4321, 5})).ok());
  auto scanner = file.Open(WithFilter(filter));
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Ids(*batches), (std::vector<int64_t>{5, 4321, 9999}));
  ScanStats stats = (*scanner)->stats();
  EXPECT_EQ(stats.row_groups_read, 3u);
  EXPECT_EQ(stats.row_groups_skipped_at_runtime, 7u);
  EXPECT_EQ(stats.pages_skipped_at_runtime, 27u);  // 9 of the 10 pages in each row group read
  EXPECT_GT(stats.pages_not_fetched, 0u);
}

// The runtime filter returns exactly the rows of the same constraint written as --where, with
// and without a scan filter of its own, NULLs passing or not.
TEST(RuntimeFilter, SameRowsAsTheEquivalentWhere) {
  ScanTestFile file;
  struct Case {
    int64_t lower, upper;
    bool nulls_pass;
    std::string scan_filter;
    std::string equivalent;
  };
  for (const Case& c : std::vector<Case>{
           {40, 60, false, "", "v >= 40 AND v < 60"},
           {40, 60, true, "", "(v >= 40 AND v < 60) OR v IS NULL"},
           {0, 1, true, "id > 5000", "id > 5000 AND ((v >= 0 AND v < 1) OR v IS NULL)"},
           {100, 101, false, "id < 3000 OR id > 9000",
            "(id < 3000 OR id > 9000) AND v >= 100 AND v < 101"},
           {7, 7, false, "", "v >= 7 AND v < 7"},
       }) {
    SCOPED_TRACE(c.equivalent);
    auto filter = std::make_shared<RuntimeFilter>(std::vector<std::string>{"v"});
    auto bounds = Int64s({c.lower, c.upper});
    ASSERT_TRUE(filter->PublishLowerBound(0, *bounds, 0, true, c.nulls_pass).ok());
    ASSERT_TRUE(filter->PublishUpperBound(0, *bounds, 1, false, c.nulls_pass).ok());
    auto scanner = file.Open(WithFilter(filter, c.scan_filter));
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    auto batches = DrainScanner(**scanner);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    EXPECT_EQ(Ids(*batches), IdsWhere(file, c.equivalent));
  }
}

TEST(RuntimeFilter, OnlyTightens) {
  RuntimeFilter filter({"id"});
  EXPECT_EQ(filter.version(), 0u);
  auto values = Int64s({10, 20, 10});
  ASSERT_TRUE(filter.PublishLowerBound(0, *values, 0, true).ok());
  uint64_t v1 = filter.version();
  EXPECT_GT(v1, 0u);
  ASSERT_TRUE(filter.PublishLowerBound(0, *values, 2, true).ok());  // the same bound
  EXPECT_EQ(filter.version(), v1);
  ASSERT_TRUE(filter.PublishLowerBound(0, *values, 2, false).ok());  // 10 exclusive: tighter
  EXPECT_GT(filter.version(), v1);
  uint64_t v2 = filter.version();
  ASSERT_TRUE(filter.PublishLowerBound(0, *values, 0, true).ok());  // looser again
  EXPECT_EQ(filter.version(), v2);
  ASSERT_TRUE(filter.PublishValueSet(0, *Int64s({1, 2, 3})).ok());
  uint64_t v3 = filter.version();
  ASSERT_TRUE(filter.PublishValueSet(0, *Int64s({1, 2, 3, 4})).ok());  // adds nothing
  EXPECT_EQ(filter.version(), v3);
  ASSERT_TRUE(filter.PublishValueSet(0, *Int64s({2, 3, 4})).ok());  // drops 1
  EXPECT_GT(filter.version(), v3);
}

TEST(RuntimeFilter, EmptySetWithNullsPassingKeepsOnlyNulls) {
  ScanTestFile file;
  auto filter = std::make_shared<RuntimeFilter>(std::vector<std::string>{"v"});
  ASSERT_TRUE(filter->PublishValueSet(0, *Int64s({}), /*nulls_pass=*/true).ok());
  auto scanner = file.Open(WithFilter(filter));
  ASSERT_TRUE(scanner.ok());
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Ids(*batches), IdsWhere(file, "v IS NULL"));
}

TEST(RuntimeFilter, Errors) {
  ScanTestFile file;
  RuntimeFilter filter({"id"});
  auto values = Int64s({1});
  EXPECT_EQ(filter.PublishLowerBound(1, *values, 0, true).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(filter.PublishLowerBound(0, *values, 1, true).code(), StatusCode::kInvalidArgument);
  FixedWidthArrayBuilder<int64_t> null_builder(Int64());
  null_builder.AppendNull();
  EXPECT_EQ(filter.PublishLowerBound(0, *null_builder.Finish(), 0, true).code(),
            StatusCode::kInvalidArgument);
  // An unknown column fails at Open; a value of another type than the column's at Next.
  auto unknown = std::make_shared<RuntimeFilter>(std::vector<std::string>{"nope"});
  EXPECT_EQ(file.Open(WithFilter(unknown)).status().code(), StatusCode::kInvalidArgument);
  auto mistyped = std::make_shared<RuntimeFilter>(std::vector<std::string>{"id"});
  FixedWidthArrayBuilder<int32_t> int32s(Int32());
  int32s.Append(5);
  ASSERT_TRUE(mistyped->PublishLowerBound(0, *int32s.Finish(), 0, true).ok());
  auto scanner = file.Open(WithFilter(mistyped));
  ASSERT_TRUE(scanner.ok());
  EXPECT_EQ(DrainScanner(**scanner).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqsift
