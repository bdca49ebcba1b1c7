// Pages that declare sizes their bytes cannot back: refused before the output is allocated,
// with an error naming the chunk, the page's offset and both sizes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "column/page_reader.h"
#include "compression/codec.h"
#include "format/metadata_encoder.h"

namespace pqsift::column {
namespace {

// One v1 data page of `codec` holding `plain` compressed, whose header declares `declared`
// uncompressed bytes.
std::vector<uint8_t> Chunk(CompressionCodec codec, const std::vector<uint8_t>& plain,
                           int32_t declared) {
  std::vector<uint8_t> body;
  EXPECT_TRUE(compression::Compress(codec, 0, plain, body).ok());
  format::PageHeader header;
  header.type = PageType::kDataPage;
  header.uncompressed_page_size = declared;
  header.compressed_page_size = static_cast<int32_t>(body.size());
  header.data_page_header.emplace().num_values = 1;
  std::string bytes = format::MetadataEncoder().PageHeader(header).Take();
  std::vector<uint8_t> chunk(bytes.begin(), bytes.end());
  chunk.insert(chunk.end(), body.begin(), body.end());
  return chunk;
}

Status ReadFirstPage(const std::vector<uint8_t>& chunk, CompressionCodec codec,
                     PageReaderOptions options = {}) {
  PageReader pages(chunk, 1000, codec, "row group 0, column 'x'", options);
  PQSIFT_ASSIGN_OR_RETURN(bool more, pages.Next());
  EXPECT_TRUE(more);
  return pages.Read().status();
}

const std::vector<uint8_t> kZeros(4000, 0);

TEST(HostilePage, DecompressionBombsAreRefusedBeforeAllocating) {
  // 400 MB declared, under the default page limit, from a few dozen compressed bytes.
  constexpr int32_t kBomb = 400 << 20;
  for (CompressionCodec codec : {CompressionCodec::kGzip, CompressionCodec::kLz4Raw,
                                 CompressionCodec::kZstd, CompressionCodec::kSnappy}) {
    SCOPED_TRACE(CodecName(codec));
    Status st = ReadFirstPage(Chunk(codec, kZeros, kBomb), codec);
    ASSERT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    EXPECT_NE(st.message().find("row group 0, column 'x', page at offset 1000"), std::string::npos)
        << st.message();
    EXPECT_NE(st.message().find(std::to_string(kBomb)), std::string::npos) << st.message();
    // The honest page reads.
    EXPECT_TRUE(ReadFirstPage(Chunk(codec, kZeros, 4000), codec).ok());
  }
}

TEST(HostilePage, RecordedSizesMustMatchTheHeader) {
  // SNAPPY's preamble and ZSTD's frame header record the size: one byte off is refused.
  for (CompressionCodec codec : {CompressionCodec::kSnappy, CompressionCodec::kZstd}) {
    Status st = ReadFirstPage(Chunk(codec, kZeros, 4001), codec);
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    EXPECT_NE(st.message().find("records 4000"), std::string::npos) << st.message();
  }
}

TEST(HostilePage, TheDeclaredSizeIsBoundedByTheMemoryLimit) {
  PageReaderOptions options;
  options.max_page_bytes = 3999;
  const std::vector<uint8_t> chunk = Chunk(CompressionCodec::kGzip, kZeros, 4000);
  PageReader pages(chunk, 0, CompressionCodec::kGzip, "row group 0, column 'x'", options);
  Result<bool> next = pages.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(next.status().message().find("over the limit of 3999"), std::string::npos);
}

TEST(HostilePage, CodecBoundsAdmitTheirWorstHonestRatios) {
  // The most compressible input, compressed by each codec, passes its bound.
  const std::vector<uint8_t> zeros(1 << 22, 0);
  for (CompressionCodec codec :
       {CompressionCodec::kGzip, CompressionCodec::kLz4Raw, CompressionCodec::kZstd,
        CompressionCodec::kSnappy, CompressionCodec::kBrotli}) {
    std::vector<uint8_t> compressed;
    ASSERT_TRUE(compression::Compress(codec, 0, zeros, compressed).ok());
    for (int level : {0, 9}) {
      if (level > 0 && !compression::CheckCompressionLevel(codec, level).ok()) continue;
      if (level > 0) {
        compressed.clear();
        ASSERT_TRUE(compression::Compress(codec, level, zeros, compressed).ok());
      }
      EXPECT_TRUE(compression::CheckDecompressedSize(codec, compressed, zeros.size()).ok())
          << CodecName(codec) << " level " << level << ": " << compressed.size() << " bytes";
    }
  }
}

}  // namespace
}  // namespace pqsift::column
