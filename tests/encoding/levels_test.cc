// Levels: the deprecated BIT_PACKED encoding (Encodings.md's example, MSB first), v1 RLE with
// its length prefix, v2 RLE without, max level 0, range checks and malformed sections.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "encoding/bit_util.h"
#include "encoding/rle_bit_packed.h"
#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Concat;
using testing::Span;

TEST(LevelDecoderTest, BitPackedSpecExample) {
  // Encodings.md: 0..7 at bit width 3 MSB first are 00000101 00111001 01110111.
  const std::vector<uint8_t> expected = Bytes({0x05, 0x39, 0x77});
  const std::vector<int16_t> levels = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<uint8_t> encoded;
  AppendLevelsV1(Encoding::kBitPacked, 7, levels.data(), 8, encoded);
  EXPECT_EQ(encoded, expected);

  std::vector<uint8_t> page = Concat(expected, Bytes({0xAA, 0xBB}));  // values follow
  LevelDecoder d;
  size_t consumed = 0;
  ASSERT_TRUE(d.InitV1(Encoding::kBitPacked, 7, 8, Span(page), &consumed).ok());
  EXPECT_EQ(consumed, 3u);
  std::vector<int16_t> out(8);
  ASSERT_TRUE(d.Decode(out.data(), 8).ok());
  EXPECT_EQ(out, levels);
  EXPECT_EQ(d.levels_left(), 0);
}

TEST(LevelDecoderTest, BitPackedSectionIsCeilOfBits) {
  // Encodings.md: 30 values at 2 bits take 60 bits, so 8 bytes.
  std::vector<uint8_t> page(20, 0);
  LevelDecoder d;
  size_t consumed = 0;
  ASSERT_TRUE(d.InitV1(Encoding::kBitPacked, 3, 30, Span(page), &consumed).ok());
  EXPECT_EQ(consumed, 8u);
  // 31 values at 2 bits do not fit in 7 bytes.
  std::vector<uint8_t> short_page(7, 0);
  EXPECT_EQ(d.InitV1(Encoding::kBitPacked, 3, 31, Span(short_page), &consumed).code(),
            StatusCode::kCorruption);
}

TEST(LevelDecoderTest, RleV1HasALengthPrefixAndV2DoesNot) {
  std::mt19937_64 rng(5);
  for (int16_t max_level : {1, 2, 3, 7, 100, 32767}) {
    std::vector<int16_t> levels(5000);
    for (auto& l : levels) {
      l = rng() % 3 == 0 ? max_level : static_cast<int16_t>(rng() % (max_level + 1));
    }
    std::vector<uint8_t> v1, v2;
    AppendLevelsV1(Encoding::kRle, max_level, levels.data(), 5000, v1);
    AppendLevelsV2(max_level, levels.data(), 5000, v2);
    ASSERT_EQ(v1.size(), v2.size() + 4);
    EXPECT_EQ(LoadUnaligned<uint32_t>(v1.data()), v2.size());
    EXPECT_TRUE(std::equal(v2.begin(), v2.end(), v1.begin() + 4));

    v1.push_back(0x5A);  // the values section follows the levels
    LevelDecoder d1, d2;
    size_t consumed = 0;
    ASSERT_TRUE(d1.InitV1(Encoding::kRle, max_level, 5000, Span(v1), &consumed).ok());
    EXPECT_EQ(consumed, v1.size() - 1);
    ASSERT_TRUE(d2.InitV2(max_level, 5000, Span(v2)).ok());
    std::vector<int16_t> out1(5000), out2(5000);
    ASSERT_TRUE(d1.Decode(out1.data(), 5000).ok());
    ASSERT_TRUE(d2.Decode(out2.data(), 5000).ok());
    EXPECT_EQ(out1, levels);
    EXPECT_EQ(out2, levels);
  }
}

// RestAllEqual answers from the runs, agrees with decoding, and does not consume.
TEST(LevelDecoderTest, RestAllEqualMatchesTheDecodedLevels) {
  auto encode = [](const std::vector<int16_t>& levels) {
    std::vector<uint8_t> v2;
    AppendLevelsV2(2, levels.data(), static_cast<int64_t>(levels.size()), v2);
    return v2;
  };
  std::vector<int16_t> all_two(100000, 2);
  std::vector<int16_t> one_null = all_two;
  one_null[77777] = 0;
  std::vector<int16_t> all_zero(300, 0);
  for (const auto& levels : {all_two, one_null, all_zero}) {
    std::vector<uint8_t> data = encode(levels);
    auto n = static_cast<int64_t>(levels.size());
    LevelDecoder d;
    ASSERT_TRUE(d.InitV2(2, n, Span(data)).ok());
    bool expected = std::all_of(levels.begin(), levels.end(), [](int16_t l) { return l == 2; });
    EXPECT_EQ(d.RestAllEqual(2), expected);
    EXPECT_EQ(d.RestAllEqual(0), levels == all_zero);
    std::vector<int16_t> out(levels.size());
    ASSERT_TRUE(d.Decode(out.data(), n).ok());  // nothing was consumed by the checks
    EXPECT_EQ(out, levels);
  }
  // Data shorter than the page's level count is never "all equal".
  std::vector<uint8_t> short_data = encode(std::vector<int16_t>(10, 2));
  LevelDecoder d;
  ASSERT_TRUE(d.InitV2(2, 20, Span(short_data)).ok());
  EXPECT_FALSE(d.RestAllEqual(2));
}

TEST(LevelDecoderTest, SkipAndDecodeInterleaved) {
  std::mt19937_64 rng(6);
  std::vector<int16_t> levels(3000);
  for (auto& l : levels) l = static_cast<int16_t>(rng() % 4 == 0 ? rng() % 4 : 3);
  for (Encoding e : {Encoding::kRle, Encoding::kBitPacked}) {
    std::vector<uint8_t> page;
    AppendLevelsV1(e, 3, levels.data(), 3000, page);
    LevelDecoder d;
    size_t consumed = 0;
    ASSERT_TRUE(d.InitV1(e, 3, 3000, Span(page), &consumed).ok());
    EXPECT_EQ(consumed, page.size());
    size_t pos = 0;
    while (pos < levels.size()) {
      const size_t k = std::min(levels.size() - pos, static_cast<size_t>(rng() % 200));
      if (rng() % 2) {
        ASSERT_TRUE(d.Skip(static_cast<int64_t>(k)).ok());
      } else {
        std::vector<int16_t> out(k);
        ASSERT_TRUE(d.Decode(out.data(), static_cast<int64_t>(k)).ok());
        for (size_t i = 0; i < k; ++i) ASSERT_EQ(out[i], levels[pos + i]);
      }
      pos += k;
    }
    int16_t one;
    EXPECT_EQ(d.Decode(&one, 1).code(), StatusCode::kCorruption);
  }
}

TEST(LevelDecoderTest, MaxLevelZeroStoresNothing) {
  std::vector<int16_t> zeros(10, 0);
  std::vector<uint8_t> out;
  AppendLevelsV1(Encoding::kRle, 0, zeros.data(), 10, out);
  AppendLevelsV2(0, zeros.data(), 10, out);
  EXPECT_TRUE(out.empty());
  std::vector<uint8_t> page = Bytes({1, 2, 3});
  LevelDecoder d;
  size_t consumed = 99;
  ASSERT_TRUE(d.InitV1(Encoding::kRle, 0, 10, Span(page), &consumed).ok());
  EXPECT_EQ(consumed, 0u);
  std::vector<int16_t> levels(10, 5);
  ASSERT_TRUE(d.Decode(levels.data(), 10).ok());
  EXPECT_EQ(levels, zeros);
}

TEST(LevelDecoderTest, LevelsAboveTheMaximumAreCorruption) {
  // max level 2 takes 2 bits, which can hold a 3.
  const std::vector<int16_t> levels = {0, 1, 2, 3, 1};
  for (Encoding e : {Encoding::kRle, Encoding::kBitPacked}) {
    std::vector<uint8_t> page;
    AppendLevelsV1(e, 3, levels.data(), 5, page);  // written as if the max were 3
    LevelDecoder d;
    size_t consumed = 0;
    ASSERT_TRUE(d.InitV1(e, 2, 5, Span(page), &consumed).ok());
    std::vector<int16_t> out(5);
    Status st = d.Decode(out.data(), 5);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_NE(st.message().find("level 3 exceeds the max level 2"), std::string::npos)
        << st.ToString();
  }
  // An RLE run of 3 at max level 2.
  std::vector<uint8_t> run = Bytes({0x08, 0x03});
  LevelDecoder d;
  ASSERT_TRUE(d.InitV2(2, 4, Span(run)).ok());
  std::vector<int16_t> out(4);
  EXPECT_EQ(d.Decode(out.data(), 4).code(), StatusCode::kCorruption);
}

TEST(LevelDecoderTest, MalformedSectionsAreCorruption) {
  LevelDecoder d;
  size_t consumed = 0;
  std::vector<uint8_t> three = Bytes({1, 0, 0});
  EXPECT_EQ(d.InitV1(Encoding::kRle, 1, 5, Span(three), &consumed).code(), StatusCode::kCorruption);
  std::vector<uint8_t> long_prefix = Bytes({5, 0, 0, 0, 0x0A, 0x01});  // 5 bytes claimed, 2 left
  EXPECT_EQ(d.InitV1(Encoding::kRle, 1, 5, Span(long_prefix), &consumed).code(),
            StatusCode::kCorruption);
  std::vector<uint8_t> huge = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x0A, 0x01});
  EXPECT_EQ(d.InitV1(Encoding::kRle, 1, 5, Span(huge), &consumed).code(), StatusCode::kCorruption);
  EXPECT_EQ(d.InitV1(Encoding::kPlain, 1, 5, Span(long_prefix), &consumed).code(),
            StatusCode::kCorruption);
  EXPECT_EQ(d.InitV1(Encoding::kRle, 1, -1, Span(long_prefix), &consumed).code(),
            StatusCode::kCorruption);
  EXPECT_EQ(d.InitV1(Encoding::kBitPacked, 1, INT64_MAX, Span(long_prefix), &consumed).code(),
            StatusCode::kCorruption);
  EXPECT_EQ(d.InitV2(-1, 5, Span(long_prefix)).code(), StatusCode::kInvalidArgument);
  // The section holds fewer levels than the page: 5 ones in the run, 8 levels asked for.
  std::vector<uint8_t> fine = Bytes({2, 0, 0, 0, 0x0A, 0x01});
  ASSERT_TRUE(d.InitV1(Encoding::kRle, 1, 8, Span(fine), &consumed).ok());
  std::vector<int16_t> out(8);
  EXPECT_EQ(d.Decode(out.data(), 8).code(), StatusCode::kCorruption);
  ASSERT_TRUE(d.InitV1(Encoding::kRle, 1, 8, Span(fine), &consumed).ok());
  EXPECT_EQ(d.Skip(8).code(), StatusCode::kCorruption);
  // Failed Init leaves nothing to decode.
  EXPECT_EQ(d.InitV1(Encoding::kRle, 1, 5, Span(three), &consumed).code(), StatusCode::kCorruption);
  EXPECT_EQ(d.levels_left(), 0);
  EXPECT_EQ(d.Decode(out.data(), 1).code(), StatusCode::kCorruption);
}

TEST(LevelDecoderTest, TruncatedLevelsAtEveryByte) {
  std::mt19937_64 rng(8);
  std::vector<int16_t> levels(200);
  for (auto& l : levels) l = static_cast<int16_t>(rng() % 5 == 0 ? rng() % 6 : 5);
  std::vector<uint8_t> v2;
  AppendLevelsV2(5, levels.data(), 200, v2);
  for (size_t len = 0; len < v2.size(); ++len) {
    auto exact = std::make_unique<uint8_t[]>(len + 1);
    std::copy(v2.begin(), v2.begin() + static_cast<ptrdiff_t>(len), exact.get());
    LevelDecoder d;
    ASSERT_TRUE(d.InitV2(5, 200, {exact.get(), len}).ok());
    std::vector<int16_t> out(200);
    Status st = d.Decode(out.data(), 200);
    if (st.ok()) {
      EXPECT_EQ(out, levels) << len;  // only padding of the last run may be missing
    } else {
      EXPECT_EQ(st.code(), StatusCode::kCorruption);
    }
  }
}

}  // namespace
}  // namespace pqsift::encoding
