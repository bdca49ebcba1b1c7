// Test helpers: arrays of every type from plain C++ values (std::nullopt = null), record
// batches, and a counter of live ArrowBuffers for leak checks. Built on src/arrow/builder.h.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/array.h"

namespace pqsift::testing {

template <typename T>
using Opt = std::optional<T>;
inline constexpr std::nullopt_t kNull = std::nullopt;

// A decimal128 value from an int64 (sign-extended, little-endian).
inline std::array<uint8_t, 16> Dec(int64_t v) {
  std::array<uint8_t, 16> out{};
  for (int i = 0; i < 16; ++i) {
    out[static_cast<size_t>(i)] =
        i < 8 ? static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)) : (v < 0 ? 0xff : 0);
  }
  return out;
}

template <typename T>
std::shared_ptr<Array> MakeFixed(std::shared_ptr<const DataType> type,
                                 const std::vector<Opt<T>>& values) {
  FixedWidthArrayBuilder<T> b(std::move(type));
  for (const auto& v : values) b.Append(v);
  return b.Finish();
}

inline std::shared_ptr<Array> MakeStrings(const std::vector<Opt<std::string>>& values,
                                          std::shared_ptr<const DataType> type = LargeUtf8()) {
  BinaryArrayBuilder b(std::move(type));
  for (const auto& v : values) {
    if (v) {
      b.Append(std::string_view(*v));
    } else {
      b.AppendNull();
    }
  }
  return b.Finish();
}

inline std::shared_ptr<Array> MakeFixedBinary(int32_t width,
                                              const std::vector<Opt<std::string>>& values) {
  FixedSizeBinaryArrayBuilder b(FixedSizeBinary(width));
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  return b.Finish();
}

// A validity bitmap from bools (empty vector: no bitmap); sets *null_count.
inline std::shared_ptr<ArrowBuffer> Validity(const std::vector<bool>& valid, int64_t* null_count) {
  BitmapBuilder b;
  for (bool v : valid) b.Append(v);
  *null_count = b.null_count();
  return valid.empty() ? nullptr : b.FinishValidity();
}

template <typename O>
std::shared_ptr<ArrowBuffer> OffsetsBuffer(const std::vector<O>& offsets) {
  TypedBufferBuilder<O> b;
  b.Append(offsets.data(), static_cast<int64_t>(offsets.size()));
  return b.Finish();
}

// large_list<item> with `offsets` (length + 1) into `values`; `valid` empty = no nulls.
inline std::shared_ptr<Array> MakeList(std::shared_ptr<Array> values,
                                       const std::vector<int64_t>& offsets,
                                       const std::vector<bool>& valid = {},
                                       bool item_nullable = true) {
  int64_t nulls = 0;
  auto validity = Validity(valid, &nulls);
  auto type = LargeList(Field{"item", values->type, item_nullable});
  auto r = MakeLargeListArray(type, static_cast<int64_t>(offsets.size()) - 1, validity, nulls,
                              OffsetsBuffer(offsets), std::move(values));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

struct NamedArray {
  std::string name;
  std::shared_ptr<Array> array;
  bool nullable = true;
};

inline std::shared_ptr<Array> MakeStructOf(const std::vector<NamedArray>& children, int64_t length,
                                           const std::vector<bool>& valid = {}) {
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Array>> arrays;
  for (const auto& c : children) {
    fields.push_back(Field{c.name, c.array->type, c.nullable});
    arrays.push_back(c.array);
  }
  int64_t nulls = 0;
  auto validity = Validity(valid, &nulls);
  auto r = MakeStructArray(Struct(fields), length, validity, nulls, std::move(arrays));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

// map<key, value> with int32 `offsets` into parallel keys / values arrays.
inline std::shared_ptr<Array> MakeMapOf(std::shared_ptr<Array> keys, std::shared_ptr<Array> values,
                                        const std::vector<int32_t>& offsets,
                                        const std::vector<bool>& valid = {}) {
  auto type = Map(keys->type, values->type);
  const Field& entries_field = type->children[0];
  std::vector<std::shared_ptr<Array>> kv = {keys, values};
  auto entries = MakeStructArray(entries_field.type, keys->length, nullptr, 0, kv);
  EXPECT_TRUE(entries.ok()) << entries.status().ToString();
  int64_t nulls = 0;
  auto validity = Validity(valid, &nulls);
  auto r = MakeMapArray(type, static_cast<int64_t>(offsets.size()) - 1, validity, nulls,
                        OffsetsBuffer(offsets), *entries);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

// dictionary<values = dictionary's type> with int32 `indices` (nullopt: a null element).
inline std::shared_ptr<Array> MakeDictionaryOf(std::shared_ptr<Array> dictionary,
                                               const std::vector<Opt<int32_t>>& indices) {
  auto out = MakeFixed<int32_t>(Dictionary(dictionary->type), indices);
  out->dictionary = std::move(dictionary);
  return out;
}

inline std::shared_ptr<RecordBatch> MakeBatch(const std::vector<NamedArray>& columns,
                                              int64_t num_rows = -1) {
  auto schema = std::make_shared<BatchSchema>();
  auto batch = std::make_shared<RecordBatch>();
  for (const auto& c : columns) {
    schema->fields.push_back(Field{c.name, c.array->type, c.nullable});
    batch->columns.push_back(c.array);
  }
  batch->schema = schema;
  batch->num_rows = num_rows >= 0 ? num_rows : (columns.empty() ? 0 : columns[0].array->length);
  return batch;
}

// One array of every type pqsift has, each of 4 rows with a null in row 1, as named columns.
inline std::vector<NamedArray> EveryTypeColumns() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto strings = MakeStrings({"x", kNull, "y", "zz", "", kNull});
  std::vector<NamedArray> out = {
      {"bool", MakeFixed<bool>(Boolean(), {true, kNull, false, true})},
      {"int8", MakeFixed<int8_t>(Int8(), {-128, kNull, 0, 127})},
      {"int16", MakeFixed<int16_t>(Int16(), {-32768, kNull, 0, 32767})},
      {"int32", MakeFixed<int32_t>(Int32(), {INT32_MIN, kNull, 0, INT32_MAX})},
      {"int64", MakeFixed<int64_t>(Int64(), {INT64_MIN, kNull, 0, INT64_MAX})},
      {"uint8", MakeFixed<uint8_t>(UInt8(), {0, kNull, 1, 255})},
      {"uint16", MakeFixed<uint16_t>(UInt16(), {0, kNull, 1, 65535})},
      {"uint32", MakeFixed<uint32_t>(UInt32(), {0, kNull, 1, UINT32_MAX})},
      {"uint64", MakeFixed<uint64_t>(UInt64(), {0, kNull, 1, UINT64_MAX})},
      {"float16", MakeFixed<uint16_t>(Float16(), {0x3c00, kNull, 0x7e00, 0xfc00})},
      {"float32", MakeFixed<float>(
                      Float32(), {1.5f, kNull, static_cast<float>(nan), static_cast<float>(inf)})},
      {"float64", MakeFixed<double>(Float64(), {0.1, kNull, -0.0, 1e300})},
      {"string", MakeStrings({"a", kNull, "", "h\xc3\xa9llo, \"q\"\n"})},
      {"binary", MakeStrings({std::string("\x00\xff", 2), kNull, "", "abc"}, LargeBinary())},
      {"fixed", MakeFixedBinary(3, {"abc", kNull, std::string("\x01\x02\x03", 3), "xyz"})},
      {"decimal",
       MakeFixed<std::array<uint8_t, 16>>(Decimal128(10, 2), {Dec(12345), kNull, Dec(-5), Dec(0)})},
      {"date", MakeFixed<int32_t>(Date32(), {0, kNull, 19000, -1})},
      {"time32", MakeFixed<int32_t>(Time32(TimeUnit::kMillis), {0, kNull, 3723004, 86399999})},
      {"time64us", MakeFixed<int64_t>(Time64(TimeUnit::kMicros), {0, kNull, 1, 86399999999})},
      {"time64ns", MakeFixed<int64_t>(Time64(TimeUnit::kNanos), {0, kNull, 1, 5})},
      {"ts_utc", MakeFixed<int64_t>(Timestamp(TimeUnit::kMillis, "UTC"), {0, kNull, 1500, -1})},
      {"ts_local",
       MakeFixed<int64_t>(Timestamp(TimeUnit::kMicros, ""), {0, kNull, 1, 86400000000})},
      {"ts_ns", MakeFixed<int64_t>(Timestamp(TimeUnit::kNanos, "UTC"), {0, kNull, 1, 2})},
      {"list", MakeList(MakeFixed<int32_t>(Int32(), {1, 2, kNull, 3}), {0, 2, 2, 2, 4},
                        {true, false, true, true})},
      {"struct", MakeStructOf({{"a", MakeFixed<int32_t>(Int32(), {1, 0, kNull, 4})},
                               {"b", MakeStrings({"x", kNull, "y", kNull})}},
                              4, {true, false, true, true})},
      {"map", MakeMapOf(MakeStrings({"k", "a", "b"}), MakeFixed<int32_t>(Int32(), {1, kNull, 2}),
                        {0, 1, 1, 1, 3}, {true, false, true, true})},
      {"map_int", MakeMapOf(MakeFixed<int32_t>(Int32(), {7, 8}), MakeStrings({"v", kNull}),
                            {0, 2, 2, 2, 2}, {true, false, true, true})},
      {"nested",
       MakeList(MakeStructOf({{"x", MakeFixed<int64_t>(Int64(), {1, 2, 3})},
                              {"y", MakeList(strings, {0, 1, 1, 4, 6}, {true, false, true, true})}},
                             3, {true, true, false}),
                {0, 2, 2, 3, 3}, {true, false, true, true})},
      {"dict", MakeDictionaryOf(MakeStrings({"b", "a", "q,\"r\""}), {1, kNull, 0, 2})},
      {"null", nullptr},
  };
  auto null_array = MakeAllNullArray(NullType(), 4);
  out.back().array = *null_array;
  return out;
}

// A deep copy of `array` whose every buffer is new, owned memory whose deletion decrements
// *live; *live counts the copies alive. For checking that release frees everything.
inline std::shared_ptr<Array> WithCountedBuffers(const Array& array,
                                                 const std::shared_ptr<std::atomic<int>>& live) {
  auto out = std::make_shared<Array>(array);
  for (auto& buffer : out->buffers) {
    if (buffer == nullptr) continue;
    auto* copy = new ArrowBuffer;
    copy->Append(buffer->data(), buffer->size());
    ++*live;
    buffer = std::shared_ptr<ArrowBuffer>(copy, [live](ArrowBuffer* b) {
      --*live;
      delete b;
    });
  }
  for (auto& child : out->children) child = WithCountedBuffers(*child, live);
  if (out->dictionary) out->dictionary = WithCountedBuffers(*out->dictionary, live);
  return out;
}

}  // namespace pqsift::testing
