// BYTE_STREAM_SPLIT: Encodings.md's example byte for byte, the vectorised 4- and 8-byte paths
// against a scalar reference at every count and offset, FIXED_LEN_BYTE_ARRAY of odd widths,
// and sizes that are not whole values.
#include "encoding/byte_stream_split.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Span;

TEST(ByteStreamSplitTest, SpecExample) {
  const std::vector<uint8_t> plain =
      Bytes({0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6});
  const std::vector<uint8_t> split =
      Bytes({0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6});
  float values[3];
  std::memcpy(values, plain.data(), 12);
  ByteStreamSplitEncoder<FloatType> e;
  e.Put(values, 3);
  EXPECT_EQ(e.Finish(), split);
  ByteStreamSplitDecoder<FloatType> d;
  ASSERT_TRUE(d.SetData(Span(split), 3).ok());
  float out[3];
  ASSERT_TRUE(d.Decode(out, 3).ok());
  EXPECT_EQ(std::memcmp(out, plain.data(), 12), 0);
  // As 3-byte FIXED_LEN_BYTE_ARRAY the same 12 bytes are 4 values.
  ByteStreamSplitDecoder<FixedLenByteArrayType> f(3);
  ASSERT_TRUE(f.SetData(Span(split), 4).ok());
  ByteView views[4];
  ASSERT_TRUE(f.Skip(1).ok());
  ASSERT_TRUE(f.Decode(views, 3).ok());
  EXPECT_EQ(views[0].str(), std::string("\x00\xB4\xDD", 3));  // bytes 1, 5, 9
}

TEST(ByteStreamSplitTest, VectorPathsMatchAScalarReference) {
  std::mt19937_64 rng(4);
  for (size_t width : {1, 2, 3, 4, 5, 8, 12, 16}) {
    for (int64_t count : {0, 1, 15, 16, 17, 31, 32, 33, 100}) {
      std::vector<uint8_t> data(static_cast<size_t>(count) * width + 1);
      for (auto& b : data) b = static_cast<uint8_t>(rng());
      for (int64_t begin = 0; begin <= count; begin += 1 + begin / 3) {
        const int64_t n = count - begin;
        std::vector<uint8_t> out(static_cast<size_t>(n) * width + 1, 0xEE);
        UnsplitBytes(data.data(), count, width, begin, n, out.data());
        for (int64_t i = 0; i < n; ++i) {
          for (size_t b = 0; b < width; ++b) {
            ASSERT_EQ(out[static_cast<size_t>(i) * width + b],
                      data[b * static_cast<size_t>(count) + static_cast<size_t>(begin + i)])
                << "width " << width << " count " << count << " begin " << begin;
          }
        }
        EXPECT_EQ(out.back(), 0xEE);  // nothing written past n values
      }
    }
  }
}

TEST(ByteStreamSplitTest, SizesThatAreNotWholeValuesAreCorruption) {
  std::vector<uint8_t> seven(7);
  ByteStreamSplitDecoder<DoubleType> d;
  Status st = d.SetData(Span(seven), 1);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "BYTE_STREAM_SPLIT: 7 bytes are not a whole number of 8-byte values");
  double out;
  EXPECT_EQ(d.Decode(&out, 1).code(), StatusCode::kCorruption);
  ByteStreamSplitDecoder<FixedLenByteArrayType> f(5);
  std::vector<uint8_t> eleven(11);
  EXPECT_EQ(f.SetData(Span(eleven), 2).code(), StatusCode::kCorruption);
  // A page count above the values present (nulls): N = size / K values, no more.
  std::vector<uint8_t> sixteen(16);
  ASSERT_TRUE(d.SetData(Span(sixteen), 5).ok());
  EXPECT_EQ(d.values_left(), 2);
  EXPECT_EQ(d.Skip(3).code(), StatusCode::kCorruption);
}

TEST(ByteStreamSplitTest, FixedLenViewsLiveUntilTheNextPage) {
  std::vector<std::string> strings;
  for (int i = 0; i < 40; ++i) strings.push_back(std::string(7, static_cast<char>('a' + i % 26)));
  std::vector<ByteView> in;
  for (const auto& s : strings) {
    in.push_back({reinterpret_cast<const uint8_t*>(s.data()), 7});
  }
  ByteStreamSplitEncoder<FixedLenByteArrayType> e(7);
  e.Put(in.data(), 40);
  EXPECT_EQ(e.num_values(), 40);
  const std::vector<uint8_t> page = e.Finish();
  ByteStreamSplitDecoder<FixedLenByteArrayType> d(7);
  ASSERT_TRUE(d.SetData(Span(page), 40).ok());
  std::vector<ByteView> out(40);
  ASSERT_TRUE(d.Decode(out.data(), 10).ok());
  ASSERT_TRUE(d.Skip(5).ok());
  ASSERT_TRUE(d.Decode(out.data() + 15, 25).ok());
  for (int i = 0; i < 40; ++i) {
    if (i >= 10 && i < 15) continue;
    EXPECT_EQ(out[i].str(), strings[i]) << i;
  }
}

}  // namespace
}  // namespace pqsift::encoding
