// Every encoder against its decoder, for every supported (type, encoding) pair: random values
// of several shapes and sizes (0 .. 100k, around the 8/32/128 boundaries of runs, miniblocks
// and blocks) decode back bit for bit; random interleavings of Skip and Decode give the same
// values as one full decode; ByteViews stay valid until the next SetData; encoders are
// reusable across pages.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_cases.h"
#include "encoding_test_util.h"

namespace pqsift::encoding::testing {
namespace {

class EncodingRoundTripTest : public ::testing::TestWithParam<Case> {};

template <typename DType>
void RoundTrip(const Case& c, size_t n, Shape shape, uint64_t seed) {
  using Value = typename DType::Value;
  SCOPED_TRACE("n=" + std::to_string(n) + " shape=" + std::to_string(static_cast<int>(shape)));
  Values<DType> values = MakeValues<DType>(n, shape, seed, c.type_length);
  EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
  std::unique_ptr<ValueDecoder<DType>> holder;
  auto decoder = MakeDecoder<DType>(c.encoding, c.type_length, page, holder);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  ValueDecoder<DType>& d = **decoder;
  const auto count = static_cast<int64_t>(n);
  ASSERT_TRUE(d.SetData(Span(page.data), count).ok());
  EXPECT_EQ(d.values_left(), count);
  std::vector<Value> out(n + 1);
  Status st = d.Decode(out.data(), count);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(SameValues(values.values.data(), out.data(), count));
  EXPECT_EQ(d.values_left(), 0);
  // The page has no more values: asking for one is Corruption, asking for none is fine.
  EXPECT_EQ(d.Decode(out.data(), 1).code(), StatusCode::kCorruption);
  EXPECT_TRUE(d.Decode(out.data(), 0).ok());
}

TEST_P(EncodingRoundTripTest, AllSizesAndShapes) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    uint64_t seed = 1;
    for (size_t n : {0, 1, 7, 8, 31, 32, 33, 127, 128, 129, 1000}) {
      for (Shape shape : kAllShapes) RoundTrip<DType>(c, n, shape, seed++);
    }
    for (Shape shape : {Shape::kRandom, Shape::kRuns, Shape::kSorted}) {
      RoundTrip<DType>(c, 100000, shape, seed++);
    }
  });
}

template <typename DType>
void Interleave(const Case& c, uint64_t seed) {
  using Value = typename DType::Value;
  std::mt19937_64 rng(seed);
  const size_t n = 1000 + rng() % 4000;
  const Shape shape = kAllShapes[rng() % 5];
  SCOPED_TRACE("seed=" + std::to_string(seed) + " n=" + std::to_string(n));
  Values<DType> values = MakeValues<DType>(n, shape, seed, c.type_length);
  EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
  // The reference: one full decode (itself checked against the input), by its own decoder
  // since its views only live until that decoder's next SetData.
  std::unique_ptr<ValueDecoder<DType>> reference_holder, holder;
  auto reference = MakeDecoder<DType>(c.encoding, c.type_length, page, reference_holder);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  std::vector<Value> all(n);
  ASSERT_TRUE((*reference)->SetData(Span(page.data), static_cast<int64_t>(n)).ok());
  ASSERT_TRUE((*reference)->Decode(all.data(), static_cast<int64_t>(n)).ok());
  ASSERT_TRUE(SameValues(values.values.data(), all.data(), static_cast<int64_t>(n)));

  auto decoder = MakeDecoder<DType>(c.encoding, c.type_length, page, holder);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  ValueDecoder<DType>& d = **decoder;
  ASSERT_TRUE(d.SetData(Span(page.data), static_cast<int64_t>(n)).ok());
  // Every decoded value, kept until the end: views must stay valid until the next SetData.
  std::vector<std::pair<size_t, std::vector<Value>>> decoded;
  size_t pos = 0;
  int skips = 0;
  for (int step = 0; pos < n; ++step) {
    const size_t limit = rng() % 4 == 0 ? 700 : 40;
    const size_t k = std::min<size_t>(rng() % limit, n - pos);
    if ((step + rng() % 3) % 2 == 0) {
      Status st = d.Skip(static_cast<int64_t>(k));
      ASSERT_TRUE(st.ok()) << st.ToString();
      ++skips;
    } else {
      std::vector<Value> chunk(k);
      Status st = d.Decode(chunk.data(), static_cast<int64_t>(k));
      ASSERT_TRUE(st.ok()) << st.ToString();
      decoded.emplace_back(pos, std::move(chunk));
    }
    pos += k;
    ASSERT_EQ(d.values_left(), static_cast<int64_t>(n - pos));
  }
  EXPECT_GT(skips, 0);
  for (const auto& [at, chunk] : decoded) {
    EXPECT_TRUE(SameValues(all.data() + at, chunk.data(), static_cast<int64_t>(chunk.size())))
        << "chunk at " << at;
  }
}

TEST_P(EncodingRoundTripTest, SkipAndDecodeInterleavedEqualAFullDecode) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    for (uint64_t seed = 100; seed < 120; ++seed) Interleave<decltype(tag)>(c, seed);
  });
}

template <typename DType>
void TwoPages(const Case& c) {
  using Value = typename DType::Value;
  Values<DType> a = MakeValues<DType>(300, Shape::kRuns, 7, c.type_length);
  Values<DType> b = MakeValues<DType>(200, Shape::kRandom, 8, c.type_length);
  std::vector<uint8_t> page_a, page_b, dictionary;
  int64_t entries = -1;
  std::unique_ptr<ValueDecoder<DType>> holder;
  if (IsDictionary(c.encoding)) {
    DictionaryEncoder<DType> encoder(c.type_length);
    encoder.Put(a.values.data(), 300);
    encoder.FinishInto(page_a);
    encoder.Put(b.values.data(), 200);
    encoder.FinishInto(page_b);
    encoder.AppendDictionaryPage(dictionary);
    entries = encoder.num_entries();
    auto d = DictionaryDecoder<DType>::Make(Span(dictionary), entries, c.type_length);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    holder = std::move(*d);
  } else {
    auto encoder = MakeValueEncoder<DType>(c.encoding, c.type_length);
    ASSERT_TRUE(encoder.ok());
    (*encoder)->Put(a.values.data(), 300);
    EXPECT_GT((*encoder)->EstimatedSize(), 0u);
    (*encoder)->FinishInto(page_a);
    EXPECT_EQ((*encoder)->num_values(), 0);
    (*encoder)->Put(b.values.data(), 100);
    (*encoder)->Put(b.values.data() + 100, 100);
    page_b = (*encoder)->Finish();
    auto d = MakeValueDecoder<DType>(c.encoding, c.type_length);
    ASSERT_TRUE(d.ok());
    holder = std::move(*d);
  }
  for (const auto* page : {&page_a, &page_b}) {
    const Values<DType>& expected = page == &page_a ? a : b;
    const auto n = static_cast<int64_t>(expected.size());
    std::vector<Value> out(expected.size());
    ASSERT_TRUE(holder->SetData(Span(*page), n).ok());
    Status st = holder->Decode(out.data(), n);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_TRUE(SameValues(expected.values.data(), out.data(), n));
  }
}

TEST_P(EncodingRoundTripTest, EncodersAndDecodersAreReusableAcrossPages) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) { TwoPages<decltype(tag)>(c); });
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, EncodingRoundTripTest, ::testing::ValuesIn(AllCases()),
                         CaseName);

// The factories refuse what the spec does not define, with the right code.
TEST(EncodingFactoryTest, RefusesUndefinedPairs) {
  EXPECT_EQ(MakeValueDecoder<Int32Type>(Encoding::kDeltaByteArray, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<ByteArrayType>(Encoding::kByteStreamSplit, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<DoubleType>(Encoding::kRle, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<Int32Type>(Encoding::kBitPacked, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<Int96Type>(Encoding::kDeltaBinaryPacked, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<Int64Type>(static_cast<Encoding>(42), 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueDecoder<Int64Type>(Encoding::kRleDictionary, 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeValueDecoder<FixedLenByteArrayType>(Encoding::kPlain, 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeValueEncoder<FloatType>(Encoding::kDeltaBinaryPacked, 0).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(MakeValueEncoder<BooleanType>(Encoding::kPlainDictionary, 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeValueEncoder<FixedLenByteArrayType>(Encoding::kPlain, -1).status().code(),
            StatusCode::kInvalidArgument);
  for (const Case& c : AllCases()) {
    if (IsDictionary(c.encoding)) continue;
    DispatchType(c.type, [&](auto tag) {
      using DType = decltype(tag);
      EXPECT_TRUE((MakeValueDecoder<DType>(c.encoding, c.type_length).ok()));
      EXPECT_TRUE((MakeValueEncoder<DType>(c.encoding, c.type_length).ok()));
    });
  }
}

TEST(EncodingFactoryTest, NegativeCountsAreInvalidArguments) {
  auto d = MakeValueDecoder<Int32Type>(Encoding::kPlain, 0);
  ASSERT_TRUE(d.ok());
  std::vector<uint8_t> data(8);
  ASSERT_TRUE((*d)->SetData(Span(data), 2).ok());
  int32_t out[2];
  EXPECT_EQ((*d)->Decode(out, -1).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*d)->Skip(-1).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*d)->SetData(Span(data), -1).code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace pqsift::encoding::testing
