// The bloom filter header: the real one in parquet-testing's data_index_bloom_encoding_stats
// file, and hand-built ones (round trip, unknown union members, malformed).
#include "format/bloom_filter_header.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "testing/files.h"
#include "testing/metadata_encoder.h"
#include "testing/parquet_files.h"
#include "thrift/compact_writer.h"

namespace pqsift::format {
namespace {

using pqsift::testing::AsBytes;
using pqsift::testing::EncodeOptions;
using pqsift::testing::MetadataEncoder;

TEST(BloomFilterHeaderTest, RealHeaderFromParquetTesting) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "data_index_bloom_encoding_stats.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  int filters = 0;
  for (const RowGroup& rg : f.metadata->file().row_groups) {
    for (const ColumnChunk& chunk : rg.columns) {
      const ColumnMetaData& md = *chunk.meta_data;
      if (!md.bloom_filter_offset) continue;
      ++filters;
      int64_t offset = *md.bloom_filter_offset;
      ASSERT_GT(offset, 0);
      ASSERT_LT(static_cast<uint64_t>(offset), f.file->size());
      // Without a length, read up to 64 bytes: the header is shorter.
      int64_t length = md.bloom_filter_length.value_or(
          std::min<int64_t>(static_cast<int64_t>(f.file->size()) - offset, 64));
      Buffer bytes = f.Read(offset, length);
      BloomFilterHeader h;
      size_t header_size = 0;
      Status st = DecodeBloomFilterHeader(bytes.span(), h, &header_size);
      ASSERT_TRUE(st.ok()) << st.ToString();
      EXPECT_TRUE(h.IsSupported());
      EXPECT_EQ(h.algorithm, 1);
      EXPECT_EQ(h.hash, 1);
      EXPECT_EQ(h.compression, 1);
      // A split-block filter is whole 32-byte blocks, and the bitset follows inside the file.
      EXPECT_GT(h.num_bytes, 0);
      EXPECT_EQ(h.num_bytes % 32, 0);
      EXPECT_GT(header_size, 0u);
      EXPECT_LE(static_cast<uint64_t>(offset) + header_size + h.num_bytes, f.file->size());
      if (md.bloom_filter_length) {
        EXPECT_EQ(static_cast<int64_t>(header_size) + h.num_bytes, *md.bloom_filter_length);
      }
    }
  }
  EXPECT_GE(filters, 1);
}

BloomFilterHeader Sample() {
  BloomFilterHeader h;
  h.num_bytes = 1024;
  h.algorithm = 1;
  h.hash = 1;
  h.compression = 1;
  return h;
}

TEST(BloomFilterHeaderTest, RoundTripsWithItsSize) {
  for (bool noise : {false, true}) {
    EncodeOptions o;
    o.unknown_fields = noise;
    std::string header = MetadataEncoder(o).BloomFilterHeader(Sample()).Take();
    std::string bytes = header + std::string(1024, '\xff');  // the bitset follows
    BloomFilterHeader out;
    size_t size = 0;
    Status st = DecodeBloomFilterHeader(AsBytes(bytes), out, &size);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(size, header.size());
    EXPECT_EQ(out.num_bytes, 1024);
    EXPECT_TRUE(out.IsSupported());
  }
}

TEST(BloomFilterHeaderTest, UnknownUnionMembersAreNotSupportedButDecode) {
  for (int which = 0; which < 3; ++which) {
    SCOPED_TRACE(which);
    BloomFilterHeader in = Sample();
    (which == 0 ? in.algorithm : which == 1 ? in.hash : in.compression) = 2;
    std::string bytes = MetadataEncoder().BloomFilterHeader(in).Take();
    BloomFilterHeader out;
    size_t size = 0;
    ASSERT_TRUE(DecodeBloomFilterHeader(AsBytes(bytes), out, &size).ok());
    EXPECT_FALSE(out.IsSupported());
    EXPECT_EQ(out.algorithm, in.algorithm);
    EXPECT_EQ(out.hash, in.hash);
    EXPECT_EQ(out.compression, in.compression);
  }
}

TEST(BloomFilterHeaderTest, NumBytesMustBePositive) {
  for (int32_t n : {0, -1, INT32_MIN}) {
    SCOPED_TRACE(n);
    BloomFilterHeader in = Sample();
    in.num_bytes = n;
    std::string bytes = MetadataEncoder().BloomFilterHeader(in).Take();
    BloomFilterHeader out;
    size_t size = 12345;
    Status st = DecodeBloomFilterHeader(AsBytes(bytes), out, &size);
    EXPECT_EQ(st, Status::Corruption("bloom filter header: numBytes is not positive"));
    EXPECT_EQ(size, 12345u);
  }
}

TEST(BloomFilterHeaderTest, MissingRequiredFields) {
  for (const char* field : {"BloomFilterHeader.numBytes", "BloomFilterHeader.algorithm",
                            "BloomFilterHeader.hash", "BloomFilterHeader.compression"}) {
    SCOPED_TRACE(field);
    std::string bytes =
        MetadataEncoder(EncodeOptions::Omit(field)).BloomFilterHeader(Sample()).Take();
    BloomFilterHeader out;
    size_t size = 0;
    Status st = DecodeBloomFilterHeader(AsBytes(bytes), out, &size);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_EQ(st.message().rfind("malformed bloom filter header: " + std::string(field) +
                                     " (required) is missing at byte ",
                                 0),
              0u)
        << st.message();
  }
}

TEST(BloomFilterHeaderTest, UnionFieldOfTheWrongWireType) {
  thrift::CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 32);
  w.WriteI32Field(2, 1);  // algorithm must be a union (struct)
  w.EndStruct();
  BloomFilterHeader out;
  size_t size = 0;
  Status st = DecodeBloomFilterHeader(AsBytes(w.Take()), out, &size);
  // Skipped as a field of another IDL version: the required union is then missing.
  EXPECT_EQ(st.message(),
            "malformed bloom filter header: BloomFilterHeader.algorithm (required) is missing at "
            "byte 5");
}

TEST(BloomFilterHeaderTest, EveryTruncationIsAnError) {
  std::string bytes = MetadataEncoder().BloomFilterHeader(Sample()).Take();
  for (size_t len = 0; len < bytes.size(); ++len) {
    BloomFilterHeader out;
    size_t size = 0;
    EXPECT_FALSE(DecodeBloomFilterHeader(AsBytes(bytes.substr(0, len)), out, &size).ok()) << len;
  }
}

}  // namespace
}  // namespace pqsift::format
