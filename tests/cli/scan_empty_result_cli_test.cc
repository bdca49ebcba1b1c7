// `pqsift scan` of a result without rows (every row group pruned, every row filtered out,
// LIMIT 0): CSV still writes its header row and the table its header lines, as DuckDB's COPY
// and its tables do, so a pipeline reading the CSV sees the columns; JSON Lines writes nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using testing::RunCli;

std::vector<std::string> Scan(const std::vector<std::string>& more) {
  std::vector<std::string> args = {"scan", testing::ExamplePath("events.parquet")};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(ScanEmptyResultCliTest, CsvWritesItsHeaderRow) {
  for (const std::vector<std::string>& how : std::vector<std::vector<std::string>>{
           {"--where", "id < 0"},              // pruned by the statistics: no row group read
           {"--where", "id % 20001 = 20000"},  // every row group read, every row filtered out
           {"--limit", "0"}}) {
    std::vector<std::string> args = how;
    args.insert(args.end(), {"--select", "region,id", "--format", "csv"});
    auto r = RunCli(Scan(args));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "region,id\n") << how[0] << " " << how[1];
    EXPECT_EQ(r.err, "");
  }
}

TEST(ScanEmptyResultCliTest, TableShowsItsColumnsJsonLinesNothing) {
  auto table = RunCli(Scan({"--where", "id < 0", "--select", "id,region", "--format", "table"}));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("id"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("region"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("(0 rows)"), std::string::npos) << table.out;
  auto jsonl = RunCli(Scan({"--where", "id < 0", "--format", "jsonl"}));
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  EXPECT_EQ(jsonl.out, "");
}

}  // namespace
}  // namespace pqsift
