// ReadParquetMetadata / DecodeParquetMetadata: the read requests it makes (one for a footer
// inside the speculative tail, two otherwise, never a byte twice), the trailer checks, the
// meaning checks on row groups, and error messages that start with the file name.
#include "pqsift/parquet_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "testing/files.h"
#include "testing/metadata_dump.h"
#include "testing/metadata_encoder.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using testing::EncodeFooter;
using testing::WrapFooter;

// A memory file that records every range DoRead was asked for, and can fail on demand.
class RecordingFile final : public RandomAccessFile {
 public:
  RecordingFile(std::string name, std::string bytes)
      : RandomAccessFile(std::move(name), bytes.size()), bytes_(std::move(bytes)) {}

  std::vector<ByteRange> ranges() const {
    std::lock_guard<std::mutex> lock(mu_);
    return ranges_;
  }
  void FailReads() { fail_ = true; }

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ranges_.push_back({offset, out.size()});
    }
    if (fail_) return Status::IOError(name() + ": cannot read: injected failure");
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return Status::OK();
  }

 private:
  std::string bytes_;
  bool fail_ = false;
  mutable std::mutex mu_;
  mutable std::vector<ByteRange> ranges_;
};

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The sample footer padded with key/value metadata to at least `min_size` bytes.
std::string LargeFooter(size_t min_size, std::vector<std::string>& storage) {
  FileMetaData m = testing::SampleFileMetaData();
  storage.assign(min_size / 1000 + 1, std::string(1000, 'v'));
  for (const std::string& v : storage) m.key_value_metadata.push_back({"pad", v});
  return EncodeFooter(m);
}

TEST(ParquetFileTest, SmallFileIsOneRequestForTheWholeFile) {
  FileMetaData in = testing::SampleFileMetaData();
  std::string footer = EncodeFooter(in);
  std::string bytes = WrapFooter(footer, std::string(300, 'd'));
  RecordingFile file("small.parquet", bytes);
  auto md = ReadParquetMetadata(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(file.stats().read_requests, 1u);
  EXPECT_EQ(file.stats().bytes_read, bytes.size());
  EXPECT_EQ(file.ranges(), (std::vector<ByteRange>{{0, bytes.size()}}));

  const ParquetMetadata& m = **md;
  EXPECT_EQ(m.file_name(), "small.parquet");
  EXPECT_EQ(m.file_size(), bytes.size());
  EXPECT_EQ(m.footer_length(), footer.size());
  EXPECT_EQ(m.num_rows(), 7);
  EXPECT_EQ(m.num_row_groups(), 2u);
  EXPECT_EQ(m.schema().num_columns(), 6u);
  EXPECT_EQ(testing::DumpToString(m.file()), testing::DumpToString(in));
}

TEST(ParquetFileTest, LargeFileReadsOnlyTheDefaultTail) {
  FileMetaData in = testing::SampleFileMetaData();
  std::string footer = EncodeFooter(in);
  std::string bytes = WrapFooter(footer, std::string(200'000, 'd'));
  RecordingFile file("big.parquet", bytes);
  auto md = ReadParquetMetadata(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(file.stats().read_requests, 1u);
  EXPECT_EQ(file.stats().bytes_read, 64u * 1024);
  EXPECT_EQ(file.ranges(), (std::vector<ByteRange>{{bytes.size() - 65536, 65536}}));
}

TEST(ParquetFileTest, FooterLargerThanTheTailTakesExactlyOneMoreRequest) {
  std::vector<std::string> storage;
  std::string footer = LargeFooter(5000, storage);
  std::string bytes = WrapFooter(footer, std::string(1000, 'd'));
  const uint64_t size = bytes.size();
  for (uint64_t tail : {uint64_t{100}, uint64_t{4096}, footer.size() + 7}) {
    SCOPED_TRACE(tail);
    ASSERT_LT(tail, footer.size() + 8);
    RecordingFile file("two.parquet", bytes);
    OpenOptions options;
    options.tail_bytes = tail;
    auto md = ReadParquetMetadata(file, options);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    EXPECT_EQ(file.stats().read_requests, 2u);
    // No byte twice: the tail, then exactly the part of the footer it missed.
    EXPECT_EQ(file.stats().bytes_read, tail + (footer.size() + 8 - tail));
    std::vector<ByteRange> expected = {{size - tail, tail},
                                       {size - 8 - footer.size(), footer.size() + 8 - tail}};
    EXPECT_EQ(file.ranges(), expected);
    // The footer stitched from the two reads is the footer.
    EXPECT_EQ((*md)->footer_length(), footer.size());
    ASSERT_EQ((*md)->file().key_value_metadata.size(), storage.size() + 2);
    EXPECT_EQ((*md)->file().key_value_metadata.back().value, storage.back());
  }
}

TEST(ParquetFileTest, FooterStitchedFromTwoReadsDecodesExactly) {
  std::vector<std::string> storage;
  FileMetaData in = testing::SampleFileMetaData();
  for (int i = 0; i < 20; ++i) storage.push_back(std::string(500, static_cast<char>('a' + i)));
  for (const std::string& v : storage) in.key_value_metadata.push_back({"pad", v});
  std::string footer = EncodeFooter(in);
  std::string bytes = WrapFooter(footer);
  RecordingFile file("stitch.parquet", bytes);
  OpenOptions options;
  options.tail_bytes = 1001;
  auto md = ReadParquetMetadata(file, options);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(file.stats().read_requests, 2u);
  EXPECT_EQ(testing::DumpToString((*md)->file()), testing::DumpToString(in));
}

TEST(ParquetFileTest, TailOfExactlyTheFooterIsOneRequest) {
  std::string footer = EncodeFooter(testing::SampleFileMetaData());
  std::string bytes = WrapFooter(footer, std::string(5000, 'd'));
  RecordingFile file("exact.parquet", bytes);
  OpenOptions options;
  options.tail_bytes = footer.size() + 8;
  ASSERT_TRUE(ReadParquetMetadata(file, options).ok());
  EXPECT_EQ(file.stats().read_requests, 1u);
  EXPECT_EQ(file.stats().bytes_read, footer.size() + 8);
}

TEST(ParquetFileTest, TailSmallerThanTheTrailerIsRaisedToIt) {
  std::string footer = EncodeFooter(testing::OneColumnFileMetaData());
  std::string bytes = WrapFooter(footer, std::string(100, 'd'));
  RecordingFile file("tiny_tail.parquet", bytes);
  OpenOptions options;
  options.tail_bytes = 0;
  ASSERT_TRUE(ReadParquetMetadata(file, options).ok());
  EXPECT_EQ(file.stats().read_requests, 2u);
  EXPECT_EQ(file.stats().bytes_read, footer.size() + 8);
  EXPECT_EQ(file.ranges()[0], (ByteRange{bytes.size() - 8, 8}));
}

TEST(ParquetFileTest, LocalFilesCountTheirReads) {
  auto tiny = OpenLocalFile(testing::TestDataPath("tiny.parquet"));
  ASSERT_TRUE(tiny.ok()) << tiny.status().ToString();
  auto md = ReadParquetMetadata(**tiny);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ((*tiny)->stats().read_requests, 1u);
  EXPECT_EQ((*tiny)->stats().bytes_read, (*tiny)->size());
  EXPECT_EQ((*md)->num_rows(), 3);

  auto events = OpenLocalFile(testing::ExamplePath("events.parquet"));
  ASSERT_TRUE(events.ok()) << events.status().ToString();
  ASSERT_GT((*events)->size(), 65536u);
  ASSERT_TRUE(ReadParquetMetadata(**events).ok());
  EXPECT_EQ((*events)->stats().read_requests, 1u);
  EXPECT_EQ((*events)->stats().bytes_read, 65536u);
}

TEST(ParquetFileTest, MetadataOutlivesTheFileItCameFrom) {
  FileMetaData in = testing::SampleFileMetaData();
  std::shared_ptr<const ParquetMetadata> md;
  {
    std::string bytes = WrapFooter(EncodeFooter(in));
    auto file = testing::MemoryFile("gone.parquet", bytes);
    auto r = ReadParquetMetadata(*file);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    md = *r;
  }
  // Views point into the footer the metadata owns, not into the (destroyed) file or bytes.
  EXPECT_EQ(md->file().created_by, "pqsift tests");
  EXPECT_EQ(md->schema().columns()[3].path, "point.ts");
  EXPECT_EQ(md->schema().columns()[3].path_parts[1], "ts");
  EXPECT_EQ(md->file().row_groups[1].columns[0].file_path, "other.parquet");
}

// ---- the trailer ----

void ExpectOpenError(const std::string& bytes, StatusCode code, const std::string& message,
                     const OpenOptions& options = {}) {
  RecordingFile file("bad.parquet", bytes);
  auto md = ReadParquetMetadata(file, options);
  ASSERT_FALSE(md.ok());
  EXPECT_EQ(md.status().code(), code) << md.status().ToString();
  EXPECT_EQ(md.status().message(), message);
  EXPECT_TRUE(StartsWith(md.status().message(), "bad.parquet: ")) << md.status().message();
}

TEST(ParquetFileTest, FileShorterThanTwelveBytes) {
  for (size_t n : {0, 1, 8, 11}) {
    SCOPED_TRACE(n);
    std::string bytes = std::string("PAR1PAR1PAR1").substr(0, n);
    RecordingFile file("bad.parquet", bytes);
    auto md = ReadParquetMetadata(file);
    EXPECT_EQ(md.status(), Status::Corruption("bad.parquet: not a Parquet file (only " +
                                              std::to_string(n) + " bytes; the smallest has 12)"));
    EXPECT_EQ(file.stats().read_requests, 0u);
  }
}

TEST(ParquetFileTest, MissingTrailingMagic) {
  std::string footer = EncodeFooter(testing::OneColumnFileMetaData());
  ExpectOpenError(WrapFooter(footer, "", "PAR2"), StatusCode::kCorruption,
                  "bad.parquet: not a Parquet file (no PAR1 magic at the end)");
  ExpectOpenError(std::string(100, 'x'), StatusCode::kCorruption,
                  "bad.parquet: not a Parquet file (no PAR1 magic at the end)");
  ExpectOpenError(WrapFooter(footer, "", "par1"), StatusCode::kCorruption,
                  "bad.parquet: not a Parquet file (no PAR1 magic at the end)");
}

TEST(ParquetFileTest, EncryptedFooterNeedsItsKey) {
  // FileCryptoMetaData {1: EncryptionAlgorithm {1: AesGcmV1 {}}} and then a (bogus) module.
  std::string crypto_meta("\x1c\x1c\x00\x00\x00", 5);
  std::string module(40, '\x07');
  ExpectOpenError(WrapFooter(crypto_meta + module, "", "PARE"), StatusCode::kInvalidArgument,
                  "bad.parquet: the footer is encrypted (PARE) and no footer key was given "
                  "(--footer-key or --keys)");
  // A plaintext FileMetaData where FileCryptoMetaData belongs.
  std::string footer = EncodeFooter(testing::OneColumnFileMetaData());
  auto file = testing::MemoryFile("bad.parquet", WrapFooter(footer, "", "PARE"));
  auto md = ReadParquetMetadata(*file);
  ASSERT_FALSE(md.ok());
  EXPECT_EQ(md.status().code(), StatusCode::kCorruption) << md.status().ToString();
}

TEST(ParquetFileTest, FooterLengthBeyondTheFile) {
  std::string footer = EncodeFooter(testing::OneColumnFileMetaData());
  std::string bytes = WrapFooter(footer);
  // Largest valid length: everything between the two magics.
  ASSERT_TRUE(ReadParquetMetadata(*testing::MemoryFile("ok.parquet", bytes)).ok());
  const size_t size = bytes.size();
  for (uint32_t len :
       {static_cast<uint32_t>(size - 11), static_cast<uint32_t>(size), uint32_t{0xffffffff}}) {
    SCOPED_TRACE(len);
    std::string bad = bytes;
    for (int i = 0; i < 4; ++i) bad[size - 8 + i] = static_cast<char>((len >> (8 * i)) & 0xff);
    ExpectOpenError(bad, StatusCode::kCorruption,
                    "bad.parquet: footer length " + std::to_string(len) +
                        " exceeds the file size " + std::to_string(size));
  }
}

TEST(ParquetFileTest, FooterFillingTheWholeFileIsAccepted) {
  std::string footer = EncodeFooter(testing::OneColumnFileMetaData());
  std::string bytes = WrapFooter(footer);  // no data at all: footer length == size - 12
  RecordingFile file("full.parquet", bytes);
  auto md = ReadParquetMetadata(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ((*md)->footer_length(), bytes.size() - 12);
}

TEST(ParquetFileTest, ZeroLengthFooterIsCorruption) {
  ExpectOpenError(WrapFooter(""), StatusCode::kCorruption,
                  "bad.parquet: malformed footer: truncated struct (no stop field) at byte 0");
}

TEST(ParquetFileTest, FooterBeyondMaxFooterBytesIsRefusedBeforeItIsRead) {
  std::vector<std::string> storage;
  std::string footer = LargeFooter(5000, storage);
  std::string bytes = WrapFooter(footer);
  OpenOptions options;
  options.tail_bytes = 64;
  options.max_footer_bytes = footer.size() - 1;
  RecordingFile file("bad.parquet", bytes);
  auto md = ReadParquetMetadata(file, options);
  EXPECT_EQ(md.status(), Status::ResourceExhausted(
                             "bad.parquet: footer of " + std::to_string(footer.size()) +
                             " bytes exceeds the limit of " + std::to_string(footer.size() - 1)));
  EXPECT_EQ(file.stats().read_requests, 1u);  // only the tail
  EXPECT_EQ(file.stats().bytes_read, 64u);

  options.max_footer_bytes = footer.size();  // the limit itself is allowed
  EXPECT_TRUE(ReadParquetMetadata(*testing::MemoryFile("ok.parquet", bytes), options).ok());
}

TEST(ParquetFileTest, ReadErrorsPropagate) {
  std::string bytes = WrapFooter(EncodeFooter(testing::OneColumnFileMetaData()));
  RecordingFile file("bad.parquet", bytes);
  file.FailReads();
  auto md = ReadParquetMetadata(file);
  EXPECT_EQ(md.status().code(), StatusCode::kIOError);
  EXPECT_TRUE(StartsWith(md.status().message(), "bad.parquet: ")) << md.status().message();
  EXPECT_EQ(file.stats().read_requests, 1u);  // failed reads count too
}

// ---- footer contents: every error names the file ----

void ExpectDecodeError(const FileMetaData& m, const std::string& message) {
  std::string bytes = WrapFooter(EncodeFooter(m));
  RecordingFile file("bad.parquet", bytes);
  auto md = ReadParquetMetadata(file);
  ASSERT_FALSE(md.ok());
  EXPECT_EQ(md.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(md.status().message(), message);
}

TEST(ParquetFileTest, MalformedFooterNamesTheFile) {
  std::string footer = EncodeFooter(testing::SampleFileMetaData(),
                                    testing::EncodeOptions::Omit("ColumnMetaData.codec"));
  RecordingFile file("bad.parquet", WrapFooter(footer));
  auto md = ReadParquetMetadata(file);
  EXPECT_EQ(md.status().code(), StatusCode::kCorruption);
  EXPECT_TRUE(StartsWith(md.status().message(),
                         "bad.parquet: malformed footer: ColumnMetaData.codec (required) is "
                         "missing at byte "))
      << md.status().message();
}

TEST(ParquetFileTest, SchemaErrorsNameTheFile) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.schema[1].repetition_type.reset();
  ExpectDecodeError(m, "bad.parquet: schema element 1 ('x'): no repetition type");
  m.schema.clear();
  ExpectDecodeError(m, "bad.parquet: schema has no elements");
}

TEST(ParquetFileTest, RowGroupWithWrongColumnCount) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.row_groups[0].columns.push_back(testing::Chunk(PhysicalType::kInt32, {"y"}));
  ExpectDecodeError(m,
                    "bad.parquet: row group 0 has 2 column chunks but the schema has 1 leaf "
                    "columns");
  m.row_groups[0].columns.clear();
  ExpectDecodeError(m,
                    "bad.parquet: row group 0 has 0 column chunks but the schema has 1 leaf "
                    "columns");
}

TEST(ParquetFileTest, SecondRowGroupIsCheckedToo) {
  FileMetaData m = testing::SampleFileMetaData();
  m.row_groups[1].columns.pop_back();
  ExpectDecodeError(m,
                    "bad.parquet: row group 1 has 5 column chunks but the schema has 6 leaf "
                    "columns");
}

TEST(ParquetFileTest, ChunkTypeDifferentFromTheSchemaType) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.row_groups[0].columns[0].meta_data->type = PhysicalType::kInt64;
  ExpectDecodeError(m,
                    "bad.parquet: row group 0, column 'x': chunk type INT64 differs from the "
                    "schema type INT32");
  m.row_groups[0].columns[0].meta_data->type = static_cast<PhysicalType>(42);
  ExpectDecodeError(m,
                    "bad.parquet: row group 0, column 'x': chunk type UNKNOWN(42) differs from "
                    "the schema type INT32");
}

TEST(ParquetFileTest, ChunkWithoutMetadata) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.row_groups[0].columns[0].meta_data.reset();
  ExpectDecodeError(m, "bad.parquet: row group 0, column 'x': no column metadata");
  // An encrypted chunk (metadata hidden) opens; reading it is refused later.
  m.row_groups[0].columns[0].is_encrypted = true;
  std::string bytes = WrapFooter(EncodeFooter(m));
  EXPECT_TRUE(ReadParquetMetadata(*testing::MemoryFile("enc.parquet", bytes)).ok());
}

TEST(ParquetFileTest, NegativeCountsSizesAndOffsets) {
  FileMetaData m = testing::OneColumnFileMetaData();
  m.num_rows = -1;
  ExpectDecodeError(m, "bad.parquet: negative num_rows");
  m = testing::OneColumnFileMetaData();
  m.row_groups[0].num_rows = -5;
  ExpectDecodeError(m, "bad.parquet: row group 0: negative num_rows");

  const char* kNegative = "bad.parquet: row group 0, column 'x': negative count, size or offset";
  for (int field = 0; field < 5; ++field) {
    SCOPED_TRACE(field);
    m = testing::OneColumnFileMetaData();
    ColumnMetaData& md = *m.row_groups[0].columns[0].meta_data;
    switch (field) {
      case 0: md.num_values = -1; break;
      case 1: md.total_compressed_size = -1; break;
      case 2: md.total_uncompressed_size = -1; break;
      case 3: md.data_page_offset = -1; break;
      case 4: md.dictionary_page_offset = INT64_MIN; break;
    }
    ExpectDecodeError(m, kNegative);
  }
}

TEST(ParquetFileTest, EmptyFileWithNoRowGroupsOpens) {
  FileMetaData m = testing::OneColumnFileMetaData(0);
  m.row_groups.clear();
  std::string bytes = WrapFooter(EncodeFooter(m));
  auto md = ReadParquetMetadata(*testing::MemoryFile("empty.parquet", bytes));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ((*md)->num_rows(), 0);
  EXPECT_EQ((*md)->num_row_groups(), 0u);
}

TEST(ParquetFileTest, DecodeParquetMetadataWithoutIo) {
  FileMetaData in = testing::SampleFileMetaData();
  std::string footer = EncodeFooter(in);
  auto md = DecodeParquetMetadata("mem.parquet", 12345, Buffer::CopyOf(testing::AsBytes(footer)));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ((*md)->file_name(), "mem.parquet");
  EXPECT_EQ((*md)->file_size(), 12345u);
  EXPECT_EQ((*md)->footer_length(), footer.size());
  EXPECT_EQ(testing::DumpToString((*md)->file()), testing::DumpToString(in));

  auto bad = DecodeParquetMetadata("mem.parquet", 10, Buffer());
  EXPECT_EQ(bad.status().message(),
            "mem.parquet: malformed footer: truncated struct (no stop field) at byte 0");
}

}  // namespace
}  // namespace pqsift
