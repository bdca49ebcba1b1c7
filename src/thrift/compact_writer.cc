#include "thrift/compact_writer.h"

#include <bit>

namespace pqsift::thrift {

void CompactWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void CompactWriter::WriteFieldHeader(int16_t id, CType type) {
  int16_t& last = last_ids_.back();
  int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_.push_back(static_cast<char>(type));
    WriteVarint(ZigZag(id));
  }
  last = id;
}

void CompactWriter::WriteI8Field(int16_t id, int8_t v) {
  WriteFieldHeader(id, CType::kByte);
  out_.push_back(static_cast<char>(v));
}

void CompactWriter::WriteDoubleField(int16_t id, double v) {
  WriteFieldHeader(id, CType::kDouble);
  auto bits = std::bit_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

void CompactWriter::WriteListFieldHeader(int16_t id, CType element, uint32_t size) {
  WriteFieldHeader(id, CType::kList);
  if (size < 15) {
    out_.push_back(static_cast<char>((size << 4) | static_cast<uint32_t>(element)));
  } else {
    out_.push_back(static_cast<char>(0xf0 | static_cast<uint32_t>(element)));
    WriteVarint(size);
  }
}

void CompactWriter::WriteBinary(std::string_view v) {
  WriteVarint(v.size());
  out_.append(v);
}

}  // namespace pqsift::thrift
