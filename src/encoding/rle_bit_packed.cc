#include "encoding/rle_bit_packed.h"

#include <algorithm>
#include <cassert>

#include "encoding/bit_pack.h"
#include "encoding/bit_util.h"

namespace pqsift::encoding {
namespace {

// Encodings.md: run lengths are in [1, 2^31 - 1]. Zero-length runs are tolerated (skipped).
constexpr uint64_t kMaxRunLength = (uint64_t{1} << 31) - 1;
// Bit-packed runs the encoder writes: 63 groups of 8, so the header is one byte.
constexpr size_t kMaxLiteralRun = size_t{63} * 8;

}  // namespace

// ---- decoder ----

void RleBitPackedDecoder::Reset(std::span<const uint8_t> data, int bit_width, ByteSupply* more) {
  assert(bit_width >= 0 && bit_width <= 32);
  pos_ = data.data();
  end_ = data.data() + data.size();
  more_ = more;
  bit_width_ = bit_width;
  ok_ = true;
  repeat_left_ = 0;
  repeat_value_ = 0;
  literal_data_ = nullptr;
  literal_index_ = 0;
  literal_count_ = 0;
  buffer_begin_ = 0;
  buffer_len_ = 0;
}

bool RleBitPackedDecoder::NextRun() {
  for (;;) {
    Grow(10);  // a run header: a varint of at most 10 bytes
    if (!ok_ || pos_ >= end_) break;
    uint64_t header = 0;
    if (!ReadUleb128(&pos_, end_, &header)) {
      ok_ = false;
      return false;
    }
    const uint64_t count_field = header >> 1;
    if ((header & 1) != 0) {
      if (count_field > kMaxRunLength / 8) {
        ok_ = false;
        return false;
      }
      // Both at most 2^28 * 32: no overflow.
      const int64_t need_bytes = static_cast<int64_t>(count_field) * bit_width_;
      Grow(static_cast<size_t>(need_bytes));
      const int64_t have_bytes = end_ - pos_;
      literal_data_ = pos_;
      literal_index_ = 0;
      buffer_len_ = 0;
      if (need_bytes <= have_bytes) {
        literal_count_ = static_cast<int64_t>(count_field) * 8;
        pos_ += need_bytes;
      } else {
        // Truncated: keep the values whose bits are all there (bit_width_ > 0 here).
        literal_count_ = have_bytes * 8 / bit_width_;
        pos_ = end_;
      }
      if (literal_count_ > 0) return true;
    } else {
      if (count_field > kMaxRunLength) {
        ok_ = false;
        return false;
      }
      const int value_bytes = (bit_width_ + 7) / 8;
      Grow(static_cast<size_t>(value_bytes));
      if (end_ - pos_ < value_bytes) {
        ok_ = false;
        return false;
      }
      uint32_t value = 0;
      for (int b = 0; b < value_bytes; ++b) value |= uint32_t{pos_[b]} << (8 * b);
      pos_ += value_bytes;
      if (bit_width_ < 32 && (value >> bit_width_) != 0) {
        ok_ = false;
        return false;
      }
      repeat_value_ = value;
      repeat_left_ = static_cast<int64_t>(count_field);
      if (repeat_left_ > 0) return true;
    }
  }
  return false;
}

template <typename T>
int64_t RleBitPackedDecoder::ReadLiterals(T* out, int64_t n) {
  n = std::min(n, literal_count_ - literal_index_);
  const int bw = bit_width_;
  int64_t done = 0;
  while (done < n) {
    const int64_t i = literal_index_;
    if (i >= buffer_begin_ && i < buffer_begin_ + buffer_len_) {
      const int64_t k = std::min(n - done, buffer_begin_ + buffer_len_ - i);
      const uint32_t* src = buffer_ + (i - buffer_begin_);
      for (int64_t j = 0; j < k; ++j) out[done + j] = static_cast<T>(src[j]);
      done += k;
      literal_index_ += k;
      continue;
    }
    if ((i & 7) == 0 && n - done >= 32) {
      // Whole groups of 32 straight into the output: the values [i, n) are all present.
      const uint8_t* p = literal_data_ + (i / 8) * bw;
      const int64_t groups = (n - done) / 32;
      for (int64_t g = 0; g < groups; ++g, p += ptrdiff_t{4} * bw, done += 32)
        Unpack32(p, out + done, bw);
      literal_index_ += groups * 32;
      continue;
    }
    // Unpack the values from the group of 8 holding i into the buffer.
    const int64_t begin = i & ~int64_t{7};
    const int64_t avail = literal_count_ - begin;
    const uint8_t* p = literal_data_ + (begin / 8) * bw;
    if (avail >= kBuffer) {
      Unpack32(p, buffer_, bw);
      buffer_len_ = kBuffer;
    } else {
      const int64_t groups = avail / 8;
      for (int64_t g = 0; g < groups; ++g) Unpack8(p + g * bw, buffer_ + 8 * g, bw);
      UnpackSlow(literal_data_, (begin + groups * 8) * bw, bw, buffer_ + groups * 8, avail % 8);
      buffer_len_ = static_cast<int>(avail);
    }
    buffer_begin_ = begin;
  }
  return done;
}

template <typename T>
int64_t RleBitPackedDecoder::GetBatch(T* out, int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      const int64_t k = std::min(n - done, repeat_left_);
      std::fill_n(out + done, k, static_cast<T>(repeat_value_));
      repeat_left_ -= k;
      done += k;
    } else if (literal_index_ < literal_count_) {
      done += ReadLiterals(out + done, n - done);
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

int64_t RleBitPackedDecoder::Skip(int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      const int64_t k = std::min(n - done, repeat_left_);
      repeat_left_ -= k;
      done += k;
    } else if (literal_index_ < literal_count_) {
      const int64_t k = std::min(n - done, literal_count_ - literal_index_);
      literal_index_ += k;
      done += k;
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

template int64_t RleBitPackedDecoder::GetBatch<uint8_t>(uint8_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch<int16_t>(int16_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch<int32_t>(int32_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch<uint32_t>(uint32_t*, int64_t);
template int64_t RleBitPackedDecoder::ReadLiterals<uint32_t>(uint32_t*, int64_t);

// ---- encoder ----

void RleBitPackedEncoder::StartRun(uint32_t value) {
  EndRun();
  run_value_ = value;
  run_length_ = 1;
}

void RleBitPackedEncoder::EndRun() {
  if (run_length_ == 0) return;
  int64_t count = run_length_;
  run_length_ = 0;
  // An RLE run may only follow whole groups of 8 literals: top the literals up from the run.
  const auto pad = static_cast<int64_t>((8 - literals_.size() % 8) % 8);
  if (count - pad >= 8) {
    literals_.insert(literals_.end(), static_cast<size_t>(pad), run_value_);
    FlushLiterals(false);
    EmitRepeat(run_value_, count - pad);
  } else {
    literals_.insert(literals_.end(), static_cast<size_t>(count), run_value_);
    if (literals_.size() >= kMaxLiteralRun) FlushLiterals(false);
  }
}

void RleBitPackedEncoder::FlushLiterals(bool final) {
  size_t done = 0;
  for (;;) {
    size_t left = literals_.size() - done;
    if (left == 0 || (!final && left < 8)) break;
    size_t count = std::min(kMaxLiteralRun, final ? left : left / 8 * 8);
    const size_t groups = (count + 7) / 8;
    out_.push_back(static_cast<uint8_t>((groups << 1) | 1));
    AppendPackedLsb(out_, literals_.data() + done, static_cast<int64_t>(count), bit_width_);
    // A final partial group is padded with zero values to whole bytes of 8 values.
    const size_t padded_bytes = groups * static_cast<size_t>(bit_width_);
    const size_t written = (count * static_cast<size_t>(bit_width_) + 7) / 8;
    out_.insert(out_.end(), padded_bytes - written, 0);
    done += count;
  }
  literals_.erase(literals_.begin(), literals_.begin() + static_cast<ptrdiff_t>(done));
}

void RleBitPackedEncoder::EmitRepeat(uint32_t value, int64_t count) {
  const int value_bytes = (bit_width_ + 7) / 8;
  while (count > 0) {
    const int64_t c = std::min<int64_t>(count, static_cast<int64_t>(kMaxRunLength));
    AppendUleb128(out_, static_cast<uint64_t>(c) << 1);
    for (int b = 0; b < value_bytes; ++b) out_.push_back(static_cast<uint8_t>(value >> (8 * b)));
    count -= c;
  }
}

size_t RleBitPackedEncoder::EstimatedSize() const {
  // Upper bound: pending literals (topped up by at most 8 run values) padded to whole groups,
  // a header per 63 groups, and the run's own header and value.
  const size_t pending = literals_.size() + static_cast<size_t>(std::min<int64_t>(run_length_, 8));
  const size_t groups = (pending + 7) / 8 + 1;
  return out_.size() + groups * static_cast<size_t>(bit_width_) + groups / 63 + 1 +
         (run_length_ >= 8 ? 10 : 0);
}

void RleBitPackedEncoder::FinishInto(std::vector<uint8_t>& out) {
  if (run_length_ > 0 && literals_.size() % 8 == 0) {
    // The last run can stay a run of any length: no group of 8 needs topping up.
    FlushLiterals(false);
    EmitRepeat(run_value_, run_length_);
    run_length_ = 0;
  }
  EndRun();
  FlushLiterals(true);
  out.insert(out.end(), out_.begin(), out_.end());
  out_.clear();
  literals_.clear();
}

}  // namespace pqsift::encoding
