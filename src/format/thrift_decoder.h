// Shared machinery for decoding Parquet's Thrift structs (footer, page headers, page index,
// bloom filter header): a CompactReader plus a memory budget and required-field checks.
//
// Every field is read with CompactReader::ReadField / AcceptField (or ReadListInto here): a
// known field whose wire type is not the spec's is skipped and reads as absent, as in Apache
// Thrift's generated readers, so a file that another reader opens is not refused for it (a
// required field so skipped is then reported missing).
//
// The budget bounds what decoded structs may allocate, so a small hostile input cannot make
// pqsift allocate without limit: list sizes are already bounded by the bytes left, but a
// one-byte element can decode into a struct of hundreds of bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "thrift/compact_reader.h"

namespace pqsift::format {

class ThriftDecoder {
 public:
  ThriftDecoder(std::span<const uint8_t> bytes, size_t memory_budget)
      : reader(bytes), budget_(memory_budget) {}

  // Reserves `size` elements in `v` after charging them to the budget (an error past it).
  template <typename T>
  bool Reserve(std::vector<T>& v, size_t size) {
    size_t bytes = size * sizeof(T);
    if (bytes > budget_) {
      reader.Fail("decoded metadata would exceed its memory budget");
      return false;
    }
    budget_ -= bytes;
    v.reserve(size);
    return true;
  }

  // Reads a list of `element` wire type into `out`, each element with `read_one(out_element)`.
  // A field that is not a list is skipped (CompactReader::ReadField): returns true when the
  // list was read. Elements of another type are an error (they cannot be skipped one by one
  // into a typed vector, and no writer mixes them).
  template <typename T, typename ReadOne>
  bool ReadListInto(const thrift::FieldHeader& f, thrift::CType element, std::vector<T>& out,
                    ReadOne&& read_one) {
    if (!reader.AcceptField(f, thrift::CType::kList)) return false;
    thrift::ListHeader h = reader.ReadListHeader(f, element);
    if (!reader.ok() || !Reserve(out, h.size)) return false;
    for (uint32_t i = 0; i < h.size && reader.ok(); ++i) read_one(out.emplace_back());
    return reader.ok();
  }
  // The same for an optional list, set only when the field is a list.
  template <typename T, typename ReadOne>
  bool ReadListInto(const thrift::FieldHeader& f, thrift::CType element,
                    std::optional<std::vector<T>>& out, ReadOne&& read_one) {
    if (!reader.AcceptField(f, thrift::CType::kList)) return false;
    return ReadListInto(f, element, out.emplace(), read_one);
  }

  // Records an error naming the struct and the required field that is missing.
  void MissingField(const char* struct_name, const char* field) {
    reader.Fail(std::string(struct_name) + "." + field + " (required) is missing");
  }

  thrift::CompactReader reader;

 private:
  size_t budget_;
};

// Tracks which required fields of a struct were seen. Bit i stands for the i-th required field
// in the order the decoder lists them.
class RequiredFields {
 public:
  void Set(int bit) { seen_ |= 1u << bit; }
  // True when all `n` fields were seen; otherwise reports the first missing one.
  template <size_t N>
  bool Check(ThriftDecoder& d, const char* struct_name, const char* const (&names)[N]) const {
    for (size_t i = 0; i < N; ++i) {
      if ((seen_ & (1u << i)) == 0) {
        d.MissingField(struct_name, names[i]);
        return false;
      }
    }
    return true;
  }

 private:
  uint32_t seen_ = 0;
};

}  // namespace pqsift::format
