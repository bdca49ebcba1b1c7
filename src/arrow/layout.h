// Facts about each type's physical layout (see the comment at the top of pqsift/array.h),
// shared by validation, export, import, builders and the text outputs. Pure functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "pqsift/array.h"

namespace pqsift::layout {

// Entries of Array::buffers (and ArrowArray::n_buffers) for the type.
int BufferCount(TypeId id);

// Bytes per value in buffers[1] of fixed-width types (fixed_size_binary: byte_width); 0 for
// bool (bit-packed), null, and variable-size or nested types.
int32_t FixedByteWidth(const DataType& type);

// Whether buffers[1] holds one fixed-size value per slot (bool included).
bool IsFixedWidth(TypeId id);

// large_utf8 and large_binary.
inline bool IsBinaryLike(TypeId id) {
  return id == TypeId::kLargeString || id == TypeId::kLargeBinary;
}
inline bool IsNested(TypeId id) {
  return id == TypeId::kLargeList || id == TypeId::kStruct || id == TypeId::kMap;
}
// The two range tests below rely on the order of TypeId (array.h).
static_assert(static_cast<int>(TypeId::kUInt64) - static_cast<int>(TypeId::kInt8) == 7 &&
              static_cast<int>(TypeId::kFloat64) - static_cast<int>(TypeId::kFloat16) == 2);
// int8..int64 and uint8..uint64.
inline bool IsInteger(TypeId id) { return id >= TypeId::kInt8 && id <= TypeId::kUInt64; }
// float16, float32, float64.
inline bool IsFloatingPoint(TypeId id) { return id >= TypeId::kFloat16 && id <= TypeId::kFloat64; }
// Integers, floats, decimals: right-aligned in tables, numbers in JSON.
inline bool IsNumeric(TypeId id) {
  return IsInteger(id) || IsFloatingPoint(id) || id == TypeId::kDecimal128;
}

// The type whose values an array of `type` holds: a dictionary's value type, else `type`.
inline const DataType& ValueType(const DataType& type) {
  return type.id == TypeId::kDictionary ? *type.value_type : type;
}

// "ms", "us", "ns".
std::string_view UnitSuffix(TimeUnit unit);

// The offsets of a large_utf8 / large_binary / large_list (O = int64_t) or map (int32_t) array,
// indexed by slot: element i spans [o[offset + i], o[offset + i + 1]). Points to static zeros
// when the array has no offsets buffer (allowed only when empty). REQUIRES: the layout is valid.
template <typename O>
const O* Offsets(const Array& a) {
  static const O kZeros[2] = {0, 0};
  if (a.buffers.size() < 2 || a.buffers[1] == nullptr) return kZeros;
  return a.buffers[1]->as<O>();
}

// Element i (after the array's offset) of a fixed-width array of T values, read without
// assuming the buffer is aligned for T.
template <typename T>
T LoadValue(const Array& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}

// The dictionary index of element i (after the offset) of a dictionary array: element i is
// element DictionaryIndex(a, i) of a.dictionary. REQUIRES: the element is valid and
// ValidateArray accepted the array (the index is in range).
inline int32_t DictionaryIndex(const Array& a, int64_t i) { return LoadValue<int32_t>(a, i); }

// The Arrow C Data Interface format string ("l", "tsu:UTC", "+L", ...). REQUIRES: ValidateType
// accepted the type.
std::string FormatString(const DataType& type);

}  // namespace pqsift::layout
