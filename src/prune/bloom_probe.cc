#include "prune/bloom_probe.h"

#include <cmath>
#include <limits>
#include <span>
#include <string_view>

#include "format/bloom_filter.h"

namespace pqsift::prune {
namespace {

using expr::int128;
using expr::Value;
using Hashes = std::optional<std::vector<uint64_t>>;

// The literal as integer T when it lies in [lo, hi] (the range the column's Arrow type reads),
// stored as T's bits.
template <typename T>
Hashes IntegerHash(const Value& v, int128 lo, int128 hi) {
  if (v.kind != Value::Kind::kInt || v.i < lo || v.i > hi) return std::nullopt;
  // Unsigned values above T's signed range wrap to the same bits a writer stores.
  return std::vector<uint64_t>{format::BloomFilterHashOf(static_cast<T>(v.i))};
}

template <typename T>
Hashes SignedHash(const Value& v) {
  return IntegerHash<T>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
}

template <typename T>
Hashes UnsignedHash(const Value& v) {
  using U = std::make_unsigned_t<T>;
  return IntegerHash<T>(v, 0, std::numeric_limits<U>::max());
}

template <typename F>
Hashes FloatHash(const Value& v) {
  if (v.kind != Value::Kind::kFloat || std::isnan(v.f)) return std::nullopt;
  // Beyond F's finite range no value of the column equals it (and the cast would be undefined).
  if (std::isfinite(v.f) && std::fabs(v.f) > std::numeric_limits<F>::max()) return std::nullopt;
  const auto stored = static_cast<F>(v.f);
  if (static_cast<double>(stored) != v.f) return std::nullopt;
  if (stored == 0) {
    return std::vector<uint64_t>{format::BloomFilterHashOf(F{0}), format::BloomFilterHashOf(-F{0})};
  }
  return std::vector<uint64_t>{format::BloomFilterHashOf(stored)};
}

Hashes BytesHash(std::string_view bytes) {
  return std::vector<uint64_t>{
      format::BloomFilterHash({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()})};
}

// A decimal's unscaled value as big-endian two's complement in `width` bytes, when it fits.
Hashes DecimalBytesHash(const Value& v, int32_t width) {
  if (v.kind != Value::Kind::kInt || width <= 0 || width > 64) return std::nullopt;
  std::string bytes(static_cast<size_t>(width), '\0');
  int128 rest = v.i;
  for (int32_t b = width - 1; b >= 0; --b) {
    bytes[static_cast<size_t>(b)] = static_cast<char>(static_cast<uint8_t>(rest & 0xFF));
    rest >>= 8;  // arithmetic: the sign extends
  }
  // It fits when what is left is the sign of the top byte kept.
  const int128 sign = (static_cast<uint8_t>(bytes[0]) & 0x80) ? -1 : 0;
  if (rest != sign) return std::nullopt;
  return BytesHash(bytes);
}

Hashes Int32Column(const Value& v, const DataType& type) {
  switch (type.id) {
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kDecimal128: return SignedHash<int32_t>(v);
    case TypeId::kUInt32: return UnsignedHash<int32_t>(v);
    default: return std::nullopt;  // narrowed int8/16 (wrapping), anything unexpected
  }
}

Hashes Int64Column(const Value& v, const DataType& type) {
  switch (type.id) {
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDecimal128: return SignedHash<int64_t>(v);
    case TypeId::kUInt64: return UnsignedHash<int64_t>(v);
    default: return std::nullopt;
  }
}

}  // namespace

Hashes BloomHashesOf(const Value& literal, const ColumnDescriptor& column, const DataType& type) {
  switch (column.physical_type) {
    case PhysicalType::kInt32: return Int32Column(literal, type);
    case PhysicalType::kInt64: return Int64Column(literal, type);
    case PhysicalType::kFloat:
      return type.id == TypeId::kFloat32 ? FloatHash<float>(literal) : std::nullopt;
    case PhysicalType::kDouble:
      return type.id == TypeId::kFloat64 ? FloatHash<double>(literal) : std::nullopt;
    case PhysicalType::kByteArray:
      if (literal.kind != Value::Kind::kBytes) return std::nullopt;
      if (type.id != TypeId::kLargeString && type.id != TypeId::kLargeBinary) return std::nullopt;
      return BytesHash(literal.bytes);
    case PhysicalType::kFixedLenByteArray:
      if (type.id == TypeId::kDecimal128) return DecimalBytesHash(literal, column.type_length);
      if (type.id != TypeId::kFixedSizeBinary || literal.kind != Value::Kind::kBytes ||
          literal.bytes.size() != static_cast<size_t>(column.type_length)) {
        return std::nullopt;
      }
      return BytesHash(literal.bytes);
    case PhysicalType::kBoolean:
    case PhysicalType::kInt96: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace pqsift::prune
