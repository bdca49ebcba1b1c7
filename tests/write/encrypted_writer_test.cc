// Files ParquetWriter writes with Parquet modular encryption (WriterOptions::encryption): every
// combination of footer mode, column keys, algorithm, AAD prefix and key metadata reads back
// equal to the plaintext file, and its pruning (every stage, bloom filters and dictionaries
// included) decides the same as on the plaintext file; wrong keys, a missing column key and a
// changed byte in each module type fail with the right error naming the module; no key byte is
// in the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "arrow/test_arrays.h"
#include "pqsift/encryption.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

using testing::Opt;

const std::string kFooterKey = "0123456789012345";                 // AES-128
const std::string kNameKey = "abcdefghijklmnopqrstuvwx";           // AES-192
const std::string kValueKey = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";  // AES-256

constexpr int64_t kRows = 30000;

// id: ascending; name: 100 distinct strings (dictionary pages); value: doubles; opt: int32
// with runs of nulls.
std::shared_ptr<RecordBatch> MakeRows() {
  std::vector<Opt<int64_t>> id;
  std::vector<Opt<std::string>> name;
  std::vector<Opt<double>> value;
  std::vector<Opt<int32_t>> opt;
  for (int64_t i = 0; i < kRows; ++i) {
    id.push_back(i * 3);
    name.push_back("n" + std::to_string((i * 7919) % 100));
    value.push_back(static_cast<double>((i * 104729) % 10007) / 10007.0);
    if ((i / 2500) % 2 == 1) {
      opt.push_back(std::nullopt);
    } else {
      opt.push_back(static_cast<int32_t>(i % 1000));
    }
  }
  return testing::MakeBatch({{"id", testing::MakeFixed<int64_t>(Int64(), id)},
                             {"name", testing::MakeStrings(name)},
                             {"value", testing::MakeFixed<double>(Float64(), value)},
                             {"opt", testing::MakeFixed<int32_t>(Int32(), opt)}});
}

WriterOptions BaseOptions() {
  WriterOptions o;
  o.row_group_rows = 10000;
  o.page_rows = 1000;
  o.bloom_filters["name"] = {};
  o.bloom_filters["id"] = {};
  return o;
}

enum class Columns { kUniform, kOwnKeys };
enum class Aad { kNone, kStored, kSupplied };

struct Config {
  bool plaintext_footer = false;
  Columns columns = Columns::kUniform;
  bool ctr = false;
  Aad aad = Aad::kNone;
  bool key_metadata = false;  // keys found by a retriever from the stored key metadata

  std::string Name() const {
    return std::string(plaintext_footer ? "plaintext-footer" : "encrypted-footer") +
           (columns == Columns::kUniform ? "/uniform" : "/own-keys") + (ctr ? "/ctr" : "/gcm") +
           (aad == Aad::kNone     ? ""
            : aad == Aad::kStored ? "/aad-stored"
                                  : "/aad-supplied") +
           (key_metadata ? "/key-metadata" : "");
  }
};

std::shared_ptr<EncryptionOptions> Encryption(const Config& c) {
  auto e = std::make_shared<EncryptionOptions>();
  e->footer_key = kFooterKey;
  e->plaintext_footer = c.plaintext_footer;
  e->ctr = c.ctr;
  if (c.aad != Aad::kNone) e->aad_prefix = "table.part7";
  e->store_aad_prefix = c.aad != Aad::kSupplied;
  if (c.key_metadata) e->footer_key_metadata = "kf";
  if (c.columns == Columns::kOwnKeys) {
    // name and value under their own keys, id under the footer key, opt plaintext.
    e->columns["name"] = {kNameKey, c.key_metadata ? "kn" : ""};
    e->columns["value"] = {kValueKey, c.key_metadata ? "kv" : ""};
    e->columns["id"] = {};
  }
  return e;
}

std::shared_ptr<DecryptionOptions> Decryption(const Config& c) {
  auto d = std::make_shared<DecryptionOptions>();
  if (c.aad == Aad::kSupplied) d->aad_prefix = "table.part7";
  if (c.key_metadata) {
    std::map<std::string, std::string> by_id = {
        {"kf", kFooterKey}, {"kn", kNameKey}, {"kv", kValueKey}};
    d->key_retriever = [by_id](std::string_view id) -> Result<std::string> {
      auto it = by_id.find(std::string(id));
      if (it == by_id.end()) return Status::InvalidArgument("no key");
      return it->second;
    };
    return d;
  }
  d->footer_key = kFooterKey;
  if (c.columns == Columns::kOwnKeys) {
    d->column_keys["name"] = kNameKey;
    d->column_keys["value"] = kValueKey;
  }
  return d;
}

std::vector<uint8_t> WriteFile(const RecordBatch& batch, const WriterOptions& options) {
  std::vector<uint8_t> bytes;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("enc.parquet", &bytes), batch.schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return bytes;
  for (int64_t at = 0; at < batch.num_rows; at += 7000) {
    RecordBatch part;
    part.schema = batch.schema;
    part.num_rows = std::min<int64_t>(7000, batch.num_rows - at);
    for (const auto& c : batch.columns) part.columns.push_back(*Slice(*c, at, part.num_rows));
    Status st = (*writer)->Write(part);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return bytes;
}

struct Scanned {
  Status status;
  testing::ScannedBatches batches;
};

// Opens `bytes` with `keys` and scans it; the first error met (opening or scanning).
Scanned Scan(const std::vector<uint8_t>& bytes, std::shared_ptr<const DecryptionOptions> keys,
             ScanOptions options) {
  Scanned out;
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("enc.parquet", bytes);
  OpenOptions open;
  open.decryption = std::move(keys);
  // Only the footer at open: a tail read holds more pages of a smaller (plaintext) file, which
  // changes how many the scan fetches, not what it reads.
  open.tail_bytes = 8;
  auto md = ReadParquetMetadata(*file, open);
  if (!md.ok()) {
    out.status = md.status();
    return out;
  }
  options.threads = 1;
  auto scanner = Scanner::Open({file}, {*md}, options);
  if (!scanner.ok()) {
    out.status = scanner.status();
    return out;
  }
  for (;;) {
    auto batch = (*scanner)->Next();
    if (!batch.ok()) {
      out.status = batch.status();
      return out;
    }
    if (*batch == nullptr) break;
    out.batches.batches.push_back(*batch);
  }
  out.batches.stats = (*scanner)->stats();
  return out;
}

const char* const kFilters[] = {
    "",
    "id BETWEEN 12345 AND 12400",
    "name = 'n17'",
    "name = 'n5x'",  // inside every page's bounds, in no dictionary: pruned by dictionaries
    "name IN ('n3x', 'n71x')",
    "value > 0.999 AND id < 6000",
    "opt IS NULL",
    "opt = 999 OR name = 'n1'",
};

// The plan's decisions: what each stage pruned, and the pages read.
void ExpectSamePlan(const ScanStats& got, const ScanStats& want, const std::string& what) {
  EXPECT_EQ(got.row_groups_skipped, want.row_groups_skipped) << what;
  EXPECT_EQ(got.row_groups_fully_matched, want.row_groups_fully_matched) << what;
  EXPECT_EQ(got.pages_total, want.pages_total) << what;
  EXPECT_EQ(got.pages_read, want.pages_read) << what;
  EXPECT_EQ(got.pages_not_fetched, want.pages_not_fetched) << what;
  EXPECT_EQ(got.rows_decoded, want.rows_decoded) << what;
  ASSERT_EQ(got.stages.size(), want.stages.size()) << what;
  for (size_t s = 0; s < got.stages.size(); ++s) {
    EXPECT_EQ(got.stages[s].stage, want.stages[s].stage) << what;
    EXPECT_EQ(got.stages[s].row_groups_skipped, want.stages[s].row_groups_skipped)
        << what << " " << got.stages[s].stage;
    EXPECT_EQ(got.stages[s].rows_pruned, want.stages[s].rows_pruned)
        << what << " " << got.stages[s].stage;
  }
}

bool Contains(const std::vector<uint8_t>& bytes, const std::string& needle) {
  return std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end()) != bytes.end();
}

TEST(EncryptedWriter, EveryOptionCombinationReadsBackAndPrunesAsThePlaintextFile) {
  auto batch = MakeRows();
  const std::vector<uint8_t> plain = WriteFile(*batch, BaseOptions());
  std::vector<Scanned> expected;
  for (const char* filter : kFilters) {
    ScanOptions o;
    o.filter = filter;
    expected.push_back(Scan(plain, nullptr, o));
    ASSERT_TRUE(expected.back().status.ok()) << expected.back().status.ToString();
  }
  // The filters do prune the plaintext file (or the comparison proves little).
  EXPECT_GT(expected[1].batches.stats.row_groups_skipped, 0u);
  EXPECT_GT(expected[3].batches.stats.row_groups_skipped, 0u);
  int files = 0;
  for (bool plaintext_footer : {false, true}) {
    for (Columns columns : {Columns::kUniform, Columns::kOwnKeys}) {
      for (bool ctr : {false, true}) {
        for (Aad aad : {Aad::kNone, Aad::kStored, Aad::kSupplied}) {
          for (bool key_metadata : {false, true}) {
            Config c{plaintext_footer, columns, ctr, aad, key_metadata};
            WriterOptions options = BaseOptions();
            options.encryption = Encryption(c);
            const std::vector<uint8_t> bytes = WriteFile(*batch, options);
            ++files;
            const std::string magic(bytes.end() - 4, bytes.end());
            EXPECT_EQ(magic, plaintext_footer ? "PAR1" : "PARE") << c.Name();
            EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), magic) << c.Name();
            for (const std::string& key : {kFooterKey, kNameKey, kValueKey}) {
              EXPECT_FALSE(Contains(bytes, key)) << c.Name();
            }
            EXPECT_EQ(Contains(bytes, "table.part7"), aad == Aad::kStored) << c.Name();
            for (size_t f = 0; f < std::size(kFilters); ++f) {
              ScanOptions o;
              o.filter = kFilters[f];
              Scanned got = Scan(bytes, Decryption(c), o);
              const std::string what = c.Name() + " where " + kFilters[f];
              ASSERT_TRUE(got.status.ok()) << what << ": " << got.status.ToString();
              testing::ExpectSameRows(got.batches, expected[f].batches);
              ExpectSamePlan(got.batches.stats, expected[f].batches.stats, what);
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(files, 48);
}

// The footer's statistics and the modules of a plaintext footer: older readers find every
// chunk, but no statistics of an encrypted column; the file records each column's key.
TEST(EncryptedWriter, PlaintextFooterHidesTheStatisticsOfEncryptedColumns) {
  auto batch = MakeRows();
  Config c{true, Columns::kOwnKeys, false, Aad::kNone, true};
  WriterOptions options = BaseOptions();
  options.encryption = Encryption(c);
  const std::vector<uint8_t> bytes = WriteFile(*batch, options);
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("enc.parquet", bytes);
  auto legacy = ReadParquetMetadata(*file);  // no keys: the plaintext footer opens
  ASSERT_TRUE(legacy.ok()) << legacy.status().ToString();
  const FileMetaData& m = (*legacy)->file();
  ASSERT_TRUE(m.encryption_algorithm.has_value());
  EXPECT_EQ(m.encryption_algorithm->kind, EncryptionAlgorithm::Kind::kAesGcmV1);
  EXPECT_EQ(m.footer_signing_key_metadata.value_or(""), "kf");
  for (const RowGroup& rg : m.row_groups) {
    ASSERT_EQ(rg.columns.size(), 4u);
    for (size_t c2 = 0; c2 < 4; ++c2) {
      const ColumnChunk& chunk = rg.columns[c2];
      ASSERT_TRUE(chunk.meta_data.has_value());
      EXPECT_EQ(chunk.is_encrypted, c2 != 3) << c2;
      if (c2 == 3) {
        EXPECT_TRUE(chunk.meta_data->statistics.has_value());
        continue;
      }
      EXPECT_FALSE(chunk.meta_data->statistics.has_value()) << c2;
      EXPECT_TRUE(chunk.encrypted_column_metadata.has_value()) << c2;
      ASSERT_TRUE(chunk.crypto_metadata.has_value());
      EXPECT_EQ(chunk.crypto_metadata->with_footer_key, c2 == 0) << c2;
      if (c2 == 1) {
        ASSERT_EQ(chunk.crypto_metadata->path_in_schema.size(), 1u);
        EXPECT_EQ(chunk.crypto_metadata->path_in_schema[0], "name");
        EXPECT_EQ(chunk.crypto_metadata->key_metadata.value_or(""), "kn");
      }
    }
  }
  // The plaintext column reads without keys; an encrypted one names its column.
  ScanOptions o;
  o.columns = {"opt"};
  EXPECT_TRUE(Scan(bytes, nullptr, o).status.ok());
  o.columns = {"name"};
  Status st = Scan(bytes, nullptr, o).status;
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("name"), std::string::npos) << st.ToString();
}

TEST(EncryptedWriter, WrongAndMissingKeysFailWithTheRightError) {
  auto batch = MakeRows();
  for (bool plaintext_footer : {false, true}) {
    Config c{plaintext_footer, Columns::kOwnKeys, false, Aad::kStored, false};
    WriterOptions options = BaseOptions();
    options.encryption = Encryption(c);
    const std::vector<uint8_t> bytes = WriteFile(*batch, options);
    const std::string mode = plaintext_footer ? "plaintext footer" : "encrypted footer";
    // A wrong footer key: the footer (or its signature) fails authentication.
    auto keys = Decryption(c);
    keys->footer_key = "0123456789012346";
    Status st = Scan(bytes, keys, {}).status;
    EXPECT_EQ(st.code(), StatusCode::kAuthentication) << mode << ": " << st.ToString();
    EXPECT_NE(st.message().find("footer"), std::string::npos) << st.ToString();
    // A wrong column key: its metadata fails authentication, naming the column.
    keys = Decryption(c);
    keys->column_keys["name"] = std::string(24, 'z');
    ScanOptions o;
    o.columns = {"name"};
    st = Scan(bytes, keys, o).status;
    EXPECT_EQ(st.code(), StatusCode::kAuthentication) << mode << ": " << st.ToString();
    EXPECT_NE(st.message().find("column metadata"), std::string::npos) << st.ToString();
    // A missing column key: the column is an error naming it; the others read.
    keys = Decryption(c);
    keys->column_keys.erase("value");
    o.columns = {"value"};
    st = Scan(bytes, keys, o).status;
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << mode << ": " << st.ToString();
    EXPECT_NE(st.message().find("value"), std::string::npos) << st.ToString();
    o.columns = {"id", "name", "opt"};
    o.filter = "name = 'n17'";
    Scanned rest = Scan(bytes, keys, o);
    EXPECT_TRUE(rest.status.ok()) << rest.status.ToString();
    EXPECT_EQ(rest.batches.rows(), kRows / 100);
    // A wrong AAD prefix is not the file expected.
    keys = Decryption(c);
    keys->aad_prefix = "table.part8";
    st = Scan(bytes, keys, {}).status;
    EXPECT_EQ(st.code(), StatusCode::kAuthentication) << mode << ": " << st.ToString();
    for (const std::string& key : {kFooterKey, kNameKey, kValueKey, std::string(24, 'z')}) {
      EXPECT_EQ(st.ToString().find(key), std::string::npos);
    }
  }
  // A withheld AAD prefix must be supplied.
  Config c{false, Columns::kUniform, false, Aad::kSupplied, false};
  WriterOptions options = BaseOptions();
  options.encryption = Encryption(c);
  const std::vector<uint8_t> bytes = WriteFile(*batch, options);
  auto keys = Decryption(c);
  keys->aad_prefix.reset();
  Status st = Scan(bytes, keys, {}).status;
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("AAD prefix"), std::string::npos) << st.ToString();
}

// The 4-byte length of the module at `pos`, plus 4.
size_t ModuleSizeAt(const std::vector<uint8_t>& bytes, size_t pos) {
  return 4 + (static_cast<size_t>(bytes[pos]) | static_cast<size_t>(bytes[pos + 1]) << 8 |
              static_cast<size_t>(bytes[pos + 2]) << 16 |
              static_cast<size_t>(bytes[pos + 3]) << 24);
}

// A changed byte (in the tag) of each module of an encrypted column fails authentication,
// naming the module, when a scan needs that module.
TEST(EncryptedWriter, AChangedByteInEachModuleTypeFailsAuthentication) {
  auto batch = MakeRows();
  for (bool plaintext_footer : {false, true}) {
    Config c{plaintext_footer, Columns::kOwnKeys, false, Aad::kNone, false};
    WriterOptions options = BaseOptions();
    options.encryption = Encryption(c);
    const std::vector<uint8_t> bytes = WriteFile(*batch, options);
    std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("enc.parquet", bytes);
    OpenOptions open;
    open.decryption = Decryption(c);
    auto md = ReadParquetMetadata(*file, open);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    const ColumnChunk& chunk = (*md)->file().row_groups[1].columns[1];  // name, row group 1
    const ColumnMetaData& meta = *chunk.meta_data;
    ASSERT_TRUE(meta.dictionary_page_offset.has_value());
    const auto dict = static_cast<size_t>(*meta.dictionary_page_offset);
    const auto data = static_cast<size_t>(meta.data_page_offset);
    const auto bloom = static_cast<size_t>(*meta.bloom_filter_offset);
    struct Target {
      std::string module;
      size_t pos;  // where the module starts
      std::string filter;
      bool no_dictionary_pruning = false;
    };
    std::vector<Target> targets = {
        // (The first page's header is tried as a dictionary page header, then as data page
        // header 0: a chunk's first page may be either.)
        {"dictionary page header", dict, ""},
        {"dictionary page of", dict + ModuleSizeAt(bytes, dict), ""},
        {"data page header 0", data, ""},
        {"data page 0", data + ModuleSizeAt(bytes, data), ""},
        {"column index", static_cast<size_t>(*chunk.column_index_offset), "name = 'n17'"},
        {"offset index", static_cast<size_t>(*chunk.offset_index_offset), "name = 'n17'"},
        {"bloom filter header", bloom, "name = 'n5x'", true},
        {"bloom filter bitset", bloom + ModuleSizeAt(bytes, bloom), "name = 'n5x'", true},
    };
    for (const Target& t : targets) {
      std::vector<uint8_t> changed = bytes;
      changed[t.pos + ModuleSizeAt(bytes, t.pos) - 1] ^= 1;  // the tag's last byte
      ScanOptions o;
      o.columns = {"name"};
      o.filter = t.filter;
      o.pruning.dictionary = !t.no_dictionary_pruning;
      Status st = Scan(changed, Decryption(c), o).status;
      EXPECT_EQ(st.code(), StatusCode::kAuthentication) << t.module << ": " << st.ToString();
      EXPECT_NE(st.message().find(t.module), std::string::npos) << st.ToString();
      EXPECT_NE(st.message().find("row group 1, column 1"), std::string::npos) << st.ToString();
    }
    // The column's metadata (a plaintext footer shows it) and the footer itself.
    std::vector<uint8_t> changed = bytes;
    if (plaintext_footer) {
      ASSERT_TRUE(chunk.encrypted_column_metadata.has_value());
      std::string_view text = *chunk.encrypted_column_metadata;
      std::span<const uint8_t> module(reinterpret_cast<const uint8_t*>(text.data()), text.size());
      auto at = std::search(changed.begin(), changed.end(), module.begin(), module.end());
      ASSERT_NE(at, changed.end());
      at[static_cast<ptrdiff_t>(module.size()) - 1] ^= 1;
      ScanOptions o;
      o.columns = {"name"};
      Status st = Scan(changed, Decryption(c), o).status;
      EXPECT_EQ(st.code(), StatusCode::kAuthentication) << st.ToString();
      // (Changing the footer's bytes fails its signature first.)
      EXPECT_NE(st.message().find("footer"), std::string::npos) << st.ToString();
      auto keys = Decryption(c);
      keys->check_footer_signature = false;
      st = Scan(changed, keys, o).status;
      EXPECT_EQ(st.code(), StatusCode::kAuthentication) << st.ToString();
      EXPECT_NE(st.message().find("column metadata"), std::string::npos) << st.ToString();
    } else {
      changed[changed.size() - 9] ^= 1;  // the footer module's tag
      Status st = Scan(changed, Decryption(c), {}).status;
      EXPECT_EQ(st.code(), StatusCode::kAuthentication) << st.ToString();
      EXPECT_NE(st.message().find("footer"), std::string::npos) << st.ToString();
    }
  }
}

TEST(EncryptedWriter, OptionsAreChecked) {
  auto batch = MakeRows();
  auto open = [&](const EncryptionOptions& e) {
    WriterOptions o = BaseOptions();
    o.encryption = std::make_shared<EncryptionOptions>(e);
    std::vector<uint8_t> bytes;
    return ParquetWriter::Open(MakeMemoryWritableFile("x", &bytes), batch->schema, o).status();
  };
  EncryptionOptions e;
  e.footer_key = "short";
  Status st = open(e);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message().find("short"), std::string::npos) << st.ToString();
  e.footer_key = kFooterKey;
  e.columns["nope"] = {kNameKey, ""};
  EXPECT_EQ(open(e).code(), StatusCode::kInvalidArgument);
  e.columns.clear();
  e.columns["name"] = {"0123456789", ""};
  EXPECT_EQ(open(e).code(), StatusCode::kInvalidArgument);
  e.columns.clear();
  e.store_aad_prefix = false;
  EXPECT_EQ(open(e).code(), StatusCode::kInvalidArgument);
  e.aad_prefix = "p";
  EXPECT_TRUE(open(e).ok());
}

}  // namespace
}  // namespace pqsift
