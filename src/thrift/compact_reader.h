// A reader for the Thrift compact protocol over a byte span. It knows Thrift, not Parquet.
//
// Errors are sticky: the first malformed or truncated item records a message with its byte
// position, and from then on every read returns a zero value and every field header reads as
// STOP, so decoding loops end quickly without checking after each call. Callers check ok()
// once at the end. Nothing is allocated from lengths in the input: list sizes are checked
// against the bytes left (each element takes at least one byte), and nesting is limited.
//
// Binary values are returned as views into the input span: they stay valid while it does.
// Thread safety: a reader is used by one thread at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace pqsift::thrift {

// Wire types of the compact protocol.
enum class CType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

const char* CTypeName(CType t);

struct FieldHeader {
  int16_t id = 0;
  CType type = CType::kStop;
};

struct ListHeader {
  CType element_type = CType::kStop;
  uint32_t size = 0;
};

class CompactReader {
 public:
  // Structs and containers nested deeper than this are rejected: a hostile input cannot
  // exhaust the stack through Skip or the struct decoders.
  static constexpr int kMaxDepth = 64;

  explicit CompactReader(std::span<const uint8_t> bytes)
      : begin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool ok() const { return error_.empty(); }
  // "<what> at byte N"; empty when ok().
  const std::string& error() const { return error_; }
  size_t position() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }

  // Reads the next field header of the struct being read. `last_id` is that struct's previous
  // field id (0 at its start) and is updated. Returns type kStop at the struct's end or on error.
  FieldHeader ReadFieldHeader(int16_t& last_id);

  // Struct nesting bookkeeping for the depth limit. Every struct decoder brackets its fields.
  bool EnterNested();  // false (and an error) past kMaxDepth
  void LeaveNested() { --depth_; }

  // Field reads as Apache Thrift's generated readers do them, the ones struct decoders use: a
  // field whose wire type is not the expected one is skipped, as a field from another version
  // of the IDL (real writers put other types under known ids), and `out` keeps its value, so
  // the field reads as absent. The skip is bounds-checked like any read: a malformed value is
  // still an error. Returns true when the value was read into `out`. i16, i32 and i64 share a
  // wire form and are read as each other, range-checked (an out-of-range value is an error).
  bool ReadField(const FieldHeader& f, bool& out);
  bool ReadField(const FieldHeader& f, int8_t& out);
  bool ReadField(const FieldHeader& f, int16_t& out) { return ReadIntInto(f, CType::kI16, out); }
  bool ReadField(const FieldHeader& f, int32_t& out) { return ReadIntInto(f, CType::kI32, out); }
  bool ReadField(const FieldHeader& f, int64_t& out) { return ReadIntInto(f, CType::kI64, out); }
  bool ReadField(const FieldHeader& f, double& out);
  bool ReadField(const FieldHeader& f, std::string_view& out);
  // An enum is its underlying i32 (unnamed values are kept).
  template <typename Enum>
  requires std::is_enum_v<Enum>
  bool ReadField(const FieldHeader& f, Enum& out) {
    std::underlying_type_t<Enum> v{};
    if (!ReadField(f, v)) return false;
    out = static_cast<Enum>(v);
    return true;
  }
  // An optional field is set only when its value was read.
  template <typename T>
  bool ReadField(const FieldHeader& f, std::optional<T>& out) {
    T v{};
    if (!ReadField(f, v)) return false;
    out = v;
    return true;
  }
  // For fields read by hand (structs, lists): true when `f` has wire type `expected` (or one
  // read as it); otherwise skips the value (bounds-checked) and returns false.
  bool AcceptField(const FieldHeader& f, CType expected);

  // Strict typed reads of a field's value, for callers that know the wire type: each checks
  // that the field's wire type matches (a mismatch is an error naming the field) and returns
  // 0/false/empty on error.
  bool ReadBool(const FieldHeader& f);
  int8_t ReadI8(const FieldHeader& f);
  int16_t ReadI16(const FieldHeader& f) {
    return static_cast<int16_t>(ReadIntField(f, CType::kI16));
  }
  int32_t ReadI32(const FieldHeader& f) {
    return static_cast<int32_t>(ReadIntField(f, CType::kI32));
  }
  int64_t ReadI64(const FieldHeader& f) { return ReadIntField(f, CType::kI64); }
  double ReadDouble(const FieldHeader& f);
  std::string_view ReadBinary(const FieldHeader& f);
  // Checks that `f` is a list (or set) and reads its header; the size fits the bytes left.
  ListHeader ReadListHeader(const FieldHeader& f, CType expected_element);
  // True when the field has wire type `t`; otherwise records an error and returns false.
  bool ExpectType(const FieldHeader& f, CType t);

  // Element reads inside a list.
  bool ReadBoolElement();
  int64_t ReadVarintElement() { return ZigZag(ReadVarint()); }
  std::string_view ReadBinaryElement();
  double ReadDoubleElement();

  // Skips a value of wire type `t` (any nesting, up to the depth limit).
  void Skip(CType t);

  // Records an error (the first one wins) and stops all further reading.
  void Fail(std::string_view what);

 private:
  uint64_t ReadVarint();
  int64_t ReadIntField(const FieldHeader& f, CType t);
  template <typename Int>
  bool ReadIntInto(const FieldHeader& f, CType t, Int& out) {
    if (!AcceptField(f, t)) return false;
    Int v = static_cast<Int>(ReadIntField(f, t));
    if (!ok()) return false;
    out = v;
    return true;
  }
  static int64_t ZigZag(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  ListHeader ReadListHeaderRaw();

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  int depth_ = 0;
  std::string error_;
};

// Reads the fields of one struct: calls `on_field(header)` for each field, which returns true
// when it consumed the value, false to have it skipped (unknown fields: forward compatibility).
template <typename OnField>
void ReadStruct(CompactReader& r, OnField&& on_field) {
  if (!r.EnterNested()) return;
  int16_t last_id = 0;
  for (;;) {
    FieldHeader f = r.ReadFieldHeader(last_id);
    if (f.type == CType::kStop) break;
    if (!on_field(f)) r.Skip(f.type);
  }
  r.LeaveNested();
}

// Reads a list field element by element: `on_element(i)` reads element i. Returns the size.
template <typename OnElement>
uint32_t ReadList(CompactReader& r, const FieldHeader& f, CType element, OnElement&& on_element) {
  ListHeader h = r.ReadListHeader(f, element);
  for (uint32_t i = 0; i < h.size && r.ok(); ++i) on_element(i);
  return r.ok() ? h.size : 0;
}

}  // namespace pqsift::thrift
