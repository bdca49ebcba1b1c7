// The key flags of scan, count, explain and inspect on parquet-testing's encrypted files:
// --footer-key, --column-key PATH:KEY, --aad-prefix, --keys FILE; hex and base64 keys; a
// missing key names the column; no output or error line ever shows a key. And the encryption
// flags of convert (--encrypt-footer, --encrypt-column, --plaintext-footer, --aad-prefix,
// --no-aad-storage, --ctr, --key-metadata): files that read back with the read side's flags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using testing::CliResult;
using testing::RunCli;

// The README's keys as hex ("0123456789012345" etc. in ASCII) and one as base64.
constexpr const char* kFooterHex = "30313233343536373839303132333435";
constexpr const char* kFooterBase64 = "MDEyMzQ1Njc4OTAxMjM0NQ==";
constexpr const char* kDoubleHex = "31323334353637383930313233343530";
constexpr const char* kFloatHex = "31323334353637383930313233343531";

std::string File(const std::string& name) {
  std::string dir = testing::ParquetTestingDir();
  return dir.empty() ? "" : dir + "/data/" + name;
}

std::vector<std::string> KeyFlags() {
  return {"--footer-key", kFooterHex,
          "--column-key", std::string("double_field:") + kDoubleHex,
          "--column-key", std::string("float_field:") + kFloatHex};
}

void ExpectNoKeys(const CliResult& r) {
  for (const char* key : {kFooterHex, kFooterBase64, kDoubleHex, kFloatHex, "0123456789012345",
                          "1234567890123450", "1234567890123451"}) {
    EXPECT_EQ(r.out.find(key), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(key), std::string::npos) << r.err;
  }
}

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(EncryptionCliTest, ScanCountExplainWithKeyFlags) {
  std::string path = File("encrypt_columns_and_footer.parquet.encrypted");
  if (path.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  CliResult scan = RunCli(
      With({"scan", path, "--select", "int32_field,double_field", "--format", "csv", "--stats"},
           KeyFlags()));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  std::vector<std::string> lines = testing::Lines(scan.out);
  ASSERT_EQ(lines.size(), 51u) << scan.out;
  EXPECT_EQ(lines[0], "int32_field,double_field");
  EXPECT_EQ(lines[2], "00:00:00.001,1.1111111");
  ExpectNoKeys(scan);

  CliResult count =
      RunCli(With({"count", path, "--where", "double_field > 40", "--stats"}, KeyFlags()));
  ASSERT_EQ(count.exit_code, 0) << count.err;
  EXPECT_EQ(count.out, "13\n");
  ExpectNoKeys(count);

  CliResult explain = RunCli(With({"explain", path, "--where", "double_field < 0"}, KeyFlags()));
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  ExpectNoKeys(explain);

  // explain reads no data page: the footer key alone is enough, even for a filter on a column
  // under its own key (whose statistics are then unknown: nothing pruned).
  CliResult footer_only =
      RunCli({"explain", path, "--where", "double_field > 40", "--footer-key", kFooterHex});
  ASSERT_EQ(footer_only.exit_code, 0) << footer_only.err;
  EXPECT_NE(footer_only.out.find("row group 0: scan      50 of 50 rows"), std::string::npos)
      << footer_only.out;

  // The footer key alone: columns under other keys are not needed when not read.
  CliResult plain =
      RunCli({"count", path, "--where", "boolean_field", "--footer-key", kFooterBase64});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, "25\n");
}

TEST(EncryptionCliTest, KeysFileWithKeyIds) {
  std::string path = File("encrypt_columns_plaintext_footer.parquet.encrypted");
  if (path.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  testing::TempFile keys(std::string("{\"key_ids\": {\"kf\": \"") + kFooterHex + "\", \"kc1\": \"" +
                             kDoubleHex + "\", \"kc2\": \"" + kFloatHex + "\"}}",
                         ".json");
  CliResult scan = RunCli({"scan", path, "--select", "float_field", "--format", "csv", "--keys",
                           keys.path(), "--limit", "3"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(testing::Lines(scan.out).size(), 4u) << scan.out;
  testing::TempFile bad("{\"footer_key\": \"not a key\"}", ".json");
  CliResult refused = RunCli({"scan", path, "--keys", bad.path()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  testing::ExpectOneErrorLine(refused, "footer_key: not an AES key");
  EXPECT_EQ(refused.err.find("not a key\""), std::string::npos);
}

TEST(EncryptionCliTest, MissingAndWrongKeysAreOneErrorLine) {
  std::string path = File("encrypt_columns_and_footer.parquet.encrypted");
  if (path.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  CliResult no_footer = RunCli({"scan", path});
  EXPECT_EQ(no_footer.exit_code, 2);
  testing::ExpectOneErrorLine(no_footer, "the footer is encrypted (PARE) and no footer key");
  CliResult no_column =
      RunCli({"scan", path, "--select", "double_field", "--footer-key", kFooterHex});
  EXPECT_EQ(no_column.exit_code, 2);
  testing::ExpectOneErrorLine(no_column, "column 'double_field': the column is encrypted");
  CliResult wrong = RunCli({"scan", path, "--select", "double_field", "--footer-key", kFooterHex,
                            "--column-key", std::string("double_field:") + kFloatHex});
  EXPECT_EQ(wrong.exit_code, 1);
  testing::ExpectOneErrorLine(wrong, "authentication failed");
  ExpectNoKeys(wrong);
  CliResult prefix = RunCli(With({"count", path, "--aad-prefix", "tester"}, KeyFlags()));
  EXPECT_EQ(prefix.exit_code, 1);
  testing::ExpectOneErrorLine(prefix, "footer: authentication failed");
  CliResult malformed = RunCli({"scan", path, "--footer-key", "0011"});
  EXPECT_EQ(malformed.exit_code, 2);
  testing::ExpectOneErrorLine(malformed, "--footer-key: not an AES key");
  EXPECT_EQ(malformed.err.find("0011"), std::string::npos);
}

TEST(EncryptionCliTest, InspectAnEncryptedFooter) {
  std::string path = File("encrypt_columns_and_footer.parquet.encrypted");
  if (path.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  CliResult without = RunCli({"inspect", path});
  EXPECT_EQ(without.exit_code, 2);
  CliResult with = RunCli(With({"inspect", "--json", path}, KeyFlags()));
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("\"double_field\""), std::string::npos);
  ExpectNoKeys(with);
}

// convert's encryption flags: every combination of footer mode, algorithm and AAD prefix reads
// back the same rows with the read side's flags (or a key file by key metadata); a key is never
// in the file, the output or an error.
TEST(EncryptionCliTest, ConvertEncryptsAndScanReadsBack) {
  testing::TempFile csv(
      "id,name,value\n" +
          [] {
            std::string rows;
            for (int i = 0; i < 3000; ++i) {
              rows += std::to_string(i) + ",n" + std::to_string(i % 37) + "," +
                      std::to_string(i * 0.5) + "\n";
            }
            return rows;
          }(),
      ".csv");
  const std::string footer = "000102030405060708090a0b0c0d0e0f";
  const std::string name_key = "EBESExQVFhcYGRobHB0eHw==";  // base64 of 0x10..0x1f
  testing::TempFile plain_file("");
  ASSERT_EQ(RunCli({"convert", csv.path(), plain_file.path(), "--input-format", "csv",
                    "--row-group-rows", "1000"})
                .exit_code,
            0);
  CliResult expected =
      RunCli({"scan", plain_file.path(), "--where", "id BETWEEN 1500 AND 1510", "--format", "csv"});
  ASSERT_EQ(expected.exit_code, 0) << expected.err;
  ASSERT_EQ(testing::Lines(expected.out).size(), 12u);
  int files = 0;
  for (bool plaintext_footer : {false, true}) {
    for (bool ctr : {false, true}) {
      for (int aad = 0; aad < 3; ++aad) {
        for (bool key_file : {false, true}) {
          std::vector<std::string> convert = {"convert",
                                              csv.path(),
                                              "",
                                              "--input-format",
                                              "csv",
                                              "--row-group-rows",
                                              "1000",
                                              "--bloom-filter",
                                              "name",
                                              "--encrypt-footer",
                                              footer,
                                              "--encrypt-column",
                                              "name:" + name_key,
                                              "--encrypt-column",
                                              "id"};
          std::vector<std::string> read = {"--footer-key", footer, "--column-key",
                                           "name:" + name_key};
          if (plaintext_footer) convert.push_back("--plaintext-footer");
          if (ctr) convert.push_back("--ctr");
          if (aad > 0) convert.insert(convert.end(), {"--aad-prefix", "t.p1"});
          if (aad == 2) {
            convert.push_back("--no-aad-storage");
            read.insert(read.end(), {"--aad-prefix", "t.p1"});
          }
          testing::TempFile keys(
              "{\"key_ids\": {\"kf\": \"" + footer + "\", \"kn\": \"" + name_key + "\"}" +
                  (aad == 2 ? std::string(", \"aad_prefix\": \"t.p1\"") : "") + "}",
              ".json");
          if (key_file) {
            convert.insert(convert.end(),
                           {"--key-metadata", "footer:kf", "--key-metadata", "name:kn"});
            read = {"--keys", keys.path()};
          }
          testing::TempFile out("");
          convert[2] = out.path();
          CliResult written = RunCli(convert);
          ASSERT_EQ(written.exit_code, 0) << written.err;
          const std::string bytes = testing::Slurp(out.path());
          EXPECT_EQ(bytes.substr(bytes.size() - 4), plaintext_footer ? "PAR1" : "PARE");
          for (const std::string& raw :
               {std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16),
                std::string("\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
                            16)}) {
            EXPECT_EQ(bytes.find(raw), std::string::npos);
          }
          CliResult scan = RunCli(
              With({"scan", out.path(), "--where", "id BETWEEN 1500 AND 1510", "--format", "csv"},
                   read));
          ASSERT_EQ(scan.exit_code, 0) << scan.err;
          EXPECT_EQ(scan.out, expected.out);
          // Without the column key: the other columns read, `name` is an error naming it.
          if (!key_file) {
            std::vector<std::string> footer_only = {"--footer-key", footer};
            if (aad == 2) footer_only.insert(footer_only.end(), {"--aad-prefix", "t.p1"});
            CliResult ids = RunCli(With(
                {"scan", out.path(), "--select", "id,value", "--format", "none"}, footer_only));
            EXPECT_EQ(ids.exit_code, 0) << ids.err;
            CliResult names = RunCli(With({"scan", out.path(), "--select", "name"}, footer_only));
            testing::ExpectOneErrorLine(names, "name");
            EXPECT_EQ(names.err.find(footer), std::string::npos) << names.err;
          }
          ++files;
        }
      }
    }
  }
  EXPECT_EQ(files, 24);
  // Flags without the footer key, a bad key, metadata for a key not given: one error line.
  testing::TempFile out("");
  testing::ExpectOneErrorLine(RunCli({"convert", csv.path(), out.path(), "--ctr"}),
                              "--encrypt-footer");
  testing::ExpectOneErrorLine(
      RunCli({"convert", csv.path(), out.path(), "--encrypt-footer", "0011"}), "--encrypt-footer");
  testing::ExpectOneErrorLine(
      RunCli({"convert", csv.path(), out.path(), "--encrypt-footer", footer, "--aad-prefix", "p",
              "--no-aad-storage", "--key-metadata", "name:kn"}),
      "--key-metadata");
  testing::ExpectOneErrorLine(RunCli({"convert", csv.path(), out.path(), "--encrypt-footer", footer,
                                      "--encrypt-column", "nope:" + name_key}),
                              "nope");
}

}  // namespace
}  // namespace pqsift
