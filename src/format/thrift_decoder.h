// Shared machinery for decoding Parquet's Thrift structs (footer, page headers, page index,
// bloom filter header): a CompactReader plus a memory budget and required-field checks.
//
// The budget bounds what decoded structs may allocate, so a small hostile input cannot make
// pqsift allocate without limit: list sizes are already bounded by the bytes left, but a
// one-byte element can decode into a struct of hundreds of bytes.
#pragma once

#include <cstddef>
#include <cstdint>
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
  template <typename T, typename ReadOne>
  void ReadListInto(const thrift::FieldHeader& f, thrift::CType element, std::vector<T>& out,
                    ReadOne&& read_one) {
    thrift::ListHeader h = reader.ReadListHeader(f, element);
    if (!reader.ok() || !Reserve(out, h.size)) return;
    for (uint32_t i = 0; i < h.size && reader.ok(); ++i) read_one(out.emplace_back());
  }

  // Records an error naming the struct and the required field that is missing.
  void MissingField(const char* struct_name, const char* field) {
    reader.Fail(std::string(struct_name) + "." + field + " (required) is missing");
  }

  thrift::CompactReader reader;

 private:
  size_t budget_;
};

// Reads an i32 field as an enum, keeping values this version does not name.
template <typename Enum>
Enum ReadEnum(ThriftDecoder& d, const thrift::FieldHeader& f) {
  return static_cast<Enum>(d.reader.ReadI32(f));
}

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
