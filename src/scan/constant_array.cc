#include "scan/constant_array.h"

#include <array>
#include <cstring>

#include "arrow/builder.h"
#include "arrow/dictionary.h"
#include "expr/expr.h"

namespace pqsift::scan {
namespace {

template <typename T>
std::shared_ptr<Array> Repeat(std::shared_ptr<const DataType> type, T v, int64_t length) {
  FixedWidthArrayBuilder<T> builder(std::move(type));
  for (int64_t i = 0; i < length; ++i) builder.Append(v);
  return builder.Finish();
}

}  // namespace

Result<std::shared_ptr<Array>> MakeConstantArray(const std::shared_ptr<const DataType>& type,
                                                 const expr::Value& value, int64_t length) {
  if (value.is_null()) return MakeAllNullArray(type, length);
  if (type->id == TypeId::kDictionary) {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> dictionary,
                            MakeConstantArray(type->value_type, value, 1));
    return RepeatDictionaryIndex(std::move(dictionary), 0, length);
  }
  if (expr::ValueKindOf(*type) != value.kind) {
    return Status::InvalidArgument("a constant " + expr::DebugString(value) + " for a " +
                                   type->ToString() + " column");
  }
  const auto i = value.i;
  switch (type->id) {
    case TypeId::kBoolean: return Repeat<bool>(type, value.b, length);
    case TypeId::kInt8: return Repeat(type, static_cast<int8_t>(i), length);
    case TypeId::kInt16: return Repeat(type, static_cast<int16_t>(i), length);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return Repeat(type, static_cast<int32_t>(i), length);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return Repeat(type, static_cast<int64_t>(i), length);
    case TypeId::kUInt8: return Repeat(type, static_cast<uint8_t>(i), length);
    case TypeId::kUInt16: return Repeat(type, static_cast<uint16_t>(i), length);
    case TypeId::kUInt32: return Repeat(type, static_cast<uint32_t>(i), length);
    case TypeId::kUInt64: return Repeat(type, static_cast<uint64_t>(i), length);
    case TypeId::kFloat32: return Repeat(type, static_cast<float>(value.f), length);
    case TypeId::kFloat64: return Repeat(type, value.f, length);
    case TypeId::kDecimal128: {
      std::array<uint8_t, 16> bytes{};
      std::memcpy(bytes.data(), &i, sizeof(bytes));
      return Repeat(type, bytes, length);
    }
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      BinaryArrayBuilder builder(type);
      for (int64_t k = 0; k < length; ++k) builder.Append(value.bytes);
      return builder.Finish();
    }
    case TypeId::kFixedSizeBinary: {
      if (static_cast<int64_t>(value.bytes.size()) != type->byte_width) break;
      FixedSizeBinaryArrayBuilder builder(type);
      for (int64_t k = 0; k < length; ++k) builder.Append(value.bytes);
      return builder.Finish();
    }
    default: break;
  }
  return Status::InvalidArgument("no constant column of type " + type->ToString());
}

}  // namespace pqsift::scan
