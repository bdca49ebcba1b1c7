// Columnar batches in the Arrow memory layout: what a scan returns. Buffers are 64-byte
// aligned and shared, so exporting through the Arrow C Data Interface (arrow_export.h) hands
// them to any Arrow consumer without a copy.
//
// Layout per type (Arrow spec, "Physical Memory Layout"):
//   fixed width (bool as bits, ints, floats, date32, time32/64, timestamp, decimal128,
//   float16, fixed_size_binary): buffers[0] validity, buffers[1] values
//   large_utf8 / large_binary: buffers[0] validity, [1] int64 offsets (length + 1), [2] bytes
//   large_list: buffers[0] validity, [1] int64 offsets; children[0] the values
//   struct: buffers[0] validity; one child per field
//   map: buffers[0] validity, [1] int32 offsets (Arrow has no 64-bit map); children[0] a
//   non-null struct<key, value> with a non-null key
//   null: no buffers; every element is null (null_count == length)
//   dictionary: buffers[0] validity, [1] int32 indices into Array::dictionary, an array of the
//   type's value type (not sliced with its parent: `offset` applies to the indices only). A
//   valid element i is dictionary element indices[offset + i]; an index under a null element
//   is not read. Dictionary values may repeat and hold nulls, as Arrow allows.
// `buffers` always has exactly that many entries. A null validity buffer means "no nulls".
// Validity bit i is bit (i % 8) of byte (i / 8), 1 = valid. Decimal128 values are 16-byte
// little-endian two's complement; float16 values are IEEE half-precision bits (uint16).
// Offsets of length+1 entries start at offsets[0] (not necessarily 0 after slicing); an empty
// array (offset 0, length 0) may have a null offsets buffer.
// `offset` is the Arrow slice offset in elements: element i of an array is slot offset + i of
// its buffers, and for a struct it is also element offset + i of every child (children are
// not sliced with their parent; a list's offsets already point into its child).
//
// Thread safety: an Array is immutable once built; share it freely. ArrowBuffer is not
// thread-safe while being filled and read-only afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift {

// A 64-byte aligned, growable byte buffer. Filled by one builder, then shared read-only.
// Capacity is always a multiple of 64 bytes (Arrow's recommended padding). Allocation failure
// throws std::bad_alloc, as std::vector does.
class ArrowBuffer {
 public:
  ArrowBuffer() = default;
  ~ArrowBuffer();
  ArrowBuffer(const ArrowBuffer&) = delete;
  ArrowBuffer& operator=(const ArrowBuffer&) = delete;

  // A read-only view of `size` bytes at `data` owned by someone else (e.g. an imported C Data
  // Interface array): `owner` is kept alive as long as the buffer. REQUIRES: no writes
  // through data(). Reserve, Resize or Append on a view first copy it into owned memory.
  static std::shared_ptr<ArrowBuffer> View(const uint8_t* data, size_t size,
                                           std::shared_ptr<const void> owner);

  // Makes room for `capacity` bytes in total, keeping the contents (new bytes uninitialised;
  // writers that need zeros, such as bitmaps, zero them). Never shrinks. Grows at least
  // geometrically, so repeated Reserve/Resize by small steps is amortised O(1).
  void Reserve(size_t capacity);
  void Resize(size_t size);  // Reserve(size) and set size(); new bytes uninitialised
  // Appends `n` bytes (Reserve + memcpy).
  void Append(const void* bytes, size_t n);
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // False for views made by View().
  bool owns_memory() const { return owner_ == nullptr; }

  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::shared_ptr<const void> owner_;  // set for views: data_ is not ours to free
};

enum class TypeId : int32_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kLargeString,
  kLargeBinary,
  kFixedSizeBinary,
  kDecimal128,
  kDate32,
  kTime32,     // unit: millis (Arrow also has seconds, which Parquet and pqsift do not)
  kTime64,     // unit: micros or nanos
  kTimestamp,  // unit, timezone ("UTC" for instants, empty for local date-times)
  kLargeList,
  kStruct,
  kMap,
  kDictionary,  // int32 indices into a dictionary of DataType::value_type (Arrow's layout)
};

struct Field;

struct DataType {
  TypeId id = TypeId::kNull;
  int32_t byte_width = 0;             // kFixedSizeBinary
  int32_t precision = 0;              // kDecimal128
  int32_t scale = 0;                  // kDecimal128
  TimeUnit unit = TimeUnit::kMillis;  // kTime32/64, kTimestamp
  std::string timezone;               // kTimestamp
  std::vector<Field> children;        // kLargeList (1), kStruct (n), kMap (1: entries struct)
  // kDictionary: the type of the dictionary's values (any type but a dictionary). The index type
  // is always int32: what Arrow, pandas and Polars use by default, and enough for a dictionary
  // of one batch.
  std::shared_ptr<const DataType> value_type;
  // An Arrow extension type over this storage type (e.g. "arrow.parquet.variant" on a struct
  // of metadata and value binaries); exported as the field's ARROW:extension:name metadata.
  // Empty for plain types.
  std::string extension_name;
  // Its ARROW:extension:metadata (e.g. geoarrow.wkb's {"crs":...}); empty for none.
  std::string extension_metadata;

  // "int64", "timestamp[us, tz=UTC]", "large_list<item: int32>", ...
  std::string ToString() const;
};

struct Field {
  std::string name;
  std::shared_ptr<const DataType> type;
  bool nullable = true;
};

// Deep, structural equality (field names and nullability included).
bool operator==(const DataType& a, const DataType& b);
bool operator==(const Field& a, const Field& b);

// Type factories. Parameterless ones return one shared instance; the others a new one.
// Parameters are not checked here (ValidateType, ValidateArray and the export check them).
std::shared_ptr<const DataType> NullType();
std::shared_ptr<const DataType> Boolean();
std::shared_ptr<const DataType> Int8();
std::shared_ptr<const DataType> Int16();
std::shared_ptr<const DataType> Int32();
std::shared_ptr<const DataType> Int64();
std::shared_ptr<const DataType> UInt8();
std::shared_ptr<const DataType> UInt16();
std::shared_ptr<const DataType> UInt32();
std::shared_ptr<const DataType> UInt64();
std::shared_ptr<const DataType> Float16();
std::shared_ptr<const DataType> Float32();
std::shared_ptr<const DataType> Float64();
std::shared_ptr<const DataType> LargeUtf8();
std::shared_ptr<const DataType> LargeBinary();
std::shared_ptr<const DataType> FixedSizeBinary(int32_t byte_width);
std::shared_ptr<const DataType> Decimal128(int32_t precision, int32_t scale);
std::shared_ptr<const DataType> Date32();
std::shared_ptr<const DataType> Time32(TimeUnit unit);  // kMillis
std::shared_ptr<const DataType> Time64(TimeUnit unit);  // kMicros or kNanos
std::shared_ptr<const DataType> Timestamp(TimeUnit unit, std::string timezone);
std::shared_ptr<const DataType> LargeList(Field item);
std::shared_ptr<const DataType> LargeList(std::shared_ptr<const DataType> item);  // "item"
std::shared_ptr<const DataType> Struct(std::vector<Field> fields);
// map<key, value>: one non-null "entries" struct child with the key made non-nullable.
std::shared_ptr<const DataType> Map(Field key, Field value);
std::shared_ptr<const DataType> Map(std::shared_ptr<const DataType> key,
                                    std::shared_ptr<const DataType> value);  // "key", "value"
// dictionary<values=value_type, indices=int32>.
std::shared_ptr<const DataType> Dictionary(std::shared_ptr<const DataType> value_type);

struct Array {
  std::shared_ptr<const DataType> type;
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;  // slice offset in elements, applied to every buffer
  std::vector<std::shared_ptr<ArrowBuffer>> buffers;  // per the layout above; [0] may be null
  std::vector<std::shared_ptr<Array>> children;
  // kDictionary only: the values the indices point into (of type->value_type). Often shared by
  // the arrays of many batches (one file's name under every batch of that file).
  std::shared_ptr<Array> dictionary;

  // True when element i (counting from `offset`) is valid (not null).
  bool IsValid(int64_t i) const;
};

struct BatchSchema {
  std::vector<Field> fields;
};

struct RecordBatch {
  std::shared_ptr<const BatchSchema> schema;
  int64_t num_rows = 0;
  std::vector<std::shared_ptr<Array>> columns;  // one per schema field, each num_rows long
};

// Checks a type's parameters and shape (decimal precision 1..38, time units, fixed width >= 0,
// list/map child counts, map entries struct<key not null, value>, no null child types, a
// dictionary's value type set and not itself a dictionary).
// InvalidArgument naming the problem.
Status ValidateType(const DataType& type);

// Checks an array against the layout rules above (buffer count and sizes, offsets monotonic
// and in range, child lengths and types, null_count matching the bitmap, valid UTF-8 in
// large_utf8, no nulls under a non-nullable field where the parent is valid, no null map
// keys, every dictionary index of a valid element inside the dictionary). O(size of the data). For
// tests and for consumers that want to verify what they were given; Internal error naming the first
// violation and where it is.
Status ValidateArray(const Array& array);
// The cheap part of ValidateArray: types, buffer counts and sizes for length + offset,
// child counts and lengths, the first and last offsets (not those in between, nor null
// counts, nor UTF-8, nor dictionary indices). O(nesting depth). Enough to read the array
// without going out of bounds provided the offsets are monotonic and the indices in range.
Status ValidateArrayLayout(const Array& array);
// Columns match the schema (count, types, nullability) and each is num_rows long, then
// ValidateArray on each.
Status ValidateRecordBatch(const RecordBatch& batch);

// Elements [offset, offset + length) of `array`, sharing its buffers and children (no copy);
// null_count is recomputed. OutOfRange when the range is not inside the array.
Result<std::shared_ptr<Array>> Slice(const Array& array, int64_t offset, int64_t length);

// Logical equality: same type, length and validity, and equal values where valid (bitwise for
// floats, so NaN equals NaN with the same bits). Offsets and bytes under nulls may differ, and
// dictionary arrays compare the values their indices select, not the indices.
bool ArrayEquals(const Array& a, const Array& b);

}  // namespace pqsift
