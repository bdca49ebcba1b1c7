// Random flat columns of every type the writer stores, for round-trip and page-index tests.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/array.h"

namespace pqsift::testing {

enum class Nulls { kNone, kSome, kAll, kRuns };

inline const char* NullsName(Nulls n) {
  switch (n) {
    case Nulls::kNone: return "none";
    case Nulls::kSome: return "some";
    case Nulls::kAll: return "all";
    case Nulls::kRuns: return "runs";
  }
  return "?";
}

// Every flat type the writer stores, with a name for the column.
inline std::vector<std::pair<std::string, std::shared_ptr<const DataType>>> FlatTypes() {
  return {{"bool", Boolean()},
          {"int8", Int8()},
          {"int16", Int16()},
          {"int32", Int32()},
          {"int64", Int64()},
          {"uint8", UInt8()},
          {"uint16", UInt16()},
          {"uint32", UInt32()},
          {"uint64", UInt64()},
          {"float16", Float16()},
          {"float32", Float32()},
          {"float64", Float64()},
          {"string", LargeUtf8()},
          {"binary", LargeBinary()},
          {"fixed", FixedSizeBinary(5)},
          {"dec9", Decimal128(9, 2)},
          {"dec18", Decimal128(18, 3)},
          {"dec38", Decimal128(38, 4)},
          {"date", Date32()},
          {"time_ms", Time32(TimeUnit::kMillis)},
          {"time_us", Time64(TimeUnit::kMicros)},
          {"time_ns", Time64(TimeUnit::kNanos)},
          {"ts_ms_utc", Timestamp(TimeUnit::kMillis, "UTC")},
          {"ts_us", Timestamp(TimeUnit::kMicros, "")},
          {"ts_ns_utc", Timestamp(TimeUnit::kNanos, "UTC")}};
}

// Values drawn from `distinct` different ones (so dictionaries stay small when it is small),
// nulls per `nulls`; runs of nulls are 1500 rows long, so whole pages can be null. Strings
// are up to `max_string` bytes (some longer than the 64-byte statistics limit when large).
class RandomColumns {
 public:
  RandomColumns(uint32_t seed, int64_t distinct, size_t max_string = 24)
      : rng_(seed), distinct_(distinct), max_string_(max_string) {}

  std::shared_ptr<Array> Make(const DataType& type, int64_t n, Nulls nulls) {
    std::vector<bool> valid(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) valid[i] = IsValid(i, nulls);
    auto t = std::make_shared<DataType>(type);
    switch (type.id) {
      case TypeId::kBoolean: return Fixed<bool>(t, valid, [&] { return Pick() % 2 == 1; });
      case TypeId::kInt8: return Fixed<int8_t>(t, valid, [&] { return int8_t(Pick() * 37); });
      case TypeId::kInt16: return Fixed<int16_t>(t, valid, [&] { return int16_t(Pick() * 997); });
      case TypeId::kInt32:
      case TypeId::kDate32:
        return Fixed<int32_t>(t, valid, [&] { return int32_t(Pick() * 7919 - 500000); });
      case TypeId::kTime32:
        return Fixed<int32_t>(t, valid, [&] { return int32_t(Pick() * 7919 % 86400000); });
      case TypeId::kInt64:
      case TypeId::kTimestamp:
        return Fixed<int64_t>(t, valid, [&] { return int64_t(Pick() * 1000003) - (1LL << 40); });
      case TypeId::kTime64:
        return Fixed<int64_t>(t, valid, [&] { return int64_t(Pick() * 1000003 % 86400000000); });
      case TypeId::kUInt8: return Fixed<uint8_t>(t, valid, [&] { return uint8_t(Pick() * 37); });
      case TypeId::kUInt16:
        return Fixed<uint16_t>(t, valid, [&] { return uint16_t(Pick() * 997); });
      case TypeId::kUInt32:
        return Fixed<uint32_t>(t, valid, [&] { return uint32_t(Pick() * 2654435761u); });
      case TypeId::kUInt64:
        return Fixed<uint64_t>(t, valid, [&] { return Pick() * 0x9E3779B97F4A7C15ull; });
      case TypeId::kFloat16:
        return Fixed<uint16_t>(t, valid, [&] {
          uint64_t k = Pick();
          // Mostly finite halves of both signs, some zeros of both signs and NaN.
          if (k % 13 == 0) return uint16_t(k % 2 ? 0x8000 : 0x0000);
          if (k % 17 == 0) return uint16_t(0x7E00);
          return uint16_t((k * 40503) % 0x7C00 | (k % 3 == 0 ? 0x8000 : 0));
        });
      case TypeId::kFloat32: return Fixed<float>(t, valid, [&] { return float(Double()); });
      case TypeId::kFloat64: return Fixed<double>(t, valid, [&] { return Double(); });
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: {
        BinaryArrayBuilder b(t);
        for (int64_t i = 0; i < n; ++i) {
          if (valid[i]) {
            b.Append(String(type.id == TypeId::kLargeString));
          } else {
            b.AppendNull();
          }
        }
        return b.Finish();
      }
      case TypeId::kFixedSizeBinary: {
        FixedSizeBinaryArrayBuilder b(t);
        for (int64_t i = 0; i < n; ++i) {
          if (!valid[i]) {
            b.AppendNull();
            continue;
          }
          uint64_t k = Pick() * 0x9E3779B97F4A7C15ull;
          b.Append(std::string(reinterpret_cast<const char*>(&k), type.byte_width));
        }
        return b.Finish();
      }
      case TypeId::kDecimal128:
        return Fixed<std::array<uint8_t, 16>>(t, valid, [&] { return Decimal(type.precision); });
      default: return nullptr;
    }
  }

 private:
  bool IsValid(int64_t i, Nulls nulls) {
    switch (nulls) {
      case Nulls::kNone: return true;
      case Nulls::kAll: return false;
      case Nulls::kSome: return rng_() % 5 != 0;
      case Nulls::kRuns: return (i / 1500) % 2 == 0 || rng_() % 7 == 0;
    }
    return true;
  }
  uint64_t Pick() { return rng_() % static_cast<uint64_t>(distinct_); }

  template <typename T, typename Gen>
  std::shared_ptr<Array> Fixed(std::shared_ptr<const DataType> t, const std::vector<bool>& valid,
                               Gen&& gen) {
    FixedWidthArrayBuilder<T> b(std::move(t));
    for (bool v : valid) {
      if (v) {
        b.Append(gen());
      } else {
        b.AppendNull();
      }
    }
    return b.Finish();
  }

  double Double() {
    uint64_t k = Pick();
    if (k % 13 == 0) return k % 2 ? -0.0 : 0.0;
    if (k % 17 == 0) return std::numeric_limits<double>::quiet_NaN();
    if (k % 19 == 0) return k % 2 ? std::numeric_limits<double>::infinity() : -1e300;
    return (static_cast<double>(k) - static_cast<double>(distinct_) / 2) * 0.37;
  }

  std::string String(bool utf8) {
    uint64_t k = Pick();
    std::mt19937_64 value_rng(k);  // the same k gives the same string
    size_t length = value_rng() % (max_string_ + 1);
    std::string s;
    while (s.size() < length) {
      uint64_t r = value_rng();
      if (utf8) {
        static const char* kPieces[] = {
            "a", "b", "z", "~", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f", " "};
        s += kPieces[r % 9];
      } else {
        s.push_back(static_cast<char>(r % 5 == 0 ? 0xFF : r & 0xFF));
      }
    }
    return s;
  }

  std::array<uint8_t, 16> Decimal(int32_t precision) {
    // |v| < 10^precision: int64 range for small precisions, two words for 38 digits.
    std::array<uint8_t, 16> out{};
    uint64_t k = Pick() * 0x9E3779B97F4A7C15ull;
    __int128 v;
    if (precision <= 18) {
      int64_t limit = 1;
      for (int i = 0; i < precision; ++i) limit *= 10;
      v = static_cast<int64_t>(k % static_cast<uint64_t>(limit)) - limit / 2;
    } else {
      v = (static_cast<__int128>(static_cast<int64_t>(k % 5000000000000000000ull)) << 64) |
          static_cast<__int128>(k * 31);
      if (k % 2) v = -v;
    }
    for (int i = 0; i < 16; ++i)
      out[i] = static_cast<uint8_t>(static_cast<unsigned __int128>(v) >> (8 * i));
    return out;
  }

  std::mt19937_64 rng_;
  int64_t distinct_;
  size_t max_string_;
};

}  // namespace pqsift::testing
