// DELTA_BINARY_PACKED (Encodings.md "Delta Encoding") for INT32 and INT64.
//
//   header: <block size> <miniblocks per block> <total value count> <first value (zigzag)>
//   block:  <min delta (zigzag)> <one bit-width byte per miniblock> <miniblocks, bit-packed>
//
// Block size is a positive multiple of 128, values per miniblock a multiple of 32. All
// arithmetic wraps in the unsigned type of the value's width, so any deltas round-trip. Bit
// widths of miniblocks the last block does not need are ignored, as the spec requires; a needed
// width above 64 is Corruption (INT32 streams may use up to 64: see kMaxWidth). A last miniblock
// cut short of its padding is accepted when the values it must hold are there.
//
// The stream reader and writer here are also the length streams of DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

// One DELTA_BINARY_PACKED stream of U = uint32_t (32-bit values) or uint64_t (64-bit values).
template <typename U>
class DeltaStreamReader {
 public:
  // `name` starts error messages ("DELTA_BINARY_PACKED", "DELTA_BYTE_ARRAY prefix lengths");
  // it must be a string literal.
  explicit DeltaStreamReader(const char* name) : name_(name) {}

  // Parses the header at the start of `data`. Corruption for a truncated header, a block size
  // that is not a positive multiple of 128, a miniblock count that does not split it into
  // multiples of 32, or a value count above 2^31 - 1. `data` must outlive the reader's use.
  Status Init(std::span<const uint8_t> data);
  // Values the header declares that were not read or skipped yet.
  int64_t left() const { return left_; }
  // Reads the next n values. REQUIRES: 0 <= n <= left(). Corruption for a truncated block or
  // a bit width too wide for U.
  Status Read(U* out, int64_t n);
  Status Skip(int64_t n);
  // Byte length of the whole stream, found by walking its block headers without unpacking
  // anything; data past it belongs to whoever follows (the byte-array encodings).
  // REQUIRES: Init succeeded and nothing was read yet. Corruption as Read.
  Result<size_t> FindEnd() const;

 private:
  // 64 for both widths: writers that compute INT32 deltas in 64 bits (DuckDB) emit miniblocks
  // of up to 33 bits; the values wrap to 32 bits, as the spec's wrapping arithmetic allows.
  static constexpr int kMaxWidth = 64;

  Status NextMiniblock();
  Status DecodeGroup(U* out);  // the next 32 values of the miniblock, as values
  Status Fail(const std::string& what);

  const char* name_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t offset_ = 0;  // first byte not yet claimed by a header or miniblock
  int64_t miniblocks_ = 0;
  int64_t per_miniblock_ = 0;
  int64_t left_ = 0;
  bool first_pending_ = false;
  U last_ = 0;  // the first value, then the last value produced
  // The current block and miniblock.
  U min_delta_ = 0;
  size_t widths_offset_ = 0;
  int64_t miniblock_ = 0;  // index of the next miniblock in the block
  int width_ = 0;
  size_t mini_offset_ = 0;  // byte offset of the current miniblock's data
  int64_t mini_index_ = 0;  // next value in the current miniblock
  // A group of 32 decoded values of which [buffer_pos_, buffer_len_) are not yet returned.
  U buffer_[32];
  int buffer_pos_ = 0;
  int buffer_len_ = 0;
};

// Writes one stream with blocks of 128 values in 4 miniblocks of 32.
template <typename U>
class DeltaStreamWriter {
 public:
  void Put(U value) {
    if (count_++ == 0) {
      first_ = value;
    } else {
      deltas_[pending_++] = value - last_;
      if (pending_ == kBlock) FlushBlock();
    }
    last_ = value;
  }
  int64_t count() const { return count_; }
  size_t EstimatedSize() const { return 24 + blocks_.size() + pending_ * sizeof(U) + 5; }
  // Appends the header and every block, then resets.
  void FinishInto(std::vector<uint8_t>& out);

 private:
  static constexpr int kBlock = 128;
  static constexpr int kMiniblocks = 4;
  static constexpr int kPerMiniblock = kBlock / kMiniblocks;

  void FlushBlock();

  int64_t count_ = 0;
  U first_ = 0;
  U last_ = 0;
  U deltas_[kBlock];
  int pending_ = 0;
  std::vector<uint8_t> blocks_;
};

// DType: Int32Type or Int64Type.
template <typename DType>
class DeltaBinaryPackedDecoder final : public ValueDecoder<DType> {
 public:
  using Value = typename DType::Value;
  using U = std::make_unsigned_t<Value>;

  // Empty data is a page without values. values_left() is the smaller of num_values and the
  // header's count.
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  Status Decode(Value* out, int64_t n) override;
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

 private:
  DeltaStreamReader<U> reader_{"DELTA_BINARY_PACKED"};
  int64_t left_ = 0;
};

template <typename DType>
class DeltaBinaryPackedEncoder final : public ValueEncoder<DType> {
 public:
  using Value = typename DType::Value;
  using U = std::make_unsigned_t<Value>;

  Encoding encoding() const override { return Encoding::kDeltaBinaryPacked; }
  void Put(const Value* values, int64_t n) override {
    for (int64_t i = 0; i < n; ++i) writer_.Put(static_cast<U>(values[i]));
  }
  int64_t num_values() const override { return writer_.count(); }
  size_t EstimatedSize() const override { return writer_.EstimatedSize(); }
  void FinishInto(std::vector<uint8_t>& out) override { writer_.FinishInto(out); }

 private:
  DeltaStreamWriter<U> writer_;
};

}  // namespace pqsift::encoding
