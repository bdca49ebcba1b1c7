// The RLE / bit-packing hybrid (Encodings.md "Run Length Encoding / Bit-Packing Hybrid"), used
// for definition and repetition levels, dictionary indices and booleans; and the deprecated
// BIT_PACKED level encoding.
//
//   rle-bit-packed-hybrid: <run>*   run: <bit-packed-run> | <rle-run>
//   header varint: (count/8 << 1) | 1 for a bit-packed run of count values, count << 1 for RLE
//   an RLE run's value follows its header in ceil(bit_width/8) little-endian bytes; a
//   bit-packed run's count*bit_width/8 bytes follow its header, LSB-first (bit_pack.h).
//
// Example (bit width 3): 0x03 0x88 0xC6 0xFA is one bit-packed run of the values 0..7.
//
// Thread safety: decoders and encoders are used by one thread at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "encoding/byte_supply.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::encoding {

// Reads the hybrid encoding from a byte span (no length prefix). Reads nothing outside the
// span. A run that claims more bytes than are left is cut to the values whose bits are all
// present (GetBatch then ends early); a header that is not a varint, a run longer than 2^31-1
// values or an RLE value wider than the bit width makes ok() false and ends decoding.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  // `data` holds runs of values of `bit_width` bits (0..32). REQUIRES: bit_width in [0, 32].
  // `data` must outlive the decoder's use of it. With `more` (byte_supply.h), `data` is what
  // has arrived of a page still arriving: each run's bytes are asked for when the run starts.
  RleBitPackedDecoder(std::span<const uint8_t> data, int bit_width) { Reset(data, bit_width); }
  void Reset(std::span<const uint8_t> data, int bit_width, ByteSupply* more = nullptr);

  // Decodes up to `n` values into out; returns how many it decoded: fewer than n only when the
  // data ends (or is malformed; then ok() is false). T is an integer type wide enough for
  // bit_width bits (uint8_t, int16_t, int32_t and uint32_t are provided).
  template <typename T>
  int64_t GetBatch(T* out, int64_t n);
  // Skips up to `n` values without decoding them one by one; returns how many it skipped.
  int64_t Skip(int64_t n);

  // Walks the next `n` values (at most) run by run, for callers that can use a run whole:
  // on_repeat(uint32_t value, int64_t count) for a repeated value, on_literal(const uint32_t*
  // values, int64_t count) for unpacked bit-packed values (a scratch buffer, valid during the
  // call only). Returns how many values were visited, as GetBatch.
  template <typename OnRepeat, typename OnLiteral>
  int64_t Visit(int64_t n, OnRepeat&& on_repeat, OnLiteral&& on_literal);

  // False after malformed input (a bad header, an RLE value wider than the bit width).
  bool ok() const { return ok_; }
  int bit_width() const { return bit_width_; }

 private:
  static constexpr int kBuffer = 32;

  bool NextRun();
  // Makes `n` bytes from pos_ available if the supply has them; the bytes there now otherwise.
  void Grow(size_t n) {
    if (more_ != nullptr && static_cast<size_t>(end_ - pos_) < n) end_ = more_->Grow(pos_, n);
  }
  // Reads up to n values of the current bit-packed run.
  template <typename T>
  int64_t ReadLiterals(T* out, int64_t n);

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  ByteSupply* more_ = nullptr;
  int bit_width_ = 0;
  bool ok_ = true;
  // Current RLE run: repeat_left_ more copies of repeat_value_.
  int64_t repeat_left_ = 0;
  uint32_t repeat_value_ = 0;
  // Current bit-packed run: literal_count_ values whose bits are all present, starting at
  // literal_data_; the next one is literal_index_.
  const uint8_t* literal_data_ = nullptr;
  int64_t literal_index_ = 0;
  int64_t literal_count_ = 0;
  // Values [buffer_begin_, buffer_begin_ + buffer_len_) of the run, unpacked, for reads that
  // are not a whole group of 32.
  int64_t buffer_begin_ = 0;
  int buffer_len_ = 0;
  uint32_t buffer_[kBuffer];
};

// Writes the hybrid encoding: runs of 8 or more equal values become RLE runs, everything else
// bit-packed runs (of at most 504 values, so each header is one byte).
class RleBitPackedEncoder {
 public:
  // REQUIRES: bit_width in [0, 32].
  explicit RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {}

  // REQUIRES: value < 2^bit_width.
  void Put(uint32_t value) {
    if (run_length_ > 0 && value == run_value_) {
      ++run_length_;
      return;
    }
    StartRun(value);
  }
  template <typename T>
  void PutBatch(const T* values, int64_t n) {
    for (int64_t i = 0; i < n; ++i) Put(static_cast<uint32_t>(values[i]));
  }

  // At least the bytes FinishInto would append now (an upper bound, for page-size decisions).
  size_t EstimatedSize() const;
  // Appends the encoded runs (no length prefix) to `out` and resets the encoder for reuse.
  // The last bit-packed run is padded with zero values to a multiple of 8.
  void FinishInto(std::vector<uint8_t>& out);
  std::vector<uint8_t> Finish() {
    std::vector<uint8_t> out;
    FinishInto(out);
    return out;
  }

 private:
  void StartRun(uint32_t value);
  void EndRun();
  void FlushLiterals(bool final);
  void EmitRepeat(uint32_t value, int64_t count);

  int bit_width_;
  std::vector<uint8_t> out_;
  std::vector<uint32_t> literals_;  // pending bit-packed values
  uint32_t run_value_ = 0;          // the trailing run of equal values not yet placed
  int64_t run_length_ = 0;
};

// Bit width of levels up to max_level (0 for 0).
int LevelBitWidth(int16_t max_level);

// Definition or repetition levels of one data page.
//
// A column whose max level is 0 stores no levels: Init consumes nothing and Decode yields
// zeros. Levels are range-checked when decoded (not when skipped: skipped levels are unused).
class LevelDecoder {
 public:
  // Data page v1: `data` starts with the levels encoded in `encoding` (RLE with its 4-byte
  // length prefix, or BIT_PACKED with ceil(num_values*bit_width/8) bytes); `*consumed` is the
  // number of bytes they take. Corruption for another encoding or a section larger than data.
  // `data` must outlive the decoder's use of it.
  Status InitV1(Encoding encoding, int16_t max_level, int64_t num_values,
                std::span<const uint8_t> data, size_t* consumed);
  // Data page v2: `data` is exactly the RLE levels (no length prefix).
  Status InitV2(int16_t max_level, int64_t num_values, std::span<const uint8_t> data);

  // Decodes the next n levels; Corruption when the page holds fewer or a level exceeds the
  // maximum.
  Status Decode(int16_t* out, int64_t n);
  Status Skip(int64_t n);
  // True when each of the levels not yet decoded equals `level`, found run by run without
  // materialising them (a page without nulls is usually one RLE run). Does not consume; false on
  // the first bit-packed run, on malformed or short data (Decode then reports the problem).
  bool RestAllEqual(int16_t level) const;
  // Levels not yet decoded or skipped (of the page's num_values).
  int64_t levels_left() const { return left_; }

 private:
  Status Init(int16_t max_level, int64_t num_values);
  Status CheckCount(int64_t n) const;

  Encoding encoding_ = Encoding::kRle;
  int16_t max_level_ = 0;
  int bit_width_ = 0;
  int64_t left_ = 0;
  RleBitPackedDecoder rle_;
  const uint8_t* packed_ = nullptr;  // BIT_PACKED levels
  int64_t packed_index_ = 0;
};

// Level encoders (for the writer). REQUIRES: every level in [0, max_level].
// Data page v1: RLE with its 4-byte length prefix, or BIT_PACKED; nothing when max_level is 0.
// REQUIRES: encoding is kRle or kBitPacked.
void AppendLevelsV1(Encoding encoding, int16_t max_level, const int16_t* levels, int64_t n,
                    std::vector<uint8_t>& out);
// Data page v2: RLE without a prefix (the page header carries the length).
void AppendLevelsV2(int16_t max_level, const int16_t* levels, int64_t n, std::vector<uint8_t>& out);

// ---- implementation of the template above ----

template <typename OnRepeat, typename OnLiteral>
int64_t RleBitPackedDecoder::Visit(int64_t n, OnRepeat&& on_repeat, OnLiteral&& on_literal) {
  constexpr int64_t kChunk = 256;
  uint32_t scratch[kChunk];
  int64_t done = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      const int64_t k = std::min(n - done, repeat_left_);
      on_repeat(repeat_value_, k);
      repeat_left_ -= k;
      done += k;
    } else if (literal_index_ < literal_count_) {
      const int64_t k = ReadLiterals(scratch, std::min(n - done, kChunk));
      on_literal(static_cast<const uint32_t*>(scratch), k);
      done += k;
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

}  // namespace pqsift::encoding
