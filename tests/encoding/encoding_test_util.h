// Shared helpers of the encoding tests: random values of every physical type (with the shapes
// that stress each encoding: runs, sorted values, shared prefixes, extremes), owned storage for
// byte-array values, bit-exact comparison, and a type-erased "encode then decode" harness.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "encoding/dictionary_decoder.h"
#include "encoding/dictionary_encoder.h"
#include "encoding/types.h"
#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding::testing {

inline std::span<const uint8_t> Span(const std::vector<uint8_t>& v) { return {v.data(), v.size()}; }

inline std::vector<uint8_t> Bytes(std::initializer_list<int> bytes) {
  std::vector<uint8_t> out;
  for (int b : bytes) out.push_back(static_cast<uint8_t>(b));
  return out;
}

inline std::vector<uint8_t> Concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline std::vector<uint8_t> StringBytes(std::string_view s) { return {s.begin(), s.end()}; }

// Value shapes.
enum class Shape { kRandom, kSmall, kRuns, kSorted, kExtreme };
inline const Shape kAllShapes[] = {Shape::kRandom, Shape::kSmall, Shape::kRuns, Shape::kSorted,
                                   Shape::kExtreme};

// Values plus the storage their ByteViews point into.
template <typename DType>
struct Values {
  using Value = typename DType::Value;
  std::vector<Value> values;
  std::shared_ptr<std::vector<uint8_t>> storage = std::make_shared<std::vector<uint8_t>>();
  size_t size() const { return values.size(); }
};

// Raw random 64-bit numbers shaped by `shape` (value i of n).
inline uint64_t ShapedBits(std::mt19937_64& rng, Shape shape, size_t i, uint64_t& state) {
  switch (shape) {
    case Shape::kRandom: return rng();
    case Shape::kSmall: return rng() % 16;
    case Shape::kRuns:
      if (rng() % 20 == 0) state = rng() % 1000;
      return state;
    case Shape::kSorted: return state += rng() % 100;
    case Shape::kExtreme: {
      static const uint64_t kExtremes[] = {0,
                                           ~uint64_t{0},
                                           uint64_t{1} << 63,
                                           (uint64_t{1} << 63) - 1,
                                           uint64_t{1} << 31,
                                           (uint64_t{1} << 31) - 1,
                                           0xFFFFFFFFull,
                                           1};
      return kExtremes[(i * 7 + rng() % 3) % 8];
    }
  }
  return 0;
}

template <typename DType>
Values<DType> MakeValues(size_t n, Shape shape, uint64_t seed, int32_t type_length = 0) {
  using Value = typename DType::Value;
  std::mt19937_64 rng(seed);
  Values<DType> out;
  uint64_t state = 0;
  if constexpr (kIsByteArrayLike<DType>) {
    // Build the strings first, then one buffer and the views into it.
    std::vector<std::string> strings;
    std::string prev;
    for (size_t i = 0; i < n; ++i) {
      size_t len = static_cast<size_t>(type_length);
      if constexpr (std::is_same_v<DType, ByteArrayType>) {
        // Mostly short, 10% empty, 1% up to 2 KiB, 0.1% of 20000 bytes.
        const uint64_t r = rng() % 1000;
        len = r < 100 ? 0 : r < 989 ? rng() % 24 : r < 999 ? 100 + rng() % 2000 : 20000;
        if (shape == Shape::kSmall) len = rng() % 3;
        if (shape == Shape::kExtreme) len = (i % 3 == 0) ? 0 : (i % 3 == 1) ? 1 : 5000;
      }
      std::string s(len, '\0');
      for (auto& c : s) c = static_cast<char>(shape == Shape::kSmall ? 'a' + rng() % 2 : rng());
      if (shape == Shape::kRuns && !prev.empty() && rng() % 4 != 0 &&
          (std::is_same_v<DType, ByteArrayType> || prev.size() == len)) {
        s = prev;
      }
      if (shape == Shape::kSorted && !prev.empty()) {
        // Share a prefix with the previous value (what DELTA_BYTE_ARRAY is for).
        const size_t keep = std::min(prev.size(), std::min(len, static_cast<size_t>(rng() % 30)));
        std::memcpy(s.data(), prev.data(), keep);
      }
      prev = s;
      strings.push_back(std::move(s));
    }
    for (const auto& s : strings) out.storage->insert(out.storage->end(), s.begin(), s.end());
    size_t at = 0;
    for (const auto& s : strings) {
      out.values.push_back(ByteView{out.storage->data() + at, static_cast<uint32_t>(s.size())});
      at += s.size();
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      Value v{};
      if constexpr (kIsBoolean<DType>) {
        v = static_cast<uint8_t>(ShapedBits(rng, shape, i, state) & 1);
      } else if constexpr (std::is_same_v<DType, Int96Type>) {
        const uint64_t a = ShapedBits(rng, shape, i, state), b = rng();
        v.words[0] = static_cast<uint32_t>(a);
        v.words[1] = static_cast<uint32_t>(a >> 32);
        v.words[2] = static_cast<uint32_t>(b);
      } else if constexpr (std::is_floating_point_v<Value>) {
        if (shape == Shape::kExtreme) {
          static const Value kSpecial[] = {0.0,
                                           -0.0,
                                           std::numeric_limits<Value>::infinity(),
                                           -std::numeric_limits<Value>::infinity(),
                                           std::numeric_limits<Value>::quiet_NaN(),
                                           std::numeric_limits<Value>::denorm_min(),
                                           std::numeric_limits<Value>::max(),
                                           std::numeric_limits<Value>::lowest()};
          v = kSpecial[rng() % 8];
        } else if (shape == Shape::kRandom) {
          const uint64_t bits = rng();  // any bit pattern, NaN payloads included
          std::memcpy(&v, &bits, sizeof(v));
        } else {
          v = static_cast<Value>(ShapedBits(rng, shape, i, state)) / 8;
        }
      } else {
        v = static_cast<Value>(ShapedBits(rng, shape, i, state));
      }
      out.values.push_back(v);
    }
  }
  return out;
}

// Bit-exact equality (floats by bits: NaN == NaN with the same payload, 0.0 != -0.0).
template <typename Value>
bool SameValue(const Value& a, const Value& b) {
  if constexpr (std::is_same_v<Value, ByteView>) {
    return a.str() == b.str();
  } else {
    return std::memcmp(&a, &b, sizeof(Value)) == 0;
  }
}

template <typename Value>
std::string Show(const Value& v) {
  if constexpr (std::is_same_v<Value, ByteView>) {
    return "\"" + std::string(v.str().substr(0, 40)) + "\" (" + std::to_string(v.size) + " bytes)";
  } else {
    std::string s;
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    for (size_t i = 0; i < sizeof(Value); ++i) s += std::to_string(p[i]) + " ";
    return s;
  }
}

// Expects out[0, n) == expected[first, first + n).
template <typename Value>
::testing::AssertionResult SameValues(const Value* expected, const Value* actual, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (!SameValue(expected[i], actual[i])) {
      return ::testing::AssertionFailure() << "value " << i << " of " << n << ": expected "
                                           << Show(expected[i]) << ", got " << Show(actual[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

// One encoded page: the value section, the dictionary page when dictionary-encoded, and a way
// to make its decoder.
template <typename DType>
struct EncodedPage {
  std::vector<uint8_t> data;
  std::vector<uint8_t> dictionary_page;
  int64_t dictionary_entries = -1;  // -1: not dictionary-encoded
};

inline bool IsDictionary(Encoding e) {
  return e == Encoding::kRleDictionary || e == Encoding::kPlainDictionary;
}

template <typename DType>
EncodedPage<DType> Encode(Encoding encoding, int32_t type_length,
                          const std::vector<typename DType::Value>& values) {
  EncodedPage<DType> page;
  if (IsDictionary(encoding)) {
    DictionaryEncoder<DType> encoder(type_length);
    encoder.Put(values.data(), static_cast<int64_t>(values.size()));
    EXPECT_EQ(encoder.num_values(), static_cast<int64_t>(values.size()));
    encoder.FinishInto(page.data);
    encoder.AppendDictionaryPage(page.dictionary_page);
    EXPECT_EQ(page.dictionary_page.size(), encoder.dictionary_page_size());
    page.dictionary_entries = encoder.num_entries();
    return page;
  }
  auto encoder = MakeValueEncoder<DType>(encoding, type_length);
  EXPECT_TRUE(encoder.ok()) << encoder.status().ToString();
  if (!encoder.ok()) return page;
  EXPECT_EQ((*encoder)->encoding(), encoding);
  (*encoder)->Put(values.data(), static_cast<int64_t>(values.size()));
  EXPECT_EQ((*encoder)->num_values(), static_cast<int64_t>(values.size()));
  (*encoder)->FinishInto(page.data);
  return page;
}

// A decoder for `page`; the dictionary decoder (if any) is owned by *dictionary_holder.
template <typename DType>
Result<ValueDecoder<DType>*> MakeDecoder(Encoding encoding, int32_t type_length,
                                         const EncodedPage<DType>& page,
                                         std::unique_ptr<ValueDecoder<DType>>& holder) {
  if (IsDictionary(encoding)) {
    PQSIFT_ASSIGN_OR_RETURN(auto dict,
                            DictionaryDecoder<DType>::Make(Span(page.dictionary_page),
                                                           page.dictionary_entries, type_length));
    holder = std::move(dict);
  } else {
    PQSIFT_ASSIGN_OR_RETURN(holder, MakeValueDecoder<DType>(encoding, type_length));
  }
  return holder.get();
}

}  // namespace pqsift::encoding::testing
