// DELTA_BYTE_ARRAY (Encodings.md "Delta Strings") for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY:
//
//   <prefix lengths: DELTA_BINARY_PACKED> <suffixes: DELTA_LENGTH_BYTE_ARRAY>
//
// Value i is the first prefix[i] bytes of value i-1 followed by suffix i. Example: "axis",
// "axle", "babble", "babyhood" are prefixes (0, 2, 0, 3), suffix lengths (4, 2, 6, 5) and
// "axislebabbleyhood".
//
// Decoded values that need new bytes (a non-empty prefix and a non-empty suffix) are built in
// storage the decoder owns; the others are views of the page data or of the previous value.
// All stay valid until the next SetData (or the decoder's destruction). A prefix longer than
// the previous value, or a FIXED_LEN_BYTE_ARRAY value of the wrong length, is Corruption.
// Skip rebuilds the skipped values' prefixes in one scratch string, not in the storage.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "encoding/byte_arena.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_length_byte_array.h"

namespace pqsift::encoding {

// DType: ByteArrayType or FixedLenByteArrayType.
template <typename DType>
class DeltaByteArrayDecoder final : public ValueDecoder<DType> {
 public:
  // type_length: the FIXED_LEN_BYTE_ARRAY width, else ignored.
  explicit DeltaByteArrayDecoder(int32_t type_length = 0) : type_length_(type_length) {}

  // Empty data is a page without values; values_left() is the smaller of num_values and the
  // prefix stream's count (a shorter suffix stream fails when its values are asked for).
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  Status Decode(ByteView* out, int64_t n) override;
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

 private:
  // Reads k prefix lengths and suffixes into the scratch vectors.
  Status ReadChunk(int64_t k);
  Status CheckLength(size_t length, int64_t prefix);
  Status Fail(const std::string& what);

  int32_t type_length_;
  DeltaStreamReader<uint32_t> prefixes_{"DELTA_BYTE_ARRAY prefix lengths"};
  DeltaLengthByteArrayDecoder suffixes_{"DELTA_BYTE_ARRAY suffixes"};
  ByteArena arena_;
  ByteView previous_;
  int64_t left_ = 0;
  std::vector<uint32_t> prefix_scratch_;
  std::vector<ByteView> suffix_scratch_;
  std::string skipped_;  // Skip's rolling value
};

template <typename DType>
class DeltaByteArrayEncoder final : public ValueEncoder<DType> {
 public:
  Encoding encoding() const override { return Encoding::kDeltaByteArray; }
  void Put(const ByteView* values, int64_t n) override;
  int64_t num_values() const override { return prefixes_.count(); }
  size_t EstimatedSize() const override {
    return prefixes_.EstimatedSize() + suffixes_.EstimatedSize();
  }
  void FinishInto(std::vector<uint8_t>& out) override;

 private:
  DeltaStreamWriter<uint32_t> prefixes_;
  DeltaLengthByteArrayEncoder suffixes_;
  std::string previous_;
};

}  // namespace pqsift::encoding
