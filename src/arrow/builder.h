// Building arrays: buffer builders (bits, fixed-width values, large binary offsets + bytes),
// whole-array builders for the leaf types, assembly of nested arrays from finished parts, and
// all-null arrays of any type. Used by column decoding, tests and hosts.
//
// Every builder owns its buffers until Finish(), which hands them over and resets the builder
// to empty (it can be reused). Builders are not thread-safe; the finished buffers and arrays
// are immutable and shareable. Appends never fail (allocation failure throws std::bad_alloc,
// as for std::vector); the Make* assembly functions return a Status when the parts do not fit.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "arrow/bit_util.h"
#include "pqsift/array.h"

namespace pqsift {

// Bits appended one at a time or in runs: validity bitmaps (1 = valid) and boolean values.
class BitmapBuilder {
 public:
  void Reserve(int64_t additional_bits);
  void Append(bool bit) {
    if ((length_ & 7) == 0) GrowByte();
    if (bit) {
      bit_util::SetBit(buffer_->data(), length_);
    } else {
      ++false_count_;
    }
    ++length_;
  }
  void AppendN(bool bit, int64_t n);
  void AppendValid(int64_t n) { AppendN(true, n); }
  void AppendNulls(int64_t n) { AppendN(false, n); }
  // Appends bits [offset, offset + n) of `bits`.
  void AppendBits(const uint8_t* bits, int64_t offset, int64_t n);

  int64_t length() const { return length_; }
  // Zeros appended so far (the null count of a validity bitmap).
  int64_t false_count() const { return false_count_; }
  int64_t null_count() const { return false_count_; }

  // The bitmap (BytesForBits(length) bytes; unused bits of the last byte are zero).
  std::shared_ptr<ArrowBuffer> Finish();
  // As Finish, but null when no bit is zero (a validity bitmap that can be omitted).
  std::shared_ptr<ArrowBuffer> FinishValidity();

 private:
  void GrowByte();
  std::shared_ptr<ArrowBuffer> buffer_;
  int64_t length_ = 0;
  int64_t false_count_ = 0;
};

// Fixed-width values of a trivially copyable T (ints, floats, uint16_t halves, 16-byte
// decimals as std::array<uint8_t, 16>).
template <typename T>
class TypedBufferBuilder {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  TypedBufferBuilder() : buffer_(std::make_shared<ArrowBuffer>()) {}
  void Reserve(int64_t additional) {
    buffer_->Reserve((static_cast<size_t>(length_ + additional)) * sizeof(T));
  }
  void Append(T v) {
    buffer_->Reserve(static_cast<size_t>(length_ + 1) * sizeof(T));
    std::memcpy(buffer_->data() + length_ * sizeof(T), &v, sizeof(T));
    ++length_;
    buffer_->Resize(static_cast<size_t>(length_) * sizeof(T));
  }
  void AppendN(T v, int64_t n) {
    Reserve(n);
    for (int64_t i = 0; i < n; ++i) Append(v);
  }
  void Append(const T* values, int64_t n) {
    if (n <= 0) return;
    buffer_->Append(values, static_cast<size_t>(n) * sizeof(T));
    length_ += n;
  }
  // n zero-filled values (the slots under nulls).
  void AppendZeros(int64_t n) {
    if (n <= 0) return;
    size_t old = buffer_->size();
    buffer_->Resize(old + static_cast<size_t>(n) * sizeof(T));
    std::memset(buffer_->data() + old, 0, static_cast<size_t>(n) * sizeof(T));
    length_ += n;
  }
  int64_t length() const { return length_; }
  // Valid until the next append.
  T* mutable_data() { return buffer_->as<T>(); }

  std::shared_ptr<ArrowBuffer> Finish() {
    auto out = std::move(buffer_);
    buffer_ = std::make_shared<ArrowBuffer>();
    length_ = 0;
    return out;
  }

 private:
  std::shared_ptr<ArrowBuffer> buffer_;
  int64_t length_ = 0;
};

// The offsets (int64, length + 1 entries starting at 0) and bytes of large_utf8 or
// large_binary values. No validity: a null is an empty value plus a validity bit elsewhere.
class LargeBinaryBuilder {
 public:
  LargeBinaryBuilder() { offsets_.Append(0); }
  void Reserve(int64_t additional_values, int64_t additional_bytes);
  void Append(std::string_view v) {
    data_->Append(v.data(), v.size());
    offsets_.Append(static_cast<int64_t>(data_->size()));
  }
  void AppendEmpty(int64_t n = 1) { offsets_.AppendN(static_cast<int64_t>(data_->size()), n); }
  int64_t length() const { return offsets_.length() - 1; }
  int64_t data_length() const { return static_cast<int64_t>(data_->size()); }
  void Finish(std::shared_ptr<ArrowBuffer>* offsets, std::shared_ptr<ArrowBuffer>* data);

 private:
  TypedBufferBuilder<int64_t> offsets_;
  std::shared_ptr<ArrowBuffer> data_ = std::make_shared<ArrowBuffer>();
};

// One whole fixed-width array (validity + values). T is the stored C++ type: bool for
// boolean (bit-packed), int8_t..uint64_t, float, double, uint16_t for float16, int32_t for
// date32 / time32, int64_t for time64 / timestamp, std::array<uint8_t, 16> for decimal128
// (little-endian). REQUIRES: sizeof(T) matches the type's width.
template <typename T>
class FixedWidthArrayBuilder {
 public:
  explicit FixedWidthArrayBuilder(std::shared_ptr<const DataType> type) : type_(std::move(type)) {}
  void Append(T v) {
    validity_.Append(true);
    values_.Append(v);
  }
  void AppendNull() { AppendNulls(1); }
  void AppendNulls(int64_t n) {
    validity_.AppendNulls(n);
    if constexpr (std::is_same_v<T, bool>) {
      values_.AppendN(false, n);
    } else {
      values_.AppendZeros(n);
    }
  }
  void Append(const std::optional<T>& v) {
    if (v.has_value()) {
      Append(*v);
    } else {
      AppendNull();
    }
  }
  int64_t length() const { return validity_.length(); }
  std::shared_ptr<Array> Finish();

 private:
  using Values = std::conditional_t<std::is_same_v<T, bool>, BitmapBuilder, TypedBufferBuilder<T>>;
  std::shared_ptr<const DataType> type_;
  BitmapBuilder validity_;
  Values values_;
};

// A large_utf8 or large_binary array.
class BinaryArrayBuilder {
 public:
  explicit BinaryArrayBuilder(std::shared_ptr<const DataType> type = LargeUtf8())
      : type_(std::move(type)) {}
  void Append(std::string_view v) {
    validity_.Append(true);
    values_.Append(v);
  }
  void AppendNull() {
    validity_.Append(false);
    values_.AppendEmpty();
  }
  int64_t length() const { return validity_.length(); }
  std::shared_ptr<Array> Finish();

 private:
  std::shared_ptr<const DataType> type_;
  BitmapBuilder validity_;
  LargeBinaryBuilder values_;
};

// A fixed_size_binary array. REQUIRES: every appended value has byte_width bytes.
class FixedSizeBinaryArrayBuilder {
 public:
  explicit FixedSizeBinaryArrayBuilder(std::shared_ptr<const DataType> type)
      : type_(std::move(type)) {}
  void Append(std::string_view v);
  void AppendNull();
  int64_t length() const { return validity_.length(); }
  std::shared_ptr<Array> Finish();

 private:
  std::shared_ptr<const DataType> type_;
  BitmapBuilder validity_;
  std::shared_ptr<ArrowBuffer> values_ = std::make_shared<ArrowBuffer>();
};

// Assembly of nested arrays from finished parts. `validity` may be null (no nulls);
// null_count must match it. The result is checked with ValidateArrayLayout (cheap; the
// offsets in between and null counts are not scanned); InvalidArgument when it fails.
Result<std::shared_ptr<Array>> MakeLargeListArray(
    std::shared_ptr<const DataType> type, int64_t length, std::shared_ptr<ArrowBuffer> validity,
    int64_t null_count, std::shared_ptr<ArrowBuffer> offsets, std::shared_ptr<Array> values);
Result<std::shared_ptr<Array>> MakeStructArray(std::shared_ptr<const DataType> type, int64_t length,
                                               std::shared_ptr<ArrowBuffer> validity,
                                               int64_t null_count,
                                               std::vector<std::shared_ptr<Array>> children);
// `offsets` are int32; `entries` the struct<key, value> array.
Result<std::shared_ptr<Array>> MakeMapArray(std::shared_ptr<const DataType> type, int64_t length,
                                            std::shared_ptr<ArrowBuffer> validity,
                                            int64_t null_count,
                                            std::shared_ptr<ArrowBuffer> offsets,
                                            std::shared_ptr<Array> entries);

// `length` nulls of any valid type: a zeroed validity bitmap, zeroed values, zero offsets,
// empty list / map children, all-null struct children. InvalidArgument for a type
// ValidateType rejects. Passes ValidateArray.
Result<std::shared_ptr<Array>> MakeAllNullArray(const std::shared_ptr<const DataType>& type,
                                                int64_t length);

// An empty array (length 0) of any valid type, with every buffer present.
Result<std::shared_ptr<Array>> MakeEmptyArray(const std::shared_ptr<const DataType>& type);

// ---- template definitions ----

template <typename T>
std::shared_ptr<Array> FixedWidthArrayBuilder<T>::Finish() {
  auto out = std::make_shared<Array>();
  out->type = type_;
  out->length = validity_.length();
  out->null_count = validity_.null_count();
  out->buffers = {validity_.FinishValidity(), values_.Finish()};
  return out;
}

}  // namespace pqsift
