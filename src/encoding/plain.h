// PLAIN (Encodings.md "Plain"): values back to back, little-endian.
//
//   BOOLEAN               bit-packed, LSB first (value i is bit i%8 of byte i/8)
//   INT32, FLOAT          4 bytes      INT64, DOUBLE  8 bytes      INT96  12 bytes
//   BYTE_ARRAY            4-byte little-endian length, then the bytes
//   FIXED_LEN_BYTE_ARRAY  type_length bytes
//
// Decoded ByteViews point into the page data; DecodeBinary copies BYTE_ARRAY values straight
// into Arrow's layout instead. Fixed-width values are copied with one memcpy per batch;
// booleans are spread eight at a time through a table.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

template <typename DType>
class PlainDecoder final : public ValueDecoder<DType> {
 public:
  using Value = typename DType::Value;
  // type_length: the FIXED_LEN_BYTE_ARRAY width (REQUIRES >= 1 for it), else ignored.
  explicit PlainDecoder(int32_t type_length = 0) : type_length_(type_length) {}

  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  Status SetArrivingData(std::span<const uint8_t> data, int64_t num_values,
                         ByteSupply* more) override;
  Status Decode(Value* out, int64_t n) override;
  Status Skip(int64_t n) override;
  bool DecodesBinary() const override { return std::is_same_v<DType, ByteArrayType>; }
  // BYTE_ARRAY: lengths read and bytes copied in one pass, no views in between.
  Result<int64_t> DecodeBinary(int64_t n, BinaryAppend* out) override;
  int64_t values_left() const override { return left_; }

 private:
  Status Advance(Value* out, int64_t n);  // Decode (out != nullptr) or Skip
  Status Fail(const std::string& what);
  // BYTE_ARRAY value i of n at `pos` whose length or bytes are not all there: asks the supply
  // for them (`*end` follows it) and reads the length; Corruption when the page ends first.
  // Decode's loops keep pos and end in locals and come here only when short.
  Status AwaitByteArray(const uint8_t* pos, const uint8_t** end, int64_t i, int64_t n,
                        uint32_t* len);
  // Decodes `n` fixed-width values (not FIXED_LEN_BYTE_ARRAY: those are views) where the bytes
  // run short through ByteSupply::CopyOut: copied out, they need not stay in the page.
  // Corruption, as Advance says it, when the page ends first.
  Status CopyOut(Value* out, int64_t n);
  // Skips BYTE_ARRAY values i to n (of n) from `pos`, where the bytes run short, by walking the
  // supply's pieces (ByteSupply::Walk): the bytes skipped need not be kept. Counts the n
  // values off left_; Corruption, as AwaitByteArray says it, when the page ends first.
  Status WalkByteArrays(const uint8_t* pos, int64_t i, int64_t n);
  // Whether `n` bytes from pos_ are there, after asking the supply (if any) for them.
  bool Grow(size_t n) {
    if (more_ != nullptr) end_ = more_->Grow(pos_, n);
    return static_cast<size_t>(end_ - pos_) >= n;
  }
  // Grow for `n` bytes from pos_ that are skipped unread (ByteSupply::SkipOver).
  bool GrowSkipping(size_t n) {
    if (more_ != nullptr) end_ = more_->SkipOver(pos_, n);
    return static_cast<size_t>(end_ - pos_) >= n;
  }

  int32_t type_length_;
  ByteSupply* more_ = nullptr;  // SetArrivingData
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_offset_ = 0;  // BOOLEAN: next bit in *pos_
  int64_t left_ = 0;
};

template <typename DType>
class PlainEncoder final : public ValueEncoder<DType> {
 public:
  using Value = typename DType::Value;
  explicit PlainEncoder(int32_t type_length = 0) : type_length_(type_length) {}

  Encoding encoding() const override { return Encoding::kPlain; }
  void Put(const Value* values, int64_t n) override;
  int64_t num_values() const override { return num_values_; }
  size_t EstimatedSize() const override { return out_.size() + (bit_count_ > 0 ? 1 : 0); }
  void FinishInto(std::vector<uint8_t>& out) override;

 private:
  int32_t type_length_;
  std::vector<uint8_t> out_;
  uint8_t bits_ = 0;  // BOOLEAN: the partial last byte
  int bit_count_ = 0;
  int64_t num_values_ = 0;
};

// At most how many PLAIN values of `type` fit in `bytes` bytes (type_length: the
// FIXED_LEN_BYTE_ARRAY width, >= 1). Bounds allocations made from counts in the input.
int64_t MaxPlainValues(PhysicalType type, size_t bytes, int32_t type_length);

}  // namespace pqsift::encoding
