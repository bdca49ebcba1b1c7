// The split-block bloom filter: sizing by the spec's formula, no false negatives, measured false
// positive rates near the configured ones, the serialized form round trip, and hostile headers
// and bitsets (a clear error, never a crash).
#include "format/bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "format/bloom_filter_header.h"
#include "testing/files.h"
#include "testing/metadata_encoder.h"

namespace pqsift::format {
namespace {

using pqsift::testing::AsBytes;
using pqsift::testing::MetadataEncoder;

TEST(BloomFilterTest, HashIsXxh64WithSeedZero) {
  // The reference values of XXH64 (seed 0) from the xxHash test suite.
  EXPECT_EQ(BloomFilterHash({}), 0xEF46DB3751D8E999ULL);
  const std::string abc = "abc";
  EXPECT_EQ(BloomFilterHash(AsBytes(abc)), 0x44BC2CF5AD770999ULL);
  // Fixed-width values hash their little-endian bytes.
  const uint8_t one[4] = {1, 0, 0, 0};
  EXPECT_EQ(BloomFilterHashOf(int32_t{1}), BloomFilterHash(one));
}

TEST(BloomFilterTest, SizeFollowsTheSpecFormulaAsAPowerOfTwo) {
  // 1,000,000 values at 1%: 9.6 bits each, 1.2 MB (BloomFilter.md), rounded up to 2 MiB.
  EXPECT_EQ(OptimalBloomFilterBytes(1'000'000, 0.01), int64_t{2} << 20);
  EXPECT_EQ(OptimalBloomFilterBytes(1000, 0.01), 2048);  // 1,199 bytes
  EXPECT_EQ(OptimalBloomFilterBytes(0, 0.01), kBloomFilterMinBytes);
  EXPECT_EQ(OptimalBloomFilterBytes(1, 0.5), kBloomFilterMinBytes);
  EXPECT_EQ(OptimalBloomFilterBytes(int64_t{1} << 40, 0.01), kBloomFilterMaxBytes);
  EXPECT_EQ(OptimalBloomFilterBytes(INT64_MAX, 1e-12), kBloomFilterMaxBytes);
  for (int64_t ndv : {1, 7, 100, 12345, 999'999}) {
    for (double fpp : {0.2, 0.01, 0.001}) {
      int64_t bytes = OptimalBloomFilterBytes(ndv, fpp);
      EXPECT_EQ(bytes & (bytes - 1), 0) << ndv << " " << fpp;
      EXPECT_GE(bytes * 8.0, ndv * -8.0 / std::log(1 - std::pow(fpp, 1.0 / 8)));
    }
  }
}

// Inserts ndv values and probes as many again that were not inserted.
struct Measured {
  int64_t false_negatives = 0;
  double false_positive_rate = 0;
};
Measured Measure(int64_t ndv, double fpp, int64_t probes) {
  SplitBlockBloomFilter filter(OptimalBloomFilterBytes(ndv, fpp));
  for (int64_t i = 0; i < ndv; ++i) filter.Insert(BloomFilterHashOf(i));
  Measured m;
  for (int64_t i = 0; i < ndv; ++i) m.false_negatives += !filter.MightContain(BloomFilterHashOf(i));
  int64_t positives = 0;
  for (int64_t i = ndv; i < ndv + probes; ++i)
    positives += filter.MightContain(BloomFilterHashOf(i));
  m.false_positive_rate = static_cast<double>(positives) / static_cast<double>(probes);
  return m;
}

TEST(BloomFilterTest, NoFalseNegativesAndFalsePositivesNearTheTarget) {
  struct Case {
    int64_t ndv;
    double fpp;
  };
  for (Case c : {Case{1000, 0.01}, Case{20'000, 0.05}, Case{50'000, 0.01}, Case{30'000, 0.001}}) {
    Measured m = Measure(c.ndv, c.fpp, 200'000);
    std::printf("ndv %lld fpp %.3f: %lld bytes, measured false-positive rate %.5f\n",
                static_cast<long long>(c.ndv), c.fpp,
                static_cast<long long>(OptimalBloomFilterBytes(c.ndv, c.fpp)),
                m.false_positive_rate);
    EXPECT_EQ(m.false_negatives, 0);
    EXPECT_LE(m.false_positive_rate, 2 * c.fpp) << c.ndv << " " << c.fpp;
  }
  // Sized exactly (a power of two fits 2^k values at the formula's bits per value), the rate
  // is the target's, not far below it: the filter is not oversized.
  const double bits = -8.0 / std::log(1 - std::pow(0.01, 1.0 / 8));
  const auto ndv = static_cast<int64_t>(65536.0 * 8 / bits);  // fills 64 KiB exactly
  ASSERT_EQ(OptimalBloomFilterBytes(ndv, 0.01), 65536);
  Measured m = Measure(ndv, 0.01, 200'000);
  EXPECT_GT(m.false_positive_rate, 0.005);
  EXPECT_LT(m.false_positive_rate, 0.02);
}

TEST(BloomFilterTest, EmptyFilterContainsNothing) {
  SplitBlockBloomFilter filter(kBloomFilterMinBytes);
  for (int64_t i = 0; i < 1000; ++i) EXPECT_FALSE(filter.MightContain(BloomFilterHashOf(i)));
}

TEST(BloomFilterTest, SerializedFormRoundTrips) {
  SplitBlockBloomFilter filter(1024);
  for (int64_t i = 0; i < 100; ++i) filter.Insert(BloomFilterHashOf(i * 7));
  std::vector<uint8_t> bytes;
  filter.AppendTo(bytes);

  BloomFilterHeader header;
  size_t header_size = 0;
  ASSERT_TRUE(DecodeBloomFilterHeader(bytes, header, &header_size).ok());
  EXPECT_TRUE(header.IsSupported());
  EXPECT_EQ(header.num_bytes, 1024);
  EXPECT_EQ(bytes.size(), header_size + 1024);

  Result<BloomFilterLayout> layout = DecodeBloomFilterLayout(bytes);
  ASSERT_TRUE(layout.ok()) << layout.status().ToString();
  EXPECT_EQ(layout->header_size, header_size);
  EXPECT_EQ(layout->total(), static_cast<int64_t>(bytes.size()));

  bytes.push_back(0xAB);  // what follows the filter is not part of it
  Result<SplitBlockBloomFilter> parsed = SplitBlockBloomFilter::Parse(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->num_bytes(), 1024);
  for (int64_t i = 0; i < 700; ++i) {
    EXPECT_EQ(parsed->MightContain(BloomFilterHashOf(i)),
              filter.MightContain(BloomFilterHashOf(i)));
  }
}

std::vector<uint8_t> WithHeader(BloomFilterHeader header, size_t bitset_bytes) {
  std::string encoded = MetadataEncoder().BloomFilterHeader(header).Take();
  std::vector<uint8_t> out(encoded.begin(), encoded.end());
  out.resize(out.size() + bitset_bytes, 0xFF);
  return out;
}

BloomFilterHeader Header(int32_t num_bytes) {
  BloomFilterHeader h;
  h.num_bytes = num_bytes;
  h.algorithm = h.hash = h.compression = 1;
  return h;
}

TEST(BloomFilterTest, HostileSizesAreCorruption) {
  for (int32_t n : {1, 16, 33, 100, static_cast<int32_t>(kBloomFilterMaxBytes + 32), INT32_MAX}) {
    SCOPED_TRACE(n);
    Result<BloomFilterLayout> layout = DecodeBloomFilterLayout(WithHeader(Header(n), 64));
    EXPECT_EQ(layout.status().code(), StatusCode::kCorruption);
    EXPECT_NE(layout.status().message().find("bloom filter bitset of " + std::to_string(n)),
              std::string::npos)
        << layout.status().message();
  }
  // A bitset running past the bytes given.
  Result<SplitBlockBloomFilter> parsed = SplitBlockBloomFilter::Parse(WithHeader(Header(64), 63));
  EXPECT_EQ(parsed.status().code(), StatusCode::kCorruption);
  EXPECT_NE(parsed.status().message().find("runs past the 63 bytes"), std::string::npos)
      << parsed.status().message();
}

TEST(BloomFilterTest, OtherAlgorithmsAreNotSupported) {
  for (int which = 0; which < 3; ++which) {
    BloomFilterHeader h = Header(64);
    (which == 0 ? h.algorithm : which == 1 ? h.hash : h.compression) = 2;
    Result<SplitBlockBloomFilter> parsed = SplitBlockBloomFilter::Parse(WithHeader(h, 64));
    EXPECT_EQ(parsed.status().code(), StatusCode::kNotSupported) << which;
  }
}

TEST(BloomFilterTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(4);
  SplitBlockBloomFilter valid(64);
  valid.Insert(1);
  std::vector<uint8_t> good;
  valid.AppendTo(good);
  int parsed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bytes = good;
    if (round % 2 == 0) {
      bytes.resize(rng() % (good.size() + 8));
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    } else {
      for (int flips = 0; flips < 3; ++flips) {
        bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
      }
      bytes.resize(rng() % (bytes.size() + 1));
    }
    Result<SplitBlockBloomFilter> filter = SplitBlockBloomFilter::Parse(bytes);
    if (!filter.ok()) continue;
    ++parsed;
    EXPECT_LE(static_cast<size_t>(filter->num_bytes()), bytes.size());
    (void)filter->MightContain(rng());
  }
  EXPECT_GT(parsed, 0);  // some mutations keep the header intact
}

}  // namespace
}  // namespace pqsift::format
