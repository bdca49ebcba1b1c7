// Spec names for the footer's enums and logical types (parquet.thrift spelling).
#include <string>

#include "pqsift/metadata.h"

namespace pqsift {
namespace {

template <size_t N>
std::string NameOf(int32_t value, const char* const (&names)[N]) {
  if (value >= 0 && static_cast<size_t>(value) < N && names[value][0] != '\0') return names[value];
  return "UNKNOWN(" + std::to_string(value) + ")";
}

const char* TimeUnitName(TimeUnit u) {
  switch (u) {
    case TimeUnit::kMillis: return "MILLIS";
    case TimeUnit::kMicros: return "MICROS";
    case TimeUnit::kNanos: return "NANOS";
  }
  return "?";
}

}  // namespace

std::string PhysicalTypeName(PhysicalType t) {
  static const char* const kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                       "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return NameOf(static_cast<int32_t>(t), kNames);
}

std::string ConvertedTypeName(ConvertedType t) {
  static const char* const kNames[] = {"UTF8",
                                       "MAP",
                                       "MAP_KEY_VALUE",
                                       "LIST",
                                       "ENUM",
                                       "DECIMAL",
                                       "DATE",
                                       "TIME_MILLIS",
                                       "TIME_MICROS",
                                       "TIMESTAMP_MILLIS",
                                       "TIMESTAMP_MICROS",
                                       "UINT_8",
                                       "UINT_16",
                                       "UINT_32",
                                       "UINT_64",
                                       "INT_8",
                                       "INT_16",
                                       "INT_32",
                                       "INT_64",
                                       "JSON",
                                       "BSON",
                                       "INTERVAL"};
  return NameOf(static_cast<int32_t>(t), kNames);
}

std::string RepetitionName(Repetition r) {
  static const char* const kNames[] = {"REQUIRED", "OPTIONAL", "REPEATED", "VECTOR"};
  return NameOf(static_cast<int32_t>(r), kNames);
}

std::string EncodingName(Encoding e) {
  static const char* const kNames[] = {
      "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
      "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return NameOf(static_cast<int32_t>(e), kNames);
}

std::string CodecName(CompressionCodec c) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                       "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  return NameOf(static_cast<int32_t>(c), kNames);
}

std::string PageTypeName(PageType t) {
  static const char* const kNames[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
                                       "DATA_PAGE_V2"};
  return NameOf(static_cast<int32_t>(t), kNames);
}

std::string BoundaryOrderName(BoundaryOrder o) {
  static const char* const kNames[] = {"UNORDERED", "ASCENDING", "DESCENDING"};
  return NameOf(static_cast<int32_t>(o), kNames);
}

std::string GeospatialCrsText(std::string_view crs) {
  if (crs.empty()) return "OGC:CRS84";
  // A CRS may be a whole PROJJSON or WKT2 document: the name shows its start.
  constexpr size_t kShown = 64;
  if (crs.size() > kShown) return std::string(crs.substr(0, kShown)) + "...";
  return std::string(crs);
}

std::string EdgeAlgorithmName(int32_t algorithm) {
  static constexpr std::string_view kNames[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER",
                                                "KARNEY"};
  if (algorithm >= 0 && algorithm < 5) return std::string(kNames[algorithm]);
  return "UNKNOWN(" + std::to_string(algorithm) + ")";
}

std::string LogicalTypeName(const LogicalType& t) {
  using Kind = LogicalType::Kind;
  switch (t.kind) {
    case Kind::kNone: return "NONE";
    case Kind::kString: return "STRING";
    case Kind::kMap: return "MAP";
    case Kind::kList: return "LIST";
    case Kind::kEnum: return "ENUM";
    case Kind::kDecimal:
      return "DECIMAL(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    case Kind::kDate: return "DATE";
    case Kind::kTime:
    case Kind::kTimestamp:
      return std::string(t.kind == Kind::kTime ? "TIME(" : "TIMESTAMP(") + TimeUnitName(t.unit) +
             (t.is_adjusted_to_utc ? ",UTC)" : ",LOCAL)");
    case Kind::kInteger:
      return "INT(" + std::to_string(t.bit_width) + (t.is_signed ? ",signed)" : ",unsigned)");
    case Kind::kUnknown: return "UNKNOWN";
    case Kind::kJson: return "JSON";
    case Kind::kBson: return "BSON";
    case Kind::kUuid: return "UUID";
    case Kind::kFloat16: return "FLOAT16";
    case Kind::kVariant: return "VARIANT";
    case Kind::kGeometry: return "GEOMETRY(" + GeospatialCrsText(t.crs) + ")";
    case Kind::kGeography:
      return "GEOGRAPHY(" + GeospatialCrsText(t.crs) + "," +
             EdgeAlgorithmName(t.edge_algorithm.value_or(0)) + ")";
    case Kind::kVector: return "VECTOR";
    case Kind::kInterval: return "INTERVAL";
    case Kind::kMapKeyValue: return "MAP_KEY_VALUE";
    case Kind::kUnrecognized: return "UNRECOGNIZED(" + std::to_string(t.unrecognized_id) + ")";
  }
  return "?";
}

}  // namespace pqsift
