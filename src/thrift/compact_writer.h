// A writer for the Thrift compact protocol into a growing byte string. It knows Thrift, not
// Parquet. Struct encoders call BeginStruct/EndStruct around their fields and write fields in
// increasing id order (the compact protocol's short delta form needs that, not correctness).
//
// Thread safety: a writer is used by one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "thrift/compact_reader.h"

namespace pqsift::thrift {

class CompactWriter {
 public:
  void BeginStruct() { last_ids_.push_back(0); }
  void EndStruct() {  // writes the stop byte
    out_.push_back('\0');
    last_ids_.pop_back();
  }

  void WriteFieldHeader(int16_t id, CType type);
  void WriteBoolField(int16_t id, bool v) {
    WriteFieldHeader(id, v ? CType::kBoolTrue : CType::kBoolFalse);
  }
  void WriteI8Field(int16_t id, int8_t v);
  void WriteI16Field(int16_t id, int16_t v) {
    WriteFieldHeader(id, CType::kI16);
    WriteVarint(ZigZag(v));
  }
  void WriteI32Field(int16_t id, int32_t v) {
    WriteFieldHeader(id, CType::kI32);
    WriteVarint(ZigZag(v));
  }
  void WriteI64Field(int16_t id, int64_t v) {
    WriteFieldHeader(id, CType::kI64);
    WriteVarint(ZigZag(v));
  }
  void WriteDoubleField(int16_t id, double v);
  void WriteBinaryField(int16_t id, std::string_view v) {
    WriteFieldHeader(id, CType::kBinary);
    WriteBinary(v);
  }
  // A struct-valued field: call BeginStruct() next, write its fields, then EndStruct().
  void WriteStructFieldHeader(int16_t id) { WriteFieldHeader(id, CType::kStruct); }
  // A list-valued field with `size` elements of `element` type; write the elements next.
  void WriteListFieldHeader(int16_t id, CType element, uint32_t size);

  // Element writes inside lists.
  void WriteVarintElement(int64_t v) { WriteVarint(ZigZag(v)); }
  void WriteBinary(std::string_view v);
  void WriteBoolElement(bool v) { out_.push_back(v ? '\1' : '\2'); }

  // Raw bytes (for building malformed inputs in tests).
  void WriteRaw(std::string_view bytes) { out_.append(bytes); }
  void WriteVarint(uint64_t v);

  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  static uint64_t ZigZag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }

  std::string out_;
  std::vector<int16_t> last_ids_{0};
};

}  // namespace pqsift::thrift
