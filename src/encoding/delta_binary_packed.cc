#include "encoding/delta_binary_packed.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "encoding/bit_pack.h"
#include "encoding/bit_util.h"
#include "encoding/decoder_util.h"

namespace pqsift::encoding {
namespace {

constexpr uint64_t kMaxBlockSize = (uint64_t{1} << 31) - 128;
constexpr uint64_t kMaxValueCount = (uint64_t{1} << 31) - 1;

}  // namespace

// ---- reader ----

template <typename U>
Status DeltaStreamReader<U>::Fail(const std::string& what) {
  left_ = 0;
  buffer_pos_ = buffer_len_ = 0;
  return Corrupt(name_, what);
}

template <typename U>
Status DeltaStreamReader<U>::Init(std::span<const uint8_t> data) {
  data_ = data.data();
  size_ = data.size();
  left_ = 0;
  buffer_pos_ = buffer_len_ = 0;
  first_pending_ = false;
  const uint8_t* pos = data_;
  const uint8_t* end = data_ + size_;
  uint64_t block_size = 0, miniblocks = 0, count = 0, first = 0;
  if (!ReadUleb128(&pos, end, &block_size) || !ReadUleb128(&pos, end, &miniblocks) ||
      !ReadUleb128(&pos, end, &count) || !ReadUleb128(&pos, end, &first)) {
    return Fail("truncated or malformed header (" + std::to_string(size_) + " bytes)");
  }
  if (block_size == 0 || block_size % 128 != 0 || block_size > kMaxBlockSize) {
    return Fail("block size " + std::to_string(block_size) + " is not a positive multiple of 128");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Fail(std::to_string(miniblocks) + " miniblocks do not split a block of " +
                std::to_string(block_size) + " values into multiples of 32");
  }
  if (count > kMaxValueCount) {
    return Fail("value count " + std::to_string(count) + " exceeds 2^31 - 1");
  }
  offset_ = static_cast<size_t>(pos - data_);
  miniblocks_ = static_cast<int64_t>(miniblocks);
  per_miniblock_ = static_cast<int64_t>(block_size / miniblocks);
  left_ = static_cast<int64_t>(count);
  first_pending_ = count > 0;
  // A writer of 32-bit values may have zigzagged in 64 bits: the low bits are what count.
  last_ = static_cast<U>(ZigZagDecode(first));
  miniblock_ = miniblocks_;      // the first group starts a block
  mini_index_ = per_miniblock_;  // ... and a miniblock
  width_ = 0;
  return Status::OK();
}

template <typename U>
Status DeltaStreamReader<U>::NextMiniblock() {
  if (offset_ > size_) return Fail("the data ends inside a miniblock");
  if (miniblock_ == miniblocks_) {
    const uint8_t* pos = data_ + offset_;
    uint64_t min_delta = 0;
    if (!ReadUleb128(&pos, data_ + size_, &min_delta)) {
      return Fail("truncated or malformed min delta at byte " + std::to_string(offset_));
    }
    offset_ = static_cast<size_t>(pos - data_);
    if (static_cast<uint64_t>(size_ - offset_) < static_cast<uint64_t>(miniblocks_)) {
      return Fail("the " + std::to_string(miniblocks_) + " miniblock bit widths at byte " +
                  std::to_string(offset_) + " exceed the data");
    }
    min_delta_ = static_cast<U>(ZigZagDecode(min_delta));
    widths_offset_ = offset_;
    offset_ += static_cast<size_t>(miniblocks_);
    miniblock_ = 0;
  }
  const int width = data_[widths_offset_ + static_cast<size_t>(miniblock_)];
  if (width > kMaxWidth) {
    return Fail("miniblock bit width " + std::to_string(width) + " exceeds " +
                std::to_string(kMaxWidth));
  }
  width_ = width;
  mini_offset_ = offset_;
  mini_index_ = 0;
  // per_miniblock_ < 2^31 and width <= 64: no overflow. Checked when the next one starts.
  offset_ += static_cast<size_t>(per_miniblock_ / 8 * width);
  ++miniblock_;
  return Status::OK();
}

template <typename U>
Status DeltaStreamReader<U>::DecodeGroup(U* out) {
  if (mini_index_ == per_miniblock_) PQSIFT_RETURN_IF_ERROR(NextMiniblock());
  const int w = width_;
  const size_t at = mini_offset_ + static_cast<size_t>(mini_index_ / 8) * static_cast<size_t>(w);
  const size_t full = size_t{4} * static_cast<size_t>(w);
  // Unpacks 32 values of `w` bits; 32-bit streams with wider miniblocks go through 64 bits and
  // wrap (see kMaxWidth).
  auto unpack = [&](const uint8_t* src) {
    if constexpr (sizeof(U) == 4) {
      if (w > 32) {
        uint64_t wide[32];
        Unpack32(src, wide, w);
        for (int i = 0; i < 32; ++i) out[i] = static_cast<U>(wide[i]);
        return;
      }
    }
    Unpack32(src, out, w);
  };
  if (at <= size_ && size_ - at >= full) {
    unpack(data_ + at);
  } else {
    // The last miniblock may lack its padding: the values still to come must be there.
    const int64_t needed = std::min<int64_t>(32, left_);
    const auto need_bytes = static_cast<size_t>(BytesForBits(needed * w));
    if (at > size_ || size_ - at < need_bytes) return Fail("the data ends inside a miniblock");
    uint8_t padded[4 * 64] = {};
    std::memcpy(padded, data_ + at, size_ - at);
    unpack(padded);
  }
  mini_index_ += 32;
  U v = last_;
  const U min_delta = min_delta_;
  for (int i = 0; i < 32; ++i) {
    v += min_delta + out[i];
    out[i] = v;
  }
  last_ = v;
  return Status::OK();
}

template <typename U>
Status DeltaStreamReader<U>::Read(U* out, int64_t n) {
  int64_t done = 0;
  if (n > 0 && first_pending_) {
    out[0] = last_;
    first_pending_ = false;
    --left_;
    done = 1;
  }
  while (done < n) {
    if (buffer_pos_ < buffer_len_) {
      const int k = static_cast<int>(std::min<int64_t>(n - done, buffer_len_ - buffer_pos_));
      std::memcpy(out + done, buffer_ + buffer_pos_, sizeof(U) * static_cast<size_t>(k));
      buffer_pos_ += k;
      done += k;
      left_ -= k;
    } else if (n - done >= 32) {
      PQSIFT_RETURN_IF_ERROR(DecodeGroup(out + done));
      done += 32;
      left_ -= 32;
    } else {
      PQSIFT_RETURN_IF_ERROR(DecodeGroup(buffer_));
      buffer_pos_ = 0;
      buffer_len_ = static_cast<int>(std::min<int64_t>(32, left_));
    }
  }
  return Status::OK();
}

template <typename U>
Status DeltaStreamReader<U>::Skip(int64_t n) {
  U scratch[256];
  while (n > 0) {
    const int64_t k = std::min<int64_t>(n, 256);
    PQSIFT_RETURN_IF_ERROR(Read(scratch, k));
    n -= k;
  }
  return Status::OK();
}

template <typename U>
Result<size_t> DeltaStreamReader<U>::FindEnd() const {
  size_t offset = offset_;
  int64_t remaining = left_ > 0 ? left_ - 1 : 0;  // the first value is in the header
  while (remaining > 0) {
    const uint8_t* pos = data_ + offset;
    uint64_t min_delta = 0;
    if (!ReadUleb128(&pos, data_ + size_, &min_delta)) {
      return Corrupt(name_, "truncated or malformed min delta at byte " + std::to_string(offset));
    }
    offset = static_cast<size_t>(pos - data_);
    if (static_cast<uint64_t>(size_ - offset) < static_cast<uint64_t>(miniblocks_)) {
      return Corrupt(name_, "the " + std::to_string(miniblocks_) +
                                " miniblock bit widths at byte " + std::to_string(offset) +
                                " exceed the data");
    }
    const uint8_t* widths = data_ + offset;
    offset += static_cast<size_t>(miniblocks_);
    for (int64_t m = 0; m < miniblocks_ && remaining > 0; ++m) {
      if (widths[m] > kMaxWidth) {
        return Corrupt(name_, "miniblock bit width " + std::to_string(widths[m]) + " exceeds " +
                                  std::to_string(kMaxWidth));
      }
      offset += static_cast<size_t>(per_miniblock_ / 8 * widths[m]);
      if (offset > size_) return Corrupt(name_, "the data ends inside a miniblock");
      remaining -= std::min(remaining, per_miniblock_);
    }
  }
  return offset;
}

// ---- writer ----

template <typename U>
void DeltaStreamWriter<U>::FlushBlock() {
  using S = std::make_signed_t<U>;
  S min_delta = static_cast<S>(deltas_[0]);
  for (int i = 1; i < pending_; ++i) min_delta = std::min(min_delta, static_cast<S>(deltas_[i]));
  AppendUleb128(blocks_, ZigZagEncode(min_delta));
  U relative[kBlock] = {};  // padding stays zero
  for (int i = 0; i < pending_; ++i) relative[i] = deltas_[i] - static_cast<U>(min_delta);
  int widths[kMiniblocks] = {};
  for (int m = 0; m < kMiniblocks; ++m) {
    U bits = 0;
    for (int i = m * kPerMiniblock; i < (m + 1) * kPerMiniblock; ++i) bits |= relative[i];
    widths[m] = BitWidth(bits);
    blocks_.push_back(static_cast<uint8_t>(widths[m]));
  }
  for (int m = 0; m < kMiniblocks && m * kPerMiniblock < pending_; ++m) {
    AppendPackedLsb(blocks_, relative + m * kPerMiniblock, kPerMiniblock, widths[m]);
  }
  pending_ = 0;
}

template <typename U>
void DeltaStreamWriter<U>::FinishInto(std::vector<uint8_t>& out) {
  using S = std::make_signed_t<U>;
  if (pending_ > 0) FlushBlock();
  AppendUleb128(out, kBlock);
  AppendUleb128(out, kMiniblocks);
  AppendUleb128(out, static_cast<uint64_t>(count_));
  AppendUleb128(out, ZigZagEncode(static_cast<S>(first_)));
  out.insert(out.end(), blocks_.begin(), blocks_.end());
  blocks_.clear();
  count_ = 0;
  first_ = last_ = 0;
}

template class DeltaStreamReader<uint32_t>;
template class DeltaStreamReader<uint64_t>;
template class DeltaStreamWriter<uint32_t>;
template class DeltaStreamWriter<uint64_t>;

// ---- the INT32 / INT64 decoder ----

template <typename DType>
Status DeltaBinaryPackedDecoder<DType>::SetData(std::span<const uint8_t> data, int64_t num_values) {
  left_ = 0;
  if (num_values < 0) {
    return Corrupt("DELTA_BINARY_PACKED", "negative value count " + std::to_string(num_values));
  }
  if (data.empty()) return Status::OK();
  PQSIFT_RETURN_IF_ERROR(reader_.Init(data));
  left_ = std::min(num_values, reader_.left());
  return Status::OK();
}

template <typename DType>
Status DeltaBinaryPackedDecoder<DType>::Decode(Value* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest("DELTA_BINARY_PACKED", n, left_));
  // Value and U differ only in signedness, so U may alias the output.
  Status st = reader_.Read(reinterpret_cast<U*>(out), n);
  left_ = st.ok() ? left_ - n : 0;
  return st;
}

template <typename DType>
Status DeltaBinaryPackedDecoder<DType>::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest("DELTA_BINARY_PACKED", n, left_));
  Status st = reader_.Skip(n);
  left_ = st.ok() ? left_ - n : 0;
  return st;
}

template class DeltaBinaryPackedDecoder<Int32Type>;
template class DeltaBinaryPackedDecoder<Int64Type>;

}  // namespace pqsift::encoding
