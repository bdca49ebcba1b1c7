// Truncated byte-array bounds are sound: for random sets of long strings, the truncated min is
// <= every value and the truncated max >= every value, both within the length limit; UTF-8
// strings stay valid UTF-8. Plus the float rules of BoundsTracker.
#include "write/bounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "arrow/utf8.h"

namespace pqsift::write {
namespace {

std::string RandomString(std::mt19937_64& rng, bool utf8) {
  size_t length = rng() % 120;
  std::string s;
  // Skewed bytes: long shared prefixes and runs of 0xFF make the edge cases common.
  static const char* kPieces[] = {"a", "a", "\x7e", "\x7f", "\xc3\xbf", "\xf4\x8f\xbf\xbf", "z"};
  while (s.size() < length) {
    if (utf8) {
      s += kPieces[rng() % 7];
    } else {
      uint64_t r = rng() % 4;
      s.push_back(static_cast<char>(r == 0 ? 0xFF : r == 1 ? 0x00 : r == 2 ? 'a' : rng() & 0xFF));
    }
  }
  return s;
}

TEST(TruncatedBounds, AreSoundForRandomStrings) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 3000; ++round) {
    const bool is_utf8 = round % 2 == 0;
    const size_t limit = 1 + rng() % 20;
    std::vector<std::string> values(1 + rng() % 8);
    for (auto& v : values) v = RandomString(rng, is_utf8);
    // Shared prefixes: sometimes every value starts the same.
    if (rng() % 2) {
      const std::string prefix = RandomString(rng, is_utf8);
      for (auto& v : values) v = prefix + v;
    }
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    std::string lower = TruncateLowerBound(*lo, limit, is_utf8);
    std::optional<std::string> upper = TruncateUpperBound(*hi, limit, is_utf8);
    EXPECT_LE(lower.size(), limit);
    if (hi->size() <= limit) {
      ASSERT_TRUE(upper.has_value());
    }
    if (upper) {
      EXPECT_LE(upper->size(), limit);
    }
    for (const auto& v : values) {
      EXPECT_LE(lower, v) << "round " << round;
      if (upper) {
        EXPECT_GE(*upper, v) << "round " << round;
      }
    }
    if (is_utf8) {
      EXPECT_TRUE(utf8::IsValid(lower)) << "round " << round;
      // The byte-increment fallback may leave UTF-8 only when no ASCII byte below 0x7F exists.
      bool has_ascii = std::any_of(hi->begin(), hi->begin() + std::min(limit, hi->size()),
                                   [](char c) { return static_cast<uint8_t>(c) < 0x7F; });
      if (upper && has_ascii) {
        EXPECT_TRUE(utf8::IsValid(*upper)) << "round " << round;
      }
    }
  }
}

TEST(TruncatedBounds, Examples) {
  EXPECT_EQ(TruncateLowerBound("abcdef", 3, false), "abc");
  EXPECT_EQ(TruncateUpperBound("abcdef", 3, false), "abd");
  EXPECT_EQ(TruncateUpperBound("ab\xff\xff", 3, false), "ac");
  EXPECT_EQ(TruncateUpperBound("\xff\xff\xff\xff", 3, false), std::nullopt);
  EXPECT_EQ(TruncateUpperBound("abc", 3, false), "abc");  // short enough: itself
  // "é" is two bytes: the lower bound does not split it; the upper bound increments 'b'.
  EXPECT_EQ(TruncateLowerBound("ab\xc3\xa9z", 3, true), "ab");
  EXPECT_EQ(TruncateUpperBound("ab\xc3\xa9z", 3, true), "ac");
}

TEST(BoundsTracker, FloatsLeaveOutNaNAndWriteSignedZeros) {
  BoundsTracker<encoding::DoubleType> t(SortOrder::kFloat);
  double values[] = {NAN, 0.0, -0.0, NAN};
  t.Update(values, 4);
  ASSERT_TRUE(t.has_bounds());
  EXPECT_EQ(t.nan_count(), 2);
  double min, max;
  std::memcpy(&min, t.EncodedMin().data(), 8);
  std::memcpy(&max, t.EncodedMax().data(), 8);
  EXPECT_TRUE(min == 0 && std::signbit(min));
  EXPECT_TRUE(max == 0 && !std::signbit(max));

  BoundsTracker<encoding::DoubleType> only_nan(SortOrder::kFloat);
  only_nan.Update(values, 1);
  EXPECT_FALSE(only_nan.has_bounds());
  EXPECT_EQ(only_nan.nan_count(), 1);
}

TEST(BoundsTracker, UnsignedAndDecimalOrders) {
  BoundsTracker<encoding::Int32Type> u(SortOrder::kUnsigned);
  int32_t ints[] = {5, -1, 7};  // -1 is 0xFFFFFFFF: the largest unsigned value
  u.Update(ints, 3);
  int32_t min, max;
  std::memcpy(&min, u.EncodedMin().data(), 4);
  std::memcpy(&max, u.EncodedMax().data(), 4);
  EXPECT_EQ(min, 5);
  EXPECT_EQ(max, -1);

  BoundsTracker<encoding::FixedLenByteArrayType> d(SortOrder::kDecimalBytes);
  uint8_t bytes[] = {0xFF, 0x00, 0x00, 0x05, 0x7F, 0x00};  // -256, 5, 32512 big-endian
  encoding::ByteView views[] = {{bytes, 2}, {bytes + 2, 2}, {bytes + 4, 2}};
  d.Update(views, 3);
  EXPECT_EQ(d.EncodedMin(), std::string("\xFF\x00", 2));
  EXPECT_EQ(d.EncodedMax(), std::string("\x7F\x00", 2));
}

}  // namespace
}  // namespace pqsift::write
