// The writer's side of dictionary encoding: builds the dictionary from the values put (exact
// bit-pattern equality: 0.0 and -0.0, and NaNs with different payloads, are distinct entries,
// so every value round-trips bit for bit) and writes data pages as RLE_DICTIONARY (one byte of
// bit width, then the RLE/bit-packed indices). The dictionary page is the entries in PLAIN,
// in index order.
//
// The dictionary lives for the whole column chunk: FinishInto ends a data page and keeps it.
// Writers watch dictionary_page_size() and fall back to another encoding when it grows too
// large (then they still write the dictionary page for the pages already finished).
//
// Thread safety: used by one thread at a time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encoding/byte_arena.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {

template <typename DType>
class DictionaryEncoder final : public ValueEncoder<DType> {
 public:
  using Value = typename DType::Value;
  // type_length: the FIXED_LEN_BYTE_ARRAY width (REQUIRES >= 1 for it), else ignored.
  explicit DictionaryEncoder(int32_t type_length = 0) : type_length_(type_length) {}

  Encoding encoding() const override { return Encoding::kRleDictionary; }
  // Looks each value up (adding new ones; their bytes are copied) and records its index.
  void Put(const Value* values, int64_t n) override;
  int64_t num_values() const override { return static_cast<int64_t>(indices_.size()); }
  size_t EstimatedSize() const override;
  // Appends the data page's values (bit width byte + indices) and clears the page's indices.
  void FinishInto(std::vector<uint8_t>& out) override;

  int64_t num_entries() const { return static_cast<int64_t>(entries_.size()); }
  std::span<const Value> entries() const { return entries_; }
  // Bytes of the dictionary page (PLAIN), exact.
  size_t dictionary_page_size() const {
    return kIsBoolean<DType> ? (entries_.size() + 7) / 8 : plain_size_;
  }
  // Appends the dictionary page: every entry in PLAIN, in index order.
  void AppendDictionaryPage(std::vector<uint8_t>& out) const;

 private:
  uint32_t Insert(const Value& v);  // index of v, adding it if new
  void Grow();

  int32_t type_length_;
  std::vector<Value> entries_;
  std::vector<uint64_t> hashes_;   // of each entry
  std::vector<int32_t> slots_;     // open addressing: entry index or -1
  std::vector<uint32_t> indices_;  // of the current data page
  ByteArena arena_;                // bytes of ByteView entries
  size_t plain_size_ = 0;
};

}  // namespace pqsift::encoding
