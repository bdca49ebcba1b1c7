// `pqsift count`: the same number as the rows `scan` returns, with and without pruning; row
// groups proven fully matched cost no data read.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using testing::ExpectOneErrorLine;
using testing::RunCli;

int64_t ScanRowCount(const std::string& where) {
  auto r = RunCli({"scan", testing::ExamplePath("events.parquet"), "--where", where, "--select",
                   "id", "--format", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  int64_t lines = std::count(r.out.begin(), r.out.end(), '\n');
  return lines > 0 ? lines - 1 : 0;  // minus the header (none without rows)
}

TEST(CountCliTest, AgreesWithScanPrunedOrNot) {
  for (const std::string where :
       {"id BETWEEN 5000 AND 5010", "id * 3 > 29000 OR id < 17", "id >= 0", "id < 0"}) {
    int64_t expected = ScanRowCount(where);
    for (bool prune : {true, false}) {
      std::vector<std::string> args = {"count", testing::ExamplePath("events.parquet"), "--where",
                                       where};
      if (!prune) args.push_back("--no-prune");
      auto r = RunCli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, std::to_string(expected) + "\n") << where << (prune ? "" : " --no-prune");
    }
  }
  auto all = RunCli({"count", testing::ExamplePath("events.parquet")});
  EXPECT_EQ(all.out, "20000\n");
}

TEST(CountCliTest, FullyMatchedRowGroupsReadNoData) {
  std::string stats_path =
      (std::filesystem::temp_directory_path() / ("pqsift_count_" + std::to_string(::getpid())))
          .string();
  auto r = RunCli({"count", testing::ExamplePath("events.parquet"), "--where", "id >= 0",
                   "--stats-json", stats_path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto stats = nlohmann::json::parse(testing::Slurp(stats_path));
  std::filesystem::remove(stats_path);
  EXPECT_EQ(stats["rows_returned"], 20000);
  EXPECT_EQ(stats["rows_decoded"], 0);
  EXPECT_EQ(stats["pages_read"], 0);
  EXPECT_EQ(stats["requests"], 1);  // the footer read only
}

TEST(CountCliTest, BadFilterIsOneErrorLine) {
  auto r = RunCli({"count", testing::ExamplePath("events.parquet"), "--where", "nope = 1"});
  EXPECT_EQ(r.exit_code, 2);
  ExpectOneErrorLine(r, "nope");
}

}  // namespace
}  // namespace pqsift
