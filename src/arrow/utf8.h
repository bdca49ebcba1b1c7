// UTF-8 checks shared by array validation and the text outputs. Pure functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace pqsift::utf8 {

// Length of the well-formed UTF-8 sequence starting at s[i] (1..4), or 0 when the bytes there
// are not one (bad lead byte, truncated, overlong, surrogate, above U+10FFFF).
// REQUIRES: i < s.size().
inline size_t SequenceLength(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t b = at(i);
  if (b < 0x80) return 1;
  size_t left = s.size() - i;
  auto cont = [&](size_t k) { return (at(i + k) & 0xc0) == 0x80; };
  if (b >= 0xc2 && b <= 0xdf) return left >= 2 && cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    if (left < 3 || !cont(1) || !cont(2)) return 0;
    uint8_t b1 = at(i + 1);
    if (b == 0xe0 && b1 < 0xa0) return 0;   // overlong
    if (b == 0xed && b1 >= 0xa0) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    if (left < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    uint8_t b1 = at(i + 1);
    if (b == 0xf0 && b1 < 0x90) return 0;   // overlong
    if (b == 0xf4 && b1 >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Whether `s` is entirely well-formed UTF-8. ASCII runs are checked 8 bytes at a time.
inline bool IsValid(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (s.size() - i >= 8) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    size_t n = SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// Number of code points when displayed, counting each invalid byte as one.
inline size_t CodePoints(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) {
    size_t n = SequenceLength(s, i);
    i += n == 0 ? 1 : n;
  }
  return count;
}

}  // namespace pqsift::utf8
