// Small bit and byte helpers shared by the encodings: little-endian loads and stores,
// ULEB128 / zigzag varints (bounds-checked), bit widths. Header-only, no state.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace pqsift::encoding {

// Number of bits needed to represent v (0 for 0).
inline int BitWidth(uint64_t v) { return static_cast<int>(std::bit_width(v)); }

// Bytes holding `bits` bits.
constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) / 8; }

// Unaligned little-endian load of a trivially copyable T (the host is little-endian).
template <typename T>
inline T LoadUnaligned(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

inline uint32_t LoadLE32(const uint8_t* p) { return LoadUnaligned<uint32_t>(p); }

// memcpy for the short values most byte arrays are (strings of a few to a few dozen bytes):
// up to 32 bytes are copied as two overlapping fixed-size loads and stores, which compile to a
// few instructions, instead of a library call per value. Never reads or writes outside
// [src, src + n) and [dst, dst + n).
inline void CopyShort(uint8_t* dst, const uint8_t* src, size_t n) {
  if (n >= 16) {
    if (n > 32) {
      std::memcpy(dst, src, n);
      return;
    }
    uint8_t head[16];
    uint8_t tail[16];
    std::memcpy(head, src, 16);
    std::memcpy(tail, src + n - 16, 16);
    std::memcpy(dst, head, 16);
    std::memcpy(dst + n - 16, tail, 16);
  } else if (n >= 8) {
    const auto head = LoadUnaligned<uint64_t>(src);
    const auto tail = LoadUnaligned<uint64_t>(src + n - 8);
    std::memcpy(dst, &head, 8);
    std::memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4) {
    const auto head = LoadUnaligned<uint32_t>(src);
    const auto tail = LoadUnaligned<uint32_t>(src + n - 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
}

// Zigzag: maps signed to unsigned so small magnitudes get short varints.
inline uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// Reads a ULEB128 varint of at most 10 bytes from [*pos, end). On success advances *pos and
// returns true. Returns false (and leaves *pos alone) when the data ends inside the varint or
// it does not fit in 64 bits.
inline bool ReadUleb128(const uint8_t** pos, const uint8_t* end, uint64_t* out) {
  const uint8_t* p = *pos;
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    uint8_t byte = *p++;
    if (shift == 63 && byte > 1) return false;  // bits beyond 64
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *pos = p;
      *out = result;
      return true;
    }
  }
  return false;
}

// Appending writers for encoders.
inline void AppendUleb128(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

template <typename T>
inline void AppendRaw(std::vector<uint8_t>& out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}

inline void AppendBytes(std::vector<uint8_t>& out, const void* data, size_t n) {
  if (n == 0) return;  // data may be null
  const auto* p = static_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}

}  // namespace pqsift::encoding
