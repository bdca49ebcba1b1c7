// `pqsift scan --order-by KEYS --limit K`: the first K rows in order, fewer row groups read than
// the file has, and usage errors reported as such.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using testing::ExpectOneErrorLine;
using testing::RunCli;

TEST(ScanOrderByCliTest, FirstRowsInOrderFromOneRowGroup) {
  std::string stats = ::testing::TempDir() + "/order_by_stats.json";
  auto r = RunCli({"scan", testing::ExamplePath("events.parquet"), "--order-by", "id DESC",
                   "--limit", "3", "--select", "id", "--format", "csv", "--stats-json", stats});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id\n19999\n19998\n19997\n");
  auto s = nlohmann::json::parse(testing::Slurp(stats));
  EXPECT_EQ(s["row_groups_read"], 1);
  EXPECT_EQ(s["row_groups_skipped_at_runtime"], 4);
  EXPECT_EQ(s["rows_returned"], 3);
}

TEST(ScanOrderByCliTest, UsageErrors) {
  auto no_limit = RunCli({"scan", testing::ExamplePath("events.parquet"), "--order-by", "id"});
  EXPECT_EQ(no_limit.exit_code, 2);
  ExpectOneErrorLine(no_limit, "--limit");
  auto bad = RunCli({"scan", testing::ExamplePath("events.parquet"), "--order-by", "id SIDEWAYS",
                     "--limit", "3"});
  EXPECT_EQ(bad.exit_code, 2);
  ExpectOneErrorLine(bad, "ORDER BY: at 4");
  auto unknown = RunCli(
      {"scan", testing::ExamplePath("events.parquet"), "--order-by", "nope", "--limit", "3"});
  EXPECT_EQ(unknown.exit_code, 2);
  ExpectOneErrorLine(unknown, "nope");
}

}  // namespace
}  // namespace pqsift
