#include "thrift/compact_reader.h"

#include <bit>

namespace pqsift::thrift {

const char* CTypeName(CType t) {
  switch (t) {
    case CType::kStop: return "stop";
    case CType::kBoolTrue:
    case CType::kBoolFalse: return "bool";
    case CType::kByte: return "byte";
    case CType::kI16: return "i16";
    case CType::kI32: return "i32";
    case CType::kI64: return "i64";
    case CType::kDouble: return "double";
    case CType::kBinary: return "binary";
    case CType::kList: return "list";
    case CType::kSet: return "set";
    case CType::kMap: return "map";
    case CType::kStruct: return "struct";
  }
  return "invalid";
}

void CompactReader::Fail(std::string_view what) {
  if (!error_.empty()) return;
  error_.assign(what);
  error_ += " at byte ";
  error_ += std::to_string(position());
  pos_ = end_;
}

uint64_t CompactReader::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ == end_) {
      Fail("truncated varint");
      return 0;
    }
    uint8_t byte = *pos_++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return result;
  }
  Fail("varint longer than 10 bytes");
  return 0;
}

FieldHeader CompactReader::ReadFieldHeader(int16_t& last_id) {
  if (pos_ == end_) {
    Fail("truncated struct (no stop field)");
    return {};
  }
  uint8_t byte = *pos_++;
  auto type = static_cast<CType>(byte & 0x0f);
  if (type == CType::kStop) return {};
  if (static_cast<uint8_t>(type) > static_cast<uint8_t>(CType::kStruct)) {
    Fail("invalid field type " + std::to_string(byte & 0x0f));
    return {};
  }
  uint8_t delta = byte >> 4;
  // Kept in 64 bits until range-checked: a long-form id is a full varint.
  int64_t id = delta != 0 ? int64_t{last_id} + delta : ZigZag(ReadVarint());
  if (id < INT16_MIN || id > INT16_MAX) {
    Fail("field id out of range");
    return {};
  }
  last_id = static_cast<int16_t>(id);
  if (!ok()) return {};
  return {last_id, type};
}

bool CompactReader::EnterNested() {
  if (++depth_ > kMaxDepth) {
    Fail("nesting deeper than " + std::to_string(kMaxDepth));
    return false;
  }
  return true;
}

namespace {

// i16, i32 and i64 share one wire form (zigzag varints), so a writer that widened or narrowed
// an integer is still read; the value is range-checked against the expected type instead.
bool IsVarintType(CType t) { return t == CType::kI16 || t == CType::kI32 || t == CType::kI64; }

bool Compatible(CType found, CType expected) {
  return found == expected || (IsVarintType(found) && IsVarintType(expected)) ||
         (expected == CType::kList && found == CType::kSet) ||
         (expected == CType::kBoolTrue && found == CType::kBoolFalse);
}

}  // namespace

bool CompactReader::ExpectType(const FieldHeader& f, CType t) {
  bool matches = Compatible(f.type, t);
  if (!matches && ok()) {
    Fail("field " + std::to_string(f.id) + " has wire type " + CTypeName(f.type) + ", expected " +
         CTypeName(t));
  }
  return matches && ok();
}

bool CompactReader::AcceptField(const FieldHeader& f, CType expected) {
  if (!ok()) return false;
  if (Compatible(f.type, expected)) return true;
  Skip(f.type);
  return false;
}

bool CompactReader::ReadField(const FieldHeader& f, bool& out) {
  if (!AcceptField(f, CType::kBoolTrue)) return false;
  out = f.type == CType::kBoolTrue;
  return true;
}

bool CompactReader::ReadField(const FieldHeader& f, int8_t& out) {
  if (!AcceptField(f, CType::kByte)) return false;
  int8_t v = ReadI8(f);
  if (!ok()) return false;
  out = v;
  return true;
}

bool CompactReader::ReadField(const FieldHeader& f, double& out) {
  if (!AcceptField(f, CType::kDouble)) return false;
  double v = ReadDoubleElement();
  if (!ok()) return false;
  out = v;
  return true;
}

bool CompactReader::ReadField(const FieldHeader& f, std::string_view& out) {
  if (!AcceptField(f, CType::kBinary)) return false;
  std::string_view v = ReadBinaryElement();
  if (!ok()) return false;
  out = v;
  return true;
}

bool CompactReader::ReadBool(const FieldHeader& f) {
  if (!ExpectType(f, CType::kBoolTrue)) return false;
  return f.type == CType::kBoolTrue;
}

int8_t CompactReader::ReadI8(const FieldHeader& f) {
  if (!ExpectType(f, CType::kByte)) return 0;
  if (pos_ == end_) {
    Fail("truncated byte");
    return 0;
  }
  return static_cast<int8_t>(*pos_++);
}

int64_t CompactReader::ReadIntField(const FieldHeader& f, CType t) {
  if (!ExpectType(f, t)) return 0;
  int64_t v = ZigZag(ReadVarint());
  if (t == CType::kI32 && (v < INT32_MIN || v > INT32_MAX)) Fail("i32 out of range");
  if (t == CType::kI16 && (v < INT16_MIN || v > INT16_MAX)) Fail("i16 out of range");
  return ok() ? v : 0;
}

double CompactReader::ReadDoubleElement() {
  if (remaining() < 8) {
    Fail("truncated double");
    return 0;
  }
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = (bits << 8) | pos_[i];  // little endian on the wire
  pos_ += 8;
  return std::bit_cast<double>(bits);
}

double CompactReader::ReadDouble(const FieldHeader& f) {
  if (!ExpectType(f, CType::kDouble)) return 0;
  return ReadDoubleElement();
}

std::string_view CompactReader::ReadBinaryElement() {
  uint64_t len = ReadVarint();
  if (!ok()) return {};
  if (len > remaining()) {
    Fail("binary length " + std::to_string(len) + " exceeds the " + std::to_string(remaining()) +
         " bytes left");
    return {};
  }
  std::string_view out(reinterpret_cast<const char*>(pos_), len);
  pos_ += len;
  return out;
}

std::string_view CompactReader::ReadBinary(const FieldHeader& f) {
  if (!ExpectType(f, CType::kBinary)) return {};
  return ReadBinaryElement();
}

bool CompactReader::ReadBoolElement() {
  if (pos_ == end_) {
    Fail("truncated bool");
    return false;
  }
  // Writers disagree on the encoding of false inside containers (0 or 2); true is always 1.
  return *pos_++ == 1;
}

ListHeader CompactReader::ReadListHeaderRaw() {
  if (pos_ == end_) {
    Fail("truncated list header");
    return {};
  }
  uint8_t byte = *pos_++;
  ListHeader h;
  h.element_type = static_cast<CType>(byte & 0x0f);
  uint64_t size = byte >> 4;
  if (size == 15) size = ReadVarint();
  if (!ok()) return {};
  // Every element takes at least one byte, so a larger count cannot be honest.
  if (size > remaining()) {
    Fail("list of " + std::to_string(size) + " elements exceeds the " +
         std::to_string(remaining()) + " bytes left");
    return {};
  }
  h.size = static_cast<uint32_t>(size);
  return h;
}

ListHeader CompactReader::ReadListHeader(const FieldHeader& f, CType expected_element) {
  if (!ExpectType(f, CType::kList)) return {};
  ListHeader h = ReadListHeaderRaw();
  if (!ok()) return {};
  bool bool_list = expected_element == CType::kBoolTrue &&
                   (h.element_type == CType::kBoolTrue || h.element_type == CType::kBoolFalse);
  if (h.size > 0 && !Compatible(h.element_type, expected_element) && !bool_list) {
    Fail("list field " + std::to_string(f.id) + " has elements of type " +
         CTypeName(h.element_type) + ", expected " + CTypeName(expected_element));
    return {};
  }
  return h;
}

void CompactReader::Skip(CType t) {
  if (!ok()) return;
  switch (t) {
    case CType::kBoolTrue:
    case CType::kBoolFalse: return;  // the value lives in the field header
    case CType::kByte:
      if (pos_ == end_)
        Fail("truncated byte");
      else
        ++pos_;
      return;
    case CType::kI16:
    case CType::kI32:
    case CType::kI64: ReadVarint(); return;
    case CType::kDouble: ReadDoubleElement(); return;
    case CType::kBinary: ReadBinaryElement(); return;
    case CType::kStruct: ReadStruct(*this, [](const FieldHeader&) { return false; }); return;
    case CType::kList:
    case CType::kSet: {
      if (!EnterNested()) return;
      ListHeader h = ReadListHeaderRaw();
      for (uint32_t i = 0; i < h.size && ok(); ++i) {
        // Inside containers a bool is one byte, not part of a header.
        if (h.element_type == CType::kBoolTrue || h.element_type == CType::kBoolFalse) {
          ReadBoolElement();
        } else {
          Skip(h.element_type);
        }
      }
      LeaveNested();
      return;
    }
    case CType::kMap: {
      if (!EnterNested()) return;
      uint64_t size = ReadVarint();
      if (size > 0 && ok()) {
        if (size > remaining()) {
          Fail("map of " + std::to_string(size) + " entries exceeds the bytes left");
        } else if (pos_ == end_) {
          Fail("truncated map header");
        } else {
          uint8_t types = *pos_++;
          auto key = static_cast<CType>(types >> 4);
          auto value = static_cast<CType>(types & 0x0f);
          for (uint64_t i = 0; i < size && ok(); ++i) {
            for (CType kv : {key, value}) {
              if (kv == CType::kBoolTrue || kv == CType::kBoolFalse)
                ReadBoolElement();
              else
                Skip(kv);
            }
          }
        }
      }
      LeaveNested();
      return;
    }
    case CType::kStop: break;
  }
  Fail("cannot skip a value of wire type " + std::to_string(static_cast<int>(t)));
}

}  // namespace pqsift::thrift
