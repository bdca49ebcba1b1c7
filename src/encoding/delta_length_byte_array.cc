#include "encoding/delta_length_byte_array.h"

#include <algorithm>
#include <string>

#include "encoding/bit_util.h"
#include "encoding/decoder_util.h"

namespace pqsift::encoding {
namespace {
constexpr int64_t kChunk = 1024;  // lengths decoded per step
}  // namespace

Status DeltaLengthByteArrayDecoder::SetData(std::span<const uint8_t> data, int64_t num_values) {
  left_ = 0;
  pos_ = end_ = nullptr;
  if (num_values < 0) return Corrupt(name_, "negative value count " + std::to_string(num_values));
  if (data.empty()) return Status::OK();
  PQSIFT_RETURN_IF_ERROR(lengths_.Init(data));
  PQSIFT_ASSIGN_OR_RETURN(size_t lengths_end, lengths_.FindEnd());
  pos_ = data.data() + lengths_end;
  end_ = data.data() + data.size();
  left_ = std::min(num_values, lengths_.left());
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Advance(ByteView* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(name_, n, left_));
  scratch_.resize(static_cast<size_t>(std::min(n, kChunk)));
  for (int64_t done = 0; done < n;) {
    const int64_t k = std::min(n - done, kChunk);
    Status st = lengths_.Read(scratch_.data(), k);
    if (!st.ok()) {
      left_ = 0;
      return st;
    }
    // One check per chunk when the lengths fit (pages are < 2^31 bytes, so a "negative" length
    // always fails it); the slow loop only runs to name the bad one.
    uint64_t total = 0;
    for (int64_t i = 0; i < k; ++i) total += scratch_[i];
    const auto have = static_cast<uint64_t>(end_ - pos_);
    if (total > have) {
      uint64_t at = 0;
      for (int64_t i = 0; i < k; ++i) {
        const uint32_t len = scratch_[i];
        if (len > static_cast<uint32_t>(INT32_MAX) || len > have - at) {
          left_ = 0;
          return Corrupt(name_,
                         "value " + std::to_string(done + i) + ": length " +
                             std::to_string(static_cast<int32_t>(len)) +
                             (len > static_cast<uint32_t>(INT32_MAX)
                                  ? " is negative"
                                  : " exceeds the " + std::to_string(have - at) + " bytes left"));
        }
        at += len;
      }
      left_ = 0;
      return Corrupt(name_, "lengths exceed the data");  // not reached: the loop finds it
    }
    if (out != nullptr) {
      const uint8_t* p = pos_;
      for (int64_t i = 0; i < k; ++i) {
        out[done + i] = ByteView{p, scratch_[i]};
        p += scratch_[i];
      }
    }
    pos_ += total;
    done += k;
    left_ -= k;
  }
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Decode(ByteView* out, int64_t n) { return Advance(out, n); }

Status DeltaLengthByteArrayDecoder::Skip(int64_t n) { return Advance(nullptr, n); }

void DeltaLengthByteArrayEncoder::Put(const ByteView* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    lengths_.Put(values[i].size);
    AppendBytes(bytes_, values[i].data, values[i].size);
  }
}

void DeltaLengthByteArrayEncoder::FinishInto(std::vector<uint8_t>& out) {
  lengths_.FinishInto(out);
  out.insert(out.end(), bytes_.begin(), bytes_.end());
  bytes_.clear();
}

}  // namespace pqsift::encoding
