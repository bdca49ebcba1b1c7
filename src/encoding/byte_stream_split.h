// BYTE_STREAM_SPLIT (Encodings.md "Byte Stream Split") for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY of any width K: byte b of value i is at b*N + i, where N = data size / K
// is the number of values in the page (a data size that is not a multiple of K is Corruption).
//
// Example: floats AA BB CC DD, 00 11 22 33, A3 B4 C5 D6 are stored as
// AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
//
// FIXED_LEN_BYTE_ARRAY values are reassembled in storage the decoder owns (N*K bytes, made on
// the first Decode of a page); their views stay valid until the next SetData. Skip moves an
// index and touches nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

template <typename DType>
class ByteStreamSplitDecoder final : public ValueDecoder<DType> {
 public:
  using Value = typename DType::Value;
  // type_length: the FIXED_LEN_BYTE_ARRAY width (REQUIRES >= 1 for it), else ignored.
  explicit ByteStreamSplitDecoder(int32_t type_length = 0);

  // values_left() is the smaller of num_values and N.
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  Status Decode(Value* out, int64_t n) override;
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

 private:
  size_t width_;
  const uint8_t* data_ = nullptr;
  int64_t count_ = 0;  // N
  int64_t index_ = 0;  // next value
  int64_t left_ = 0;
  std::vector<uint8_t> storage_;  // FIXED_LEN_BYTE_ARRAY values, value i at i*K
};

template <typename DType>
class ByteStreamSplitEncoder final : public ValueEncoder<DType> {
 public:
  using Value = typename DType::Value;
  explicit ByteStreamSplitEncoder(int32_t type_length = 0);

  Encoding encoding() const override { return Encoding::kByteStreamSplit; }
  void Put(const Value* values, int64_t n) override;
  int64_t num_values() const override { return static_cast<int64_t>(raw_.size() / width_); }
  size_t EstimatedSize() const override { return raw_.size(); }
  void FinishInto(std::vector<uint8_t>& out) override;

 private:
  size_t width_;
  std::vector<uint8_t> raw_;  // the values as PLAIN bytes
};

// Reassembles values [begin, begin + n) of `count` K-byte values split into K streams at
// `data` into `out` (n*K bytes, value after value). Exposed for the benchmark.
void UnsplitBytes(const uint8_t* data, int64_t count, size_t width, int64_t begin, int64_t n,
                  uint8_t* out);

}  // namespace pqsift::encoding
