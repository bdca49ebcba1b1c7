#include "encoding/byte_stream_split.h"

#include <cassert>
#include <cstring>
#include <string>

#include "encoding/decoder_util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pqsift::encoding {
namespace {

constexpr const char* kName = "BYTE_STREAM_SPLIT";

template <typename DType>
size_t ValueWidth(int32_t type_length) {
  if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    assert(type_length >= 1);
    return static_cast<size_t>(type_length);
  } else {
    return sizeof(typename DType::Value);
  }
}

// Scalar reassembly of values [j, n) with the width known at compile time (K > 0) or not.
template <size_t K>
void UnsplitScalar(const uint8_t* data, int64_t count, size_t width, int64_t begin, int64_t j,
                   int64_t n, uint8_t* out) {
  const size_t k = K > 0 ? K : width;
  for (; j < n; ++j) {
    const uint8_t* src = data + begin + j;
    uint8_t* dst = out + static_cast<size_t>(j) * k;
    for (size_t b = 0; b < k; ++b) dst[b] = src[b * static_cast<size_t>(count)];
  }
}

#if defined(__SSE2__)
// 16 values at a time: interleave the streams' bytes, then pairs, then quads (and octets).
void Unsplit4(const uint8_t* data, int64_t count, int64_t begin, int64_t n, uint8_t* out) {
  const uint8_t* s = data + begin;
  const auto c = static_cast<size_t>(count);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    auto load = [&](size_t b) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + b * c + j));
    };
    const __m128i a = load(0), b = load(1), cc = load(2), d = load(3);
    const __m128i ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
    const __m128i cd_lo = _mm_unpacklo_epi8(cc, d), cd_hi = _mm_unpackhi_epi8(cc, d);
    auto* o = reinterpret_cast<__m128i*>(out + j * 4);
    _mm_storeu_si128(o + 0, _mm_unpacklo_epi16(ab_lo, cd_lo));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(ab_lo, cd_lo));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(ab_hi, cd_hi));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(ab_hi, cd_hi));
  }
  UnsplitScalar<4>(data, count, 4, begin, j, n, out);
}

void Unsplit8(const uint8_t* data, int64_t count, int64_t begin, int64_t n, uint8_t* out) {
  const uint8_t* s = data + begin;
  const auto c = static_cast<size_t>(count);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m128i v[8];
    for (size_t b = 0; b < 8; ++b) {
      v[b] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + b * c + j));
    }
    __m128i p[8];  // byte pairs: p[2i] values 0-7, p[2i+1] values 8-15 of streams 2i, 2i+1
    for (ptrdiff_t i = 0; i < 4; ++i) {
      p[2 * i] = _mm_unpacklo_epi8(v[2 * i], v[2 * i + 1]);
      p[2 * i + 1] = _mm_unpackhi_epi8(v[2 * i], v[2 * i + 1]);
    }
    __m128i q[8];  // quads: q[4h + r] holds values 4r..4r+3, bytes 4h..4h+3
    for (ptrdiff_t h = 0; h < 2; ++h) {
      const __m128i* lo = p + 4 * h;  // streams 4h, 4h+1 in lo[0..1]; 4h+2, 4h+3 in lo[2..3]
      q[4 * h + 0] = _mm_unpacklo_epi16(lo[0], lo[2]);
      q[4 * h + 1] = _mm_unpackhi_epi16(lo[0], lo[2]);
      q[4 * h + 2] = _mm_unpacklo_epi16(lo[1], lo[3]);
      q[4 * h + 3] = _mm_unpackhi_epi16(lo[1], lo[3]);
    }
    auto* o = reinterpret_cast<__m128i*>(out + j * 8);
    for (ptrdiff_t r = 0; r < 4; ++r) {
      _mm_storeu_si128(o + 2 * r, _mm_unpacklo_epi32(q[r], q[4 + r]));
      _mm_storeu_si128(o + 2 * r + 1, _mm_unpackhi_epi32(q[r], q[4 + r]));
    }
  }
  UnsplitScalar<8>(data, count, 8, begin, j, n, out);
}
#endif

}  // namespace

void UnsplitBytes(const uint8_t* data, int64_t count, size_t width, int64_t begin, int64_t n,
                  uint8_t* out) {
  switch (width) {
#if defined(__SSE2__)
    case 4: return Unsplit4(data, count, begin, n, out);
    case 8: return Unsplit8(data, count, begin, n, out);
#else
    case 4: return UnsplitScalar<4>(data, count, 4, begin, 0, n, out);
    case 8: return UnsplitScalar<8>(data, count, 8, begin, 0, n, out);
#endif
    case 2: return UnsplitScalar<2>(data, count, 2, begin, 0, n, out);
    case 16: return UnsplitScalar<16>(data, count, 16, begin, 0, n, out);
    default: return UnsplitScalar<0>(data, count, width, begin, 0, n, out);
  }
}

template <typename DType>
ByteStreamSplitDecoder<DType>::ByteStreamSplitDecoder(int32_t type_length)
    : width_(ValueWidth<DType>(type_length)) {}

template <typename DType>
Status ByteStreamSplitDecoder<DType>::SetData(std::span<const uint8_t> data, int64_t num_values) {
  left_ = 0;
  index_ = 0;
  count_ = 0;
  storage_.clear();
  if (num_values < 0) return Corrupt(kName, "negative value count " + std::to_string(num_values));
  if (data.size() % width_ != 0) {
    return Corrupt(kName, std::to_string(data.size()) + " bytes are not a whole number of " +
                              std::to_string(width_) + "-byte values");
  }
  data_ = data.data();
  count_ = static_cast<int64_t>(data.size() / width_);
  left_ = std::min(num_values, count_);
  return Status::OK();
}

template <typename DType>
Status ByteStreamSplitDecoder<DType>::Decode(Value* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  if (n == 0) return Status::OK();
  if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    if (storage_.empty()) storage_.resize(static_cast<size_t>(count_) * width_);
    uint8_t* dst = storage_.data() + static_cast<size_t>(index_) * width_;
    UnsplitBytes(data_, count_, width_, index_, n, dst);
    for (int64_t i = 0; i < n; ++i) {
      out[i] = ByteView{dst + static_cast<size_t>(i) * width_, static_cast<uint32_t>(width_)};
    }
  } else {
    UnsplitBytes(data_, count_, width_, index_, n, reinterpret_cast<uint8_t*>(out));
  }
  index_ += n;
  left_ -= n;
  return Status::OK();
}

template <typename DType>
Status ByteStreamSplitDecoder<DType>::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  index_ += n;
  left_ -= n;
  return Status::OK();
}

template <typename DType>
ByteStreamSplitEncoder<DType>::ByteStreamSplitEncoder(int32_t type_length)
    : width_(ValueWidth<DType>(type_length)) {}

template <typename DType>
void ByteStreamSplitEncoder<DType>::Put(const Value* values, int64_t n) {
  if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    for (int64_t i = 0; i < n; ++i) {
      assert(values[i].size == width_);
      raw_.insert(raw_.end(), values[i].data, values[i].data + width_);
    }
  } else if (n > 0) {
    const auto* p = reinterpret_cast<const uint8_t*>(values);
    raw_.insert(raw_.end(), p, p + static_cast<size_t>(n) * width_);
  }
}

template <typename DType>
void ByteStreamSplitEncoder<DType>::FinishInto(std::vector<uint8_t>& out) {
  const size_t count = raw_.size() / width_;
  const size_t at = out.size();
  out.resize(at + raw_.size());
  for (size_t i = 0; i < count; ++i) {
    for (size_t b = 0; b < width_; ++b) out[at + b * count + i] = raw_[i * width_ + b];
  }
  raw_.clear();
}

#define PQSIFT_INSTANTIATE(DType)               \
  template class ByteStreamSplitDecoder<DType>; \
  template class ByteStreamSplitEncoder<DType>;
PQSIFT_INSTANTIATE(Int32Type)
PQSIFT_INSTANTIATE(Int64Type)
PQSIFT_INSTANTIATE(FloatType)
PQSIFT_INSTANTIATE(DoubleType)
PQSIFT_INSTANTIATE(FixedLenByteArrayType)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
