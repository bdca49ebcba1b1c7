#include "arrow/widen.h"

#include <cstring>

#include "arrow/builder.h"

namespace pqsift {
namespace {

// Rank within a family of types that widen into each other; -1 for a type of no family.
struct Rank {
  int family = -1;  // 0 signed integers, 1 unsigned integers, 2 floats
  int width = 0;
};

Rank RankOf(TypeId id) {
  switch (id) {
    case TypeId::kInt8: return {0, 1};
    case TypeId::kInt16: return {0, 2};
    case TypeId::kInt32: return {0, 4};
    case TypeId::kInt64: return {0, 8};
    case TypeId::kUInt8: return {1, 1};
    case TypeId::kUInt16: return {1, 2};
    case TypeId::kUInt32: return {1, 4};
    case TypeId::kUInt64: return {1, 8};
    case TypeId::kFloat32: return {2, 4};
    case TypeId::kFloat64: return {2, 8};
    default: return {};
  }
}

template <typename From, typename To>
std::shared_ptr<ArrowBuffer> Convert(const Array& array) {
  TypedBufferBuilder<To> out;
  out.Reserve(array.length);
  const auto* values = reinterpret_cast<const From*>(array.buffers[1]->data()) + array.offset;
  for (int64_t i = 0; i < array.length; ++i) {
    From v;
    std::memcpy(&v, values + i, sizeof(From));
    out.Append(static_cast<To>(v));
  }
  return out.Finish();
}

template <typename To>
Result<std::shared_ptr<ArrowBuffer>> ConvertTo(const Array& array) {
  switch (array.type->id) {
    case TypeId::kInt8: return Convert<int8_t, To>(array);
    case TypeId::kInt16: return Convert<int16_t, To>(array);
    case TypeId::kInt32: return Convert<int32_t, To>(array);
    case TypeId::kInt64: return Convert<int64_t, To>(array);
    case TypeId::kUInt8: return Convert<uint8_t, To>(array);
    case TypeId::kUInt16: return Convert<uint16_t, To>(array);
    case TypeId::kUInt32: return Convert<uint32_t, To>(array);
    case TypeId::kUInt64: return Convert<uint64_t, To>(array);
    case TypeId::kFloat32: return Convert<float, To>(array);
    default: return Status::InvalidArgument("cannot widen " + array.type->ToString());
  }
}

Result<std::shared_ptr<ArrowBuffer>> WidenedValues(const Array& array, TypeId to) {
  switch (to) {
    case TypeId::kInt16: return ConvertTo<int16_t>(array);
    case TypeId::kInt32: return ConvertTo<int32_t>(array);
    case TypeId::kInt64: return ConvertTo<int64_t>(array);
    case TypeId::kUInt16: return ConvertTo<uint16_t>(array);
    case TypeId::kUInt32: return ConvertTo<uint32_t>(array);
    case TypeId::kUInt64: return ConvertTo<uint64_t>(array);
    case TypeId::kFloat64: return ConvertTo<double>(array);
    default: return Status::InvalidArgument("cannot widen " + array.type->ToString());
  }
}

}  // namespace

bool CanWiden(const DataType& from, const DataType& to) {
  Rank a = RankOf(from.id);
  Rank b = RankOf(to.id);
  return a.family >= 0 && a.family == b.family && a.width < b.width;
}

std::shared_ptr<const DataType> WiderType(const std::shared_ptr<const DataType>& a,
                                          const std::shared_ptr<const DataType>& b) {
  if (*a == *b || CanWiden(*b, *a)) return a;
  if (CanWiden(*a, *b)) return b;
  return nullptr;
}

Result<std::shared_ptr<Array>> WidenArray(const Array& array, std::shared_ptr<const DataType> to) {
  if (array.type == nullptr || !CanWiden(*array.type, *to) || array.buffers.size() < 2 ||
      array.buffers[1] == nullptr) {
    return Status::InvalidArgument("cannot widen " +
                                   (array.type ? array.type->ToString() : "an untyped array") +
                                   " to " + to->ToString());
  }
  auto out = std::make_shared<Array>();
  out->length = array.length;
  out->null_count = array.null_count;
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<ArrowBuffer> values, WidenedValues(array, to->id));
  std::shared_ptr<ArrowBuffer> validity;
  if (array.null_count != 0 && array.buffers[0] != nullptr) {
    BitmapBuilder bits;
    bits.AppendBits(array.buffers[0]->data(), array.offset, array.length);
    validity = bits.FinishValidity();
  }
  out->type = std::move(to);
  out->buffers = {std::move(validity), std::move(values)};
  return out;
}

}  // namespace pqsift
