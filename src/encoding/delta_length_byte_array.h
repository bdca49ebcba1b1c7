// DELTA_LENGTH_BYTE_ARRAY (Encodings.md "Delta-length byte array") for BYTE_ARRAY:
//
//   <lengths as one DELTA_BINARY_PACKED stream of 32-bit values> <the values' bytes, concatenated>
//
// Example: "Hello", "World", "Foobar", "ABCDEF" are DeltaEncoding(5, 5, 6, 6) followed by
// "HelloWorldFoobarABCDEF". Decoded ByteViews point into the page data. The lengths are
// decoded a batch at a time (the end of their stream is found by walking block headers), so
// memory does not grow with the page's value count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encoding/delta_binary_packed.h"
#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

class DeltaLengthByteArrayDecoder final : public ValueDecoder<ByteArrayType> {
 public:
  // `name` starts error messages; a string literal (DELTA_BYTE_ARRAY reuses this decoder for
  // its suffixes).
  explicit DeltaLengthByteArrayDecoder(const char* name = "DELTA_LENGTH_BYTE_ARRAY")
      : name_(name), lengths_(name) {}

  // Empty data is a page without values. values_left() is the smaller of num_values and the
  // length stream's count. Corruption for a malformed length stream.
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  // Corruption for a length above 2^31 - 1 (negative as a signed int32) or past the data.
  Status Decode(ByteView* out, int64_t n) override;
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

 private:
  Status Advance(ByteView* out, int64_t n);

  const char* name_;
  DeltaStreamReader<uint32_t> lengths_;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t left_ = 0;
  std::vector<uint32_t> scratch_;
};

class DeltaLengthByteArrayEncoder final : public ValueEncoder<ByteArrayType> {
 public:
  Encoding encoding() const override { return Encoding::kDeltaLengthByteArray; }
  void Put(const ByteView* values, int64_t n) override;
  int64_t num_values() const override { return lengths_.count(); }
  size_t EstimatedSize() const override { return lengths_.EstimatedSize() + bytes_.size(); }
  void FinishInto(std::vector<uint8_t>& out) override;

 private:
  DeltaStreamWriter<uint32_t> lengths_;
  std::vector<uint8_t> bytes_;
};

}  // namespace pqsift::encoding
