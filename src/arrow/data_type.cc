// DataType: names, equality, factories, validation, and per-type layout facts (layout.h).
#include <string>
#include <utility>

#include "arrow/layout.h"
#include "pqsift/array.h"

namespace pqsift {
namespace layout {

int BufferCount(TypeId id) {
  switch (id) {
    case TypeId::kNull: return 0;
    case TypeId::kStruct: return 1;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: return 3;
    default: return 2;  // validity + values, or validity + offsets (lists, maps)
  }
}

int32_t FixedByteWidth(const DataType& type) {
  switch (type.id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16: return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kDictionary: return 4;  // the int32 indices
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return 8;
    case TypeId::kDecimal128: return 16;
    case TypeId::kFixedSizeBinary: return type.byte_width;
    default: return 0;
  }
}

bool IsFixedWidth(TypeId id) {
  switch (id) {
    case TypeId::kNull:
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeList:
    case TypeId::kStruct:
    case TypeId::kMap: return false;
    default: return true;
  }
}

std::string_view UnitSuffix(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return "ms";
    case TimeUnit::kMicros: return "us";
    case TimeUnit::kNanos: return "ns";
  }
  return "?";
}

std::string FormatString(const DataType& type) {
  switch (type.id) {
    case TypeId::kNull: return "n";
    case TypeId::kBoolean: return "b";
    case TypeId::kInt8: return "c";
    case TypeId::kInt16: return "s";
    case TypeId::kInt32: return "i";
    case TypeId::kInt64: return "l";
    case TypeId::kUInt8: return "C";
    case TypeId::kUInt16: return "S";
    case TypeId::kUInt32: return "I";
    case TypeId::kUInt64: return "L";
    case TypeId::kFloat16: return "e";
    case TypeId::kFloat32: return "f";
    case TypeId::kFloat64: return "g";
    case TypeId::kLargeString: return "U";
    case TypeId::kLargeBinary: return "Z";
    case TypeId::kFixedSizeBinary: return "w:" + std::to_string(type.byte_width);
    case TypeId::kDecimal128:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case TypeId::kDate32: return "tdD";
    case TypeId::kTime32:
    case TypeId::kTime64: return std::string("tt") + UnitSuffix(type.unit)[0];
    case TypeId::kTimestamp:
      return std::string("ts") + UnitSuffix(type.unit)[0] + ":" + type.timezone;
    case TypeId::kLargeList: return "+L";
    case TypeId::kStruct: return "+s";
    case TypeId::kMap: return "+m";
    case TypeId::kDictionary: return "i";  // the indices; the values are the dictionary's schema
  }
  return "?";
}

}  // namespace layout

namespace {

std::string FieldText(const Field& f) {
  std::string out = f.name + ": " + (f.type ? f.type->ToString() : "<null type>");
  if (!f.nullable) out += " not null";
  return out;
}

std::string TypeText(const std::shared_ptr<const DataType>& t) {
  return t ? t->ToString() : "<null type>";
}

}  // namespace

std::string DataType::ToString() const {
  if (!extension_name.empty()) {
    DataType storage = *this;
    storage.extension_name.clear();
    return "extension<" + extension_name + ", " + storage.ToString() + ">";
  }
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBoolean: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "halffloat";
    case TypeId::kFloat32: return "float";
    case TypeId::kFloat64: return "double";
    case TypeId::kLargeString: return "large_string";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary[" + std::to_string(byte_width) + "]";
    case TypeId::kDecimal128:
      return "decimal128(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
    case TypeId::kDate32: return "date32[day]";
    case TypeId::kTime32: return "time32[" + std::string(layout::UnitSuffix(unit)) + "]";
    case TypeId::kTime64: return "time64[" + std::string(layout::UnitSuffix(unit)) + "]";
    case TypeId::kTimestamp: {
      std::string out = "timestamp[" + std::string(layout::UnitSuffix(unit));
      if (!timezone.empty()) out += ", tz=" + timezone;
      return out + "]";
    }
    case TypeId::kLargeList:
      return "large_list<" + (children.empty() ? "?" : FieldText(children[0])) + ">";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += FieldText(children[i]);
      }
      return out + ">";
    }
    case TypeId::kMap: {
      const DataType* entries = children.empty() ? nullptr : children[0].type.get();
      if (entries == nullptr || entries->children.size() != 2) return "map<?>";
      const Field& value = entries->children[1];
      return "map<" + TypeText(entries->children[0].type) + ", " + TypeText(value.type) +
             (value.nullable ? "" : " not null") + ">";
    }
    case TypeId::kDictionary:
      return "dictionary<values=" + TypeText(value_type) + ", indices=int32>";
  }
  return "unknown(" + std::to_string(static_cast<int>(id)) + ")";
}

bool operator==(const Field& a, const Field& b) {
  if (a.name != b.name || a.nullable != b.nullable) return false;
  if (a.type == b.type) return true;
  return a.type && b.type && *a.type == *b.type;
}

bool operator==(const DataType& a, const DataType& b) {
  if (&a == &b) return true;
  if (a.id != b.id || a.extension_name != b.extension_name ||
      a.extension_metadata != b.extension_metadata) {
    return false;
  }
  switch (a.id) {
    case TypeId::kFixedSizeBinary: return a.byte_width == b.byte_width;
    case TypeId::kDecimal128: return a.precision == b.precision && a.scale == b.scale;
    case TypeId::kTime32:
    case TypeId::kTime64: return a.unit == b.unit;
    case TypeId::kTimestamp: return a.unit == b.unit && a.timezone == b.timezone;
    case TypeId::kLargeList:
    case TypeId::kStruct:
    case TypeId::kMap: return a.children == b.children;
    case TypeId::kDictionary:
      return a.value_type == b.value_type ||
             (a.value_type && b.value_type && *a.value_type == *b.value_type);
    default: return true;
  }
}

namespace {

std::shared_ptr<const DataType> Make(DataType t) {
  return std::make_shared<const DataType>(std::move(t));
}

DataType OfId(TypeId id) {
  DataType t;
  t.id = id;
  return t;
}

std::shared_ptr<const DataType> Simple(TypeId id) { return Make(OfId(id)); }

}  // namespace

#define PQSIFT_SIMPLE_TYPE(Name, Id)                                 \
  std::shared_ptr<const DataType> Name() {                           \
    static const std::shared_ptr<const DataType> kType = Simple(Id); \
    return kType;                                                    \
  }
PQSIFT_SIMPLE_TYPE(NullType, TypeId::kNull)
PQSIFT_SIMPLE_TYPE(Boolean, TypeId::kBoolean)
PQSIFT_SIMPLE_TYPE(Int8, TypeId::kInt8)
PQSIFT_SIMPLE_TYPE(Int16, TypeId::kInt16)
PQSIFT_SIMPLE_TYPE(Int32, TypeId::kInt32)
PQSIFT_SIMPLE_TYPE(Int64, TypeId::kInt64)
PQSIFT_SIMPLE_TYPE(UInt8, TypeId::kUInt8)
PQSIFT_SIMPLE_TYPE(UInt16, TypeId::kUInt16)
PQSIFT_SIMPLE_TYPE(UInt32, TypeId::kUInt32)
PQSIFT_SIMPLE_TYPE(UInt64, TypeId::kUInt64)
PQSIFT_SIMPLE_TYPE(Float16, TypeId::kFloat16)
PQSIFT_SIMPLE_TYPE(Float32, TypeId::kFloat32)
PQSIFT_SIMPLE_TYPE(Float64, TypeId::kFloat64)
PQSIFT_SIMPLE_TYPE(LargeUtf8, TypeId::kLargeString)
PQSIFT_SIMPLE_TYPE(LargeBinary, TypeId::kLargeBinary)
PQSIFT_SIMPLE_TYPE(Date32, TypeId::kDate32)
#undef PQSIFT_SIMPLE_TYPE

std::shared_ptr<const DataType> FixedSizeBinary(int32_t byte_width) {
  DataType t = OfId(TypeId::kFixedSizeBinary);
  t.byte_width = byte_width;
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Decimal128(int32_t precision, int32_t scale) {
  DataType t = OfId(TypeId::kDecimal128);
  t.precision = precision;
  t.scale = scale;
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Time32(TimeUnit unit) {
  DataType t = OfId(TypeId::kTime32);
  t.unit = unit;
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Time64(TimeUnit unit) {
  DataType t = OfId(TypeId::kTime64);
  t.unit = unit;
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Timestamp(TimeUnit unit, std::string timezone) {
  DataType t = OfId(TypeId::kTimestamp);
  t.unit = unit;
  t.timezone = std::move(timezone);
  return Make(std::move(t));
}

std::shared_ptr<const DataType> LargeList(Field item) {
  DataType t = OfId(TypeId::kLargeList);
  t.children.push_back(std::move(item));
  return Make(std::move(t));
}

std::shared_ptr<const DataType> LargeList(std::shared_ptr<const DataType> item) {
  return LargeList(Field{"item", std::move(item), true});
}

std::shared_ptr<const DataType> Struct(std::vector<Field> fields) {
  DataType t = OfId(TypeId::kStruct);
  t.children = std::move(fields);
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Map(Field key, Field value) {
  key.nullable = false;
  Field entries{"entries", Struct({std::move(key), std::move(value)}), false};
  DataType t = OfId(TypeId::kMap);
  t.children.push_back(std::move(entries));
  return Make(std::move(t));
}

std::shared_ptr<const DataType> Map(std::shared_ptr<const DataType> key,
                                    std::shared_ptr<const DataType> value) {
  return Map(Field{"key", std::move(key), false}, Field{"value", std::move(value), true});
}

std::shared_ptr<const DataType> Dictionary(std::shared_ptr<const DataType> value_type) {
  DataType t = OfId(TypeId::kDictionary);
  t.value_type = std::move(value_type);
  return Make(std::move(t));
}

namespace {

Status ValidateTypeAt(const DataType& type, int depth) {
  auto error = [&](const std::string& what) {
    return Status::InvalidArgument(type.ToString() + ": " + what);
  };
  if (depth > 64) return Status::InvalidArgument("type nested deeper than 64 levels");
  size_t expected_children = 0;
  switch (type.id) {
    case TypeId::kFixedSizeBinary:
      if (type.byte_width < 0) return error("negative byte width");
      break;
    case TypeId::kDecimal128:
      if (type.precision < 1 || type.precision > 38) return error("precision must be 1..38");
      if (type.scale < -128 || type.scale > 128) return error("scale must be within -128..128");
      break;
    case TypeId::kTime32:
      if (type.unit != TimeUnit::kMillis) return error("time32 needs unit ms");
      break;
    case TypeId::kTime64:
      if (type.unit != TimeUnit::kMicros && type.unit != TimeUnit::kNanos) {
        return error("time64 needs unit us or ns");
      }
      break;
    case TypeId::kTimestamp:
      if (type.unit != TimeUnit::kMillis && type.unit != TimeUnit::kMicros &&
          type.unit != TimeUnit::kNanos) {
        return error("unknown time unit");
      }
      break;
    case TypeId::kLargeList:
    case TypeId::kMap: expected_children = 1; break;
    case TypeId::kStruct: expected_children = type.children.size(); break;
    case TypeId::kDictionary:
      if (type.value_type == nullptr) return error("no value type");
      if (type.value_type->id == TypeId::kDictionary) return error("a dictionary of dictionaries");
      PQSIFT_RETURN_IF_ERROR(ValidateTypeAt(*type.value_type, depth + 1));
      break;
    default:
      if (static_cast<int32_t>(type.id) < 0 || type.id > TypeId::kDictionary) {
        return Status::InvalidArgument("unknown type id " +
                                       std::to_string(static_cast<int32_t>(type.id)));
      }
      break;
  }
  if (type.children.size() != expected_children) {
    return error("expected " + std::to_string(expected_children) + " child field(s), found " +
                 std::to_string(type.children.size()));
  }
  for (const Field& child : type.children) {
    if (child.type == nullptr) return error("field '" + child.name + "' has no type");
    PQSIFT_RETURN_IF_ERROR(ValidateTypeAt(*child.type, depth + 1));
  }
  if (type.id == TypeId::kMap) {
    const Field& entries = type.children[0];
    if (entries.type->id != TypeId::kStruct || entries.type->children.size() != 2) {
      return error("map entries must be a struct of two fields (key, value)");
    }
    if (entries.nullable) return error("map entries must be non-nullable");
    if (entries.type->children[0].nullable) return error("map keys must be non-nullable");
  }
  return Status::OK();
}

}  // namespace

Status ValidateType(const DataType& type) { return ValidateTypeAt(type, 0); }

}  // namespace pqsift
