#include "expr/array_value.h"

#include <cstring>
#include <string>

#include "arrow/bit_util.h"
#include "arrow/layout.h"
#include "common/value_format.h"

namespace pqsift::expr {
namespace {}  // namespace

std::optional<Value> ValueAt(const Array& a, int64_t i) {
  if (!a.IsValid(i)) return Value::Null();
  switch (a.type->id) {
    case TypeId::kBoolean: return Value::Bool(bit_util::GetBit(a.buffers[1]->data(), a.offset + i));
    case TypeId::kInt8: return Value::Int(layout::LoadValue<int8_t>(a, i));
    case TypeId::kInt16: return Value::Int(layout::LoadValue<int16_t>(a, i));
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return Value::Int(layout::LoadValue<int32_t>(a, i));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return Value::Int(layout::LoadValue<int64_t>(a, i));
    case TypeId::kUInt8: return Value::Int(layout::LoadValue<uint8_t>(a, i));
    case TypeId::kUInt16: return Value::Int(layout::LoadValue<uint16_t>(a, i));
    case TypeId::kUInt32: return Value::Int(layout::LoadValue<uint32_t>(a, i));
    case TypeId::kUInt64: return Value::Int(layout::LoadValue<uint64_t>(a, i));
    case TypeId::kDecimal128: return Value::Int(layout::LoadValue<int128>(a, i));
    case TypeId::kFloat16: return Value::Float(HalfToFloat(layout::LoadValue<uint16_t>(a, i)));
    case TypeId::kFloat32: return Value::Float(layout::LoadValue<float>(a, i));
    case TypeId::kFloat64: return Value::Float(layout::LoadValue<double>(a, i));
    case TypeId::kFixedSizeBinary: {
      const int64_t width = a.type->byte_width;
      const char* data = reinterpret_cast<const char*>(a.buffers[1]->data());
      return Value::Bytes(std::string(data + (a.offset + i) * width, static_cast<size_t>(width)));
    }
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const int64_t* offsets = a.buffers[1]->as<int64_t>();
      const char* data = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
      const int64_t s = a.offset + i;
      return Value::Bytes(
          std::string(data + offsets[s], static_cast<size_t>(offsets[s + 1] - offsets[s])));
    }
    case TypeId::kDictionary: return ValueAt(*a.dictionary, layout::DictionaryIndex(a, i));
    default: return std::nullopt;
  }
}

}  // namespace pqsift::expr
