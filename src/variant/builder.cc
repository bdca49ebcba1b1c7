#include "variant/builder.h"

#include <algorithm>
#include <cstring>

namespace pqsift::variant {
namespace {

void PutLE(std::string& out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out += static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
}

void Primitive(std::string& out, PrimitiveId id) {
  out += static_cast<char>(static_cast<uint8_t>(id) << 2);
}

// Bytes needed for an unsigned value (1..4).
int WidthFor(uint64_t max) {
  if (max <= 0xFF) return 1;
  if (max <= 0xFFFF) return 2;
  if (max <= 0xFFFFFF) return 3;
  return 4;
}

}  // namespace

void EncodeNull(std::string& out) { Primitive(out, PrimitiveId::kNull); }

void EncodeBoolean(std::string& out, bool v) {
  Primitive(out, v ? PrimitiveId::kTrue : PrimitiveId::kFalse);
}

void EncodeInteger(std::string& out, Type type, int64_t v) {
  switch (type) {
    case Type::kInt8:
      Primitive(out, PrimitiveId::kInt8);
      PutLE(out, static_cast<uint64_t>(v), 1);
      break;
    case Type::kInt16:
      Primitive(out, PrimitiveId::kInt16);
      PutLE(out, static_cast<uint64_t>(v), 2);
      break;
    case Type::kInt32:
      Primitive(out, PrimitiveId::kInt32);
      PutLE(out, static_cast<uint64_t>(v), 4);
      break;
    default:
      Primitive(out, PrimitiveId::kInt64);
      PutLE(out, static_cast<uint64_t>(v), 8);
      break;
  }
}

void EncodeDouble(std::string& out, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  Primitive(out, PrimitiveId::kDouble);
  PutLE(out, bits, 8);
}

void EncodeFloat(std::string& out, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  Primitive(out, PrimitiveId::kFloat);
  PutLE(out, bits, 4);
}

void EncodeDecimal(std::string& out, Type type, const Decimal& v) {
  const auto u = static_cast<unsigned __int128>(v.unscaled);
  int width = 16;
  PrimitiveId id = PrimitiveId::kDecimal16;
  if (type == Type::kDecimal4) {
    width = 4;
    id = PrimitiveId::kDecimal4;
  } else if (type == Type::kDecimal8) {
    width = 8;
    id = PrimitiveId::kDecimal8;
  }
  Primitive(out, id);
  out += static_cast<char>(static_cast<uint8_t>(v.scale));
  PutLE(out, static_cast<uint64_t>(u), std::min(width, 8));
  if (width == 16) PutLE(out, static_cast<uint64_t>(u >> 64), 8);
}

void EncodeDate(std::string& out, int32_t days) {
  Primitive(out, PrimitiveId::kDate);
  PutLE(out, static_cast<uint32_t>(days), 4);
}

void EncodeTicks(std::string& out, Type type, int64_t v) {
  PrimitiveId id = PrimitiveId::kTimestampMicros;
  switch (type) {
    case Type::kTimestampNtzMicros: id = PrimitiveId::kTimestampNtzMicros; break;
    case Type::kTimestampNanos: id = PrimitiveId::kTimestampNanos; break;
    case Type::kTimestampNtzNanos: id = PrimitiveId::kTimestampNtzNanos; break;
    case Type::kTimeNtzMicros: id = PrimitiveId::kTimeNtzMicros; break;
    default: break;
  }
  Primitive(out, id);
  PutLE(out, static_cast<uint64_t>(v), 8);
}

void EncodeBinary(std::string& out, std::span<const uint8_t> v) {
  Primitive(out, PrimitiveId::kBinary);
  PutLE(out, v.size(), 4);
  out.append(reinterpret_cast<const char*>(v.data()), v.size());
}

void EncodeString(std::string& out, std::string_view v) {
  if (v.size() < 64) {
    out += static_cast<char>(static_cast<uint8_t>(v.size() << 2) | 1);
  } else {
    Primitive(out, PrimitiveId::kString);
    PutLE(out, v.size(), 4);
  }
  out.append(v);
}

void EncodeUuid(std::string& out, std::span<const uint8_t, 16> big_endian) {
  Primitive(out, PrimitiveId::kUuid);
  out.append(reinterpret_cast<const char*>(big_endian.data()), 16);
}

namespace {

// The shared tail of objects and arrays: count, [ids], offsets, values.
void EncodeContainer(std::string& out, bool object, const std::vector<uint32_t>& ids,
                     const std::vector<std::span<const uint8_t>>& values) {
  uint64_t total = 0;
  uint32_t max_id = 0;
  for (const auto& v : values) total += v.size();
  for (uint32_t id : ids) max_id = std::max(max_id, id);
  const size_t n = values.size();
  const bool large = n > 255;
  const int offset_size = WidthFor(total);
  const int id_size = WidthFor(max_id);
  uint8_t header = static_cast<uint8_t>(offset_size - 1);
  if (object) {
    header |= static_cast<uint8_t>((id_size - 1) << 2);
    if (large) header |= 0x10;
    out += static_cast<char>(static_cast<uint8_t>(header << 2) | 2);
  } else {
    if (large) header |= 0x04;
    out += static_cast<char>(static_cast<uint8_t>(header << 2) | 3);
  }
  PutLE(out, n, large ? 4 : 1);
  if (object) {
    for (uint32_t id : ids) PutLE(out, id, id_size);
  }
  uint64_t off = 0;
  for (const auto& v : values) {
    PutLE(out, off, offset_size);
    off += v.size();
  }
  PutLE(out, off, offset_size);
  for (const auto& v : values) out.append(reinterpret_cast<const char*>(v.data()), v.size());
}

}  // namespace

void EncodeObject(std::string& out, std::vector<FieldBytes>& fields) {
  std::sort(fields.begin(), fields.end(),
            [](const FieldBytes& a, const FieldBytes& b) { return a.name < b.name; });
  std::vector<uint32_t> ids;
  std::vector<std::span<const uint8_t>> values;
  ids.reserve(fields.size());
  values.reserve(fields.size());
  for (const FieldBytes& f : fields) {
    ids.push_back(f.id);
    values.push_back(f.value);
  }
  EncodeContainer(out, true, ids, values);
}

void EncodeMetadata(std::string& out, const std::vector<std::string_view>& keys) {
  uint64_t total = 0;
  bool sorted = true;
  for (size_t i = 0; i < keys.size(); ++i) {
    total += keys[i].size();
    if (i > 0 && !(keys[i - 1] < keys[i])) sorted = false;
  }
  const int offset_size = WidthFor(std::max<uint64_t>(total, keys.size()));
  out += static_cast<char>(1 | (sorted ? 0x10 : 0) | ((offset_size - 1) << 6));
  PutLE(out, keys.size(), offset_size);
  uint64_t off = 0;
  for (std::string_view k : keys) {
    PutLE(out, off, offset_size);
    off += k.size();
  }
  PutLE(out, off, offset_size);
  for (std::string_view k : keys) out.append(k);
}

void EncodeArray(std::string& out, const std::vector<std::span<const uint8_t>>& elements) {
  EncodeContainer(out, false, {}, elements);
}

}  // namespace pqsift::variant
