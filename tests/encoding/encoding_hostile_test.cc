// Hostile pages for every (type, encoding) pair: each page truncated at every byte (copied into
// a buffer of exactly that size, so the sanitizer build sees any read past it) and pages with
// random bit flips. Decoding must either succeed or fail with Corruption; a truncated page that
// decodes must give the original values (only padding may be missing), and a page with a
// length/count header must notice that values are missing.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_cases.h"
#include "encoding_test_util.h"

namespace pqsift::encoding::testing {
namespace {

class EncodingHostileTest : public ::testing::TestWithParam<Case> {};

// Decodes n values from `data` (and the dictionary page) with the decoder for `c`, in chunks
// mixed with skips when `chunked`. Returns the status; *out holds what was decoded.
// The decoder and the page copy live in *state, so decoded views stay valid after the call.
template <typename DType>
struct DecodeState {
  std::unique_ptr<ValueDecoder<DType>> decoder;
  std::unique_ptr<uint8_t[]> page;
};

template <typename DType>
Status DecodeAll(const Case& c, const std::vector<uint8_t>& data,
                 const std::vector<uint8_t>& dictionary, int64_t entries, int64_t n, bool chunked,
                 std::vector<typename DType::Value>* out, DecodeState<DType>* state) {
  EncodedPage<DType> page;
  page.dictionary_page = dictionary;
  page.dictionary_entries = entries;
  PQSIFT_ASSIGN_OR_RETURN(ValueDecoder<DType> * d,
                          MakeDecoder<DType>(c.encoding, c.type_length, page, state->decoder));
  // An exact-size heap copy: ASan reports any read past its end.
  state->page = std::make_unique<uint8_t[]>(data.size() + 1);
  if (!data.empty()) std::memcpy(state->page.get(), data.data(), data.size());
  PQSIFT_RETURN_IF_ERROR(d->SetData({state->page.get(), data.size()}, n));
  out->assign(static_cast<size_t>(n), typename DType::Value{});
  if (!chunked) return d->Decode(out->data(), n);
  int64_t pos = 0;
  for (int step = 0; pos < n; ++step) {
    const int64_t k = std::min<int64_t>(n - pos, 1 + step % 13);
    if (step % 3 == 2) {
      PQSIFT_RETURN_IF_ERROR(d->Skip(k));
    } else {
      PQSIFT_RETURN_IF_ERROR(d->Decode(out->data() + pos, k));
    }
    pos += k;
  }
  return Status::OK();
}

template <typename DType>
void Truncations(const Case& c, Shape shape) {
  using Value = typename DType::Value;
  const int64_t n = 75;
  Values<DType> values = MakeValues<DType>(static_cast<size_t>(n), shape, 3, c.type_length);
  EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
  int failures = 0;
  // Every cut of a small page; of a large one (long strings), every cut near its start (the
  // headers) and end, and every 37th byte between.
  const size_t size = page.data.size();
  for (size_t len = 0; len < size; len += (len < 512 || len + 512 > size) ? 1 : 37) {
    std::vector<uint8_t> cut(page.data.begin(), page.data.begin() + static_cast<ptrdiff_t>(len));
    for (bool chunked : {false, true}) {
      std::vector<Value> out;
      DecodeState<DType> state;
      Status st = DecodeAll<DType>(c, cut, page.dictionary_page, page.dictionary_entries, n,
                                   chunked, &out, &state);
      if (st.ok()) {
        if (!chunked) {
          EXPECT_TRUE(SameValues(values.values.data(), out.data(), n))
              << "a page cut to " << len << " of " << page.data.size() << " bytes decoded "
              << "to other values";
        }
      } else {
        EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
        ++failures;
      }
    }
  }
  // At least every cut that loses whole values must fail (the empty page always does).
  EXPECT_GT(failures, 0);
  if (IsDictionary(c.encoding)) {
    // A cut dictionary page cannot hold its entries.
    for (size_t len = 0; len < page.dictionary_page.size(); ++len) {
      std::vector<uint8_t> cut(page.dictionary_page.begin(),
                               page.dictionary_page.begin() + static_cast<ptrdiff_t>(len));
      auto d = DictionaryDecoder<DType>::Make(Span(cut), page.dictionary_entries, c.type_length);
      EXPECT_EQ(d.status().code(), StatusCode::kCorruption) << "dictionary cut to " << len;
    }
  }
}

TEST_P(EncodingHostileTest, TruncatedAtEveryByte) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    for (Shape shape : {Shape::kRandom, Shape::kRuns, Shape::kSorted}) {
      Truncations<decltype(tag)>(c, shape);
    }
  });
}

template <typename DType>
void BitFlips(const Case& c) {
  using Value = typename DType::Value;
  std::mt19937_64 rng(99);
  const int64_t n = 300;
  int failures = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    Values<DType> values = MakeValues<DType>(static_cast<size_t>(n), kAllShapes[iteration % 5],
                                             static_cast<uint64_t>(iteration), c.type_length);
    EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
    if (page.data.empty()) continue;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      std::vector<uint8_t>& target =
          !page.dictionary_page.empty() && rng() % 4 == 0 ? page.dictionary_page : page.data;
      target[rng() % target.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    // Sometimes also claim more values than were written, as a page with nulls does.
    const int64_t claimed = n + (rng() % 4 == 0 ? static_cast<int64_t>(rng() % 1000) : 0);
    std::vector<Value> out;
    DecodeState<DType> state;
    Status st = DecodeAll<DType>(c, page.data, page.dictionary_page, page.dictionary_entries,
                                 claimed, iteration % 2 == 1, &out, &state);
    if (!st.ok()) {
      EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
      ++failures;
    }
  }
  // Claiming more values than exist must have failed at least those times.
  EXPECT_GT(failures, 0);
}

TEST_P(EncodingHostileTest, RandomBitFlipsNeverCrash) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) { BitFlips<decltype(tag)>(c); });
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, EncodingHostileTest, ::testing::ValuesIn(AllCases()),
                         CaseName);

}  // namespace
}  // namespace pqsift::encoding::testing
