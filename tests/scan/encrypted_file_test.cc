// Reading parquet-testing's files written with Parquet modular encryption by parquet-java, with
// the keys of that folder's README: encrypted footer (PARE) and plaintext footer (signed),
// columns under their own keys or the footer key; missing keys, wrong keys, a wrong AAD prefix
// and a changed byte in each kind of module fail with the right error, naming the column or
// the module, and never show a key.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/output/batch_writer.h"
#include "format/page_index_store.h"
#include "pqsift/scan.h"
#include "testing/files.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

constexpr const char* kFooterKey = "0123456789012345";
constexpr const char* kDoubleKey = "1234567890123450";  // double_field, key id "kc1"
constexpr const char* kFloatKey = "1234567890123451";   // float_field, key id "kc2"

constexpr const char* kEncryptedFooter = "encrypt_columns_and_footer.parquet.encrypted";
constexpr const char* kPlaintextFooter = "encrypt_columns_plaintext_footer.parquet.encrypted";
constexpr const char* kUniform = "uniform_encryption.parquet.encrypted";

std::shared_ptr<DecryptionOptions> Keys() {
  auto keys = std::make_shared<DecryptionOptions>();
  keys->footer_key = kFooterKey;
  keys->column_keys["double_field"] = kDoubleKey;
  keys->column_keys["float_field"] = kFloatKey;
  return keys;
}

// The rows of `columns` (all when empty) as CSV text.
Result<std::string> ScanCsv(const std::string& path, std::shared_ptr<const DecryptionOptions> keys,
                            const std::vector<std::string>& columns = {},
                            const std::string& filter = "") {
  ScanOptions options;
  options.columns = columns;
  options.filter = filter;
  options.open.decryption = std::move(keys);
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({path}, options));
  std::ostringstream out;
  PQSIFT_ASSIGN_OR_RETURN(auto writer, cli::MakeBatchWriter(cli::OutputFormat::kCsv, out, {}));
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (batch == nullptr) break;
    PQSIFT_RETURN_IF_ERROR(writer->Write(*batch));
  }
  PQSIFT_RETURN_IF_ERROR(writer->Finish());
  return out.str();
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void ExpectNoKeyIn(const std::string& message) {
  for (const char* key : {kFooterKey, kDoubleKey, kFloatKey}) {
    EXPECT_EQ(message.find(key), std::string::npos) << message;
  }
}

TEST(EncryptedFile, EveryFileReadsTheSameRowsWithItsKeys) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  std::string expected;
  for (const char* name : {kEncryptedFooter, kPlaintextFooter, kUniform}) {
    Result<std::string> csv = ScanCsv(dir + name, Keys());
    ASSERT_TRUE(csv.ok()) << name << ": " << csv.status().ToString();
    std::vector<std::string> lines = Lines(*csv);
    ASSERT_EQ(lines.size(), 51u) << name;  // header + 50 rows
    EXPECT_EQ(lines[0],
              "boolean_field,int32_field,int64_field,int96_field,float_field,double_field,ba_field,"
              "flba_field")
        << name;
    if (expected.empty()) {
      expected = *csv;
    } else {
      EXPECT_EQ(*csv, expected) << name;
    }
  }
}

// data/aes256: AES-256 keys, every column under its own key (a list's element too).
TEST(EncryptedFile, Aes256FilesWithEveryColumnUnderItsOwnKey) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  Result<std::string> expected = ScanCsv(dir + kEncryptedFooter, Keys());
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  const std::string column_key = "123456789012345678901234567890";  // + 2 digits per column
  auto keys = std::make_shared<DecryptionOptions>();
  keys->footer_key = "01234567890123456789012345678901";
  const std::pair<const char*, const char*> columns[] = {{"double_field", "12"},
                                                         {"float_field", "13"},
                                                         {"boolean_field", "14"},
                                                         {"int32_field", "15"},
                                                         {"ba_field", "16"},
                                                         {"flba_field", "17"},
                                                         {"int64_field.list.element", "18"},
                                                         {"int96_field", "19"}};
  for (const auto& [path, suffix] : columns) keys->column_keys[path] = column_key + suffix;
  for (const char* name :
       {"encrypt_columns_and_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted"}) {
    std::string path = dir + "aes256/" + name;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
    Result<std::string> csv = ScanCsv(path, keys);
    ASSERT_TRUE(csv.ok()) << name << ": " << csv.status().ToString();
    EXPECT_EQ(*csv, *expected) << name;
  }
}

// The values parquet-java's encryption tests write (Arrow C++'s test-encryption-util checks
// the same): row i has int32 i (a TIME in milliseconds), float i * 1.1, double i * 1.1111111,
// boolean i even.
TEST(EncryptedFile, TheValuesAreTheOnesWritten) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kEncryptedFooter);
  Result<std::string> csv =
      ScanCsv(path, Keys(), {"boolean_field", "int32_field", "float_field", "double_field"});
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  std::vector<std::string> lines = Lines(*csv);
  ASSERT_EQ(lines.size(), 51u);
  for (int i = 0; i < 50; ++i) {
    std::istringstream row(lines[i + 1]);
    std::string b, i32, f, d;
    std::getline(row, b, ',');
    std::getline(row, i32, ',');
    std::getline(row, f, ',');
    std::getline(row, d, ',');
    EXPECT_EQ(b, i % 2 == 0 ? "true" : "false") << i;
    char time[32];
    std::snprintf(time, sizeof(time), "00:00:00.%03d", i);
    std::string expected = time;  // the fraction without trailing zeros
    while (expected.back() == '0') expected.pop_back();
    if (expected.back() == '.') expected.pop_back();
    EXPECT_EQ(i32, expected);
    EXPECT_FLOAT_EQ(std::stof(f), static_cast<float>(i) * 1.1f) << i;
    EXPECT_DOUBLE_EQ(std::stod(d), i * 1.1111111) << i;
  }
}

TEST(EncryptedFile, AKeyRetrieverFindsKeysByTheirMetadata) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  auto keys = std::make_shared<DecryptionOptions>();
  std::vector<std::string> asked;
  keys->key_retriever = [&asked](std::string_view id) -> Result<std::string> {
    asked.emplace_back(id);
    if (id == "kf") return std::string(kFooterKey);
    if (id == "kc1") return std::string(kDoubleKey);
    if (id == "kc2") return std::string(kFloatKey);
    return Status::InvalidArgument("unknown key id");
  };
  Result<std::string> expected = ScanCsv(dir + kEncryptedFooter, Keys());
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  for (const char* name : {kEncryptedFooter, kPlaintextFooter}) {
    asked.clear();
    Result<std::string> csv = ScanCsv(dir + name, keys);
    ASSERT_TRUE(csv.ok()) << name << ": " << csv.status().ToString();
    EXPECT_EQ(*csv, *expected) << name;
    // Once per key, not once per chunk (float_field comes before double_field).
    EXPECT_EQ(asked, (std::vector<std::string>{"kf", "kc2", "kc1"})) << name;
  }
}

TEST(EncryptedFile, PlaintextColumnsReadWithoutKeys) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  std::vector<std::string> plain = {"boolean_field", "int32_field", "ba_field",
                                    "flba_field",    "int64_field", "int96_field"};
  Result<std::string> with = ScanCsv(dir + kEncryptedFooter, Keys(), plain);
  ASSERT_TRUE(with.ok()) << with.status().ToString();
  Result<std::string> without = ScanCsv(dir + kPlaintextFooter, nullptr, plain);
  ASSERT_TRUE(without.ok()) << without.status().ToString();
  EXPECT_EQ(*without, *with);
  // Only the footer key: the columns under their own keys are not read, so not needed.
  auto footer_only = std::make_shared<DecryptionOptions>();
  footer_only->footer_key = kFooterKey;
  Result<std::string> footer = ScanCsv(dir + kEncryptedFooter, footer_only, plain);
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  EXPECT_EQ(*footer, *with);
}

TEST(EncryptedFile, AMissingKeyNamesTheFileOrTheColumn) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  // No footer key for an encrypted footer.
  Result<std::string> none = ScanCsv(dir + kEncryptedFooter, nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(none.status().message().find(dir + kEncryptedFooter + ": the footer is encrypted"),
            std::string::npos)
      << none.status().ToString();
  // No key for a column that is read.
  auto footer_only = std::make_shared<DecryptionOptions>();
  footer_only->footer_key = kFooterKey;
  for (const char* name : {kEncryptedFooter, kPlaintextFooter}) {
    Result<std::string> csv = ScanCsv(dir + name, footer_only, {"int32_field", "double_field"});
    ASSERT_FALSE(csv.ok()) << name;
    EXPECT_EQ(csv.status().code(), StatusCode::kInvalidArgument) << csv.status().ToString();
    EXPECT_NE(
        csv.status().message().find(
            "column 'double_field': the column is encrypted (Parquet modular encryption) with "
            "a column key that was not given (--column-key double_field:KEY or --keys)"),
        std::string::npos)
        << csv.status().ToString();
  }
  // Plaintext footer, no key at all: the encrypted column says it needs its key.
  Result<std::string> csv = ScanCsv(dir + kPlaintextFooter, nullptr, {"float_field"});
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(csv.status().message().find("row group 0, column 'float_field'"), std::string::npos)
      << csv.status().ToString();
}

TEST(EncryptedFile, WrongKeysAndAadPrefixFailAuthentication) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  struct Case {
    const char* file;
    std::function<void(DecryptionOptions&)> change;
    const char* module;
  };
  std::vector<Case> cases = {
      {kEncryptedFooter, [](DecryptionOptions& k) { k.footer_key = kDoubleKey; }, "footer"},
      {kPlaintextFooter, [](DecryptionOptions& k) { k.footer_key = kDoubleKey; },
       "footer: signature check failed"},
      {kEncryptedFooter, [](DecryptionOptions& k) { k.column_keys["double_field"] = kFloatKey; },
       "column 'double_field': column metadata of row group 0, column 5"},
      {kPlaintextFooter, [](DecryptionOptions& k) { k.column_keys["float_field"] = kFooterKey; },
       "column 'float_field': column metadata of row group 0, column 4"},
      {kEncryptedFooter, [](DecryptionOptions& k) { k.aad_prefix = "tester"; }, "footer"},
      {kUniform, [](DecryptionOptions& k) { k.footer_key = kFloatKey; }, "footer"},
  };
  for (const Case& c : cases) {
    auto keys = Keys();
    c.change(*keys);
    Result<std::string> csv = ScanCsv(dir + c.file, keys);
    ASSERT_FALSE(csv.ok()) << c.file << " " << c.module;
    EXPECT_EQ(csv.status().code(), StatusCode::kAuthentication) << csv.status().ToString();
    EXPECT_NE(csv.status().message().find(c.module), std::string::npos) << csv.status().ToString();
    ExpectNoKeyIn(csv.status().ToString());
  }
}

uint32_t LoadLE32(const std::string& s, size_t at) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[at])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[at + 1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[at + 2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[at + 3])) << 24;
}

// A changed byte in each module of an encrypted column's chunk: the page headers and the pages
// (GCM: every module authenticated), found by walking the chunk's modules.
TEST(EncryptedFile, AChangedByteInAnyModuleFailsAuthentication) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kEncryptedFooter);
  auto keys = Keys();
  OpenOptions open;
  open.decryption = keys;
  auto file = OpenLocalFile(path);
  ASSERT_TRUE(file.ok());
  auto md = ReadParquetMetadata(**file, open);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  std::vector<uint8_t> raw = testing::ReadFileBytes(path);
  std::string bytes(raw.begin(), raw.end());
  for (const std::string column : {"double_field", "float_field"}) {
    size_t leaf = 0;
    while ((*md)->schema().columns()[leaf].path != column) ++leaf;
    const ColumnMetaData& meta = *(*md)->file().row_groups[0].columns[leaf].meta_data;
    size_t pos = static_cast<size_t>(meta.dictionary_page_offset.value_or(meta.data_page_offset));
    size_t end = pos + static_cast<size_t>(meta.total_compressed_size);
    int modules = 0;
    while (pos < end) {
      // A header module, then the page module (its size: the header's compressed_page_size,
      // which is the module's whole length: found here from the module's own length field).
      for (int part = 0; part < 2 && pos < end; ++part) {
        size_t size = 4 + LoadLE32(bytes, pos);
        ASSERT_LE(pos + size, end) << "module at " << pos;
        std::string changed = bytes;
        changed[pos + size - 1] = static_cast<char>(changed[pos + size - 1] ^ 1);  // in the tag
        testing::TempFile tmp(changed);
        Result<std::string> csv = ScanCsv(tmp.path(), keys, {column});
        ASSERT_FALSE(csv.ok()) << "module at " << pos;
        EXPECT_EQ(csv.status().code(), StatusCode::kAuthentication) << csv.status().ToString();
        EXPECT_NE(csv.status().message().find("column '" + column + "'"), std::string::npos)
            << csv.status().ToString();
        EXPECT_NE(csv.status().message().find(part == 0 ? "page header" : "page "),
                  std::string::npos)
            << csv.status().ToString();
        ExpectNoKeyIn(csv.status().ToString());
        pos += size;
        ++modules;
      }
    }
    EXPECT_GE(modules, 2) << column;
  }
}

// The column and offset indexes of encrypted columns are modules too: decrypted with the
// column's key, absent without it.
TEST(EncryptedFile, PageIndexesDecryptWithTheColumnKey) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  for (const char* name : {kEncryptedFooter, kPlaintextFooter, kUniform}) {
    for (bool with_column_keys : {true, false}) {
      auto keys = Keys();
      if (!with_column_keys) keys->column_keys.clear();
      OpenOptions open;
      open.decryption = keys;
      auto file = OpenLocalFile(dir + name);
      ASSERT_TRUE(file.ok());
      auto md = ReadParquetMetadata(**file, open);
      ASSERT_TRUE(md.ok()) << md.status().ToString();
      format::PageIndexStore store(**file, **md);
      std::vector<format::PageIndexStore::Request> requests;
      for (int32_t leaf = 0; leaf < 8; ++leaf) requests.push_back({0, leaf, true});
      uint64_t bytes_read = 0;
      ASSERT_TRUE(store.Load(requests, &bytes_read).ok());
      for (int32_t leaf : {4, 5}) {  // float_field, double_field: under their own keys
        bool expect = with_column_keys || std::string(name) == kUniform;
        const format::OffsetIndex* offsets = store.offset_index(0, leaf);
        EXPECT_EQ(offsets != nullptr, expect) << name << " " << leaf;
        EXPECT_EQ(store.column_index(0, leaf) != nullptr, expect) << name << " " << leaf;
        if (offsets != nullptr) {
          ASSERT_EQ(offsets->page_locations.size(), 1u);
          EXPECT_EQ(offsets->page_locations[0].first_row_index, 0);
        }
      }
    }
  }
}

TEST(EncryptedFile, ExternalKeyMaterialNeedsItsKeyManagement) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "external_key_material_java.parquet.encrypted");
  // Its keys are wrapped by a KMS (key material in a file beside it): the README's keys are
  // master keys, not the data keys, so the footer does not authenticate, and no key at all is
  // a missing key. Either way an error, never rows.
  Result<std::string> none = ScanCsv(path, nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument) << none.status().ToString();
  Result<std::string> wrong = ScanCsv(path, Keys());
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kAuthentication) << wrong.status().ToString();
}

TEST(EncryptedFile, FiltersPruneOnDecryptedStatistics) {
  PQSIFT_TESTING_FILE_OR_SKIP(dir, "");
  for (const char* name : {kEncryptedFooter, kPlaintextFooter}) {
    Result<std::string> csv =
        ScanCsv(dir + name, Keys(), {"int32_field", "double_field"}, "double_field > 40");
    ASSERT_TRUE(csv.ok()) << name << ": " << csv.status().ToString();
    std::vector<std::string> lines = Lines(*csv);
    // i * 1.1111111 > 40 for i >= 37: 13 rows.
    EXPECT_EQ(lines.size(), 14u) << name;
    if (lines.size() > 1) {
      EXPECT_EQ(lines[1].substr(0, 13), "00:00:00.037,") << name;
    }
    // The statistics come from the decrypted column metadata (a plaintext footer's copy of an
    // encrypted column's metadata has none).
    OpenOptions open;
    open.decryption = Keys();
    auto file = OpenLocalFile(dir + name);
    ASSERT_TRUE(file.ok());
    auto md = ReadParquetMetadata(**file, open);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    const ColumnChunk& chunk = (*md)->file().row_groups[0].columns[5];
    ASSERT_TRUE(chunk.meta_data.has_value());
    EXPECT_TRUE(chunk.meta_data->statistics.has_value()) << name;
  }
}

}  // namespace
}  // namespace pqsift
