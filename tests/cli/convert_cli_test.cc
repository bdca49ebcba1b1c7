// `pqsift convert` and `scan --format parquet` end to end: CSV in the form pqsift's own CSV output
// takes converts to Parquet and scans back to the same text; Parquet rewrites keep every row
// under other options; bad input gives one error line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "pqsift/parquet_file.h"
#include "testing/cli.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

using testing::ExpectOneErrorLine;
using testing::RunCli;
using testing::Slurp;

class ConvertCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pqsift_convert_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string WriteText(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }

  std::filesystem::path dir_;
};

// Written as `pqsift scan --format csv` writes these types, so the round trip is the identity.
const char* kCsv =
    "id,price,ok,day,at,at_utc,name\n"
    "1,1.5,true,2024-01-02,2024-01-02 03:04:05,2024-01-02 03:04:05.25+00,plain\n"
    "2,,false,,2024-01-02 03:04:05.000001,,\"with, comma\"\n"
    "-3,-2.25e+100,,1969-12-31,,1970-01-01 00:00:00+00,\"say \"\"hi\"\"\"\n"
    "4,0,true,2000-02-29,1999-12-31 23:59:59,2000-01-01 00:00:00+00,\"\"\n"
    ",3,false,2000-03-01,2000-01-01 00:00:00,,\n";

TEST_F(ConvertCli, CsvRoundTripsThroughParquet) {
  std::string csv = WriteText("in.csv", kCsv);
  std::string out = Path("out.parquet");
  auto r = RunCli({"convert", csv, out, "--page-rows", "2", "--compression", "zstd:3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto back = RunCli({"scan", out, "--format", "csv"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  // Doubles print in their shortest form: -2.25e+100 as pqsift writes it.
  EXPECT_EQ(back.out, kCsv);

  // The column types, as the inspect output names them.
  auto file = testing::OpenParquet(out);
  ASSERT_NE(file.metadata, nullptr);
  const auto& columns = file.metadata->schema().columns();
  ASSERT_EQ(columns.size(), 7u);
  EXPECT_EQ(columns[0].physical_type, PhysicalType::kInt64);
  EXPECT_EQ(columns[1].physical_type, PhysicalType::kDouble);
  EXPECT_EQ(columns[2].physical_type, PhysicalType::kBoolean);
  EXPECT_EQ(columns[3].logical_type.kind, LogicalType::Kind::kDate);
  EXPECT_EQ(columns[4].logical_type.kind, LogicalType::Kind::kTimestamp);
  EXPECT_FALSE(columns[4].logical_type.is_adjusted_to_utc);
  EXPECT_TRUE(columns[5].logical_type.is_adjusted_to_utc);
  EXPECT_EQ(columns[6].logical_type.kind, LogicalType::Kind::kString);
  EXPECT_EQ(file.metadata->file().row_groups[0].columns[0].meta_data->codec,
            CompressionCodec::kZstd);
}

TEST_F(ConvertCli, ParquetRewriteAndScanToParquetKeepEveryRow) {
  std::string csv = WriteText("in.csv", kCsv);
  std::string first = Path("first.parquet"), second = Path("second.parquet"),
              third = Path("third.parquet");
  ASSERT_EQ(RunCli({"convert", csv, first}).exit_code, 0);
  auto r = RunCli({"convert", first, second, "--row-group-rows", "2", "--dictionary", "off",
                   "--no-page-index", "--compression", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = testing::OpenParquet(second);
  ASSERT_NE(file.metadata, nullptr);
  EXPECT_EQ(file.metadata->num_row_groups(), 3u);
  EXPECT_FALSE(file.metadata->file().row_groups[0].columns[0].column_index_offset.has_value());
  r = RunCli({"scan", second, "--where", "id >= 2", "--select", "id,name", "--format", "parquet",
              "-o", third});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunCli({"scan", third, "--format", "csv"}).out, "id,name\n2,\"with, comma\"\n4,\"\"\n");
  EXPECT_EQ(RunCli({"scan", second, "--format", "csv"}).out, kCsv);
}

// A file split into hive folders (--partition-by) and the folder converted back into one file,
// filtered and projected on the way (--where, --select): the rows of a scan of the original.
TEST_F(ConvertCli, PartitionedFoldersAndDatasetsConvertBothWays) {
  std::string csv = WriteText("in.csv", kCsv);
  std::string file = Path("one.parquet"), folder = Path("by_ok"), back = Path("back.parquet");
  ASSERT_EQ(RunCli({"convert", csv, file}).exit_code, 0);
  auto r = RunCli({"convert", file, folder, "--partition-by", "ok", "--stats"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("files 3"), std::string::npos) << r.err;  // true, false, NULL
  EXPECT_TRUE(std::filesystem::exists(folder + "/ok=true/part-0.parquet"));
  EXPECT_TRUE(std::filesystem::exists(folder + "/ok=__HIVE_DEFAULT_PARTITION__/part-0.parquet"));
  r = RunCli({"convert", folder, back, "--where", "id >= 2", "--select", "id,name,ok"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The folder's files in path order: ok=__HIVE_DEFAULT_PARTITION__, ok=false, ok=true.
  EXPECT_EQ(RunCli({"scan", back, "--format", "csv"}).out,
            "id,name,ok\n2,\"with, comma\",false\n4,\"\",true\n");
  // One file of the folder converted alone keeps its own columns (no hive key from its path).
  r = RunCli({"convert", folder + "/ok=true/part-0.parquet", Path("alone.parquet")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      RunCli({"scan", Path("alone.parquet"), "--format", "csv"}).out,
      "id,price,day,at,at_utc,name\n1,1.5,2024-01-02,2024-01-02 03:04:05,2024-01-02 "
      "03:04:05.25+00,plain\n4,0,2000-02-29,1999-12-31 23:59:59,2000-01-01 00:00:00+00,\"\"\n");
  r = RunCli({"convert", file, folder, "--partition-by", "ok"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("not an empty folder"), std::string::npos) << r.err;
  r = RunCli({"convert", csv, Path("x.parquet"), "--where", "id > 1"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("take Parquet input"), std::string::npos) << r.err;
}

TEST_F(ConvertCli, ErrorsAreOneLine) {
  std::string csv = WriteText("bad.csv", "a\n1\n2\nx\n");
  auto r = RunCli({"convert", csv, Path("o.parquet"), "--infer-rows", "2"});
  EXPECT_EQ(r.exit_code, 2);
  ExpectOneErrorLine(r, "record 3, column 'a': 'x' is not a valid int64");
  r = RunCli({"convert", csv, Path("o.parquet"), "--compression", "zstd:99"});
  EXPECT_EQ(r.exit_code, 2);
  ExpectOneErrorLine(r, "compression level 99");
  r = RunCli({"convert", csv, Path("o.parquet"), "--schema", "a:int3"});
  EXPECT_EQ(r.exit_code, 2);
  ExpectOneErrorLine(r, "unknown column type 'int3'");
  r = RunCli({"scan", csv, "--format", "parquet"});
  EXPECT_EQ(r.exit_code, 2);
  ExpectOneErrorLine(r, "--format parquet needs -o FILE");
}

}  // namespace
}  // namespace pqsift
