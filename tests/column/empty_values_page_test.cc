// A v2 data page whose values are all null stores no value bytes, even when its header says
// is_compressed (parquet-mr and others do not run the codec over nothing): it is read without
// calling the codec, for which an empty input is not a valid stream.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "column/page_reader.h"
#include "format/metadata_encoder.h"
#include "pqsift/scan.h"
#include "testing/files.h"
#include "testing/sample_metadata.h"

namespace pqsift::column {
namespace {

constexpr int32_t kRows = 3;
// The v2 definition levels of 3 nulls at bit width 1: one RLE run (count 3 << 1, value 0).
const std::string kAllNullLevels("\x06\x00", 2);

// A v2 data page of kRows nulls: levels only, 0 bytes of values, marked compressed.
std::string AllNullV2Page() {
  format::PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = static_cast<int32_t>(kAllNullLevels.size());
  h.compressed_page_size = static_cast<int32_t>(kAllNullLevels.size());
  format::DataPageHeaderV2& v2 = h.data_page_header_v2.emplace();
  v2.num_values = kRows;
  v2.num_nulls = kRows;
  v2.num_rows = kRows;
  v2.encoding = Encoding::kPlain;
  v2.definition_levels_byte_length = static_cast<int32_t>(kAllNullLevels.size());
  v2.repetition_levels_byte_length = 0;
  v2.is_compressed = true;
  return format::MetadataEncoder().PageHeader(h).Take() + kAllNullLevels;
}

const CompressionCodec kCodecs[] = {CompressionCodec::kSnappy, CompressionCodec::kGzip,
                                    CompressionCodec::kBrotli, CompressionCodec::kZstd,
                                    CompressionCodec::kLz4Raw, CompressionCodec::kLz4};

TEST(EmptyValuesPage, AnAllNullV2PageIsReadWithoutTheCodec) {
  std::string page = AllNullV2Page();
  std::vector<uint8_t> chunk(page.begin(), page.end());
  for (CompressionCodec codec : kCodecs) {
    SCOPED_TRACE(CodecName(codec));
    PageReader pages(chunk, 4, codec, "row group 0, column 'x'");
    Result<bool> more = pages.Next();
    ASSERT_TRUE(more.ok() && *more) << more.status().ToString();
    Result<Page> read = pages.Read();
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_TRUE(read->body.empty());
    EXPECT_EQ(read->num_nulls, kRows);
    EXPECT_EQ(read->definition_levels.size(), kAllNullLevels.size());
  }
}

TEST(EmptyValuesPage, ValuesDeclaredButNotStoredAreStillRefused) {
  // The exemption is for nothing stored and nothing declared: a page that declares value bytes
  // it does not store is still given to the codec's checks, and refused.
  format::PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = static_cast<int32_t>(kAllNullLevels.size()) + 8;
  h.compressed_page_size = static_cast<int32_t>(kAllNullLevels.size());
  format::DataPageHeaderV2& v2 = h.data_page_header_v2.emplace();
  v2.num_values = kRows;
  v2.num_nulls = 0;
  v2.num_rows = kRows;
  v2.definition_levels_byte_length = static_cast<int32_t>(kAllNullLevels.size());
  std::string page = format::MetadataEncoder().PageHeader(h).Take() + kAllNullLevels;
  std::vector<uint8_t> chunk(page.begin(), page.end());
  PageReader pages(chunk, 4, CompressionCodec::kSnappy, "row group 0, column 'x'");
  ASSERT_TRUE(pages.Next().ok());
  Result<Page> read = pages.Read();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
}

TEST(EmptyValuesPage, AScanOfAnAllNullV2ColumnGivesNulls) {
  const std::string page = AllNullV2Page();
  for (CompressionCodec codec : kCodecs) {
    SCOPED_TRACE(CodecName(codec));
    FileMetaData m;
    m.version = 2;
    m.schema = {testing::Root(1), testing::Leaf("x", PhysicalType::kInt32, Repetition::kOptional)};
    m.num_rows = kRows;
    RowGroup rg;
    const auto size = static_cast<int64_t>(page.size());
    rg.columns = {testing::Chunk(PhysicalType::kInt32, {"x"}, 4, size, kRows)};
    rg.columns[0].meta_data->codec = codec;
    rg.num_rows = kRows;
    rg.total_byte_size = size;
    m.row_groups = {rg};
    std::shared_ptr<RandomAccessFile> file = testing::MemoryFile(
        "all_null_v2.parquet", testing::WrapFooter(format::EncodeFooter(m), page));
    auto metadata = ReadParquetMetadata(*file);
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    auto scanner = Scanner::Open({file}, {*metadata}, ScanOptions{});
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    int64_t rows = 0;
    for (;;) {
      auto batch = (*scanner)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows;
      ASSERT_EQ((*batch)->columns.size(), 1u);
      EXPECT_EQ((*batch)->columns[0]->null_count, (*batch)->num_rows);
    }
    EXPECT_EQ(rows, kRows);
  }
}

}  // namespace
}  // namespace pqsift::column
