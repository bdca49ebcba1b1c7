#include "encoding/dictionary_encoder.h"

#include <cstring>
#include <functional>
#include <string_view>

#include "encoding/bit_util.h"
#include "encoding/plain.h"
#include "encoding/rle_bit_packed.h"

namespace pqsift::encoding {
namespace {

template <typename DType>
std::string_view BytesOf(const typename DType::Value& v) {
  if constexpr (kIsByteArrayLike<DType>) {
    return v.str();
  } else {
    return {reinterpret_cast<const char*>(&v), sizeof(v)};
  }
}

size_t Home(uint64_t hash, size_t mask) { return static_cast<size_t>(hash ^ (hash >> 29)) & mask; }

}  // namespace

template <typename DType>
void DictionaryEncoder<DType>::Grow() {
  const size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, -1);
  const size_t mask = capacity - 1;
  for (size_t e = 0; e < entries_.size(); ++e) {
    size_t slot = Home(hashes_[e], mask);
    while (slots_[slot] != -1) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<int32_t>(e);
  }
}

template <typename DType>
uint32_t DictionaryEncoder<DType>::Insert(const Value& v) {
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  const std::string_view bytes = BytesOf<DType>(v);
  const uint64_t hash = std::hash<std::string_view>{}(bytes);
  const size_t mask = slots_.size() - 1;
  size_t slot = Home(hash, mask);
  for (;; slot = (slot + 1) & mask) {
    const int32_t e = slots_[slot];
    if (e == -1) break;
    if (hashes_[e] == hash && BytesOf<DType>(entries_[e]) == bytes) return static_cast<uint32_t>(e);
  }
  const auto index = static_cast<uint32_t>(entries_.size());
  Value stored = v;
  if constexpr (kIsByteArrayLike<DType>) {
    uint8_t* dst = arena_.Allocate(v.size);
    if (v.size > 0) std::memcpy(dst, v.data, v.size);
    stored.data = dst;
    plain_size_ += (std::is_same_v<DType, ByteArrayType> ? 4 : 0) + size_t{v.size};
  } else if constexpr (!kIsBoolean<DType>) {
    plain_size_ += sizeof(Value);
  }
  entries_.push_back(stored);
  hashes_.push_back(hash);
  slots_[slot] = static_cast<int32_t>(index);
  return index;
}

template <typename DType>
void DictionaryEncoder<DType>::Put(const Value* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    Value v = values[i];
    if constexpr (kIsBoolean<DType>) v = v != 0 ? 1 : 0;
    indices_.push_back(Insert(v));
  }
}

template <typename DType>
size_t DictionaryEncoder<DType>::EstimatedSize() const {
  const int bit_width = BitWidth(entries_.empty() ? 0 : entries_.size() - 1);
  return 1 + (indices_.size() * static_cast<size_t>(bit_width) + 7) / 8 + indices_.size() / 504 + 1;
}

template <typename DType>
void DictionaryEncoder<DType>::FinishInto(std::vector<uint8_t>& out) {
  const int bit_width = BitWidth(entries_.empty() ? 0 : entries_.size() - 1);
  out.push_back(static_cast<uint8_t>(bit_width));
  RleBitPackedEncoder rle(bit_width);
  rle.PutBatch(indices_.data(), static_cast<int64_t>(indices_.size()));
  rle.FinishInto(out);
  indices_.clear();
}

template <typename DType>
void DictionaryEncoder<DType>::AppendDictionaryPage(std::vector<uint8_t>& out) const {
  PlainEncoder<DType> plain(type_length_);
  plain.Put(entries_.data(), static_cast<int64_t>(entries_.size()));
  plain.FinishInto(out);
}

#define PQSIFT_INSTANTIATE(DType) template class DictionaryEncoder<DType>;
PQSIFT_FOR_EACH_DTYPE(PQSIFT_INSTANTIATE)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
