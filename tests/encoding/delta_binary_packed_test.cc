// DELTA_BINARY_PACKED: Encodings.md's two examples (with a valid block size: the spec's own use
// block size 8, which it calls invalid, and which must be refused), what readers must accept
// (arbitrary widths of unneeded miniblocks, arbitrary padding, a missing last padding), 64-bit
// widths and wrap-around, and malformed headers and blocks.
#include "encoding/delta_binary_packed.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Concat;
using testing::Span;

// Header: block size 128, 4 miniblocks, then count and first value (zigzag).
std::vector<uint8_t> Header(int count, int zigzag_first) {
  return Bytes({0x80, 0x01, 0x04, count, zigzag_first});
}

template <typename DType>
Status DecodeInto(const std::vector<uint8_t>& data, int64_t n,
                  std::vector<typename DType::Value>* out) {
  DeltaBinaryPackedDecoder<DType> d;
  auto exact = std::make_unique<uint8_t[]>(data.size() + 1);
  std::copy(data.begin(), data.end(), exact.get());
  PQSIFT_RETURN_IF_ERROR(d.SetData({exact.get(), data.size()}, n));
  out->resize(static_cast<size_t>(n));
  return d.Decode(out->data(), n);
}

TEST(DeltaBinaryPackedTest, SpecExample1) {
  // 1, 2, 3, 4, 5: deltas all 1, so min delta 1 and bit width 0.
  const std::vector<uint8_t> bytes = Concat(Header(5, 2), Bytes({0x02, 0, 0, 0, 0}));
  std::vector<int32_t> out;
  ASSERT_TRUE(DecodeInto<Int32Type>(bytes, 5, &out).ok());
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 4, 5}));
  DeltaBinaryPackedEncoder<Int32Type> e;
  e.Put(out.data(), 5);
  EXPECT_EQ(e.Finish(), bytes);
}

TEST(DeltaBinaryPackedTest, SpecExample2) {
  // 7, 5, 3, 1, 2, 3, 4, 5: deltas -2 -2 -2 1 1 1 1, min -2, relative 0 0 0 3 3 3 3 at 2 bits.
  // Packed LSB first: 0 0 0 3 | 3 3 3 (pad 0) -> 0xC0 0x3F, then 6 bytes of padding.
  const std::vector<uint8_t> block = Bytes({0x03, 2, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0, 0, 0});
  const std::vector<uint8_t> bytes = Concat(Header(8, 14), block);
  const std::vector<int64_t> expected = {7, 5, 3, 1, 2, 3, 4, 5};
  std::vector<int64_t> out;
  ASSERT_TRUE(DecodeInto<Int64Type>(bytes, 8, &out).ok());
  EXPECT_EQ(out, expected);
  DeltaBinaryPackedEncoder<Int64Type> e;
  e.Put(expected.data(), 8);
  EXPECT_EQ(e.Finish(), bytes);
}

TEST(DeltaBinaryPackedTest, TheSpecsBlockSizeOfEightIsRefused) {
  const std::vector<uint8_t> bytes = Bytes({8, 1, 5, 2, 2, 0});
  std::vector<int32_t> out;
  Status st = DecodeInto<Int32Type>(bytes, 5, &out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "DELTA_BINARY_PACKED: block size 8 is not a positive multiple of 128");
}

TEST(DeltaBinaryPackedTest, ReadersAcceptWhatTheSpecSaysTheyMust) {
  const std::vector<int32_t> expected = {7, 5, 3, 1, 2, 3, 4, 5};
  std::vector<int32_t> out;
  // Arbitrary bit widths for miniblocks the last block does not need.
  std::vector<uint8_t> widths = Concat(Header(8, 14), Bytes({0x03, 2, 0xFF, 0x41, 0x80}));
  widths = Concat(widths, Bytes({0xC0, 0xFF, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(DecodeInto<Int32Type>(widths, 8, &out).ok());
  EXPECT_EQ(out, expected);
  // Arbitrary padding bits after the last value.
  std::vector<uint8_t> padding = Concat(Header(8, 14), Bytes({0x03, 2, 0, 0, 0}));
  padding = Concat(padding, Bytes({0xC0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  ASSERT_TRUE(DecodeInto<Int32Type>(padding, 8, &out).ok());
  EXPECT_EQ(out, expected);
  // The last miniblock without its padding: 7 deltas of 2 bits need 2 bytes.
  std::vector<uint8_t> unpadded = Concat(Header(8, 14), Bytes({0x03, 2, 0, 0, 0, 0xC0, 0x3F}));
  ASSERT_TRUE(DecodeInto<Int32Type>(unpadded, 8, &out).ok());
  EXPECT_EQ(out, expected);
  unpadded.pop_back();
  EXPECT_EQ(DecodeInto<Int32Type>(unpadded, 8, &out).code(), StatusCode::kCorruption);
  // A stream of one value is only a header; of none, too.
  ASSERT_TRUE(DecodeInto<Int32Type>(Header(1, 3), 1, &out).ok());
  EXPECT_EQ(out, std::vector<int32_t>{-2});
  ASSERT_TRUE(DecodeInto<Int32Type>(Header(0, 0), 0, &out).ok());
}

TEST(DeltaBinaryPackedTest, SixtyFourBitWidthsAndWrapAround) {
  // 33 values: 0, then 32 deltas of 2^64 - 1 (= -1) at bit width 64 with min delta 0.
  std::vector<uint8_t> bytes = Concat(Header(33, 0), Bytes({0x00, 64, 0, 0, 0}));
  bytes.insert(bytes.end(), 32 * 8, 0xFF);
  std::vector<int64_t> out;
  ASSERT_TRUE(DecodeInto<Int64Type>(bytes, 33, &out).ok());
  for (int i = 0; i < 33; ++i) EXPECT_EQ(out[i], -i);
  // Extremes that overflow every subtraction, in both widths.
  const std::vector<int64_t> wild = {INT64_MIN, INT64_MAX, 0,         INT64_MIN, -1,
                                     INT64_MAX, 1,         INT64_MIN, INT64_MIN, INT64_MAX};
  DeltaBinaryPackedEncoder<Int64Type> e64;
  e64.Put(wild.data(), static_cast<int64_t>(wild.size()));
  ASSERT_TRUE(DecodeInto<Int64Type>(e64.Finish(), 10, &out).ok());
  EXPECT_EQ(out, wild);
  const std::vector<int32_t> wild32 = {INT32_MIN, INT32_MAX, 0, INT32_MIN, -1, INT32_MAX};
  DeltaBinaryPackedEncoder<Int32Type> e32;
  e32.Put(wild32.data(), 6);
  std::vector<int32_t> out32;
  const std::vector<uint8_t> encoded = e32.Finish();
  ASSERT_TRUE(DecodeInto<Int32Type>(encoded, 6, &out32).ok());
  EXPECT_EQ(out32, wild32);
}

TEST(DeltaBinaryPackedTest, WidthsWiderThan64AreCorruption) {
  // INT32 streams may carry miniblocks up to 64 bits wide (DuckDB computes INT32 deltas in 64
  // bits and writes 33-bit miniblocks for values spanning the whole range); they wrap.
  std::vector<uint8_t> wide32 = Concat(Header(2, 0), Bytes({0x00, 33, 0, 0, 0}));
  wide32.insert(wide32.end(), 33 * 4, 0);
  wide32[wide32.size() - 33 * 4] = 0x03;  // first delta 3
  std::vector<int32_t> wide_out;
  ASSERT_TRUE(DecodeInto<Int32Type>(wide32, 2, &wide_out).ok());
  EXPECT_EQ(wide_out, (std::vector<int32_t>{0, 3}));
  std::vector<uint8_t> i32 = Concat(Header(2, 0), Bytes({0x00, 65, 0, 0, 0}));
  i32.insert(i32.end(), 65 * 4, 0);
  std::vector<int32_t> out32;
  Status st = DecodeInto<Int32Type>(i32, 2, &out32);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "DELTA_BINARY_PACKED: miniblock bit width 65 exceeds 64");
  std::vector<uint8_t> i64 = Concat(Header(2, 0), Bytes({0x00, 65, 0, 0, 0}));
  i64.insert(i64.end(), 65 * 4, 0);
  std::vector<int64_t> out64;
  EXPECT_EQ(DecodeInto<Int64Type>(i64, 2, &out64).code(), StatusCode::kCorruption);
  // Width 32 for INT32 is fine.
  std::vector<uint8_t> ok = Concat(Header(2, 0), Bytes({0x00, 32, 0, 0, 0}));
  ok.insert(ok.end(), 32 * 4, 0);
  EXPECT_TRUE(DecodeInto<Int32Type>(ok, 2, &out32).ok());
}

TEST(DeltaBinaryPackedTest, MalformedHeadersAreCorruption) {
  const std::vector<std::vector<uint8_t>> bad = {
      Bytes({0x00, 0x04, 0x05, 0x02}),                                // block size 0
      Bytes({0x64, 0x04, 0x05, 0x02}),                                // block size 100
      Bytes({0x80, 0x01, 0x00, 0x05, 0x02}),                          // no miniblocks
      Bytes({0x80, 0x01, 0x03, 0x05, 0x02}),                          // 128 / 3
      Bytes({0x80, 0x01, 0x08, 0x05, 0x02}),                          // 16 values per miniblock
      Bytes({0x80, 0x01, 0x04, 0x80, 0x80, 0x80, 0x80, 0x08, 0x02}),  // 2^31 values
      Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}),  // 11-byte varint
      Bytes({0x80, 0x01, 0x04, 0x05}),                                            // no first value
  };
  for (const auto& bytes : bad) {
    std::vector<int32_t> out;
    EXPECT_EQ(DecodeInto<Int32Type>(bytes, 5, &out).code(), StatusCode::kCorruption);
  }
  // Every truncation of a valid two-block stream is refused or decodes the same values.
  std::vector<int64_t> values(300);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * i * 977) - 5000;
  DeltaBinaryPackedEncoder<Int64Type> e;
  e.Put(values.data(), 300);
  const std::vector<uint8_t> full = e.Finish();
  for (size_t len = 0; len < full.size(); ++len) {
    std::vector<int64_t> out;
    Status st = DecodeInto<Int64Type>({full.begin(), full.begin() + static_cast<ptrdiff_t>(len)},
                                      300, &out);
    if (st.ok()) {
      EXPECT_EQ(out, values) << len;
    } else {
      EXPECT_EQ(st.code(), StatusCode::kCorruption) << len;
    }
  }
}

TEST(DeltaBinaryPackedTest, HugeCountsNeedTheirBlocks) {
  // A header claiming 2^31 - 1 values with one block of zero widths (1 + 128 values).
  std::vector<uint8_t> bytes = Bytes({0x80, 0x01, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00});
  bytes = Concat(bytes, Bytes({0x02, 0, 0, 0, 0}));
  DeltaBinaryPackedDecoder<Int32Type> d;
  ASSERT_TRUE(d.SetData(Span(bytes), INT64_MAX).ok());
  EXPECT_EQ(d.values_left(), INT32_MAX);
  std::vector<int32_t> out(200);
  ASSERT_TRUE(d.Decode(out.data(), 129).ok());
  EXPECT_EQ(out[128], 128);
  EXPECT_EQ(d.Decode(out.data(), 1).code(), StatusCode::kCorruption);
  EXPECT_EQ(d.values_left(), 0);
  // The page's count caps the header's.
  ASSERT_TRUE(d.SetData(Span(bytes), 10).ok());
  EXPECT_EQ(d.values_left(), 10);
  EXPECT_EQ(d.Skip(11).code(), StatusCode::kCorruption);
  EXPECT_TRUE(d.Skip(10).ok());
  // A block whose bit widths are cut off; a min delta that never ends.
  for (const auto& cut :
       {Concat(Header(5, 2), Bytes({0x02, 0, 0})), Concat(Header(5, 2), Bytes({0x82, 0x80}))}) {
    std::vector<int32_t> few;
    EXPECT_EQ(DecodeInto<Int32Type>(cut, 5, &few).code(), StatusCode::kCorruption);
  }
}

TEST(DeltaBinaryPackedTest, FindEndWalksBlocksWithoutDecoding) {
  std::vector<uint32_t> values(1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint32_t>(i % 37 * i);
  DeltaStreamWriter<uint32_t> w;
  for (uint32_t v : values) w.Put(v);
  std::vector<uint8_t> bytes;
  w.FinishInto(bytes);
  const size_t stream_size = bytes.size();
  bytes.insert(bytes.end(), {1, 2, 3});  // what follows the stream
  DeltaStreamReader<uint32_t> r("test");
  ASSERT_TRUE(r.Init(Span(bytes)).ok());
  auto end = r.FindEnd();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, stream_size);
  std::vector<uint32_t> out(1000);
  ASSERT_TRUE(r.Read(out.data(), 1000).ok());
  EXPECT_EQ(out, values);
}

}  // namespace
}  // namespace pqsift::encoding
