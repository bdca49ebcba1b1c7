// Dictionary encoding: decoding hand-made pages, index checks (the exact message), bit widths,
// dictionary pages that cannot hold their count, dictionary storage outliving the page, and
// the encoder's dictionary (exact bit patterns, PLAIN dictionary page, bit width per page).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "encoding/dictionary_decoder.h"
#include "encoding/dictionary_encoder.h"
#include "encoding_test_util.h"

namespace pqsift::encoding {
namespace {

using testing::Bytes;
using testing::Concat;
using testing::Span;
using testing::StringBytes;

std::vector<uint8_t> PlainStrings(const std::vector<std::string>& strings) {
  std::vector<uint8_t> out;
  for (const auto& s : strings) {
    out = Concat(out, Bytes({static_cast<int>(s.size()), 0, 0, 0}));
    out = Concat(out, StringBytes(s));
  }
  return out;
}

TEST(DictionaryTest, DecodesHandMadePages) {
  std::vector<uint8_t> page = PlainStrings({"red", "green", "blue"});
  auto made = DictionaryDecoder<ByteArrayType>::Make(Span(page), 3, 0);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto& d = **made;
  ASSERT_EQ(d.dictionary().size(), 3u);
  // Bit width 2; RLE 3 x 2, then bit-packed 8 values 0 1 2 0 | 1 2 0 1, LSB first: 0x24 0x49.
  std::vector<uint8_t> data = Bytes({2, 0x06, 0x02, 0x03, 0x24, 0x49});
  ASSERT_TRUE(d.SetData(Span(data), 11).ok());
  std::vector<ByteView> out(11);
  ASSERT_TRUE(d.Decode(out.data(), 11).ok());
  const char* expected[] = {"blue", "blue",  "blue", "red", "green", "blue",
                            "red",  "green", "blue", "red", "green"};
  for (int i = 0; i < 11; ++i) EXPECT_EQ(out[i].str(), expected[i]) << i;
  // DecodeIndices sees the same indices.
  ASSERT_TRUE(d.SetData(Span(data), 11).ok());
  std::vector<int32_t> indices(11);
  ASSERT_TRUE(d.DecodeIndices(indices.data(), 11).ok());
  EXPECT_EQ(indices, (std::vector<int32_t>{2, 2, 2, 0, 1, 2, 0, 1, 2, 0, 1}));
}

TEST(DictionaryTest, DictionaryOutlivesThePageBuffer) {
  std::vector<ByteView> views;
  std::unique_ptr<DictionaryDecoder<ByteArrayType>> d;
  {
    std::vector<uint8_t> page = PlainStrings({"kept", "alive"});
    auto made = DictionaryDecoder<ByteArrayType>::Make(Span(page), 2, 0);
    ASSERT_TRUE(made.ok());
    d = std::move(*made);
    std::fill(page.begin(), page.end(), 0);  // then freed
  }
  std::vector<uint8_t> data = Bytes({1, 0x03, 0x02});  // bit-packed 8: 0 1 0 0 0 0 0 0
  ASSERT_TRUE(d->SetData(Span(data), 2).ok());
  ByteView out[2];
  ASSERT_TRUE(d->Decode(out, 2).ok());
  EXPECT_EQ(out[0].str(), "kept");
  EXPECT_EQ(out[1].str(), "alive");
}

TEST(DictionaryTest, IndexOutOfRangeIsCorruptionWithItsNumbers) {
  std::vector<uint8_t> page = Bytes({10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0});
  auto made = DictionaryDecoder<Int32Type>::Make(Span(page), 3, 0);
  ASSERT_TRUE(made.ok());
  auto& d = **made;
  // An RLE run of index 7, then a bit-packed run with a 5 among good indices.
  for (const std::vector<uint8_t>& data :
       {Bytes({3, 0x04, 0x07}), Bytes({3, 0x03, 0x29, 0x00, 0x00})}) {  // 1 5 0 0 0 0 0 0
    ASSERT_TRUE(d.SetData(Span(data), 2).ok());
    int32_t out[2];
    Status st = d.Decode(out, 2);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    const bool is_rle = data[1] == 0x04;
    EXPECT_EQ(st.message(), std::string("dictionary index ") + (is_rle ? "7" : "5") +
                                " out of range (dictionary has 3 entries)");
    ASSERT_TRUE(d.SetData(Span(data), 2).ok());
    EXPECT_EQ(d.DecodeIndices(out, 2).code(), StatusCode::kCorruption);
  }
  // The largest index a bit width of 32 can hold.
  std::vector<uint8_t> wide = Bytes({32, 0x02, 0xFF, 0xFF, 0xFF, 0xFF});
  ASSERT_TRUE(d.SetData(Span(wide), 1).ok());
  int32_t out;
  EXPECT_EQ(d.Decode(&out, 1).message(),
            "dictionary index 4294967295 out of range (dictionary has 3 entries)");
  ASSERT_TRUE(d.SetData(Span(wide), 1).ok());
  EXPECT_EQ(d.DecodeIndices(&out, 1).code(), StatusCode::kCorruption);
  // Skipped indices are not used, so not checked.
  ASSERT_TRUE(d.SetData(Span(wide), 1).ok());
  EXPECT_TRUE(d.Skip(1).ok());
}

TEST(DictionaryTest, MalformedDataPagesAreCorruption) {
  std::vector<uint8_t> page = Bytes({1, 0, 0, 0});
  auto made = DictionaryDecoder<Int32Type>::Make(Span(page), 1, 0);
  ASSERT_TRUE(made.ok());
  auto& d = **made;
  std::vector<uint8_t> wide = Bytes({33, 0x02, 0, 0, 0, 0, 0});
  EXPECT_EQ(d.SetData(Span(wide), 1).code(), StatusCode::kCorruption);
  int32_t out[4];
  EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);  // nothing to decode after it
  // Fewer indices than asked for; an empty page.
  std::vector<uint8_t> two = Bytes({0, 0x04});  // bit width 0: RLE 2 x index 0
  ASSERT_TRUE(d.SetData(Span(two), 4).ok());
  EXPECT_TRUE(d.Decode(out, 2).ok());
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);
  std::vector<uint8_t> empty;
  ASSERT_TRUE(d.SetData(Span(empty), 4).ok());
  EXPECT_EQ(d.Decode(out, 1).code(), StatusCode::kCorruption);
  EXPECT_TRUE(d.Decode(out, 0).ok());
}

TEST(DictionaryTest, DictionaryPagesThatCannotHoldTheirCount) {
  std::vector<uint8_t> page = Bytes({1, 0, 0, 0, 2, 0, 0, 0});
  EXPECT_EQ(DictionaryDecoder<Int32Type>::Make(Span(page), 3, 0).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DictionaryDecoder<Int32Type>::Make(Span(page), -1, 0).status().code(),
            StatusCode::kCorruption);
  // A huge count is refused before anything is allocated.
  EXPECT_EQ(DictionaryDecoder<Int64Type>::Make(Span(page), INT64_MAX, 0).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DictionaryDecoder<ByteArrayType>::Make(Span(page), 1LL << 40, 0).status().code(),
            StatusCode::kCorruption);
  // Two byte arrays whose second length runs past the page.
  std::vector<uint8_t> strings = Concat(PlainStrings({"ab"}), Bytes({9, 0, 0, 0, 'x'}));
  Status st = DictionaryDecoder<ByteArrayType>::Make(Span(strings), 2, 0).status();
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("dictionary page"), std::string::npos) << st.message();
  EXPECT_EQ(DictionaryDecoder<FixedLenByteArrayType>::Make(Span(page), 1, 0).status().code(),
            StatusCode::kInvalidArgument);
  // An empty dictionary is fine until an index is used.
  std::vector<uint8_t> none;
  auto empty = DictionaryDecoder<DoubleType>::Make(Span(none), 0, 0);
  ASSERT_TRUE(empty.ok());
  std::vector<uint8_t> data = Bytes({0, 0x02});
  ASSERT_TRUE((*empty)->SetData(Span(data), 1).ok());
  double out;
  EXPECT_EQ((*empty)->Decode(&out, 1).code(), StatusCode::kCorruption);
}

TEST(DictionaryTest, EncoderKeepsExactBitPatterns) {
  const double nan_a = std::numeric_limits<double>::quiet_NaN();
  double nan_b = nan_a;
  uint64_t bits;
  std::memcpy(&bits, &nan_b, 8);
  bits ^= 1;  // another payload
  std::memcpy(&nan_b, &bits, 8);
  const std::vector<double> values = {0.0, -0.0, nan_a, nan_b, 0.0, nan_a, 1.5, -0.0};
  DictionaryEncoder<DoubleType> e;
  e.Put(values.data(), 8);
  EXPECT_EQ(e.num_entries(), 5);
  EXPECT_EQ(e.dictionary_page_size(), 40u);
  std::vector<uint8_t> data = e.Finish();
  EXPECT_EQ(data[0], 3);  // 5 entries need 3 bits
  std::vector<uint8_t> page;
  e.AppendDictionaryPage(page);
  auto d = DictionaryDecoder<DoubleType>::Make(Span(page), 5, 0);
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE((*d)->SetData(Span(data), 8).ok());
  std::vector<double> out(8);
  ASSERT_TRUE((*d)->Decode(out.data(), 8).ok());
  EXPECT_TRUE(testing::SameValues(values.data(), out.data(), 8));
}

TEST(DictionaryTest, EncoderBuildsOneDictionaryAcrossPages) {
  DictionaryEncoder<ByteArrayType> e;
  std::string a = "apple", b = "banana";
  ByteView va{reinterpret_cast<const uint8_t*>(a.data()), 5};
  ByteView vb{reinterpret_cast<const uint8_t*>(b.data()), 6};
  e.Put(&va, 1);
  e.Put(&va, 1);
  const std::vector<uint8_t> page1 = e.Finish();
  EXPECT_EQ(page1, Bytes({0, 0x04}));  // one entry: bit width 0, RLE 2 x 0
  a = "xxxxx";                         // the encoder copied the bytes
  e.Put(&vb, 1);
  EXPECT_EQ(e.num_values(), 1);
  const std::vector<uint8_t> page2 = e.Finish();
  EXPECT_EQ(page2[0], 1);
  EXPECT_EQ(e.num_entries(), 2);
  std::vector<uint8_t> dict;
  e.AppendDictionaryPage(dict);
  EXPECT_EQ(dict, PlainStrings({"apple", "banana"}));
  EXPECT_EQ(e.dictionary_page_size(), dict.size());
}

TEST(DictionaryTest, BooleanAndFixedLenDictionaries) {
  DictionaryEncoder<BooleanType> e;
  const std::vector<uint8_t> values = {1, 0, 1, 1, 7};  // any non-zero byte is true
  e.Put(values.data(), 5);
  EXPECT_EQ(e.num_entries(), 2);
  std::vector<uint8_t> page;
  e.AppendDictionaryPage(page);
  EXPECT_EQ(page, Bytes({0x01}));  // true, false bit-packed
  EXPECT_EQ(e.dictionary_page_size(), 1u);
  auto d = DictionaryDecoder<BooleanType>::Make(Span(page), 2, 0);
  ASSERT_TRUE(d.ok());
  const std::vector<uint8_t> data = e.Finish();
  ASSERT_TRUE((*d)->SetData(Span(data), 5).ok());
  std::vector<uint8_t> out(5);
  ASSERT_TRUE((*d)->Decode(out.data(), 5).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 1, 1, 1}));
}

}  // namespace
}  // namespace pqsift::encoding
