// Bit packing of fixed-width unsigned integers.
//
// LSB-first (the RLE/bit-packed hybrid, DELTA_BINARY_PACKED, PLAIN booleans): values fill each
// byte from its least significant bit; a value's own bits keep their order, so on a
// little-endian host value i is bits [i*w, (i+1)*w) of the byte string read as one number.
// MSB-first (the deprecated BIT_PACKED level encoding): values fill each byte from its most
// significant bit.
//
// The unpackers for groups of 8 and 32 values are specialised per bit width (the shifts and
// masks become constants) and reached through a table; they read exactly the bytes of the
// group (w bytes for 8 values, 4*w for 32) and nothing beyond.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pqsift::encoding {

// Widest bit width an unpacker into Out accepts: 64 for uint64_t, else 32 (values wider than
// Out are truncated to Out; callers pick an Out wide enough).
template <typename Out>
constexpr int kMaxUnpackWidth = sizeof(Out) == 8 ? 64 : 32;

// Unpacks 32 values of `bit_width` bits from the 4*bit_width bytes at `in`.
// REQUIRES: 0 <= bit_width <= kMaxUnpackWidth<Out>.
template <typename Out>
void Unpack32(const uint8_t* in, Out* out, int bit_width);

// Unpacks 8 values of `bit_width` bits from the bit_width bytes at `in`.
// REQUIRES: 0 <= bit_width <= kMaxUnpackWidth<Out>.
template <typename Out>
void Unpack8(const uint8_t* in, Out* out, int bit_width);

// Unpacks `n` (any count) LSB-first values starting at bit `bit_offset` of `data`, reading
// only the bytes that hold them: [bit_offset/8, ceil((bit_offset + n*bit_width)/8)).
// REQUIRES: 0 <= bit_width <= kMaxUnpackWidth<Out>. For run tails and odd positions.
template <typename Out>
void UnpackSlow(const uint8_t* data, int64_t bit_offset, int bit_width, Out* out, int64_t n);

// One MSB-first value (the deprecated BIT_PACKED encoding) of `bit_width` <= 32 bits starting
// at bit `bit_offset` counted from the most significant bit of data[0]. Reads only the bytes
// holding it.
uint32_t ExtractBitsMsb(const uint8_t* data, int64_t bit_offset, int bit_width);

// Appends values[0, n) packed LSB-first, `bit_width` bits each (higher bits of a value are
// dropped): ceil(n * bit_width / 8) bytes, the last byte's unused bits zero.
// REQUIRES: 0 <= bit_width <= 64.
template <typename T>
void AppendPackedLsb(std::vector<uint8_t>& out, const T* values, int64_t n, int bit_width) {
  if (bit_width == 0 || n == 0) return;
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t acc = 0;
  int filled = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t v = static_cast<uint64_t>(values[i]) & mask;
    acc |= v << filled;
    if (filled + bit_width >= 64) {
      const size_t at = out.size();
      out.resize(at + 8);
      for (int b = 0; b < 8; ++b) out[at + b] = static_cast<uint8_t>(acc >> (8 * b));
      const int used = 64 - filled;
      acc = used < 64 ? v >> used : 0;
      filled = filled + bit_width - 64;
    } else {
      filled += bit_width;
    }
  }
  for (int b = 0; b * 8 < filled; ++b) out.push_back(static_cast<uint8_t>(acc >> (8 * b)));
}

// Appends values[0, n) packed MSB-first (BIT_PACKED), ceil(n * bit_width / 8) bytes.
// REQUIRES: 0 <= bit_width <= 32.
void AppendPackedMsb(std::vector<uint8_t>& out, const uint32_t* values, int64_t n, int bit_width);

}  // namespace pqsift::encoding
