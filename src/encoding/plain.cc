#include "encoding/plain.h"

#include <array>
#include <cassert>
#include <cstring>
#include <string>

#include "encoding/bit_util.h"
#include "encoding/decoder_util.h"

namespace pqsift::encoding {
namespace {

constexpr const char* kName = "PLAIN";

// kSpreadBits[b] holds bit i of b in byte i: eight booleans from one packed byte.
constexpr std::array<uint64_t, 256> kSpreadBits = [] {
  std::array<uint64_t, 256> t{};
  for (int b = 0; b < 256; ++b) {
    for (int i = 0; i < 8; ++i) t[b] |= static_cast<uint64_t>((b >> i) & 1) << (8 * i);
  }
  return t;
}();

}  // namespace

// ---- decoder ----

template <typename DType>
Status PlainDecoder<DType>::Fail(const std::string& what) {
  left_ = 0;
  return Corrupt(kName, what);
}

template <typename DType>
Status PlainDecoder<DType>::SetData(std::span<const uint8_t> data, int64_t num_values) {
  pos_ = data.data();
  end_ = data.data() + data.size();
  more_ = nullptr;
  bit_offset_ = 0;
  left_ = 0;
  if (num_values < 0) return Fail("negative value count " + std::to_string(num_values));
  left_ = num_values;
  return Status::OK();
}

template <typename DType>
Status PlainDecoder<DType>::SetArrivingData(std::span<const uint8_t> data, int64_t num_values,
                                            ByteSupply* more) {
  PQSIFT_RETURN_IF_ERROR(SetData(data, num_values));
  more_ = more;
  return Status::OK();
}

template <typename DType>
Status PlainDecoder<DType>::Advance(Value* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  auto have = static_cast<size_t>(end_ - pos_);
  if constexpr (kIsBoolean<DType>) {
    const auto need = (static_cast<size_t>(bit_offset_) + static_cast<size_t>(n) + 7) / 8;
    if (need > have) {
      Grow(need);
      have = static_cast<size_t>(end_ - pos_);
    }
    if (static_cast<uint64_t>(n) > have * 8 - static_cast<size_t>(bit_offset_)) {
      return Fail(std::to_string(n) + " booleans need more than the " + std::to_string(have) +
                  " bytes left");
    }
    if (out == nullptr) {
      const int64_t bits = bit_offset_ + n;
      pos_ += bits / 8;
      bit_offset_ = static_cast<int>(bits % 8);
    } else {
      int64_t i = 0;
      for (; bit_offset_ != 0 && i < n; ++i) {
        out[i] = static_cast<uint8_t>((*pos_ >> bit_offset_) & 1);
        if (++bit_offset_ == 8) {
          bit_offset_ = 0;
          ++pos_;
        }
      }
      for (; n - i >= 8; i += 8) std::memcpy(out + i, &kSpreadBits[*pos_++], 8);
      for (; i < n; ++i) out[i] = static_cast<uint8_t>((*pos_ >> bit_offset_++) & 1);
    }
  } else if constexpr (std::is_same_v<DType, ByteArrayType>) {
    const uint8_t* pos = pos_;
    const uint8_t* end = end_;
    for (int64_t i = 0; i < n; ++i) {
      const bool length_there = end - pos >= 4;
      uint32_t len = length_there ? LoadLE32(pos) : 0;
      if (!length_there || len > static_cast<size_t>(end - pos) - 4) {
        if (out == nullptr && more_ != nullptr) return WalkByteArrays(pos, i, n);
        PQSIFT_RETURN_IF_ERROR(AwaitByteArray(pos, &end, i, n, &len));
      }
      if (out != nullptr) out[i] = ByteView{pos + 4, len};
      pos += 4 + size_t{len};
    }
    pos_ = pos;
  } else {
    size_t width = sizeof(Value);
    if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
      width = static_cast<size_t>(type_length_);
    }
    if (static_cast<uint64_t>(n) > have / width) {
      const size_t bytes = static_cast<size_t>(n) * width;
      if constexpr (!std::is_same_v<DType, FixedLenByteArrayType>) {
        // Values copied out, read once: they need not stay in the page (ByteSupply::CopyOut).
        if (out != nullptr && more_ != nullptr) return CopyOut(out, n);
      }
      // Values skipped need not be there, only passed over.
      if (out == nullptr) {
        GrowSkipping(bytes);
      } else {
        Grow(bytes);
      }
      have = static_cast<size_t>(end_ - pos_);
    }
    if (static_cast<uint64_t>(n) > have / width) {
      return Fail(std::to_string(n) + " values of " + std::to_string(width) +
                  " bytes need more than the " + std::to_string(have) + " bytes left");
    }
    if (out != nullptr) {
      if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
        const auto len = static_cast<uint32_t>(width);
        for (int64_t i = 0; i < n; ++i) out[i] = ByteView{pos_ + i * width, len};
      } else if (n > 0) {
        std::memcpy(out, pos_, static_cast<size_t>(n) * width);
      }
    }
    pos_ += static_cast<size_t>(n) * width;
  }
  left_ -= n;
  return Status::OK();
}

// Byte arrays whose length or bytes are not all there yet: asks the supply for them.
template <typename DType>
Status PlainDecoder<DType>::AwaitByteArray(const uint8_t* pos, const uint8_t** end, int64_t i,
                                           int64_t n, uint32_t* len) {
  pos_ = pos;
  if (end_ - pos_ < 4 && !Grow(4)) {
    return Fail("value " + std::to_string(i) + " of " + std::to_string(n) +
                ": the 4-byte length does not fit in the " + std::to_string(end_ - pos_) +
                " bytes left");
  }
  *len = LoadLE32(pos_);
  if (*len > static_cast<size_t>(end_ - pos_) - 4 && !Grow(4 + size_t{*len})) {
    return Fail("value " + std::to_string(i) + " of " + std::to_string(n) + ": length " +
                std::to_string(*len) + " exceeds the " + std::to_string(end_ - pos_ - 4) +
                " bytes left");
  }
  *end = end_;
  return Status::OK();
}

template <typename DType>
Status PlainDecoder<DType>::CopyOut(Value* out, int64_t n) {
  const size_t total = static_cast<size_t>(n) * sizeof(Value);
  size_t copied = 0;
  end_ = more_->CopyOut(pos_, {reinterpret_cast<uint8_t*>(out), total}, &copied);
  if (copied < total) {
    return Fail(std::to_string(n) + " values of " + std::to_string(sizeof(Value)) +
                " bytes need more than the " + std::to_string(copied) + " bytes left");
  }
  pos_ += total;
  left_ -= n;
  return Status::OK();
}

template <typename DType>
Status PlainDecoder<DType>::WalkByteArrays(const uint8_t* pos, int64_t i, int64_t n) {
  uint8_t length[4];
  size_t length_have = 0;  // bytes of value i's length seen
  uint32_t len = 0;
  size_t to_pass = 0;  // bytes of value i still to pass once its length is read
  bool in_value = false;
  size_t walked = 0;
  const auto page_left = static_cast<size_t>(more_->end() - pos);
  end_ = more_->Walk(pos, page_left, [&](std::span<const uint8_t> piece) -> size_t {
    const uint8_t* const bytes = piece.data();
    const size_t size = piece.size();
    size_t p = 0;
    while (i < n) {
      if (!in_value) {
        if (length_have == 0 && size - p >= 4) {
          len = LoadLE32(bytes + p);  // the usual case: the length within the piece
          p += 4;
        } else {
          while (length_have < 4 && p < size) length[length_have++] = bytes[p++];
          if (length_have < 4) break;
          len = LoadLE32(length);
        }
        to_pass = len;
        in_value = true;
      }
      const size_t k = std::min(to_pass, size - p);
      p += k;
      to_pass -= k;
      if (to_pass > 0) break;
      ++i;
      in_value = false;
      length_have = 0;
    }
    walked += p;
    return p;
  });
  if (i < n) {
    // The page ended in value i: the message AwaitByteArray gives over the same bytes.
    const std::string value = "value " + std::to_string(i) + " of " + std::to_string(n);
    if (!in_value) {
      return Fail(value + ": the 4-byte length does not fit in the " + std::to_string(length_have) +
                  " bytes left");
    }
    return Fail(value + ": length " + std::to_string(len) + " exceeds the " +
                std::to_string(len - to_pass) + " bytes left");
  }
  pos_ = pos + walked;
  left_ -= n;
  return Status::OK();
}

template <typename DType>
Result<int64_t> PlainDecoder<DType>::DecodeBinary(int64_t n, BinaryAppend* out) {
  if constexpr (!std::is_same_v<DType, ByteArrayType>) {
    return ValueDecoder<DType>::DecodeBinary(n, out);
  } else {
    PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
    // Locals, not the members: the stores below could alias them, which would reload them per
    // value. AwaitByteArray brings pos_ up to date before it asks for more; the end does too.
    uint8_t* const bytes = out->bytes;
    int64_t* const ends = out->ends;
    const uint8_t* const keep = out->keep;
    int64_t appended = 0;
    const size_t capacity = out->capacity;
    size_t used = out->used;
    const uint8_t* pos = pos_;
    const uint8_t* end = end_;
    int64_t i = 0;
    for (; i < n; ++i) {
      const bool length_there = end - pos >= 4;
      uint32_t len = length_there ? LoadLE32(pos) : 0;
      if (!length_there || len > static_cast<size_t>(end - pos) - 4) {
        PQSIFT_RETURN_IF_ERROR(AwaitByteArray(pos, &end, i, n, &len));
      }
      if (keep == nullptr || keep[i] != 0) {
        // Checked against the page first: a length the page holds is worth room.
        if (len > capacity - used) {
          out->next_size = len;
          break;
        }
        CopyShort(bytes + used, pos + 4, len);
        used += len;
        ends[appended++] = static_cast<int64_t>(used);
      }
      pos += 4 + size_t{len};
    }
    pos_ = pos;
    out->used = used;
    out->appended = appended;
    out->bytes_left = static_cast<size_t>((more_ != nullptr ? more_->end() : end) - pos);
    left_ -= i;
    return i;
  }
}

template <typename DType>
Status PlainDecoder<DType>::Decode(Value* out, int64_t n) {
  return Advance(out, n);
}

template <typename DType>
Status PlainDecoder<DType>::Skip(int64_t n) {
  return Advance(nullptr, n);
}

// ---- encoder ----

template <typename DType>
void PlainEncoder<DType>::Put(const Value* values, int64_t n) {
  num_values_ += n;
  if constexpr (kIsBoolean<DType>) {
    for (int64_t i = 0; i < n; ++i) {
      bits_ |= static_cast<uint8_t>((values[i] != 0 ? 1 : 0) << bit_count_);
      if (++bit_count_ == 8) {
        out_.push_back(bits_);
        bits_ = 0;
        bit_count_ = 0;
      }
    }
  } else if constexpr (std::is_same_v<DType, ByteArrayType>) {
    for (int64_t i = 0; i < n; ++i) {
      AppendRaw(out_, values[i].size);
      AppendBytes(out_, values[i].data, values[i].size);
    }
  } else if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    for (int64_t i = 0; i < n; ++i) {
      assert(values[i].size == static_cast<uint32_t>(type_length_));
      AppendBytes(out_, values[i].data, static_cast<size_t>(type_length_));
    }
  } else {
    AppendBytes(out_, values, static_cast<size_t>(n) * sizeof(Value));
  }
}

template <typename DType>
void PlainEncoder<DType>::FinishInto(std::vector<uint8_t>& out) {
  if (bit_count_ > 0) out_.push_back(bits_);
  out.insert(out.end(), out_.begin(), out_.end());
  out_.clear();
  bits_ = 0;
  bit_count_ = 0;
  num_values_ = 0;
}

int64_t MaxPlainValues(PhysicalType type, size_t bytes, int32_t type_length) {
  const auto b = static_cast<int64_t>(bytes);
  switch (type) {
    case PhysicalType::kBoolean: return b * 8;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return b / 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return b / 8;
    case PhysicalType::kInt96: return b / 12;
    case PhysicalType::kByteArray: return b / 4;
    case PhysicalType::kFixedLenByteArray: return type_length > 0 ? b / type_length : 0;
  }
  return 0;
}

#define PQSIFT_INSTANTIATE(DType)     \
  template class PlainDecoder<DType>; \
  template class PlainEncoder<DType>;
PQSIFT_FOR_EACH_DTYPE(PQSIFT_INSTANTIATE)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
