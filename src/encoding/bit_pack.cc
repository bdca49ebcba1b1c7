#include "encoding/bit_pack.h"

#include <array>
#include <cassert>
#include <cstring>
#include <utility>

namespace pqsift::encoding {
namespace {

// N values of BW bits, LSB-first, from exactly BW*N/8 bytes. The loop is fully unrolled, so
// every word index, shift and branch below is a compile-time constant.
template <int BW, int N, typename Out>
void UnpackFixed(const uint8_t* in, Out* out) {
  if constexpr (BW == 0) {
    for (int i = 0; i < N; ++i) out[i] = 0;
  } else {
    constexpr int kBytes = BW * N / 8;
    constexpr int kWords = (kBytes + 3) / 4;
    uint32_t w[kWords];
    if constexpr (kBytes % 4 != 0) w[kWords - 1] = 0;  // a partial last word (N = 8 only)
    std::memcpy(w, in, kBytes);
    constexpr uint64_t kMask = BW == 64 ? ~uint64_t{0} : (uint64_t{1} << BW) - 1;
#pragma GCC unroll 32
    for (int i = 0; i < N; ++i) {
      const int bit = i * BW;
      const int word = bit / 32;
      const int shift = bit % 32;
      uint64_t x = w[word];
      if (shift + BW > 32) x |= uint64_t{w[word + 1]} << 32;
      x >>= shift;
      if (shift + BW > 64) x |= uint64_t{w[word + 2]} << (64 - shift);
      out[i] = static_cast<Out>(x & kMask);
    }
  }
}

template <typename Out>
using UnpackFn = void (*)(const uint8_t*, Out*);

template <typename Out, int N, size_t... BW>
constexpr auto MakeTable(std::index_sequence<BW...>) {
  return std::array<UnpackFn<Out>, sizeof...(BW)>{&UnpackFixed<static_cast<int>(BW), N, Out>...};
}

template <typename Out, int N>
constexpr auto kTable =
    MakeTable<Out, N>(std::make_index_sequence<static_cast<size_t>(kMaxUnpackWidth<Out>) + 1>());

}  // namespace

template <typename Out>
void Unpack32(const uint8_t* in, Out* out, int bit_width) {
  assert(bit_width >= 0 && bit_width <= kMaxUnpackWidth<Out>);
  kTable<Out, 32>[bit_width](in, out);
}

template <typename Out>
void Unpack8(const uint8_t* in, Out* out, int bit_width) {
  assert(bit_width >= 0 && bit_width <= kMaxUnpackWidth<Out>);
  kTable<Out, 8>[bit_width](in, out);
}

template <typename Out>
void UnpackSlow(const uint8_t* data, int64_t bit_offset, int bit_width, Out* out, int64_t n) {
  assert(bit_width >= 0 && bit_width <= kMaxUnpackWidth<Out>);
  if (bit_width == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = 0;
    return;
  }
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  for (int64_t i = 0; i < n; ++i, bit_offset += bit_width) {
    const uint8_t* p = data + bit_offset / 8;
    const int shift = static_cast<int>(bit_offset % 8);
    const int nbytes = (shift + bit_width + 7) / 8;  // at most 9
    uint64_t x = 0;
    for (int b = 0; b < nbytes && b < 8; ++b) x |= uint64_t{p[b]} << (8 * b);
    x >>= shift;
    if (nbytes == 9) x |= uint64_t{p[8]} << (64 - shift);
    out[i] = static_cast<Out>(x & mask);
  }
}

uint32_t ExtractBitsMsb(const uint8_t* data, int64_t bit_offset, int bit_width) {
  assert(bit_width >= 0 && bit_width <= 32);
  if (bit_width == 0) return 0;
  const uint8_t* p = data + bit_offset / 8;
  const int shift = static_cast<int>(bit_offset % 8);
  const int nbytes = (shift + bit_width + 7) / 8;  // at most 5
  uint64_t x = 0;
  for (int b = 0; b < nbytes; ++b) x = (x << 8) | p[b];
  x >>= nbytes * 8 - shift - bit_width;
  return static_cast<uint32_t>(x & ((uint64_t{1} << bit_width) - 1));
}

void AppendPackedMsb(std::vector<uint8_t>& out, const uint32_t* values, int64_t n, int bit_width) {
  assert(bit_width >= 0 && bit_width <= 32);
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>((n * bit_width + 7) / 8), 0);
  int64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int b = bit_width - 1; b >= 0; --b, ++bit) {
      if ((values[i] >> b) & 1) out[start + bit / 8] |= static_cast<uint8_t>(0x80 >> (bit % 8));
    }
  }
}

#define PQSIFT_INSTANTIATE_UNPACK(Out)                    \
  template void Unpack32<Out>(const uint8_t*, Out*, int); \
  template void Unpack8<Out>(const uint8_t*, Out*, int);  \
  template void UnpackSlow<Out>(const uint8_t*, int64_t, int, Out*, int64_t);
PQSIFT_INSTANTIATE_UNPACK(uint8_t)
PQSIFT_INSTANTIATE_UNPACK(int16_t)
PQSIFT_INSTANTIATE_UNPACK(int32_t)
PQSIFT_INSTANTIATE_UNPACK(uint32_t)
PQSIFT_INSTANTIATE_UNPACK(uint64_t)
#undef PQSIFT_INSTANTIATE_UNPACK

}  // namespace pqsift::encoding
