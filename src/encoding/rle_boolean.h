// RLE for BOOLEAN values in data pages (Encodings.md "RLE", the table of length prefixes): a
// 4-byte little-endian length, then that many bytes of the RLE/bit-packed hybrid at bit width
// 1; the same in data pages v1 and v2. Values decode to one byte 0/1 each.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encoding/rle_bit_packed.h"
#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

class RleBooleanDecoder final : public ValueDecoder<BooleanType> {
 public:
  // Empty data is a page without values (values_left() 0). Corruption when the length prefix
  // does not fit or exceeds the data.
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  Status Decode(uint8_t* out, int64_t n) override;
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

 private:
  Status Fail(int64_t got, int64_t n);

  RleBitPackedDecoder rle_;
  int64_t left_ = 0;
};

class RleBooleanEncoder final : public ValueEncoder<BooleanType> {
 public:
  Encoding encoding() const override { return Encoding::kRle; }
  void Put(const uint8_t* values, int64_t n) override;
  int64_t num_values() const override { return num_values_; }
  size_t EstimatedSize() const override { return 4 + rle_.EstimatedSize(); }
  void FinishInto(std::vector<uint8_t>& out) override;

 private:
  RleBitPackedEncoder rle_{1};
  int64_t num_values_ = 0;
};

}  // namespace pqsift::encoding
