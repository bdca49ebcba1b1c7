// Pages whose bytes arrive while they are decoded (ValueDecoder::SetArrivingData, byte_supply.h):
// for every (type, encoding) pair, random interleavings of Decode and Skip over a page revealed
// in small random steps (or exactly as asked) give the same statuses, values_left() and values
// as SetData over the whole page; ByteViews decoded early keep their contents once the whole
// page is there; a truncated page (or a supply that stops growing) fails exactly where SetData
// over the truncated bytes fails; garbage pages agree too. PLAIN and dictionary pages stop
// asking for bytes where the reader stops; the other decoders take the whole page first. The
// RLE/bit-packed hybrid decoder is checked the same way on its own, at every bit width.
//
// Under AddressSanitizer the supply's bytes past the revealed end are poisoned, so a decoder
// that reads a byte it did not ask for faults.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "arriving_bytes.h"
#include "encoding/byte_supply.h"
#include "encoding/dictionary_decoder.h"
#include "encoding/dictionary_encoder.h"
#include "encoding/plain.h"
#include "encoding/rle_bit_packed.h"
#include "encoding_cases.h"
#include "encoding_test_util.h"

namespace pqsift::encoding::testing {
namespace {

constexpr size_t kAll = std::numeric_limits<size_t>::max();

using fuzz::ExactCopy;

// A page revealed front to back (arriving_bytes.h). kExact grows to exactly what is asked (or
// the end); kRandom sometimes exactly, sometimes a byte or a few more. No more than `limit`
// bytes ever arrive: a truncated page, or a stream that fails part way. A request that does not
// start inside the bytes revealed so far or at their end fails the test.
class TestSupply final : public fuzz::ArrivingBytes {
 public:
  enum class Steps { kExact, kRandom };

  TestSupply(std::span<const uint8_t> page, Steps steps, uint64_t seed, size_t limit = kAll)
      : ArrivingBytes(
            page,
            [this, steps]() -> size_t {
              if (steps == Steps::kExact) return 0;
              const uint64_t r = rng_() % 8;
              return r < 3 ? 0 : r < 5 ? 1 : r < 7 ? rng_() % 8 : rng_() % 100;
            },
            [] { ADD_FAILURE() << "Grow from outside the revealed bytes"; }, limit),
        rng_(seed) {}

 private:
  std::mt19937_64 rng_;
};

// How many bytes arrive with the page at the start: none, one, some, or all.
size_t FirstBytes(std::mt19937_64& rng, size_t size) {
  switch (rng() % 4) {
    case 0: return 0;
    case 1: return 1;
    case 2: return size == 0 ? 0 : rng() % size;
    default: return size;
  }
}

// A Decode or Skip request: mostly short, sometimes long, now and then 0, more than is left,
// or negative.
int64_t RequestSize(std::mt19937_64& rng, int64_t left) {
  const uint64_t r = rng() % 32;
  if (r == 0) return 0;
  if (r == 1) return left + 1 + static_cast<int64_t>(rng() % 3);
  if (r == 2) return -1;
  if (r < 20) return 1 + static_cast<int64_t>(rng() % 17);
  if (r < 28) return 1 + static_cast<int64_t>(rng() % 300);
  return 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(std::max<int64_t>(left, 1)));
}

// The values one Decode gave, with the reference's.
template <typename Value>
struct Decoded {
  int64_t first;  // index of the first value in the page's values
  std::vector<Value> expected, actual;
};

// Runs the same random Decode/Skip sequence over `whole` (SetData over the page's bytes up to
// the supply's limit) and `arriving` (SetArrivingData over `supply`) and expects the same
// statuses, values_left() and values. ByteViews are compared again once everything that will
// arrive has arrived.
template <typename DType>
void ExpectSameAsWhole(ValueDecoder<DType>& whole, ValueDecoder<DType>& arriving,
                       std::span<const uint8_t> whole_bytes, TestSupply& supply, int64_t num_values,
                       std::mt19937_64& rng, int* corruptions) {
  using Value = typename DType::Value;
  const Status set_whole = whole.SetData(whole_bytes, num_values);
  const Status set_arriving =
      arriving.SetArrivingData(supply.Start(FirstBytes(rng, supply.size())), num_values, &supply);
  ASSERT_EQ(set_whole.ToString(), set_arriving.ToString());
  ASSERT_EQ(whole.values_left(), arriving.values_left());
  std::vector<Decoded<Value>> kept;
  int64_t at = 0;
  int failures = 0;
  for (int step = 0; step < 10000 && failures < 2; ++step) {
    const int64_t left = whole.values_left();
    if (left == 0 && rng() % 4 != 0) break;
    const int64_t n = RequestSize(rng, left);
    const bool skip = rng() % 3 == 0;
    SCOPED_TRACE("step " + std::to_string(step) + ": " + (skip ? "Skip(" : "Decode(") +
                 std::to_string(n) + ") at value " + std::to_string(at) + " of " +
                 std::to_string(num_values));
    Decoded<Value> d{at, std::vector<Value>(static_cast<size_t>(std::max<int64_t>(n, 0))),
                     std::vector<Value>(static_cast<size_t>(std::max<int64_t>(n, 0)))};
    const Status a = skip ? whole.Skip(n) : whole.Decode(d.expected.data(), n);
    const Status b = skip ? arriving.Skip(n) : arriving.Decode(d.actual.data(), n);
    ASSERT_EQ(a.ToString(), b.ToString());
    ASSERT_EQ(whole.values_left(), arriving.values_left());
    if (!a.ok()) {
      // A request outside [0, values_left()] changes nothing; an error in the data leaves
      // values_left() 0 in both (checked above), and later requests must fail alike.
      if (n >= 0 && n <= left) {
        ++failures;
        if (a.code() == StatusCode::kCorruption) ++*corruptions;
      }
      continue;
    }
    if (!skip) {
      ASSERT_TRUE(SameValues(d.expected.data(), d.actual.data(), n));
      kept.push_back(std::move(d));
    }
    at += n;
  }
  // Views decoded early still hold their values once the rest has arrived.
  supply.RevealAll();
  for (const auto& d : kept) {
    SCOPED_TRACE("values decoded from " + std::to_string(d.first));
    ASSERT_TRUE(
        SameValues(d.expected.data(), d.actual.data(), static_cast<int64_t>(d.expected.size())));
  }
}

// A decoder for `page`'s encoding; two made from one page decode independently.
template <typename DType>
std::unique_ptr<ValueDecoder<DType>> Decoder(const Case& c, const EncodedPage<DType>& page) {
  std::unique_ptr<ValueDecoder<DType>> holder;
  auto made = MakeDecoder<DType>(c.encoding, c.type_length, page, holder);
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  return holder;
}

// `page` decoded whole and arriving (steps and first bytes from `seed`), up to `limit` bytes.
// Returns how many requests within values_left() both found corrupt.
template <typename DType>
int CheckPage(const Case& c, const EncodedPage<DType>& page, int64_t num_values,
              TestSupply::Steps steps, uint64_t seed, size_t limit = kAll) {
  SCOPED_TRACE("seed " + std::to_string(seed) + ", page of " + std::to_string(page.data.size()) +
               " bytes, limit " + (limit == kAll ? "none" : std::to_string(limit)));
  auto whole = Decoder<DType>(c, page);
  auto arriving = Decoder<DType>(c, page);
  if (!whole || !arriving) return 0;
  std::mt19937_64 rng(seed);
  TestSupply supply(Span(page.data), steps, seed * 7 + 1, limit);
  ExactCopy bytes(std::span<const uint8_t>(page.data).first(std::min(limit, page.data.size())));
  int corruptions = 0;
  ExpectSameAsWhole(*whole, *arriving, bytes.span(), supply, num_values, rng, &corruptions);
  return corruptions;
}

class ArrivingDataTest : public ::testing::TestWithParam<Case> {};

TEST_P(ArrivingDataTest, SameValuesAsTheWholePage) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    uint64_t seed = 1;
    for (size_t n : {0, 1, 7, 8, 9, 33, 200, 1000, 5000}) {
      for (Shape shape : kAllShapes) {
        for (auto steps : {TestSupply::Steps::kExact, TestSupply::Steps::kRandom}) {
          Values<DType> values = MakeValues<DType>(n, shape, seed, c.type_length);
          EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
          CheckPage<DType>(c, page, static_cast<int64_t>(n), steps, seed++);
          if (HasFatalFailure()) return;
        }
      }
    }
  });
}

// The decoders are given the page's count; a count above what the page holds fails in both
// at the same value.
TEST_P(ArrivingDataTest, CountAboveWhatThePageHolds) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Values<DType> values = MakeValues<DType>(50 + seed * 13, Shape::kRuns, seed, c.type_length);
      EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
      const auto n = static_cast<int64_t>(values.size() + 1 + seed % 40);
      CheckPage<DType>(c, page, n, TestSupply::Steps::kExact, seed);
      CheckPage<DType>(c, page, n, TestSupply::Steps::kRandom, seed + 1000);
      if (HasFatalFailure()) return;
    }
  });
}

// A page cut short (or a supply that stops growing there) fails exactly where SetData over the
// bytes up to the cut fails.
TEST_P(ArrivingDataTest, TruncatedPageFailsWhereSetDataFails) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    std::mt19937_64 rng(99);
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const size_t n = 1 + rng() % 600;
      Values<DType> values = MakeValues<DType>(n, kAllShapes[seed % 5], seed, c.type_length);
      EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
      const size_t size = page.data.size();
      std::vector<size_t> cuts = {0, 1, 2, size / 2, size == 0 ? 0 : size - 1};
      for (int i = 0; i < 6; ++i) cuts.push_back(size == 0 ? 0 : rng() % size);
      for (size_t cut : cuts) {
        for (auto steps : {TestSupply::Steps::kExact, TestSupply::Steps::kRandom}) {
          const int corruptions =
              CheckPage<DType>(c, page, static_cast<int64_t>(n), steps, rng(), cut);
          if (HasFatalFailure()) return;
          // PLAIN has no padding: any cut leaves a value short.
          if (c.encoding == Encoding::kPlain && cut < size) {
            EXPECT_GT(corruptions, 0) << "cut at " << cut;
          }
        }
      }
    }
  });
}

// Random bytes as a page (for dictionary pages, after a random bit width byte): whatever the
// decoders make of them, they make the same of them.
TEST_P(ArrivingDataTest, GarbagePagesAgree) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    std::mt19937_64 rng(7);
    Values<DType> values = MakeValues<DType>(40, Shape::kRandom, 3, c.type_length);
    for (int i = 0; i < 150; ++i) {
      EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
      const size_t size = rng() % 200;
      page.data.resize(size);
      for (auto& b : page.data) b = static_cast<uint8_t>(rng() % 4 == 0 ? rng() % 4 : rng());
      if (IsDictionary(c.encoding) && size > 0) page.data[0] = static_cast<uint8_t>(rng() % 34);
      const auto n = static_cast<int64_t>(rng() % 400);
      auto steps = i % 2 == 0 ? TestSupply::Steps::kExact : TestSupply::Steps::kRandom;
      CheckPage<DType>(c, page, n, steps, rng(), i % 3 == 0 ? rng() % (size + 1) : kAll);
      if (HasFatalFailure()) return;
    }
  });
}

// Decoders other than PLAIN and dictionary take the whole page before they start.
TEST_P(ArrivingDataTest, WhoReadsAsTheyGo) {
  const Case c = GetParam();
  DispatchType(c.type, [&](auto tag) {
    using DType = decltype(tag);
    Values<DType> values = MakeValues<DType>(3000, Shape::kRandom, 5, c.type_length);
    EncodedPage<DType> page = Encode<DType>(c.encoding, c.type_length, values.values);
    auto decoder = Decoder<DType>(c, page);
    ASSERT_TRUE(decoder);
    TestSupply supply(Span(page.data), TestSupply::Steps::kExact, 1);
    ASSERT_TRUE(decoder->SetArrivingData(supply.Start(0), 3000, &supply).ok());
    const bool as_they_go = c.encoding == Encoding::kPlain || IsDictionary(c.encoding);
    if (as_they_go) {
      EXPECT_LT(supply.revealed(), page.data.size());
    } else {
      EXPECT_EQ(supply.revealed(), page.data.size());
    }
    std::vector<typename DType::Value> out(3000);
    ASSERT_TRUE(decoder->Decode(out.data(), 3000).ok());
    EXPECT_TRUE(SameValues(values.values.data(), out.data(), 3000));
    EXPECT_EQ(supply.revealed(), page.data.size());
  });
}

INSTANTIATE_TEST_SUITE_P(Arriving, ArrivingDataTest, ::testing::ValuesIn(AllCases()), CaseName);

// ---- dictionary indices at several bit widths ----

// `n` values from `distinct` entries, in runs (RLE runs) and singles (bit-packed runs).
std::vector<int32_t> IndexLike(size_t n, uint32_t distinct, std::mt19937_64& rng) {
  std::vector<int32_t> out;
  while (out.size() < n) {
    const auto v = static_cast<int32_t>(rng() % distinct) * 7919;
    const uint64_t r = rng() % 10;
    const size_t run = r < 6 ? 1 : r < 9 ? 2 + rng() % 12 : 8 + rng() % 300;
    out.insert(out.end(), std::min(run, n - out.size()), v);
  }
  return out;
}

TEST(ArrivingDictionaryTest, BitWidthsRunsAndBitPackedRuns) {
  const Case c{PhysicalType::kInt32, Encoding::kRleDictionary};
  std::mt19937_64 rng(11);
  uint64_t seed = 1;
  for (uint32_t distinct : {1u, 2u, 3u, 5u, 17u, 129u, 300u, 5000u, 70000u}) {
    for (size_t n : {1, 100, 3000, 200000}) {
      if (distinct > n * 2 && n < 100000) continue;
      std::vector<int32_t> values = IndexLike(n, distinct, rng);
      EncodedPage<Int32Type> page = Encode<Int32Type>(c.encoding, 0, values);
      SCOPED_TRACE("distinct " + std::to_string(distinct) + ", n " + std::to_string(n) +
                   ", bit width " + std::to_string(page.data.empty() ? -1 : page.data[0]));
      for (auto steps : {TestSupply::Steps::kExact, TestSupply::Steps::kRandom}) {
        CheckPage<Int32Type>(c, page, static_cast<int64_t>(n), steps, seed++);
        CheckPage<Int32Type>(c, page, static_cast<int64_t>(n), steps, seed++,
                             rng() % (page.data.size() + 1));
        ASSERT_FALSE(HasFatalFailure());
      }
    }
  }
}

TEST(ArrivingDictionaryTest, DecodeIndicesAsTheyArrive) {
  std::mt19937_64 rng(12);
  std::vector<int32_t> values = IndexLike(20000, 1000, rng);
  DictionaryEncoder<Int32Type> encoder;
  encoder.Put(values.data(), static_cast<int64_t>(values.size()));
  std::vector<uint8_t> data, dictionary_page;
  encoder.FinishInto(data);
  encoder.AppendDictionaryPage(dictionary_page);
  auto made = DictionaryDecoder<Int32Type>::Make(Span(dictionary_page), encoder.num_entries(), 0);
  ASSERT_TRUE(made.ok());
  auto whole = (*made)->Share();
  auto arriving = (*made)->Share();
  TestSupply supply(Span(data), TestSupply::Steps::kRandom, 3);
  ASSERT_TRUE(whole->SetData(Span(data), 20000).ok());
  ASSERT_TRUE(arriving->SetArrivingData(supply.Start(0), 20000, &supply).ok());
  std::vector<int32_t> a(700), b(700);
  while (whole->values_left() > 0) {
    const int64_t n =
        std::min<int64_t>(1 + static_cast<int64_t>(rng() % 700), whole->values_left());
    if (rng() % 3 == 0) {
      ASSERT_TRUE(whole->Skip(n).ok());
      ASSERT_TRUE(arriving->Skip(n).ok());
      continue;
    }
    ASSERT_TRUE(whole->DecodeIndices(a.data(), n).ok());
    ASSERT_TRUE(arriving->DecodeIndices(b.data(), n).ok());
    ASSERT_TRUE(std::equal(a.begin(), a.begin() + n, b.begin()));
  }
  EXPECT_EQ(arriving->values_left(), 0);
}

// ---- stopping early ----

// How far a supply that gives exactly what is asked got after `decode` on a fresh page.
template <typename DType, typename F>
size_t RevealedAfter(ValueDecoder<DType>& decoder, const std::vector<uint8_t>& page,
                     int64_t num_values, F&& decode) {
  TestSupply supply(Span(page), TestSupply::Steps::kExact, 1);
  EXPECT_TRUE(decoder.SetArrivingData(supply.Start(0), num_values, &supply).ok());
  decode();
  EXPECT_GT(supply.calls(), 0);
  return supply.revealed();
}

TEST(ArrivingEarlyStopTest, PlainFixedWidthReadsOnlyTheValuesTaken) {
  std::vector<int64_t> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * 3);
  EncodedPage<Int64Type> page = Encode<Int64Type>(Encoding::kPlain, 0, values);
  ASSERT_EQ(page.data.size(), 800000u);
  PlainDecoder<Int64Type> d;
  std::vector<int64_t> out(10);
  const size_t revealed = RevealedAfter<Int64Type>(d, page.data, 100000, [&] {
    ASSERT_TRUE(d.Decode(out.data(), 5).ok());
    ASSERT_TRUE(d.Skip(3).ok());
    ASSERT_TRUE(d.Decode(out.data() + 5, 2).ok());
  });
  EXPECT_EQ(revealed, 80u);
  EXPECT_EQ(out[5], 24);
  EXPECT_EQ(out[6], 27);
}

// Values skipped past the bytes there are passed over (ByteSupply::SkipOver): the supply
// overwrites them, and the values decoded after the skip are still right. Fixed-width values
// decoded are copied out (ByteSupply::CopyOut: they need not be kept either), and byte arrays
// skipped are walked over (ByteSupply::Walk: their lengths must be read, their bytes need not
// be kept).
TEST(ArrivingEarlyStopTest, PlainFixedWidthSkipsPassOverTheBytes) {
  std::vector<int64_t> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * 3);
  EncodedPage<Int64Type> page = Encode<Int64Type>(Encoding::kPlain, 0, values);
  TestSupply supply(Span(page.data), TestSupply::Steps::kExact, 1);
  PlainDecoder<Int64Type> d;
  ASSERT_TRUE(d.SetArrivingData(supply.Start(16), 100000, &supply).ok());
  std::vector<int64_t> out(4);
  ASSERT_TRUE(d.Skip(1).ok());  // within the bytes there: nothing asked
  EXPECT_EQ(supply.calls(), 0);
  ASSERT_TRUE(d.Skip(90000).ok());
  EXPECT_EQ(supply.skips(), 1);
  EXPECT_EQ(supply.revealed(), 90001u * 8);
  ASSERT_TRUE(d.Decode(out.data(), 4).ok());
  EXPECT_EQ(out, (std::vector<int64_t>{270003, 270006, 270009, 270012}));
  EXPECT_EQ(supply.skips(), 2);              // copied out, not revealed (ByteSupply::CopyOut)
  EXPECT_EQ(supply.revealed(), 90005u * 8);  // not a byte further

  Values<ByteArrayType> strings = MakeValues<ByteArrayType>(20000, Shape::kRandom, 8);
  EncodedPage<ByteArrayType> string_page =
      Encode<ByteArrayType>(Encoding::kPlain, 0, strings.values);
  TestSupply string_supply(Span(string_page.data), TestSupply::Steps::kExact, 1);
  PlainDecoder<ByteArrayType> b;
  ASSERT_TRUE(b.SetArrivingData(string_supply.Start(0), 20000, &string_supply).ok());
  ASSERT_TRUE(b.Skip(19000).ok());
  EXPECT_GT(string_supply.skips(), 1000);  // a piece of a byte each (Steps::kExact)
  std::vector<ByteView> views(3);
  ASSERT_TRUE(b.Decode(views.data(), 3).ok());
  EXPECT_TRUE(SameValues(strings.values.data() + 19000, views.data(), 3));
}

TEST(ArrivingEarlyStopTest, PlainBooleanByteArrayAndFixedLen) {
  {
    std::vector<uint8_t> values(100000);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint8_t>(i % 3 == 0);
    EncodedPage<BooleanType> page = Encode<BooleanType>(Encoding::kPlain, 0, values);
    PlainDecoder<BooleanType> d;
    std::vector<uint8_t> out(20);
    const size_t revealed = RevealedAfter<BooleanType>(
        d, page.data, 100000, [&] { ASSERT_TRUE(d.Decode(out.data(), 20).ok()); });
    EXPECT_EQ(revealed, 3u);
    EXPECT_TRUE(SameValues(values.data(), out.data(), 20));
  }
  {
    Values<ByteArrayType> values = MakeValues<ByteArrayType>(20000, Shape::kRandom, 8);
    EncodedPage<ByteArrayType> page = Encode<ByteArrayType>(Encoding::kPlain, 0, values.values);
    PlainDecoder<ByteArrayType> d;
    std::vector<ByteView> out(10);
    // (The views point into the supply's bytes: checked while it lives.)
    const size_t revealed = RevealedAfter<ByteArrayType>(d, page.data, 20000, [&] {
      ASSERT_TRUE(d.Decode(out.data(), 10).ok());
      EXPECT_TRUE(SameValues(values.values.data(), out.data(), 10));
    });
    size_t expected = 0;
    for (size_t i = 0; i < 10; ++i) expected += 4 + values.values[i].size;
    EXPECT_EQ(revealed, expected);
    EXPECT_LT(revealed * 100, page.data.size());
  }
  {
    Values<FixedLenByteArrayType> values =
        MakeValues<FixedLenByteArrayType>(50000, Shape::kRandom, 9, 16);
    EncodedPage<FixedLenByteArrayType> page =
        Encode<FixedLenByteArrayType>(Encoding::kPlain, 16, values.values);
    PlainDecoder<FixedLenByteArrayType> d(16);
    std::vector<ByteView> out(4);
    const size_t revealed = RevealedAfter<FixedLenByteArrayType>(d, page.data, 50000, [&] {
      ASSERT_TRUE(d.Decode(out.data(), 4).ok());
      EXPECT_TRUE(SameValues(values.values.data(), out.data(), 4));
    });
    EXPECT_EQ(revealed, 64u);
  }
}

TEST(ArrivingEarlyStopTest, DictionaryReadsOnlyTheRunsTaken) {
  std::mt19937_64 rng(13);
  for (uint32_t distinct : {2u, 1000u, 70000u}) {
    std::vector<int32_t> values = IndexLike(200000, distinct, rng);
    EncodedPage<Int32Type> page = Encode<Int32Type>(Encoding::kRleDictionary, 0, values);
    SCOPED_TRACE("bit width " + std::to_string(page.data[0]) + ", page of " +
                 std::to_string(page.data.size()) + " bytes");
    std::unique_ptr<ValueDecoder<Int32Type>> holder;
    auto d = MakeDecoder<Int32Type>(Encoding::kRleDictionary, 0, page, holder);
    ASSERT_TRUE(d.ok());
    std::vector<int32_t> out(10);
    const size_t revealed = RevealedAfter<Int32Type>(**d, page.data, 200000, [&] {
      ASSERT_TRUE((*d)->Decode(out.data(), 10).ok());
      ASSERT_TRUE((*d)->Skip(5).ok());
    });
    // The bit width byte, then the runs that hold the first 15 values: a few RLE runs (each
    // header asked for as 10 bytes) and bit-packed runs of at most 504 values in all.
    EXPECT_LE(revealed, 250 + 64 * size_t{page.data[0]});
    EXPECT_LT(revealed * 20, page.data.size());
    EXPECT_TRUE(SameValues(values.data(), out.data(), 10));
  }
}

// ---- the RLE/bit-packed hybrid decoder alone ----

// The same random GetBatch / Skip / Visit sequence over the whole bytes and over a supply.
void ExpectSameHybrid(std::span<const uint8_t> whole_bytes, TestSupply& supply, int bit_width,
                      std::mt19937_64& rng) {
  RleBitPackedDecoder whole(whole_bytes, bit_width);
  RleBitPackedDecoder arriving;
  arriving.Reset(supply.Start(FirstBytes(rng, supply.size())), bit_width, &supply);
  std::vector<uint32_t> a(1000), b(1000);
  for (int step = 0; step < 5000; ++step) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % (rng() % 4 == 0 ? 1000 : 20));
    const uint64_t op = rng() % 3;
    SCOPED_TRACE("step " + std::to_string(step) + " op " + std::to_string(op) + " n " +
                 std::to_string(n));
    int64_t got_a = 0, got_b = 0;
    if (op == 0) {
      got_a = whole.Skip(n);
      got_b = arriving.Skip(n);
    } else if (op == 1) {
      got_a = whole.GetBatch(a.data(), n);
      got_b = arriving.GetBatch(b.data(), n);
    } else {
      // Visit, expanded into values.
      auto visit = [n](RleBitPackedDecoder& d, std::vector<uint32_t>& out) {
        int64_t at = 0;
        const int64_t got = d.Visit(
            n,
            [&](uint32_t v, int64_t count) {
              std::fill_n(out.begin() + at, count, v);
              at += count;
            },
            [&](const uint32_t* v, int64_t count) {
              std::copy_n(v, count, out.begin() + at);
              at += count;
            });
        EXPECT_EQ(at, got);
        return got;
      };
      got_a = visit(whole, a);
      got_b = visit(arriving, b);
    }
    ASSERT_EQ(got_a, got_b);
    ASSERT_EQ(whole.ok(), arriving.ok());
    if (op != 0) {
      ASSERT_TRUE(std::equal(a.begin(), a.begin() + got_a, b.begin()));
    }
    if (got_a < n) return;
  }
}

TEST(ArrivingRleTest, EveryBitWidth) {
  std::mt19937_64 rng(17);
  uint64_t seed = 1;
  for (int bw = 0; bw <= 32; ++bw) {
    SCOPED_TRACE("bit width " + std::to_string(bw));
    const uint64_t limit = bw == 32 ? uint64_t{1} << 32 : uint64_t{1} << bw;
    RleBitPackedEncoder encoder(bw);
    const size_t n = 1 + rng() % 5000;
    for (size_t i = 0; i < n;) {
      const auto v = static_cast<uint32_t>(rng() % limit);
      const size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
      for (size_t k = 0; k < run && i < n; ++k, ++i) encoder.Put(v);
    }
    const std::vector<uint8_t> page = encoder.Finish();
    for (int round = 0; round < 6; ++round) {
      const size_t limit_bytes = round < 2 ? kAll : rng() % (page.size() + 1);
      const auto steps = round % 2 == 0 ? TestSupply::Steps::kExact : TestSupply::Steps::kRandom;
      TestSupply supply(Span(page), steps, seed++, limit_bytes);
      ExactCopy bytes(std::span<const uint8_t>(page).first(std::min(limit_bytes, page.size())));
      ExpectSameHybrid(bytes.span(), supply, bw, rng);
      ASSERT_FALSE(HasFatalFailure());
    }
    // Garbage at this bit width.
    for (int round = 0; round < 20; ++round) {
      std::vector<uint8_t> junk(rng() % 100);
      for (auto& b : junk) b = static_cast<uint8_t>(rng());
      TestSupply supply(Span(junk), TestSupply::Steps::kRandom, seed++);
      ExactCopy bytes(Span(junk));
      ExpectSameHybrid(bytes.span(), supply, bw, rng);
      ASSERT_FALSE(HasFatalFailure());
    }
  }
}

}  // namespace
}  // namespace pqsift::encoding::testing
