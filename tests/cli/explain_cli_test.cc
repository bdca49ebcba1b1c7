// `pqsift explain` and `pqsift scan --where/--stats-json/--no-prune` through the binary, on
// examples/events.parquet (20,000 rows, `id` sorted, row groups of 4,096 rows).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using testing::ExpectOneErrorLine;
using testing::RunCli;

const char kWhere[] = "id BETWEEN 5000 AND 5010";

TEST(ExplainCliTest, TextShowsEachRowGroupAndWhy) {
  auto r = RunCli({"explain", testing::ExamplePath("events.parquet"), "--where", kWhere});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("row group 1: scan"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("row group 0: skip"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(row-group statistics)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("row groups: 1 to read of 5 (4 skipped"), std::string::npos) << r.out;
  // Every stage's verdict under its row group, with the evidence.
  EXPECT_NE(r.out.find("    row-group statistics: skipped, 4096 -> 0 rows: min(id) = 0, "
                       "max(id) = 4095"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(ExplainCliTest, HtmlIsOneSelfContainedPage) {
  std::string html =
      (std::filesystem::temp_directory_path() / ("pqsift_explain_" + std::to_string(::getpid())))
          .string();
  auto r = RunCli(
      {"explain", testing::ExamplePath("events.parquet"), "--where", kWhere, "--html", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;  // the page instead of the text
  std::string page = testing::Slurp(html);
  std::filesystem::remove(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  // Nothing is fetched: no source, link or url() of anything outside the page.
  for (const char* external : {"src=", "href=", "url(", "@import", "http://", "https://"}) {
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  }
  EXPECT_NE(page.find("row-group statistics"), std::string::npos);
}

TEST(ExplainCliTest, JsonAgreesWithTheScan) {
  auto r = RunCli({"explain", "--json", testing::ExamplePath("events.parquet"), "--where", kWhere});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["row_groups_skipped"], 4);
  EXPECT_EQ(j["summary"]["row_groups_to_read"], 1);
  EXPECT_EQ(j["files"][0]["row_groups"][1]["decision"], "scan");
  EXPECT_EQ(j["files"][0]["row_groups"][0]["decided_by"], "row-group statistics");

  std::string stats_path =
      (std::filesystem::temp_directory_path() / ("pqsift_stats_" + std::to_string(::getpid())))
          .string();
  auto scan = RunCli({"scan", testing::ExamplePath("events.parquet"), "--where", kWhere, "--select",
                      "id", "--format", "csv", "--stats-json", stats_path});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  auto stats = nlohmann::json::parse(testing::Slurp(stats_path));
  std::filesystem::remove(stats_path);
  for (const char* key :
       {"bytes_read", "requests", "file_bytes", "row_groups_total", "row_groups_read",
        "pages_total", "pages_read", "rows_decoded", "rows_returned"}) {
    EXPECT_TRUE(stats.contains(key)) << key;
  }
  EXPECT_EQ(stats["rows_returned"], 11);
  EXPECT_EQ(stats["row_groups_read"], 1);
  EXPECT_EQ(stats["row_groups_total"], 5);
  EXPECT_EQ(stats["rows_decoded"], 4096);
  EXPECT_EQ(scan.out.substr(0, 8), "id\n5000\n");
}

TEST(ExplainCliTest, NoPruneGivesTheSameRows) {
  auto pruned = RunCli({"scan", testing::ExamplePath("events.parquet"), "--where",
                        "qty = 7 OR id > 19990", "--format", "jsonl"});
  auto unpruned = RunCli({"scan", testing::ExamplePath("events.parquet"), "--where",
                          "qty = 7 OR id > 19990", "--format", "jsonl", "--no-prune"});
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  ASSERT_EQ(unpruned.exit_code, 0) << unpruned.err;
  EXPECT_EQ(pruned.out, unpruned.out);
  EXPECT_FALSE(pruned.out.empty());
}

TEST(ExplainCliTest, BadFilterIsOneLineAndExitTwo) {
  for (const char* command : {"scan", "explain"}) {
    auto r = RunCli({command, testing::ExamplePath("events.parquet"), "--where", "idd > 3"});
    EXPECT_EQ(r.exit_code, 2) << command;
    ExpectOneErrorLine(r, "at 1: no column 'idd'");
  }
}

}  // namespace
}  // namespace pqsift
