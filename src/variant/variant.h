// The Variant binary encoding (VariantEncoding.md in apache/parquet-format): a metadata
// dictionary of field names and a self-describing value (primitives, short strings, objects,
// arrays). This module only reads bytes: it knows nothing of Parquet columns or Arrow.
//
// Contract: input is hostile. Metadata::Parse and Value::Parse check everything once (header
// bits, version 1, every size, offset and field id against the bytes and the dictionary,
// object field names sorted and unique, UTF-8 of every string, nesting depth, and a total
// element budget so overlapping offsets cannot make a small input expensive to walk); after a
// successful Parse every accessor of the value and of every value reached from it is in range
// without further checks. Errors are Corruption naming the byte offset (within the value or
// metadata) and what was wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "pqsift/status.h"

namespace pqsift::variant {

// Nesting deeper than this (arrays and objects inside each other) is refused.
inline constexpr int kMaxDepth = 128;

// The primitive type ids of the spec's table (basic_type 0).
enum class PrimitiveId : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,     // adjusted to UTC
  kTimestampNtzMicros = 13,  // local date-time
  kFloat = 14,
  kBinary = 15,
  kString = 16,
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};

// What a value is. Short strings and long strings are both kString; true and false kBoolean.
enum class Type : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,
  kDate,
  kTimestampMicros,
  kTimestampNtzMicros,
  kFloat,
  kBinary,
  kString,
  kTimeNtzMicros,
  kTimestampNanos,
  kTimestampNtzNanos,
  kUuid,
  kObject,
  kArray,
};

// The metadata: version 1 header, dictionary of field names. A view: the bytes must outlive it.
class Metadata {
 public:
  Metadata() = default;
  static Result<Metadata> Parse(std::span<const uint8_t> bytes);

  uint32_t size() const { return size_; }
  bool sorted() const { return sorted_; }
  // REQUIRES: id < size().
  std::string_view key(uint32_t id) const;
  // The id of `name`, if the dictionary has it (binary search when sorted; else the first).
  std::optional<uint32_t> Find(std::string_view name) const;
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  uint32_t Offset(uint32_t i) const;
  std::span<const uint8_t> bytes_;
  const uint8_t* offsets_ = nullptr;  // size_ + 1 offsets of offset_size_ bytes
  const uint8_t* strings_ = nullptr;
  uint32_t size_ = 0;
  uint8_t offset_size_ = 1;
  bool sorted_ = false;
};

// A decimal: unscaled two's complement integer and scale (0..38).
struct Decimal {
  __int128 unscaled = 0;
  int32_t scale = 0;
};

// A view of one encoded value (and, through the metadata, its field names). Obtained from
// Parse (validated) or from element()/field_value() of a validated value.
class Value {
 public:
  Value() = default;
  // Validates the whole value against `metadata` (see the contract above). Bytes after the
  // value's end are refused. Both the bytes and the metadata must outlive the value.
  static Result<Value> Parse(const Metadata& metadata, std::span<const uint8_t> bytes);

  Type type() const { return type_; }
  // The encoded bytes of this value (exactly its extent).
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const Metadata& metadata() const { return *metadata_; }

  // Primitive accessors. REQUIRES the matching type.
  bool boolean() const;     // kBoolean
  int64_t integer() const;  // kInt8..kInt64
  double float64() const;   // kDouble
  float float32() const;    // kFloat
  Decimal decimal() const;  // kDecimal4/8/16
  int32_t date() const;     // kDate: days since the epoch
  int64_t ticks() const;    // timestamps (micros or nanos since the epoch), time (micros)
  std::span<const uint8_t> binary() const;  // kBinary, kUuid (16 bytes, big-endian)
  std::string_view string() const;          // kString

  // Objects and arrays. REQUIRES kObject or kArray.
  uint32_t num_elements() const { return num_elements_; }
  Value element(uint32_t i) const;      // kArray
  uint32_t field_id(uint32_t i) const;  // kObject: in field-name order
  std::string_view field_name(uint32_t i) const;
  Value field_value(uint32_t i) const;
  std::optional<Value> Get(std::string_view name) const;  // kObject: binary search by name

 private:
  // Reads the header at data[0..available) without validating children.
  static Status Open(const Metadata* m, const uint8_t* data, size_t available, size_t at,
                     Value* out);
  static Status Validate(const Value& v, size_t at, int depth, int64_t* budget);
  uint64_t ReadOffset(uint32_t i) const;  // i-th field offset of an object/array

  const Metadata* metadata_ = nullptr;
  const uint8_t* data_ = nullptr;  // the value_metadata byte
  size_t size_ = 0;
  Type type_ = Type::kNull;
  // Objects and arrays.
  uint32_t num_elements_ = 0;
  uint8_t id_size_ = 0;
  uint8_t offset_size_ = 0;
  const uint8_t* ids_ = nullptr;
  const uint8_t* offsets_ = nullptr;
  const uint8_t* fields_ = nullptr;
  // Primitives and strings: the payload.
  const uint8_t* payload_ = nullptr;
  uint32_t payload_size_ = 0;
};

// Whether two values are the same variant: the same type (short and long strings are one type)
// and equal payloads (floats bitwise); objects with the same field names and equal values,
// whatever their dictionary ids or value order; arrays element by element. Physical types are
// not merged (an int8 1 differs from an int32 1).
bool Equal(const Value& a, const Value& b);

// The name of a type ("int32", "decimal16", "timestamp_ntz_nanos", "object", ...).
std::string_view TypeName(Type type);

}  // namespace pqsift::variant
