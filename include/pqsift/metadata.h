// The Parquet footer as decoded from its Thrift bytes: plain structs that mirror
// `parquet.thrift` (FileMetaData and everything in it), plus enum names.
//
// These structs are a faithful, checked transcription of the footer: every list and string was
// bounds-checked while decoding, and required fields are present, but values are what the
// writer claimed (statistics are claims, not facts: see src/prune for the trust rules).
//
// Lifetime: every std::string_view here (names, statistics bytes, key/value metadata) points
// into the footer buffer owned by the ParquetMetadata that produced the struct (parquet_file.h);
// it is valid as long as that object lives.
// Thread safety: immutable after decoding; may be read from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pqsift {

// Enums keep the integer the file holds, so a value from a newer writer survives decoding and
// is reported as e.g. "UNKNOWN(12)" rather than rejected where it does not matter.
enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2, kVector = 3 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3
};

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

enum class TimeUnit : int32_t { kMillis = 1, kMicros = 2, kNanos = 3 };

// The names used in the spec ("INT64", "RLE_DICTIONARY", "ZSTD", ...); unknown values give
// "UNKNOWN(n)".
std::string PhysicalTypeName(PhysicalType t);
std::string ConvertedTypeName(ConvertedType t);
std::string RepetitionName(Repetition r);
std::string EncodingName(Encoding e);
std::string CodecName(CompressionCodec c);
std::string PageTypeName(PageType t);
std::string BoundaryOrderName(BoundaryOrder o);

// A logical type annotation (the LogicalType union), or the one resolved for a column from a
// legacy ConvertedType (schema.h). Parameters are meaningful only for the kinds that use them.
struct LogicalType {
  enum class Kind : int32_t {
    kNone = 0,  // no annotation: the physical type alone
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11 /* always null */,
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
    kVector = 19,
    kInterval = 100,     // legacy ConvertedType INTERVAL only
    kMapKeyValue = 101,  // legacy ConvertedType MAP_KEY_VALUE only
    kUnrecognized = 200  // a union member this version of pqsift does not know
  };
  Kind kind = Kind::kNone;
  int32_t scale = 0;                  // kDecimal
  int32_t precision = 0;              // kDecimal
  TimeUnit unit = TimeUnit::kMillis;  // kTime, kTimestamp
  bool is_adjusted_to_utc = false;    // kTime, kTimestamp
  int8_t bit_width = 0;               // kInteger: 8, 16, 32 or 64
  bool is_signed = true;              // kInteger
  int16_t unrecognized_id = 0;        // kUnrecognized: the union field id
  // kGeometry, kGeography: the CRS as written (a view into the footer, or into storage the
  // writer's caller keeps alive); empty when absent, which means OGC:CRS84.
  std::string_view crs = {};
  // kGeography: the EdgeInterpolationAlgorithm (0 SPHERICAL ... 4 KARNEY); absent means SPHERICAL.
  std::optional<int32_t> edge_algorithm = std::nullopt;

  friend bool operator==(const LogicalType&, const LogicalType&) = default;
};

// "STRING", "DECIMAL(9,2)", "TIMESTAMP(MICROS,UTC)", "INT(8,unsigned)", "GEOMETRY(srid:5070)",
// "GEOGRAPHY(OGC:CRS84,SPHERICAL)"... "NONE" for kNone.
std::string LogicalTypeName(const LogicalType& t);
// A geospatial type's CRS for display: "OGC:CRS84" when absent, long documents cut at 64 bytes.
std::string GeospatialCrsText(std::string_view crs);
// "SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY", or "UNKNOWN(n)".
std::string EdgeAlgorithmName(int32_t algorithm);

struct KeyValue {
  std::string_view key;
  std::optional<std::string_view> value;
};

struct Statistics {
  // Deprecated, written with signed comparison whatever the column's order.
  std::optional<std::string_view> max;
  std::optional<std::string_view> min;
  std::optional<int64_t> null_count;  // absent means unknown, never zero
  std::optional<int64_t> distinct_count;
  // Bounds in the order given by the file's ColumnOrder for the column.
  std::optional<std::string_view> max_value;
  std::optional<std::string_view> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
};

// Geospatial.md: the extent of a GEOMETRY/GEOGRAPHY chunk. X and Y are always there; Z and M only
// for chunks with such coordinates. xmin > xmax means the box wraps the antimeridian.
struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin = std::nullopt;
  std::optional<double> zmax = std::nullopt;
  std::optional<double> mmin = std::nullopt;
  std::optional<double> mmax = std::nullopt;

  friend bool operator==(const BoundingBox&, const BoundingBox&) = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;  // absent: nothing may be assumed about coordinates
  // WKB (ISO) type codes of every instance, e.g. 1 (POINT), 1003 (POLYGON Z); absent or empty:
  // not known.
  std::optional<std::vector<int32_t>> geospatial_types;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string_view> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
};

// Parquet modular encryption (Encryption.md 5.2): the key of an encrypted column chunk.
struct ColumnCryptoMetaData {
  bool with_footer_key = true;  // ENCRYPTION_WITH_FOOTER_KEY; else ENCRYPTION_WITH_COLUMN_KEY:
  std::vector<std::string_view> path_in_schema;
  std::optional<std::string_view> key_metadata;
};

// EncryptionAlgorithm: AES_GCM_V1 or AES_GCM_CTR_V1 (the same fields), or a member unknown.
struct EncryptionAlgorithm {
  enum class Kind : uint8_t { kUnknown = 0, kAesGcmV1 = 1, kAesGcmCtrV1 = 2 };
  Kind kind = Kind::kUnknown;
  std::optional<std::string_view> aad_prefix;
  std::optional<std::string_view> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
};

// The plaintext head of an encrypted footer ("PARE" files).
struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string_view> key_metadata;
};

struct ColumnChunk {
  std::optional<std::string_view> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;  // validated present in readable files
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  bool is_encrypted = false;  // crypto_metadata or encrypted_column_metadata present
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  // The chunk's ColumnMetaData, serialized and encrypted with the column key. When the file is
  // opened with that key, meta_data holds its decrypted form (views into bytes the
  // ParquetMetadata owns), replacing a plaintext footer's stripped copy.
  std::optional<std::string_view> encrypted_column_metadata;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<Repetition> repetition_type;
  std::string_view name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
};

// The order min_value/max_value were computed in, per leaf column.
enum class ColumnOrder : int32_t {
  kUnknown = 0,  // a union member pqsift does not know: bounds must be ignored
  kTypeDefined = 1,
  kIeee754TotalOrder = 2,
  kInt96Timestamp = 3,
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string_view> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  bool has_encryption_algorithm = false;  // plaintext-footer encryption
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string_view> footer_signing_key_metadata;
};

}  // namespace pqsift
