// The typed half of reading a leaf column: owns the value decoders of one column chunk (the
// dictionary and one decoder per encoding met) and accumulates the decoded non-null values of
// the current batch, already converted to the column's Arrow type (arrow_type.h).
//
// The untyped half (pages, levels, records) is LeafReader; the two meet at this interface so
// per-value work stays inside templates and virtual calls happen per run of values.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "encoding/byte_supply.h"
#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"
#include "pqsift/status.h"

namespace pqsift::column {

// A chunk's decoded dictionary, immutable: made by one accumulator, adopted by the others that
// read the same chunk (possibly on other threads), so the dictionary page is decoded once.
class DecodedDictionary {
 public:
  virtual ~DecodedDictionary() = default;
};

class ValueAccumulator {
 public:
  virtual ~ValueAccumulator() = default;

  // Decodes the chunk's dictionary page (PLAIN entries). Corruption when called twice.
  virtual Status SetDictionary(std::span<const uint8_t> page, int64_t num_values) = 0;
  // The dictionary SetDictionary decoded (null before), to hand to other accumulators of the
  // same column chunk; and the other side: takes such a dictionary instead of decoding the
  // page. Internal error for a dictionary of another accumulator type; Corruption when a
  // dictionary is already set.
  virtual std::shared_ptr<const DecodedDictionary> dictionary() const = 0;
  virtual Status AdoptDictionary(std::shared_ptr<const DecodedDictionary> dictionary) = 0;
  // Starts a data page's value section holding `num_values` non-null values in `encoding`.
  // `data` must stay valid until the next StartPage. With `more`, the page is still arriving:
  // `data` is what has arrived, `more` brings the rest (ValueDecoder::SetArrivingData).
  virtual Status StartPage(Encoding encoding, std::span<const uint8_t> data, int64_t num_values,
                           encoding::ByteSupply* more = nullptr) = 0;
  // Decodes the next `n` values of the page and appends them to the batch; with `keep` (null,
  // or n bytes), only the values whose byte is nonzero: the others are decoded but never
  // copied out (a selective read of scattered rows). *appended (when not null) says how many
  // were appended.
  virtual Status Read(int64_t n, const uint8_t* keep, int64_t* appended) = 0;
  // With `keep`, a batch whose first values come from a dictionary-encoded page holds their
  // dictionary indices, not the values: Finish returns a dictionary array (indices into the
  // chunk's dictionary, converted to the column's type once), for consumers that work on the
  // dictionary (a filter evaluated once per entry). Dictionaries of more than 16,384 entries are
  // read as values. Where such a batch meets a page of another encoding (or a ReadDictionary),
  // its indices become values and the batch goes on as values; so too when `keep` is turned off
  // during a batch. Off by default.
  virtual void KeepDictionaryIndices(bool keep) = 0;
  // Appends every entry of the dictionary (SetDictionary), in dictionary order, to the batch:
  // the values a dictionary-encoded page can hold, converted exactly as Read converts them.
  // Corruption when no dictionary was set.
  virtual Status ReadDictionary() = 0;
  // Passes over the next `n` values of the page.
  virtual Status Skip(int64_t n) = 0;
  // The values appended since the last Finish, as a dense array (no validity) of the
  // column's Arrow type, or (KeepDictionaryIndices) of its dictionary type; starts a new batch.
  virtual std::shared_ptr<Array> Finish() = 0;
};

// The accumulator for `column`, read as `type` (from ArrowTypeForLeaf).
Result<std::unique_ptr<ValueAccumulator>> MakeValueAccumulator(
    const ColumnDescriptor& column, std::shared_ptr<const DataType> type);

}  // namespace pqsift::column
