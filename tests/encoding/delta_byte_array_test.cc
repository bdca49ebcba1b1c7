// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY: Encodings.md's examples byte for byte, where
// decoded views point, prefixes through skipped values, and lying lengths and prefixes.
#include <gtest/gtest.h>

#include <vector>

#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Concat;
using testing::Span;
using testing::StringBytes;

std::vector<uint8_t> Lengths(const std::vector<uint32_t>& values) {
  DeltaStreamWriter<uint32_t> w;
  for (uint32_t v : values) w.Put(v);
  std::vector<uint8_t> out;
  w.FinishInto(out);
  return out;
}

std::vector<ByteView> Views(const std::vector<std::string>& strings) {
  std::vector<ByteView> out;
  for (const auto& s : strings) {
    out.push_back(
        ByteView{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  }
  return out;
}

TEST(DeltaLengthByteArrayTest, SpecExample) {
  const std::vector<std::string> strings = {"Hello", "World", "Foobar", "ABCDEF"};
  // DeltaEncoding(5, 5, 6, 6): first 5 (zigzag 10), deltas 0 1 0, min 0, width 1: 0b010.
  const std::vector<uint8_t> lengths =
      Bytes({0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 1, 0, 0, 0, 0x02, 0, 0, 0});
  EXPECT_EQ(Lengths({5, 5, 6, 6}), lengths);
  const std::vector<uint8_t> expected = Concat(lengths, StringBytes("HelloWorldFoobarABCDEF"));
  DeltaLengthByteArrayEncoder e;
  const std::vector<ByteView> views = Views(strings);
  e.Put(views.data(), 4);
  EXPECT_EQ(e.Finish(), expected);

  DeltaLengthByteArrayDecoder d;
  ASSERT_TRUE(d.SetData(Span(expected), 4).ok());
  ByteView out[4];
  ASSERT_TRUE(d.Decode(out, 4).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].str(), strings[i]);
  EXPECT_EQ(out[0].data, expected.data() + lengths.size());  // a view into the page
}

TEST(DeltaLengthByteArrayTest, LyingLengthsAreCorruption) {
  // A "negative" length and one past the data, first value and later ones.
  const struct {
    std::vector<uint32_t> lengths;
    std::string data;
    std::string message;
  } cases[] = {
      {{0xFFFFFFFF}, "abc", "DELTA_LENGTH_BYTE_ARRAY: value 0: length -1 is negative"},
      {{1, 0x80000000}, "abc", "DELTA_LENGTH_BYTE_ARRAY: value 1: length -2147483648 is negative"},
      {{2, 2}, "abc", "DELTA_LENGTH_BYTE_ARRAY: value 1: length 2 exceeds the 1 bytes left"},
  };
  for (const auto& c : cases) {
    const std::vector<uint8_t> page = Concat(Lengths(c.lengths), StringBytes(c.data));
    DeltaLengthByteArrayDecoder d;
    const auto n = static_cast<int64_t>(c.lengths.size());
    ASSERT_TRUE(d.SetData(Span(page), n).ok());
    std::vector<ByteView> out(c.lengths.size());
    Status st = d.Decode(out.data(), n);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_EQ(st.message(), c.message);
    ASSERT_TRUE(d.SetData(Span(page), n).ok());
    EXPECT_EQ(d.Skip(n).code(), StatusCode::kCorruption);
  }
  // The length stream must end inside the page: cut it at every byte.
  const std::vector<uint8_t> lengths = Lengths(std::vector<uint32_t>(300, 3));
  for (size_t len = 0; len < lengths.size(); ++len) {
    const std::vector<uint8_t> cut(lengths.begin(), lengths.begin() + static_cast<ptrdiff_t>(len));
    DeltaLengthByteArrayDecoder d;
    Status st = d.SetData(Span(cut), 300);
    if (len == 0) {
      EXPECT_TRUE(st.ok());  // an empty page has no values
      EXPECT_EQ(d.values_left(), 0);
    } else {
      EXPECT_EQ(st.code(), StatusCode::kCorruption) << len;
    }
  }
}

TEST(DeltaByteArrayTest, SpecExample) {
  const std::vector<std::string> strings = {"axis", "axle", "babble", "babyhood"};
  const std::vector<uint8_t> expected = Concat(Concat(Lengths({0, 2, 0, 3}), Lengths({4, 2, 6, 5})),
                                               StringBytes("axislebabbleyhood"));
  DeltaByteArrayEncoder<ByteArrayType> e;
  const std::vector<ByteView> views = Views(strings);
  e.Put(views.data(), 4);
  EXPECT_EQ(e.Finish(), expected);

  DeltaByteArrayDecoder<ByteArrayType> d;
  ASSERT_TRUE(d.SetData(Span(expected), 4).ok());
  ByteView out[4];
  ASSERT_TRUE(d.Decode(out, 4).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].str(), strings[i]);
  // "axis" and "babble" have no prefix: views of the page; the others were built.
  const uint8_t* begin = expected.data();
  const uint8_t* end = begin + expected.size();
  EXPECT_TRUE(out[0].data >= begin && out[0].data < end);
  EXPECT_FALSE(out[1].data >= begin && out[1].data < end);
  EXPECT_TRUE(out[2].data >= begin && out[2].data < end);
}

TEST(DeltaByteArrayTest, PrefixesCarryThroughSkippedValues) {
  const std::vector<std::string> strings = {"abcdef", "abcxyz", "abcxy1", "ab", "abq", "", "z"};
  DeltaByteArrayEncoder<ByteArrayType> e;
  const std::vector<ByteView> views = Views(strings);
  e.Put(views.data(), 7);
  const std::vector<uint8_t> page = e.Finish();
  DeltaByteArrayDecoder<ByteArrayType> d;
  for (int skip = 0; skip <= 7; ++skip) {
    ASSERT_TRUE(d.SetData(Span(page), 7).ok());
    ASSERT_TRUE(d.Skip(skip).ok());
    std::vector<ByteView> out(static_cast<size_t>(7 - skip));
    ASSERT_TRUE(d.Decode(out.data(), 7 - skip).ok());
    for (int i = skip; i < 7; ++i) EXPECT_EQ(out[i - skip].str(), strings[i]) << skip;
  }
}

TEST(DeltaByteArrayTest, PrefixLongerThanThePreviousValueIsCorruption) {
  // "ab", then prefix 5 of "ab" + "c".
  const std::vector<uint8_t> page =
      Concat(Concat(Lengths({0, 5}), Lengths({2, 1})), StringBytes("abc"));
  DeltaByteArrayDecoder<ByteArrayType> d;
  ASSERT_TRUE(d.SetData(Span(page), 2).ok());
  ByteView out[2];
  Status st = d.Decode(out, 2);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "DELTA_BYTE_ARRAY: prefix length 5 exceeds the previous value's 2 bytes");
  ASSERT_TRUE(d.SetData(Span(page), 2).ok());
  EXPECT_EQ(d.Skip(2).code(), StatusCode::kCorruption);
  // A "negative" prefix, and a prefix on the very first value.
  for (uint32_t prefix : {0xFFFFFFFFu, 1u}) {
    const std::vector<uint8_t> first =
        Concat(Concat(Lengths({prefix}), Lengths({1})), StringBytes("a"));
    ASSERT_TRUE(d.SetData(Span(first), 1).ok());
    EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);
  }
}

TEST(DeltaByteArrayTest, FixedLenValuesMustHaveTheTypeLength) {
  const std::vector<uint8_t> page =
      Concat(Concat(Lengths({0, 1, 1}), Lengths({3, 2, 1})), StringBytes("abcxyz"));
  DeltaByteArrayDecoder<FixedLenByteArrayType> d(3);
  ASSERT_TRUE(d.SetData(Span(page), 3).ok());
  ByteView out[3];
  ASSERT_TRUE(d.Decode(out, 2).ok());
  EXPECT_EQ(out[0].str(), "abc");
  EXPECT_EQ(out[1].str(), "axy");
  Status st = d.Decode(out, 1);  // "a" + "z": 2 bytes
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("FIXED_LEN_BYTE_ARRAY(3)"), std::string::npos) << st.message();
}

TEST(DeltaByteArrayTest, SuffixStreamShorterThanThePrefixes) {
  const std::vector<uint8_t> page =
      Concat(Concat(Lengths({0, 0, 0}), Lengths({1})), StringBytes("a"));
  DeltaByteArrayDecoder<ByteArrayType> d;
  ASSERT_TRUE(d.SetData(Span(page), 3).ok());
  EXPECT_EQ(d.values_left(), 3);
  ByteView out[3];
  EXPECT_EQ(d.Decode(out, 3).code(), StatusCode::kCorruption);
  // Suffixes with nothing after the prefix stream.
  const std::vector<uint8_t> only_prefixes = Lengths({0, 0});
  ASSERT_TRUE(d.SetData(Span(only_prefixes), 2).ok());
  EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace pqsift::encoding
