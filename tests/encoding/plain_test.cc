// PLAIN: hand-made bytes for every physical type (Encodings.md "Plain"), booleans at odd bit
// offsets, byte-array lengths that lie, and pages whose count includes nulls.
#include "encoding/plain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Concat;
using testing::Span;
using testing::StringBytes;

TEST(PlainTest, BooleansAreBitPackedLsbFirst) {
  // 1,0,1,1,0,0,0,0 | 0,0,0,0,0,0,0,1 | 1,1
  std::vector<uint8_t> data = Bytes({0x0D, 0x80, 0x03});
  const std::vector<uint8_t> expected = {1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
  PlainDecoder<BooleanType> d;
  ASSERT_TRUE(d.SetData(Span(data), 18).ok());
  std::vector<uint8_t> out(18);
  ASSERT_TRUE(d.Decode(out.data(), 18).ok());
  EXPECT_EQ(out, expected);
  PlainEncoder<BooleanType> e;
  e.Put(expected.data(), 18);
  EXPECT_EQ(e.EstimatedSize(), 3u);
  EXPECT_EQ(e.Finish(), data);
  // Every split into head (unaligned), whole bytes and tail, with skips.
  for (int skip = 0; skip < 18; ++skip) {
    for (int take = 0; skip + take <= 18; ++take) {
      ASSERT_TRUE(d.SetData(Span(data), 18).ok());
      ASSERT_TRUE(d.Skip(skip).ok());
      std::vector<uint8_t> part(static_cast<size_t>(take) + 1);
      ASSERT_TRUE(d.Decode(part.data(), take).ok());
      for (int i = 0; i < take; ++i) ASSERT_EQ(part[i], expected[skip + i]) << skip << " " << i;
    }
  }
  // 3 bytes hold 24 bits: the page's count says how many are values, the bits say no more.
  ASSERT_TRUE(d.SetData(Span(data), 25).ok());
  ASSERT_TRUE(d.Decode(out.data(), 18).ok());
  std::vector<uint8_t> more(7);
  EXPECT_TRUE(d.Decode(more.data(), 6).ok());
  EXPECT_EQ(d.Decode(more.data(), 1).code(), StatusCode::kCorruption);
}

TEST(PlainTest, FixedWidthValuesAreLittleEndian) {
  std::vector<uint8_t> i32 = Bytes({0x01, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0xFF, 0xFF});
  PlainDecoder<Int32Type> d32;
  ASSERT_TRUE(d32.SetData(Span(i32), 2).ok());
  int32_t v32[2];
  ASSERT_TRUE(d32.Decode(v32, 2).ok());
  EXPECT_EQ(v32[0], 1);
  EXPECT_EQ(v32[1], -2);

  std::vector<uint8_t> i64 = Bytes({0, 0, 0, 0, 0, 0, 0, 0x80});
  PlainDecoder<Int64Type> d64;
  ASSERT_TRUE(d64.SetData(Span(i64), 1).ok());
  int64_t v64;
  ASSERT_TRUE(d64.Decode(&v64, 1).ok());
  EXPECT_EQ(v64, INT64_MIN);

  std::vector<uint8_t> f = Bytes({0x00, 0x00, 0xC0, 0x3F});  // 1.5f
  PlainDecoder<FloatType> df;
  ASSERT_TRUE(df.SetData(Span(f), 1).ok());
  float vf;
  ASSERT_TRUE(df.Decode(&vf, 1).ok());
  EXPECT_EQ(vf, 1.5f);

  std::vector<uint8_t> dbl = Bytes({0, 0, 0, 0, 0, 0, 0xF0, 0xBF});  // -1.0
  PlainDecoder<DoubleType> dd;
  ASSERT_TRUE(dd.SetData(Span(dbl), 1).ok());
  double vd;
  ASSERT_TRUE(dd.Decode(&vd, 1).ok());
  EXPECT_EQ(vd, -1.0);

  // INT96: 8 bytes of nanoseconds, then the Julian day, as stored.
  std::vector<uint8_t> i96 = Bytes({1, 2, 3, 4, 5, 6, 7, 8, 0x8C, 0x3D, 0x25, 0x00});
  PlainDecoder<Int96Type> d96;
  ASSERT_TRUE(d96.SetData(Span(i96), 1).ok());
  Int96 v96;
  ASSERT_TRUE(d96.Decode(&v96, 1).ok());
  EXPECT_EQ(v96.words[0], 0x04030201u);
  EXPECT_EQ(v96.words[1], 0x08070605u);
  EXPECT_EQ(v96.words[2], 2440588u);  // 1970-01-01
}

TEST(PlainTest, ByteArraysHaveFourByteLengths) {
  std::vector<uint8_t> data = Concat(Bytes({5, 0, 0, 0}), StringBytes("hello"));
  data = Concat(data, Bytes({0, 0, 0, 0}));
  data = Concat(data, Concat(Bytes({3, 0, 0, 0}), StringBytes("abc")));
  PlainDecoder<ByteArrayType> d;
  ASSERT_TRUE(d.SetData(Span(data), 3).ok());
  ByteView out[3];
  ASSERT_TRUE(d.Decode(out, 3).ok());
  EXPECT_EQ(out[0].str(), "hello");
  EXPECT_EQ(out[1].str(), "");
  EXPECT_EQ(out[2].str(), "abc");
  // Views point into the page.
  EXPECT_EQ(out[0].data, data.data() + 4);
  // Skip walks the lengths.
  ASSERT_TRUE(d.SetData(Span(data), 3).ok());
  ASSERT_TRUE(d.Skip(2).ok());
  ASSERT_TRUE(d.Decode(out, 1).ok());
  EXPECT_EQ(out[0].str(), "abc");
}

TEST(PlainTest, LyingByteArrayLengthsAreCorruption) {
  for (const std::vector<uint8_t>& data : {
           Concat(Bytes({6, 0, 0, 0}), StringBytes("hello")),          // one byte short
           Concat(Bytes({0xFF, 0xFF, 0xFF, 0xFF}), StringBytes("x")),  // "negative"
           Bytes({0xFF, 0xFF, 0xFF, 0x7F}),                            // 2^31-1
           Bytes({5, 0, 0}),                                           // length cut
       }) {
    PlainDecoder<ByteArrayType> d;
    ASSERT_TRUE(d.SetData(Span(data), 1).ok());
    ByteView v;
    EXPECT_EQ(d.Decode(&v, 1).code(), StatusCode::kCorruption);
    ASSERT_TRUE(d.SetData(Span(data), 1).ok());
    EXPECT_EQ(d.Skip(1).code(), StatusCode::kCorruption);
    EXPECT_EQ(d.values_left(), 0);
  }
}

// DecodeBinary writes Arrow's layout: the bytes back to back and each value's end; a value that
// does not fit in the room stops the call with its length, and the next call goes on from it.
TEST(PlainTest, ByteArraysDecodeStraightIntoArrowLayout) {
  std::vector<uint8_t> data = Concat(Bytes({5, 0, 0, 0}), StringBytes("hello"));
  data = Concat(data, Bytes({0, 0, 0, 0}));
  data = Concat(data, Concat(Bytes({3, 0, 0, 0}), StringBytes("abc")));
  PlainDecoder<ByteArrayType> d;
  ASSERT_TRUE(d.DecodesBinary());
  ASSERT_TRUE(d.SetData(Span(data), 3).ok());
  std::vector<uint8_t> bytes(6, 0);
  int64_t ends[3] = {-1, -1, -1};
  BinaryAppend out{bytes.data(), 0, bytes.size(), ends};
  Result<int64_t> got = d.DecodeBinary(3, &out);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 2);  // "abc" does not fit in the 1 byte left
  EXPECT_EQ(out.next_size, 3u);
  EXPECT_EQ(out.used, 5u);
  EXPECT_EQ(out.bytes_left, 7u);  // the last value's length and bytes
  EXPECT_EQ(ends[0], 5);
  EXPECT_EQ(ends[1], 5);
  EXPECT_EQ(d.values_left(), 1);
  bytes.resize(8);
  out = BinaryAppend{bytes.data(), out.used, bytes.size(), ends + 2};
  got = d.DecodeBinary(1, &out);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 1);
  EXPECT_EQ(ends[2], 8);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "helloabc");
  EXPECT_EQ(d.values_left(), 0);
  EXPECT_EQ(d.DecodeBinary(1, &out).status().code(), StatusCode::kCorruption);  // none left

  // With `keep`, only the kept values are appended (and need room).
  ASSERT_TRUE(d.SetData(Span(data), 3).ok());
  const uint8_t keep[3] = {0, 1, 1};
  std::vector<uint8_t> small(3, 0);
  out = BinaryAppend{small.data(), 0, small.size(), ends};
  out.keep = keep;
  got = d.DecodeBinary(3, &out);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 3);  // "hello" was not kept: "" and "abc" fit in 3 bytes
  EXPECT_EQ(out.appended, 2);
  EXPECT_EQ(ends[0], 0);
  EXPECT_EQ(ends[1], 3);
  EXPECT_EQ(std::string(small.begin(), small.end()), "abc");

  // A lying length is Corruption, whatever the room.
  std::vector<uint8_t> lying = Concat(Bytes({6, 0, 0, 0}), StringBytes("hello"));
  ASSERT_TRUE(d.SetData(Span(lying), 1).ok());
  out = BinaryAppend{bytes.data(), 0, bytes.size(), ends};
  EXPECT_EQ(d.DecodeBinary(1, &out).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(d.values_left(), 0);
  // Other physical types have no such path.
  EXPECT_FALSE(PlainDecoder<Int32Type>().DecodesBinary());
}

TEST(PlainTest, FixedLenByteArraysAreViewsOfTypeLength) {
  std::vector<uint8_t> data = StringBytes("abcdefgh");
  PlainDecoder<FixedLenByteArrayType> d(3);
  ASSERT_TRUE(d.SetData(Span(data), 3).ok());
  ByteView out[3];
  ASSERT_TRUE(d.Decode(out, 2).ok());
  EXPECT_EQ(out[0].str(), "abc");
  EXPECT_EQ(out[1].str(), "def");
  EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);  // "gh" is not a value
}

TEST(PlainTest, CountIncludingNullsFailsOnlyWhenValuesRunOut) {
  // A v1 page counts nulls in num_values; the data holds only the non-null values.
  std::vector<uint8_t> data(4 * 10);
  PlainDecoder<Int32Type> d;
  ASSERT_TRUE(d.SetData(Span(data), 25).ok());
  EXPECT_EQ(d.values_left(), 25);
  std::vector<int32_t> out(25);
  ASSERT_TRUE(d.Decode(out.data(), 10).ok());
  Status st = d.Decode(out.data(), 1);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message().rfind("PLAIN: ", 0), 0u) << st.message();
  // A huge count overflows nothing.
  ASSERT_TRUE(d.SetData(Span(data), INT64_MAX).ok());
  EXPECT_EQ(d.Skip(INT64_MAX / 2).code(), StatusCode::kCorruption);
}

TEST(PlainTest, MaxPlainValuesBoundsEveryType) {
  EXPECT_EQ(MaxPlainValues(PhysicalType::kBoolean, 3, 0), 24);
  EXPECT_EQ(MaxPlainValues(PhysicalType::kInt32, 9, 0), 2);
  EXPECT_EQ(MaxPlainValues(PhysicalType::kInt96, 24, 0), 2);
  EXPECT_EQ(MaxPlainValues(PhysicalType::kDouble, 7, 0), 0);
  EXPECT_EQ(MaxPlainValues(PhysicalType::kByteArray, 9, 0), 2);
  EXPECT_EQ(MaxPlainValues(PhysicalType::kFixedLenByteArray, 9, 4), 2);
}

}  // namespace
}  // namespace pqsift::encoding
