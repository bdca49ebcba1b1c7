// `pqsift convert --bloom-filter` and the bloom-filter stage through the binary: the flag's
// forms and errors, explain naming the stage, and --stats / --stats-json reporting it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pqsift/parquet_file.h"
#include "testing/cli.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

using testing::ExpectOneErrorLine;
using testing::RunCli;
using testing::Slurp;

class BloomFilterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pqsift_bloom_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    std::ofstream csv(Path("in.csv"));
    csv << "key,n,ok\n";
    // Keys spread over every row group, so min/max prove nothing.
    for (int i = 0; i < 4000; ++i) csv << "k" << (i * 7919) % 4000 << "x," << i << ",true\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

TEST_F(BloomFilterCli, ConvertWritesFiltersTheScanUses) {
  const std::string out = Path("out.parquet");
  auto r = RunCli({"convert", "--bloom-filter", "key", Path("in.csv"), out, "--row-group-rows",
                   "1000", "--bloom-filter", "n:5000:0.05"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = testing::OpenParquet(out);
  ASSERT_NE(file.metadata, nullptr);
  ASSERT_EQ(file.metadata->file().row_groups.size(), 4u);
  for (const RowGroup& rg : file.metadata->file().row_groups) {
    EXPECT_TRUE(rg.columns[0].meta_data->bloom_filter_length.has_value());
    EXPECT_TRUE(rg.columns[1].meta_data->bloom_filter_length.has_value());
    EXPECT_FALSE(rg.columns[2].meta_data->bloom_filter_offset.has_value());
  }

  auto explain = RunCli({"explain", out, "--where", "key = 'k17y'"});
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_NE(explain.out.find("row group 3: skip      0 of 1000 rows (bloom filter)"),
            std::string::npos)
      << explain.out;
  EXPECT_NE(explain.out.find("stage bloom filter: 4 row groups considered, 4 skipped"),
            std::string::npos)
      << explain.out;

  const std::string stats = Path("stats.json");
  // A footer read of 8 bytes: the filters are not in it, so the stage's reads count.
  auto scan = RunCli({"scan", out, "--where", "key IN ('k17x', 'k17y')", "--format", "csv",
                      "--stats", "--stats-json", stats, "--footer-read-bytes", "8"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(scan.out, "key,n,ok\nk17x,543,true\n");
  EXPECT_NE(scan.err.find("stage bloom filter: 4 row groups considered, 3 skipped"),
            std::string::npos)
      << scan.err;
  auto json = nlohmann::json::parse(Slurp(stats));
  // Statistics, page index, page headers, dictionary, bloom filter.
  ASSERT_EQ(json["stages"].size(), 5u);
  EXPECT_EQ(json["stages"][4]["stage"], "bloom filter");
  EXPECT_EQ(json["stages"][4]["row_groups_skipped"], 3);
  EXPECT_GT(json["stages"][4]["bytes_read"].get<int64_t>(), 0);
  EXPECT_EQ(json["row_groups_read"], 1);
}

TEST_F(BloomFilterCli, BadItemsAreUsageErrors) {
  for (const char* item : {"key:x", "key:1:2", "key:-1", "key:1:0", ":5", "key:1:0.1:9"}) {
    SCOPED_TRACE(item);
    auto r = RunCli({"convert", Path("in.csv"), Path("bad.parquet"), "--bloom-filter", item});
    EXPECT_EQ(r.exit_code, 2);
    ExpectOneErrorLine(r, "--bloom-filter item");
  }
  auto unknown = RunCli({"convert", Path("in.csv"), Path("bad.parquet"), "--bloom-filter", "zz"});
  EXPECT_EQ(unknown.exit_code, 2);
  ExpectOneErrorLine(unknown, "column 'zz', which the schema does not have");
  auto boolean = RunCli({"convert", Path("in.csv"), Path("bad.parquet"), "--bloom-filter", "ok"});
  EXPECT_NE(boolean.exit_code, 0);
  ExpectOneErrorLine(boolean, "bloom filters are not defined for BOOLEAN columns");
}

}  // namespace
}  // namespace pqsift
