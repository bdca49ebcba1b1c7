#include "variant/variant.h"

#include <cstring>
#include <string>

#include "arrow/utf8.h"

namespace pqsift::variant {
namespace {

uint64_t ReadLE(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

Status Bad(std::string_view what, size_t at, std::string_view detail) {
  return Status::Corruption("variant " + std::string(what) + " at byte " + std::to_string(at) +
                            ": " + std::string(detail));
}

// Fixed payload sizes of the primitives (-1: a 4-byte length prefix; -2: unknown id).
int PrimitivePayload(uint8_t id) {
  switch (static_cast<PrimitiveId>(id)) {
    case PrimitiveId::kNull:
    case PrimitiveId::kTrue:
    case PrimitiveId::kFalse: return 0;
    case PrimitiveId::kInt8: return 1;
    case PrimitiveId::kInt16: return 2;
    case PrimitiveId::kInt32:
    case PrimitiveId::kDate:
    case PrimitiveId::kFloat: return 4;
    case PrimitiveId::kInt64:
    case PrimitiveId::kDouble:
    case PrimitiveId::kTimestampMicros:
    case PrimitiveId::kTimestampNtzMicros:
    case PrimitiveId::kTimeNtzMicros:
    case PrimitiveId::kTimestampNanos:
    case PrimitiveId::kTimestampNtzNanos: return 8;
    case PrimitiveId::kDecimal4: return 5;
    case PrimitiveId::kDecimal8: return 9;
    case PrimitiveId::kDecimal16: return 17;
    case PrimitiveId::kUuid: return 16;
    case PrimitiveId::kBinary:
    case PrimitiveId::kString: return -1;
  }
  return -2;
}

Type PrimitiveType(uint8_t id) {
  switch (static_cast<PrimitiveId>(id)) {
    case PrimitiveId::kNull: return Type::kNull;
    case PrimitiveId::kTrue:
    case PrimitiveId::kFalse: return Type::kBoolean;
    case PrimitiveId::kInt8: return Type::kInt8;
    case PrimitiveId::kInt16: return Type::kInt16;
    case PrimitiveId::kInt32: return Type::kInt32;
    case PrimitiveId::kInt64: return Type::kInt64;
    case PrimitiveId::kDouble: return Type::kDouble;
    case PrimitiveId::kDecimal4: return Type::kDecimal4;
    case PrimitiveId::kDecimal8: return Type::kDecimal8;
    case PrimitiveId::kDecimal16: return Type::kDecimal16;
    case PrimitiveId::kDate: return Type::kDate;
    case PrimitiveId::kTimestampMicros: return Type::kTimestampMicros;
    case PrimitiveId::kTimestampNtzMicros: return Type::kTimestampNtzMicros;
    case PrimitiveId::kFloat: return Type::kFloat;
    case PrimitiveId::kBinary: return Type::kBinary;
    case PrimitiveId::kString: return Type::kString;
    case PrimitiveId::kTimeNtzMicros: return Type::kTimeNtzMicros;
    case PrimitiveId::kTimestampNanos: return Type::kTimestampNanos;
    case PrimitiveId::kTimestampNtzNanos: return Type::kTimestampNtzNanos;
    case PrimitiveId::kUuid: return Type::kUuid;
  }
  return Type::kNull;
}

std::string_view AsString(const uint8_t* p, size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}

}  // namespace

// ---- metadata ----

Result<Metadata> Metadata::Parse(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Bad("metadata", 0, "empty (at least a header byte is required)");
  const uint8_t header = bytes[0];
  if ((header & 0x0F) != 1) {
    return Bad("metadata", 0, "version " + std::to_string(header & 0x0F) + ", expected 1");
  }
  Metadata m;
  m.bytes_ = bytes;
  m.sorted_ = (header & 0x10) != 0;
  m.offset_size_ = static_cast<uint8_t>((header >> 6) + 1);
  const size_t n = bytes.size();
  if (n < 1 + static_cast<size_t>(m.offset_size_)) {
    return Bad("metadata", 1, "truncated dictionary size");
  }
  const uint64_t count = ReadLE(bytes.data() + 1, m.offset_size_);
  // count + 1 offsets must fit after the size field.
  const size_t offsets_at = 1 + m.offset_size_;
  if (count + 1 > (n - offsets_at) / m.offset_size_) {
    return Bad("metadata", offsets_at,
               "dictionary of " + std::to_string(count) + " strings does not fit in " +
                   std::to_string(n) + " bytes");
  }
  m.size_ = static_cast<uint32_t>(count);
  m.offsets_ = bytes.data() + offsets_at;
  const size_t strings_at = offsets_at + (count + 1) * m.offset_size_;
  m.strings_ = bytes.data() + strings_at;
  const size_t strings_size = n - strings_at;
  if (m.Offset(0) != 0) return Bad("metadata", offsets_at, "first offset is not 0");
  uint64_t prev = 0;
  for (uint32_t i = 1; i <= m.size_; ++i) {
    const uint64_t off = m.Offset(i);
    if (off < prev || off > strings_size) {
      return Bad("metadata", offsets_at + static_cast<size_t>(i) * m.offset_size_,
                 "offset " + std::to_string(off) + " of string " + std::to_string(i) +
                     " out of order or past the " + std::to_string(strings_size) + " string bytes");
    }
    prev = off;
  }
  if (prev != strings_size) {
    return Bad("metadata", strings_at + prev,
               std::to_string(strings_size - prev) + " bytes after the last string");
  }
  for (uint32_t i = 0; i < m.size_; ++i) {
    if (!utf8::IsValid(m.key(i))) {
      return Bad("metadata", strings_at + m.Offset(i),
                 "dictionary string " + std::to_string(i) + " is not UTF-8");
    }
    if (m.sorted_ && i > 0 && !(m.key(i - 1) < m.key(i))) {
      return Bad("metadata", strings_at + m.Offset(i),
                 "dictionary marked sorted but string " + std::to_string(i) +
                     " does not follow the one before it (unsorted or duplicate)");
    }
  }
  return m;
}

uint32_t Metadata::Offset(uint32_t i) const {
  return static_cast<uint32_t>(
      ReadLE(offsets_ + static_cast<size_t>(i) * offset_size_, offset_size_));
}

std::string_view Metadata::key(uint32_t id) const {
  const uint32_t b = Offset(id);
  return AsString(strings_ + b, Offset(id + 1) - b);
}

std::optional<uint32_t> Metadata::Find(std::string_view name) const {
  if (sorted_) {
    uint32_t lo = 0, hi = size_;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const std::string_view k = key(mid);
      if (k == name) return mid;
      if (k < name) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return std::nullopt;
  }
  for (uint32_t i = 0; i < size_; ++i) {
    if (key(i) == name) return i;
  }
  return std::nullopt;
}

// ---- values ----

Status Value::Open(const Metadata* m, const uint8_t* data, size_t available, size_t at,
                   Value* out) {
  if (available == 0) return Bad("value", at, "no bytes left for a value header");
  Value v;
  v.metadata_ = m;
  v.data_ = data;
  const uint8_t basic = data[0] & 3;
  const uint8_t header = data[0] >> 2;
  switch (basic) {
    case 0: {
      const int fixed = PrimitivePayload(header);
      if (fixed == -2) {
        return Bad("value", at, "unknown primitive type id " + std::to_string(header));
      }
      v.type_ = PrimitiveType(header);
      if (fixed >= 0) {
        if (available - 1 < static_cast<size_t>(fixed)) {
          return Bad("value", at,
                     std::string(TypeName(v.type_)) + " needs " + std::to_string(fixed) +
                         " bytes, " + std::to_string(available - 1) + " left");
        }
        v.payload_ = data + 1;
        v.payload_size_ = static_cast<uint32_t>(fixed);
        v.size_ = 1 + static_cast<size_t>(fixed);
      } else {
        if (available - 1 < 4) return Bad("value", at, "truncated length of a string/binary");
        const uint64_t len = ReadLE(data + 1, 4);
        if (len > available - 5) {
          return Bad("value", at,
                     "length " + std::to_string(len) + " exceeds the " +
                         std::to_string(available - 5) + " bytes left");
        }
        v.payload_ = data + 5;
        v.payload_size_ = static_cast<uint32_t>(len);
        v.size_ = 5 + len;
      }
      if (v.type_ == Type::kDecimal4 || v.type_ == Type::kDecimal8 || v.type_ == Type::kDecimal16) {
        if (v.payload_[0] > 38) {
          return Bad("value", at, "decimal scale " + std::to_string(v.payload_[0]) + " over 38");
        }
      }
      break;
    }
    case 1: {
      const size_t len = header;
      if (len > available - 1) {
        return Bad("value", at,
                   "short string of " + std::to_string(len) + " bytes, " +
                       std::to_string(available - 1) + " left");
      }
      v.type_ = Type::kString;
      v.payload_ = data + 1;
      v.payload_size_ = static_cast<uint32_t>(len);
      v.size_ = 1 + len;
      break;
    }
    default: {
      const bool object = basic == 2;
      v.type_ = object ? Type::kObject : Type::kArray;
      v.offset_size_ = static_cast<uint8_t>((header & 3) + 1);
      v.id_size_ = object ? static_cast<uint8_t>(((header >> 2) & 3) + 1) : 0;
      const bool large = object ? (header & 0x10) != 0 : (header & 0x04) != 0;
      const size_t count_size = large ? 4 : 1;
      size_t pos = 1;
      if (available - pos < count_size) return Bad("value", at, "truncated element count");
      const uint64_t count = ReadLE(data + pos, static_cast<int>(count_size));
      pos += count_size;
      // ids and count + 1 offsets.
      const uint64_t per = static_cast<uint64_t>(v.id_size_) + v.offset_size_;
      if (count > (available - pos) / per || count * per + v.offset_size_ > available - pos) {
        return Bad("value", at,
                   std::to_string(count) + " elements do not fit in the " +
                       std::to_string(available - pos) + " bytes left");
      }
      v.num_elements_ = static_cast<uint32_t>(count);
      v.ids_ = data + pos;
      pos += count * v.id_size_;
      v.offsets_ = data + pos;
      pos += (count + 1) * v.offset_size_;
      v.fields_ = data + pos;
      const uint64_t total = v.ReadOffset(v.num_elements_);
      if (total > available - pos) {
        return Bad("value", at,
                   "fields of " + std::to_string(total) + " bytes exceed the " +
                       std::to_string(available - pos) + " bytes left");
      }
      v.size_ = pos + total;
      break;
    }
  }
  *out = v;
  return Status::OK();
}

uint64_t Value::ReadOffset(uint32_t i) const {
  return ReadLE(offsets_ + static_cast<size_t>(i) * offset_size_, offset_size_);
}

Status Value::Validate(const Value& v, size_t at, int depth, int64_t* budget) {
  if (--*budget < 0) {
    return Bad("value", at, "more elements than the bytes can hold (overlapping offsets)");
  }
  if (v.type_ == Type::kString && !utf8::IsValid(v.string())) {
    return Bad("value", at, "string is not UTF-8");
  }
  if (v.type_ != Type::kObject && v.type_ != Type::kArray) return Status::OK();
  if (depth >= kMaxDepth) {
    return Bad("value", at, "nested deeper than " + std::to_string(kMaxDepth));
  }
  const uint64_t total = v.ReadOffset(v.num_elements_);
  const size_t fields_at = at + static_cast<size_t>(v.fields_ - v.data_);
  std::string_view prev_name;
  for (uint32_t i = 0; i < v.num_elements_; ++i) {
    if (v.type_ == Type::kObject) {
      const uint64_t id = ReadLE(v.ids_ + static_cast<size_t>(i) * v.id_size_, v.id_size_);
      if (id >= v.metadata_->size()) {
        return Bad("value", at,
                   "field id " + std::to_string(id) + " of field " + std::to_string(i) +
                       " not in the dictionary of " + std::to_string(v.metadata_->size()));
      }
      const std::string_view name = v.metadata_->key(static_cast<uint32_t>(id));
      if (i > 0 && !(prev_name < name)) {
        return Bad("value", at,
                   "object field \"" + std::string(name) + "\" " +
                       (prev_name == name ? "duplicated" : "out of name order"));
      }
      prev_name = name;
    }
    const uint64_t off = v.ReadOffset(i);
    if (off >= total) {
      return Bad("value", at,
                 "element " + std::to_string(i) + " offset " + std::to_string(off) +
                     " is not before the end of the fields (" + std::to_string(total) + ")");
    }
    Value child;
    PQSIFT_RETURN_IF_ERROR(
        Open(v.metadata_, v.fields_ + off, total - off, fields_at + off, &child));
    PQSIFT_RETURN_IF_ERROR(Validate(child, fields_at + off, depth + 1, budget));
  }
  return Status::OK();
}

Result<Value> Value::Parse(const Metadata& metadata, std::span<const uint8_t> bytes) {
  Value v;
  PQSIFT_RETURN_IF_ERROR(Open(&metadata, bytes.data(), bytes.size(), 0, &v));
  if (v.size_ != bytes.size()) {
    return Bad("value", v.size_,
               std::to_string(bytes.size() - v.size_) + " bytes after the end of the value");
  }
  // A well-formed value has at most one element per byte; leave room for writers that share
  // the bytes of equal elements, but keep the walk linear in the input.
  int64_t budget = static_cast<int64_t>(bytes.size()) * 4 + 64;
  PQSIFT_RETURN_IF_ERROR(Validate(v, 0, 0, &budget));
  return v;
}

bool Value::boolean() const { return (data_[0] >> 2) == static_cast<uint8_t>(PrimitiveId::kTrue); }

int64_t Value::integer() const {
  switch (type_) {
    case Type::kInt8: return static_cast<int8_t>(payload_[0]);
    case Type::kInt16: return static_cast<int16_t>(ReadLE(payload_, 2));
    case Type::kInt32: return static_cast<int32_t>(ReadLE(payload_, 4));
    default: return static_cast<int64_t>(ReadLE(payload_, 8));
  }
}

double Value::float64() const {
  const uint64_t bits = ReadLE(payload_, 8);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

float Value::float32() const {
  const auto bits = static_cast<uint32_t>(ReadLE(payload_, 4));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

Decimal Value::decimal() const {
  Decimal d;
  d.scale = payload_[0];
  const uint8_t* p = payload_ + 1;
  switch (type_) {
    case Type::kDecimal4: d.unscaled = static_cast<int32_t>(ReadLE(p, 4)); break;
    case Type::kDecimal8: d.unscaled = static_cast<int64_t>(ReadLE(p, 8)); break;
    default: {
      const unsigned __int128 lo = ReadLE(p, 8);
      const unsigned __int128 hi = ReadLE(p + 8, 8);
      d.unscaled = static_cast<__int128>((hi << 64) | lo);
    }
  }
  return d;
}

int32_t Value::date() const { return static_cast<int32_t>(ReadLE(payload_, 4)); }
int64_t Value::ticks() const { return static_cast<int64_t>(ReadLE(payload_, 8)); }
std::span<const uint8_t> Value::binary() const { return {payload_, payload_size_}; }
std::string_view Value::string() const { return AsString(payload_, payload_size_); }

Value Value::element(uint32_t i) const {
  const uint64_t total = ReadOffset(num_elements_);
  const uint64_t off = ReadOffset(i);
  Value child;
  // Validated by Parse: cannot fail.
  (void)Open(metadata_, fields_ + off, total - off, 0, &child);
  return child;
}

uint32_t Value::field_id(uint32_t i) const {
  return static_cast<uint32_t>(ReadLE(ids_ + static_cast<size_t>(i) * id_size_, id_size_));
}

std::string_view Value::field_name(uint32_t i) const { return metadata_->key(field_id(i)); }

Value Value::field_value(uint32_t i) const { return element(i); }

std::optional<Value> Value::Get(std::string_view name) const {
  uint32_t lo = 0, hi = num_elements_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const std::string_view k = field_name(mid);
    if (k == name) return field_value(mid);
    if (k < name) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

bool Equal(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Type::kObject:
      if (a.num_elements() != b.num_elements()) return false;
      for (uint32_t i = 0; i < a.num_elements(); ++i) {
        if (a.field_name(i) != b.field_name(i) || !Equal(a.field_value(i), b.field_value(i))) {
          return false;
        }
      }
      return true;
    case Type::kArray:
      if (a.num_elements() != b.num_elements()) return false;
      for (uint32_t i = 0; i < a.num_elements(); ++i) {
        if (!Equal(a.element(i), b.element(i))) return false;
      }
      return true;
    case Type::kBoolean: return a.boolean() == b.boolean();
    case Type::kString: return a.string() == b.string();
    default: {
      // Every other type is its payload bytes.
      const auto pa = a.bytes().subspan(1);
      const auto pb = b.bytes().subspan(1);
      return pa.size() == pb.size() && std::memcmp(pa.data(), pb.data(), pa.size()) == 0;
    }
  }
}

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull: return "null";
    case Type::kBoolean: return "boolean";
    case Type::kInt8: return "int8";
    case Type::kInt16: return "int16";
    case Type::kInt32: return "int32";
    case Type::kInt64: return "int64";
    case Type::kDouble: return "double";
    case Type::kDecimal4: return "decimal4";
    case Type::kDecimal8: return "decimal8";
    case Type::kDecimal16: return "decimal16";
    case Type::kDate: return "date";
    case Type::kTimestampMicros: return "timestamp";
    case Type::kTimestampNtzMicros: return "timestamp_ntz";
    case Type::kFloat: return "float";
    case Type::kBinary: return "binary";
    case Type::kString: return "string";
    case Type::kTimeNtzMicros: return "time";
    case Type::kTimestampNanos: return "timestamp_nanos";
    case Type::kTimestampNtzNanos: return "timestamp_ntz_nanos";
    case Type::kUuid: return "uuid";
    case Type::kObject: return "object";
    case Type::kArray: return "array";
  }
  return "unknown";
}

}  // namespace pqsift::variant
