// Dictionary encoding (PLAIN_DICTIONARY / RLE_DICTIONARY): the dictionary page holds PLAIN
// values; data pages hold a one-byte bit width (<= 32) and RLE/bit-packed indices into it.
//
// One decoder serves a whole column chunk: Make() once from the dictionary page, then SetData
// for each dictionary-encoded data page. Every index is checked against the dictionary size
// ("dictionary index 7 out of range (dictionary has 3 entries)", Corruption) before it is used;
// RLE runs are gathered once per run, bit-packed indices a batch at a time.
//
// Thread safety: used by one thread at a time; dictionary() may be read from several threads
// while no thread calls Make/SetData. The decoded entries are immutable once made and shared:
// Share() gives another decoder over the same entries (for the other readers of the chunk, so
// a dictionary page is decoded once however many readers a scan opens on the chunk), which
// may be used on another thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "encoding/rle_bit_packed.h"
#include "encoding/value_decoder.h"

namespace pqsift::encoding {

template <typename DType>
class DictionaryDecoder final : public ValueDecoder<DType> {
 public:
  using Value = typename DType::Value;

  // Decodes the dictionary page (PLAIN, `num_values` entries). The decoder keeps its own copy
  // of the dictionary bytes, so ByteViews into the dictionary outlive the page buffer: they
  // stay valid as long as the decoder (across SetData calls). Corruption for a negative count,
  // a count the page cannot hold, or malformed PLAIN data; InvalidArgument for a
  // FIXED_LEN_BYTE_ARRAY type_length < 1.
  static Result<std::unique_ptr<DictionaryDecoder>> Make(std::span<const uint8_t> dictionary_page,
                                                         int64_t num_values, int32_t type_length);

  // Starts a data page: bit width byte, then the indices. Empty data is a page without values.
  // Corruption for a bit width above 32.
  Status SetData(std::span<const uint8_t> data, int64_t num_values) override;
  // The indices are read as they arrive.
  Status SetArrivingData(std::span<const uint8_t> data, int64_t num_values,
                         ByteSupply* more) override;
  // Gathers dictionary values; an index outside the dictionary is Corruption. The values are
  // copies of dictionary entries (ByteViews into the decoder's dictionary storage).
  Status Decode(Value* out, int64_t n) override;
  // Skipped indices are not range-checked (they are never used).
  Status Skip(int64_t n) override;
  int64_t values_left() const override { return left_; }

  // The indices themselves, for callers that work on the dictionary (pruning, dictionary-
  // preserving output). Checked against the dictionary size like Decode.
  Status DecodeIndices(int32_t* out, int64_t n);

  std::span<const Value> dictionary() const { return entries_->values; }

  // A decoder of its own (no page started) over the same decoded entries.
  std::unique_ptr<DictionaryDecoder> Share() const {
    std::unique_ptr<DictionaryDecoder> d(new DictionaryDecoder());
    d->entries_ = entries_;
    return d;
  }

 private:
  struct Entries {
    std::vector<uint8_t> storage;  // dictionary bytes (byte arrays point into it)
    std::vector<Value> values;
  };

  DictionaryDecoder() = default;
  Status IndexError(uint32_t index);
  Status RunError(int64_t got, int64_t n);

  std::shared_ptr<const Entries> entries_;
  RleBitPackedDecoder indices_;
  int64_t left_ = 0;
};

}  // namespace pqsift::encoding
