#include "column/arrow_type.h"

#include "geo/geoarrow.h"

namespace pqsift::column {
namespace {

using Kind = LogicalType::Kind;

std::shared_ptr<const DataType> Make(TypeId id) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  return t;
}

std::shared_ptr<const DataType> Temporal(TypeId id, TimeUnit unit, std::string tz = {}) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  t->unit = unit;
  t->timezone = std::move(tz);
  return t;
}

Result<std::shared_ptr<const DataType>> Integer(const LogicalType& l, PhysicalType physical) {
  int bits = static_cast<uint8_t>(l.bit_width);  // a negative width is no valid one either
  if (physical == PhysicalType::kInt32 ? (bits != 8 && bits != 16 && bits != 32) : bits != 64) {
    return Status::Corruption("INT(" + std::to_string(bits) + ") annotation on " +
                              PhysicalTypeName(physical));
  }
  static constexpr TypeId kSigned[] = {TypeId::kInt8, TypeId::kInt16, TypeId::kInt32,
                                       TypeId::kInt64};
  static constexpr TypeId kUnsigned[] = {TypeId::kUInt8, TypeId::kUInt16, TypeId::kUInt32,
                                         TypeId::kUInt64};
  int index = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  return Make(l.is_signed ? kSigned[index] : kUnsigned[index]);
}

}  // namespace

Result<std::shared_ptr<const DataType>> ArrowTypeForLeaf(const ColumnDescriptor& c) {
  const LogicalType& l = c.logical_type;
  std::string utc = l.is_adjusted_to_utc ? "UTC" : "";
  if (l.kind == Kind::kDecimal) {
    bool decimal_physical = c.physical_type == PhysicalType::kInt32 ||
                            c.physical_type == PhysicalType::kInt64 ||
                            c.physical_type == PhysicalType::kByteArray ||
                            c.physical_type == PhysicalType::kFixedLenByteArray;
    if (decimal_physical) {
      if (l.precision > 38) {
        return Status::NotSupported("column '" + c.path + "': DECIMAL(" +
                                    std::to_string(l.precision) + "," + std::to_string(l.scale) +
                                    ") has more than 38 digits");
      }
      auto t = std::make_shared<DataType>();
      t->id = TypeId::kDecimal128;
      t->precision = l.precision;
      t->scale = l.scale;
      return std::shared_ptr<const DataType>(t);
    }
  }
  switch (c.physical_type) {
    case PhysicalType::kBoolean: return Make(TypeId::kBoolean);
    case PhysicalType::kInt32:
      switch (l.kind) {
        case Kind::kInteger: return Integer(l, c.physical_type);
        case Kind::kDate: return Make(TypeId::kDate32);
        case Kind::kTime:
          if (l.unit == TimeUnit::kMillis) return Temporal(TypeId::kTime32, l.unit);
          break;
        default: break;
      }
      return Make(TypeId::kInt32);
    case PhysicalType::kInt64:
      switch (l.kind) {
        case Kind::kInteger: return Integer(l, c.physical_type);
        case Kind::kTime:
          if (l.unit != TimeUnit::kMillis) return Temporal(TypeId::kTime64, l.unit);
          break;
        case Kind::kTimestamp: return Temporal(TypeId::kTimestamp, l.unit, utc);
        default: break;
      }
      return Make(TypeId::kInt64);
    // Microseconds, as DuckDB and Spark read INT96: nanoseconds would overflow int64 for dates
    // past 2262 that real files hold (9999-12-31 as "end of time"); sub-microsecond digits drop.
    case PhysicalType::kInt96: return Temporal(TypeId::kTimestamp, TimeUnit::kMicros);
    case PhysicalType::kFloat: return Make(TypeId::kFloat32);
    case PhysicalType::kDouble: return Make(TypeId::kFloat64);
    case PhysicalType::kByteArray:
      switch (l.kind) {
        case Kind::kString:
        case Kind::kEnum:
        case Kind::kJson: return Make(TypeId::kLargeString);
        case Kind::kGeometry:
        case Kind::kGeography: {
          // GeoArrow's WKB extension: the bytes as stored, the CRS (and a geography's edges)
          // in the extension metadata.
          auto t = std::make_shared<DataType>();
          t->id = TypeId::kLargeBinary;
          t->extension_name = std::string(geo::kGeoArrowWkb);
          t->extension_metadata = geo::GeoArrowMetadata(
              l.crs, l.kind == Kind::kGeography
                         ? std::optional<int32_t>(l.edge_algorithm.value_or(0))
                         : std::nullopt);
          return std::shared_ptr<const DataType>(t);
        }
        default: return Make(TypeId::kLargeBinary);
      }
    case PhysicalType::kFixedLenByteArray: {
      if (l.kind == Kind::kFloat16 && c.type_length == 2) return Make(TypeId::kFloat16);
      auto t = std::make_shared<DataType>();
      t->id = TypeId::kFixedSizeBinary;
      t->byte_width = c.type_length;
      return std::shared_ptr<const DataType>(t);
    }
  }
  return Status::NotSupported("column '" + c.path + "': physical type " +
                              PhysicalTypeName(c.physical_type));
}

}  // namespace pqsift::column
