// The RLE/bit-packed hybrid: Encodings.md's own example, hand-made runs at every value width,
// the unpackers against a bit-by-bit reference at every bit width, encoder/decoder round trips
// at bit widths 0..32 with every batch type, Skip, Visit, and malformed runs.
#include "encoding/rle_bit_packed.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding/bit_pack.h"
#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Span;

// Reference: value i of width w, LSB-first, one bit at a time.
uint64_t ReferenceBits(const std::vector<uint8_t>& data, int64_t i, int w) {
  uint64_t v = 0;
  for (int b = 0; b < w; ++b) {
    const int64_t bit = i * w + b;
    v |= static_cast<uint64_t>((data[static_cast<size_t>(bit / 8)] >> (bit % 8)) & 1) << b;
  }
  return v;
}

TEST(RleBitPackedTest, SpecExampleBitPackedRun) {
  // Encodings.md: the values 0..7 at bit width 3 pack into 10001000 11000110 11111010.
  std::vector<uint8_t> data = Bytes({0x03, 0x88, 0xC6, 0xFA});
  RleBitPackedDecoder d(Span(data), 3);
  int32_t out[9] = {};
  EXPECT_EQ(d.GetBatch(out, 9), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  EXPECT_TRUE(d.ok());
  // And the encoder writes exactly those bytes.
  RleBitPackedEncoder e(3);
  for (uint32_t i = 0; i < 8; ++i) e.Put(i);
  EXPECT_EQ(e.Finish(), data);
}

TEST(RleBitPackedTest, RleRunsWithValuesOfOneToFourBytes) {
  // Header count << 1; the value in ceil(bit_width / 8) little-endian bytes.
  struct RunCase {
    int bit_width;
    std::vector<uint8_t> bytes;
    uint32_t value;
  };
  const RunCase cases[] = {
      {1, Bytes({0x0A, 0x01}), 1},
      {8, Bytes({0x0A, 0xFF}), 255},
      {9, Bytes({0x0A, 0x34, 0x01}), 0x134},
      {17, Bytes({0x0A, 0x56, 0x34, 0x01}), 0x13456},
      {32, Bytes({0x0A, 0x78, 0x56, 0x34, 0xF2}), 0xF2345678},
  };
  for (const RunCase& c : cases) {
    RleBitPackedDecoder d(Span(c.bytes), c.bit_width);
    uint32_t out[6] = {};
    ASSERT_EQ(d.GetBatch(out, 6), 5) << c.bit_width;
    for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], c.value);
    EXPECT_TRUE(d.ok());
  }
  // Bit width 0: a run carries no value bytes.
  std::vector<uint8_t> zero = Bytes({0x80, 0x01});  // 64 zeros (header 128 as a 2-byte varint)
  RleBitPackedDecoder d(Span(zero), 0);
  std::vector<int16_t> out(100, 7);
  EXPECT_EQ(d.GetBatch(out.data(), 100), 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], 0);
}

TEST(RleBitPackedTest, MixedRunsHandMade) {
  // RLE 3 x 5, bit-packed 8 values (bit width 4: two per byte, low nibble first), RLE 2 x 9.
  std::vector<uint8_t> data = Bytes({0x06, 0x05, 0x03, 0x21, 0x43, 0x65, 0x87, 0x04, 0x09});
  RleBitPackedDecoder d(Span(data), 4);
  std::vector<uint8_t> out(20);
  ASSERT_EQ(d.GetBatch(out.data(), 20), 13);
  const std::vector<uint8_t> expected = {5, 5, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9};
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 13), expected);
  EXPECT_TRUE(d.ok());
}

template <typename Out>
void CheckUnpackers(int max_width) {
  std::mt19937_64 rng(static_cast<uint64_t>(max_width));
  for (int w = 0; w <= max_width; ++w) {
    std::vector<uint8_t> data(4 * 64 + 16);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    Out out32[32], out8[8], slow[32];
    Unpack32(data.data(), out32, w);
    Unpack8(data.data() + w, out8, w);            // the second group of 8
    UnpackSlow(data.data(), 3 * w, w, slow, 29);  // starting at value 3
    for (int i = 0; i < 32; ++i) {
      ASSERT_EQ(out32[i], static_cast<Out>(ReferenceBits(data, i, w))) << "w=" << w << " i=" << i;
    }
    for (int i = 0; i < 8; ++i) {
      ASSERT_EQ(out8[i], static_cast<Out>(ReferenceBits(data, 8 + i, w))) << "w=" << w;
    }
    for (int i = 0; i < 29; ++i) {
      ASSERT_EQ(slow[i], static_cast<Out>(ReferenceBits(data, 3 + i, w))) << "w=" << w;
    }
    // And packing is the inverse.
    std::vector<uint64_t> values(32);
    for (int i = 0; i < 32; ++i) values[i] = ReferenceBits(data, i, w);
    std::vector<uint8_t> packed;
    AppendPackedLsb(packed, values.data(), 32, w);
    ASSERT_EQ(packed.size(), static_cast<size_t>(4 * w));
    EXPECT_TRUE(std::equal(packed.begin(), packed.end(), data.begin())) << "w=" << w;
  }
}

TEST(RleBitPackedTest, UnpackersMatchABitByBitReferenceAtEveryWidth) {
  CheckUnpackers<uint64_t>(64);
  CheckUnpackers<uint32_t>(32);
  CheckUnpackers<int32_t>(31);
  CheckUnpackers<int16_t>(15);
  CheckUnpackers<uint8_t>(8);
}

// Values with runs and noise, below 2^bit_width.
std::vector<uint32_t> RunsAndNoise(size_t n, int bit_width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t limit = bit_width == 32 ? (uint64_t{1} << 32) : (uint64_t{1} << bit_width);
  std::vector<uint32_t> v;
  while (v.size() < n) {
    const uint32_t x = static_cast<uint32_t>(rng() % limit);
    const size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
    for (size_t i = 0; i < run && v.size() < n; ++i) v.push_back(x);
  }
  return v;
}

template <typename T>
void RoundTripAs(const std::vector<uint32_t>& values, const std::vector<uint8_t>& encoded,
                 int bit_width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  RleBitPackedDecoder d(Span(encoded), bit_width);
  std::vector<T> out(values.size());
  size_t pos = 0;
  while (pos < values.size()) {
    const size_t k = std::min(values.size() - pos, static_cast<size_t>(rng() % 100));
    ASSERT_EQ(d.GetBatch(out.data() + pos, static_cast<int64_t>(k)), static_cast<int64_t>(k));
    pos += k;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(out[i], static_cast<T>(values[i])) << "bit width " << bit_width << " value " << i;
  }
  EXPECT_TRUE(d.ok());
}

TEST(RleBitPackedTest, RoundTripsAtEveryBitWidth) {
  for (int w = 0; w <= 32; ++w) {
    for (size_t n : {0, 1, 7, 8, 9, 63, 64, 65, 503, 504, 505, 5000}) {
      const std::vector<uint32_t> values = RunsAndNoise(n, w, static_cast<uint64_t>(w * 1000 + n));
      RleBitPackedEncoder e(w);
      e.PutBatch(values.data(), static_cast<int64_t>(n));
      const size_t estimate = e.EstimatedSize();
      const std::vector<uint8_t> encoded = e.Finish();
      EXPECT_LE(encoded.size(), estimate);
      EXPECT_LE(estimate, encoded.size() + 3 * static_cast<size_t>(w) + 16);
      RoundTripAs<uint32_t>(values, encoded, w, n);
      if (w <= 31) RoundTripAs<int32_t>(values, encoded, w, n + 1);
      if (w <= 15) RoundTripAs<int16_t>(values, encoded, w, n + 2);
      if (w <= 8) RoundTripAs<uint8_t>(values, encoded, w, n + 3);
      // The padding of the last bit-packed run is all the decoder may add.
      RleBitPackedDecoder d(Span(encoded), w);
      std::vector<uint32_t> out(n + 16);
      EXPECT_LT(d.GetBatch(out.data(), static_cast<int64_t>(n + 16)), static_cast<int64_t>(n + 8));
    }
  }
}

TEST(RleBitPackedTest, EncoderChoosesRunsForRepeatsAndPacksNoise) {
  // 100000 equal values: a single RLE run (3-byte header, 2-byte value).
  RleBitPackedEncoder runs(10);
  for (int i = 0; i < 100000; ++i) runs.Put(1000);
  EXPECT_LE(runs.Finish().size(), 5u);
  // Alternating values: bit-packed, about n * bit_width / 8 bytes plus a header per 504.
  RleBitPackedEncoder noise(1);
  for (int i = 0; i < 5040; ++i) noise.Put(static_cast<uint32_t>(i & 1));
  EXPECT_EQ(noise.Finish().size(), 5040u / 8 + 10);
  // Short runs inside noise stay bit-packed; a run of 8 after 3 literals is topped up first.
  RleBitPackedEncoder mixed(2);
  const std::vector<uint32_t> v = {1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  mixed.PutBatch(v.data(), static_cast<int64_t>(v.size()));
  const std::vector<uint8_t> bytes = mixed.Finish();
  // [bit-packed 8: 1 2 3 0 0 0 0 0] [RLE 10 x 0]
  EXPECT_EQ(bytes, Bytes({0x03, 0x39, 0x00, 0x14, 0x00}));
}

TEST(RleBitPackedTest, SkipAndVisitMatchGetBatch) {
  for (int w : {0, 1, 3, 8, 13, 17, 32}) {
    const std::vector<uint32_t> values = RunsAndNoise(20000, w, static_cast<uint64_t>(w));
    RleBitPackedEncoder e(w);
    e.PutBatch(values.data(), static_cast<int64_t>(values.size()));
    const std::vector<uint8_t> encoded = e.Finish();
    std::mt19937_64 rng(static_cast<uint64_t>(w) + 5);
    RleBitPackedDecoder d(Span(encoded), w);
    size_t pos = 0;
    while (pos < values.size()) {
      const size_t k = std::min(values.size() - pos, static_cast<size_t>(rng() % 300));
      switch (rng() % 3) {
        case 0: ASSERT_EQ(d.Skip(static_cast<int64_t>(k)), static_cast<int64_t>(k)); break;
        case 1: {
          std::vector<uint32_t> out(k);
          ASSERT_EQ(d.GetBatch(out.data(), static_cast<int64_t>(k)), static_cast<int64_t>(k));
          for (size_t i = 0; i < k; ++i) ASSERT_EQ(out[i], values[pos + i]) << pos + i;
          break;
        }
        default: {
          std::vector<uint32_t> out;
          const int64_t got = d.Visit(
              static_cast<int64_t>(k),
              [&](uint32_t v, int64_t count) {
                out.insert(out.end(), static_cast<size_t>(count), v);
              },
              [&](const uint32_t* v, int64_t count) { out.insert(out.end(), v, v + count); });
          ASSERT_EQ(got, static_cast<int64_t>(k));
          ASSERT_EQ(out.size(), k);
          for (size_t i = 0; i < k; ++i) ASSERT_EQ(out[i], values[pos + i]) << pos + i;
        }
      }
      pos += k;
    }
    EXPECT_TRUE(d.ok());
  }
}

TEST(RleBitPackedTest, MalformedRunsEndDecodingWithOkFalse) {
  auto decode = [](std::vector<uint8_t> data, int bit_width, int64_t* got) {
    RleBitPackedDecoder d(Span(data), bit_width);
    std::vector<uint32_t> out(64);
    *got = d.GetBatch(out.data(), 64);
    return d.ok();
  };
  int64_t got = 0;
  // A varint that never ends, and one longer than 10 bytes.
  EXPECT_FALSE(decode(Bytes({0x80, 0x80}), 3, &got));
  EXPECT_FALSE(decode(std::vector<uint8_t>(11, 0xFF), 3, &got));
  EXPECT_EQ(got, 0);
  // An RLE run of 2^31 values (over the spec's limit) and one with its value missing.
  EXPECT_FALSE(decode(Bytes({0x80, 0x80, 0x80, 0x80, 0x10, 0x01}), 1, &got));
  EXPECT_FALSE(decode(Bytes({0x0A, 0x01}), 9, &got));
  // A bit-packed run of 2^31 values.
  EXPECT_FALSE(decode(Bytes({0x81, 0x80, 0x80, 0x80, 0x02}), 1, &got));
  // An RLE value wider than the bit width.
  EXPECT_FALSE(decode(Bytes({0x0A, 0x04}), 2, &got));
  // Good runs before a bad one are still returned.
  EXPECT_FALSE(decode(Bytes({0x04, 0x01, 0x0A, 0x04}), 2, &got));
  EXPECT_EQ(got, 2);
  // A bit-packed run cut short keeps the values that are whole, and is not malformed.
  EXPECT_TRUE(decode(Bytes({0x05, 0xFF, 0xFF, 0x0F}), 5, &got));  // 16 claimed, 24 bits left
  EXPECT_EQ(got, 4);
  // Zero-length runs are skipped.
  EXPECT_TRUE(decode(Bytes({0x00, 0x01, 0x01, 0x06, 0x01}), 1, &got));
  EXPECT_EQ(got, 3);
}

TEST(RleBitPackedTest, HostileBytesNeverReadOutside) {
  std::mt19937_64 rng(17);
  int malformed = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const int w = static_cast<int>(rng() % 33);
    const size_t size = rng() % 40;
    auto exact = std::make_unique<uint8_t[]>(size + 1);  // ASan sees reads past `size`
    for (size_t i = 0; i < size; ++i) exact[i] = static_cast<uint8_t>(rng());
    RleBitPackedDecoder d({exact.get(), size}, w);
    std::vector<uint32_t> out(700);
    for (int step = 0; step < 6; ++step) {
      const int64_t got = step % 2 ? d.Skip(700) : d.GetBatch(out.data(), 700);
      ASSERT_LE(got, 700);
      if (step % 2 == 0 && w < 32) {
        for (int64_t i = 0; i < got; ++i) ASSERT_LT(out[i], uint64_t{1} << w);
      }
    }
    malformed += d.ok() ? 0 : 1;
  }
  EXPECT_GT(malformed, 0);
}

}  // namespace
}  // namespace pqsift::encoding
