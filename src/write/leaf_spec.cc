#include "write/leaf_spec.h"

#include <string>

#include "geo/geoarrow.h"

namespace pqsift::write {
namespace {

using Kind = LogicalType::Kind;

LeafSpec Spec(PhysicalType physical, SortOrder order, LogicalType logical = {},
              std::optional<ConvertedType> converted = std::nullopt) {
  LeafSpec s;
  s.physical = physical;
  s.order = order;
  s.logical = logical;
  s.converted = converted;
  s.legacy_min_max = order == SortOrder::kSigned || order == SortOrder::kFloat;
  return s;
}

LogicalType Integer(int8_t bits, bool is_signed) {
  LogicalType l;
  l.kind = Kind::kInteger;
  l.bit_width = bits;
  l.is_signed = is_signed;
  return l;
}

LeafSpec IntegerSpec(int8_t bits, bool is_signed) {
  static constexpr ConvertedType kSigned[] = {ConvertedType::kInt8, ConvertedType::kInt16,
                                              ConvertedType::kInt32, ConvertedType::kInt64};
  static constexpr ConvertedType kUnsigned[] = {ConvertedType::kUint8, ConvertedType::kUint16,
                                                ConvertedType::kUint32, ConvertedType::kUint64};
  int index = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  return Spec(bits == 64 ? PhysicalType::kInt64 : PhysicalType::kInt32,
              is_signed ? SortOrder::kSigned : SortOrder::kUnsigned, Integer(bits, is_signed),
              is_signed ? kSigned[index] : kUnsigned[index]);
}

LogicalType Temporal(Kind kind, TimeUnit unit, bool utc) {
  LogicalType l;
  l.kind = kind;
  l.unit = unit;
  l.is_adjusted_to_utc = utc;
  return l;
}

LeafSpec DecimalSpec(const DataType& type) {
  LogicalType l;
  l.kind = Kind::kDecimal;
  l.precision = type.precision;
  l.scale = type.scale;
  if (type.precision <= 9) {
    return Spec(PhysicalType::kInt32, SortOrder::kSigned, l, ConvertedType::kDecimal);
  }
  if (type.precision <= 18) {
    return Spec(PhysicalType::kInt64, SortOrder::kSigned, l, ConvertedType::kDecimal);
  }
  LeafSpec s =
      Spec(PhysicalType::kFixedLenByteArray, SortOrder::kDecimalBytes, l, ConvertedType::kDecimal);
  s.type_length = DecimalByteWidth(type.precision);
  return s;
}

}  // namespace

int32_t DecimalByteWidth(int32_t precision) {
  // The fewest bytes n with 10^precision - 1 <= 2^(8n - 1) - 1: kMaxPrecision[n] is the number
  // of decimal digits of 2^(8n - 1) - 1, less one (the largest precision n bytes always hold).
  static constexpr int32_t kMaxPrecision[] = {0,  2,  4,  6,  9,  11, 14, 16, 18,
                                              21, 23, 26, 28, 31, 33, 35, 38};
  int32_t n = 1;
  while (n < 16 && kMaxPrecision[n] < precision) ++n;
  return n;
}

Result<LeafSpec> LeafSpecFor(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean: return Spec(PhysicalType::kBoolean, SortOrder::kSigned);
    case TypeId::kInt8: return IntegerSpec(8, true);
    case TypeId::kInt16: return IntegerSpec(16, true);
    case TypeId::kInt32: return IntegerSpec(32, true);
    case TypeId::kInt64: return IntegerSpec(64, true);
    case TypeId::kUInt8: return IntegerSpec(8, false);
    case TypeId::kUInt16: return IntegerSpec(16, false);
    case TypeId::kUInt32: return IntegerSpec(32, false);
    case TypeId::kUInt64: return IntegerSpec(64, false);
    case TypeId::kFloat32: return Spec(PhysicalType::kFloat, SortOrder::kFloat);
    case TypeId::kFloat64: return Spec(PhysicalType::kDouble, SortOrder::kFloat);
    case TypeId::kFloat16: {
      LeafSpec s = Spec(PhysicalType::kFixedLenByteArray, SortOrder::kFloat16,
                        LogicalType{.kind = Kind::kFloat16});
      s.type_length = 2;
      return s;
    }
    case TypeId::kLargeString:
      return Spec(PhysicalType::kByteArray, SortOrder::kBytes, LogicalType{.kind = Kind::kString},
                  ConvertedType::kUtf8);
    case TypeId::kLargeBinary: {
      if (type.extension_name != geo::kGeoArrowWkb) {
        return Spec(PhysicalType::kByteArray, SortOrder::kBytes);
      }
      // GEOMETRY (GEOGRAPHY when the metadata declares curved edges): the order of WKB bytes
      // means nothing, so no min/max and no column index; GeospatialStatistics instead.
      LogicalType l;
      l.kind = geo::HasCurvedEdges(type.extension_metadata) ? Kind::kGeography : Kind::kGeometry;
      l.crs = geo::InternCrs(geo::ParquetCrsFromGeoArrow(type.extension_metadata));
      LeafSpec s = Spec(PhysicalType::kByteArray, SortOrder::kBytes, l);
      s.bounds = false;
      return s;
    }
    case TypeId::kFixedSizeBinary: {
      if (type.byte_width < 1) {
        return Status::NotSupported("fixed_size_binary of width " +
                                    std::to_string(type.byte_width) +
                                    " cannot be stored (Parquet needs a width of at least 1)");
      }
      LeafSpec s = Spec(PhysicalType::kFixedLenByteArray, SortOrder::kBytes);
      s.type_length = type.byte_width;
      return s;
    }
    case TypeId::kDecimal128: return DecimalSpec(type);
    case TypeId::kDate32:
      return Spec(PhysicalType::kInt32, SortOrder::kSigned, LogicalType{.kind = Kind::kDate},
                  ConvertedType::kDate);
    case TypeId::kTime32:
      return Spec(PhysicalType::kInt32, SortOrder::kSigned,
                  Temporal(Kind::kTime, TimeUnit::kMillis, false));
    case TypeId::kTime64:
      return Spec(PhysicalType::kInt64, SortOrder::kSigned,
                  Temporal(Kind::kTime, type.unit, false));
    case TypeId::kTimestamp: {
      bool utc = !type.timezone.empty();
      std::optional<ConvertedType> converted;
      if (utc && type.unit == TimeUnit::kMillis) converted = ConvertedType::kTimestampMillis;
      if (utc && type.unit == TimeUnit::kMicros) converted = ConvertedType::kTimestampMicros;
      return Spec(PhysicalType::kInt64, SortOrder::kSigned,
                  Temporal(Kind::kTimestamp, type.unit, utc), converted);
    }
    default: break;
  }
  return Status::NotSupported("the writer cannot store " + type.ToString() + " values");
}

SchemaElement LeafSchemaElement(const LeafSpec& spec, std::string_view name, bool nullable) {
  SchemaElement e;
  e.name = name;
  e.type = spec.physical;
  e.repetition_type = nullable ? Repetition::kOptional : Repetition::kRequired;
  if (spec.physical == PhysicalType::kFixedLenByteArray) e.type_length = spec.type_length;
  if (spec.logical.kind != LogicalType::Kind::kNone) e.logical_type = spec.logical;
  e.converted_type = spec.converted;
  if (spec.logical.kind == LogicalType::Kind::kDecimal) {
    e.scale = spec.logical.scale;
    e.precision = spec.logical.precision;
  }
  return e;
}

}  // namespace pqsift::write
