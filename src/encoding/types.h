// Physical value types as decoders produce them. One tag struct per Parquet physical type
// carries the C++ value type, so decoders are written once as templates over the tag.
//
// BOOLEAN decodes to one byte per value (0 or 1): the column reader packs bits where Arrow
// wants them. BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY decode to ByteView, a view into the page
// buffer or into the decoder's own storage (see ValueDecoder for how long it stays valid).
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "pqsift/metadata.h"

namespace pqsift::encoding {

static_assert(std::endian::native == std::endian::little,
              "pqsift reads Parquet's little-endian values directly from memory");

struct Int96 {
  uint32_t words[3];  // as stored: 8 bytes of nanoseconds of the day, then a 4-byte Julian day

  friend bool operator==(const Int96&, const Int96&) = default;
};

struct ByteView {
  const uint8_t* data = nullptr;
  uint32_t size = 0;

  std::string_view str() const { return {reinterpret_cast<const char*>(data), size}; }
};

struct BooleanType {
  using Value = uint8_t;
  static constexpr PhysicalType kPhysical = PhysicalType::kBoolean;
};
struct Int32Type {
  using Value = int32_t;
  static constexpr PhysicalType kPhysical = PhysicalType::kInt32;
};
struct Int64Type {
  using Value = int64_t;
  static constexpr PhysicalType kPhysical = PhysicalType::kInt64;
};
struct Int96Type {
  using Value = Int96;
  static constexpr PhysicalType kPhysical = PhysicalType::kInt96;
};
struct FloatType {
  using Value = float;
  static constexpr PhysicalType kPhysical = PhysicalType::kFloat;
};
struct DoubleType {
  using Value = double;
  static constexpr PhysicalType kPhysical = PhysicalType::kDouble;
};
struct ByteArrayType {
  using Value = ByteView;
  static constexpr PhysicalType kPhysical = PhysicalType::kByteArray;
};
struct FixedLenByteArrayType {
  using Value = ByteView;
  static constexpr PhysicalType kPhysical = PhysicalType::kFixedLenByteArray;
};

// Type traits for generic code.
template <typename DType>
inline constexpr bool kIsByteArrayLike = std::is_same_v<typename DType::Value, ByteView>;
template <typename DType>
inline constexpr bool kIsBoolean = std::is_same_v<DType, BooleanType>;
// Fixed-size C++ values copied as they are stored (INT32, INT64, INT96, FLOAT, DOUBLE).
template <typename DType>
inline constexpr bool kIsFixedWidth = !kIsByteArrayLike<DType> && !kIsBoolean<DType>;

}  // namespace pqsift::encoding

// Calls X(DType) for every physical type tag: for explicit template instantiations.
#define PQSIFT_FOR_EACH_DTYPE(X)       \
  X(::pqsift::encoding::BooleanType)   \
  X(::pqsift::encoding::Int32Type)     \
  X(::pqsift::encoding::Int64Type)     \
  X(::pqsift::encoding::Int96Type)     \
  X(::pqsift::encoding::FloatType)     \
  X(::pqsift::encoding::DoubleType)    \
  X(::pqsift::encoding::ByteArrayType) \
  X(::pqsift::encoding::FixedLenByteArrayType)
