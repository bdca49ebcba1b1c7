// Bit-level helpers for Arrow validity bitmaps and boolean values: bit i is bit (i % 8) of
// byte (i / 8) (LSB numbering). Pure functions over caller-owned memory; the caller guarantees
// the bytes for every bit index passed.
#pragma once

#include <cstdint>
#include <cstring>

namespace pqsift::bit_util {

inline int64_t BytesForBits(int64_t bits) { return (bits + 7) / 8; }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
}
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool v) {
  uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  bits[i >> 3] = static_cast<uint8_t>(v ? (bits[i >> 3] | mask) : (bits[i >> 3] & ~mask));
}

// Number of set bits in [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

// Sets bits [offset, offset + length) of `bits` to `value`.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

// Copies `length` bits from src starting at src_offset to dst starting at dst_offset.
void CopyBits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
              int64_t dst_offset);

}  // namespace pqsift::bit_util
