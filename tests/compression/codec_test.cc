// Each codec against its own library's compressor: round trips of several shapes, size
// mismatches in both directions, and garbage input, which must give Corruption, never a crash.
#include "compression/codec.h"

#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <string>
#include <vector>

#include "compression/library_compress.h"

namespace pqsift::compression {
namespace {

using testing::Bytes;
using testing::GzipCompress;

Bytes Sample(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  // Half repetitive, half random, so every codec has work of both kinds.
  for (size_t i = 0; i < n; ++i)
    b[i] = i % 2 ? static_cast<uint8_t>(i / 7) : static_cast<uint8_t>(rng());
  return b;
}

Bytes SnappyCompress(const Bytes& in) {
  std::string out;
  snappy::Compress(reinterpret_cast<const char*>(in.data()), in.size(), &out);
  return {out.begin(), out.end()};
}

Bytes ZstdCompress(const Bytes& in) {
  Bytes out(ZSTD_compressBound(in.size()));
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
  return out;
}

Bytes BrotliCompress(const Bytes& in) {
  size_t n = BrotliEncoderMaxCompressedSize(in.size()) + 16;
  Bytes out(n);
  EXPECT_TRUE(
      BrotliEncoderCompress(5, 22, BROTLI_MODE_GENERIC, in.size(), in.data(), &n, out.data()));
  out.resize(n);
  return out;
}

Bytes Lz4RawCompress(const Bytes& in) {
  Bytes out(LZ4_compressBound(static_cast<int>(in.size())));
  out.resize(LZ4_compress_default(reinterpret_cast<const char*>(in.data()),
                                  reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                                  static_cast<int>(out.size())));
  return out;
}

void AppendBE32(Bytes& b, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<uint8_t>(v >> s));
}

// Hadoop framing, split into blocks of `block` raw bytes.
Bytes Lz4HadoopCompress(const Bytes& in, size_t block) {
  Bytes out;
  for (size_t pos = 0; pos < in.size(); pos += block) {
    Bytes part(in.begin() + pos, in.begin() + std::min(in.size(), pos + block));
    Bytes packed = Lz4RawCompress(part);
    AppendBE32(out, static_cast<uint32_t>(part.size()));
    AppendBE32(out, static_cast<uint32_t>(packed.size()));
    out.insert(out.end(), packed.begin(), packed.end());
  }
  return out;
}

Bytes Lz4FrameCompress(const Bytes& in) {
  Bytes out(LZ4F_compressFrameBound(in.size(), nullptr));
  out.resize(LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr));
  return out;
}

Status Roundtrip(CompressionCodec codec, const Bytes& packed, const Bytes& expected) {
  Bytes out(expected.size());
  Status st = Decompress(codec, packed, out);
  if (st.ok() && out != expected) return Status::Internal("decompressed bytes differ");
  return st;
}

struct Case {
  CompressionCodec codec;
  Bytes (*compress)(const Bytes&);
};

class CodecTest : public ::testing::TestWithParam<Case> {};

TEST_P(CodecTest, RoundTripsAndRejectsWrongSizes) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{70000}}) {
    Bytes raw = Sample(n, static_cast<uint32_t>(n));
    Bytes packed = GetParam().compress(raw);
    EXPECT_TRUE(Roundtrip(GetParam().codec, packed, raw).ok()) << n;
    if (n == 0) continue;
    Bytes shorter(raw.size() - 1), longer(raw.size() + 1);
    EXPECT_EQ(Decompress(GetParam().codec, packed, shorter).code(), StatusCode::kCorruption) << n;
    EXPECT_EQ(Decompress(GetParam().codec, packed, longer).code(), StatusCode::kCorruption) << n;
  }
}

TEST_P(CodecTest, GarbageAndTruncationAreCorruptionNotCrashes) {
  Bytes raw = Sample(5000, 7);
  Bytes packed = GetParam().compress(raw);
  std::mt19937 rng(1);
  for (int i = 0; i < 200; ++i) {
    Bytes bad = packed;
    if (i % 2) {
      bad.resize(rng() % bad.size());
    } else {
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    Bytes out(raw.size());
    Status st = Decompress(GetParam().codec, bad, out);
    // A flipped literal byte can still decompress; what matters is no crash and no overrun.
    if (!st.ok()) {
      EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    }
  }
}

Bytes Lz4HadoopOneBlock(const Bytes& in) { return Lz4HadoopCompress(in, 1u << 30); }
Bytes Lz4HadoopSmallBlocks(const Bytes& in) { return Lz4HadoopCompress(in, 1000); }
Bytes Identity(const Bytes& in) { return in; }

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecTest,
                         ::testing::Values(Case{CompressionCodec::kUncompressed, Identity},
                                           Case{CompressionCodec::kSnappy, SnappyCompress},
                                           Case{CompressionCodec::kGzip, GzipCompress},
                                           Case{CompressionCodec::kZstd, ZstdCompress},
                                           Case{CompressionCodec::kBrotli, BrotliCompress},
                                           Case{CompressionCodec::kLz4Raw, Lz4RawCompress},
                                           Case{CompressionCodec::kLz4, Lz4HadoopOneBlock},
                                           Case{CompressionCodec::kLz4, Lz4HadoopSmallBlocks},
                                           // Old writers' LZ4: a raw block, or the frame format.
                                           Case{CompressionCodec::kLz4, Lz4RawCompress},
                                           Case{CompressionCodec::kLz4, Lz4FrameCompress}));

TEST(Codec, GzipConcatenatedMembers) {
  Bytes a = Sample(3000, 1), b = Sample(2000, 2);
  Bytes packed = GzipCompress(a);
  Bytes second = GzipCompress(b);
  packed.insert(packed.end(), second.begin(), second.end());
  Bytes expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_TRUE(Roundtrip(CompressionCodec::kGzip, packed, expected).ok());
}

TEST(Codec, LzoAndUnknownCodecsAreNotSupported) {
  Bytes out(4);
  EXPECT_EQ(Decompress(CompressionCodec::kLzo, Bytes{1, 2}, out).code(), StatusCode::kNotSupported);
  EXPECT_EQ(Decompress(static_cast<CompressionCodec>(42), Bytes{1, 2}, out).code(),
            StatusCode::kNotSupported);
}

// Our compressors (for the writer) against our decompressors, at default and explicit levels;
// the decompressors are checked against the libraries above, so this closes the loop.
TEST(Codec, CompressRoundTripsThroughDecompress) {
  struct LevelCase {
    CompressionCodec codec;
    int level;
  };
  for (LevelCase c : {LevelCase{CompressionCodec::kUncompressed, 0},
                      {CompressionCodec::kSnappy, 0},
                      {CompressionCodec::kGzip, 0},
                      {CompressionCodec::kGzip, 9},
                      {CompressionCodec::kZstd, 0},
                      {CompressionCodec::kZstd, 19},
                      {CompressionCodec::kBrotli, 0},
                      {CompressionCodec::kBrotli, 1},
                      {CompressionCodec::kLz4Raw, 0}}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{70000}}) {
      Bytes raw = Sample(n, static_cast<uint32_t>(n) + 7);
      Bytes packed = {0xAA};  // Compress appends: what is there stays
      ASSERT_TRUE(Compress(c.codec, c.level, raw, packed).ok()) << CodecName(c.codec);
      EXPECT_EQ(packed[0], 0xAA);
      packed.erase(packed.begin());
      EXPECT_TRUE(Roundtrip(c.codec, packed, raw).ok()) << CodecName(c.codec) << " " << n;
    }
    // And it compresses: 64 KiB of a short repeated pattern shrinks at least tenfold.
    if (c.codec == CompressionCodec::kUncompressed) continue;
    Bytes pattern(65536);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i % 10);
    Bytes packed;
    ASSERT_TRUE(Compress(c.codec, c.level, pattern, packed).ok());
    EXPECT_LT(packed.size(), pattern.size() / 10) << CodecName(c.codec);
  }
}

TEST(Codec, CompressRefusesWhatItCannotWrite) {
  Bytes out;
  EXPECT_EQ(Compress(CompressionCodec::kLz4, 0, Bytes{1}, out).code(), StatusCode::kNotSupported);
  EXPECT_EQ(Compress(CompressionCodec::kLzo, 0, Bytes{1}, out).code(), StatusCode::kNotSupported);
  EXPECT_EQ(Compress(CompressionCodec::kZstd, 23, Bytes{1}, out).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Compress(CompressionCodec::kSnappy, 3, Bytes{1}, out).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Compress(CompressionCodec::kGzip, -1, Bytes{1}, out).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqsift::compression
