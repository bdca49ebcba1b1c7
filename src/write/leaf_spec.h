// How an Arrow column is stored in Parquet: the one place that decides a leaf's physical type,
// annotations and the order its statistics are computed in. The inverse of
// column/arrow_type.h, so that what pqsift writes reads back as the same Arrow type:
//
//   bool -> BOOLEAN               int8/16/32 -> INT32 INT(n, signed)   int64 -> INT64
//   uint8/16/32 -> INT32 INT(n, unsigned)   uint64 -> INT64 INT(64, unsigned)
//   float32/64 -> FLOAT/DOUBLE    float16 -> FIXED_LEN_BYTE_ARRAY(2) FLOAT16
//   large_utf8 -> BYTE_ARRAY STRING        large_binary -> BYTE_ARRAY
//   geoarrow.wkb (large_binary) -> BYTE_ARRAY GEOMETRY(crs), or GEOGRAPHY when its metadata
//     declares curved edges; no min/max statistics (undefined order), GeospatialStatistics
//   fixed_size_binary[n] -> FIXED_LEN_BYTE_ARRAY(n)
//   decimal128(p, s) -> INT32 (p <= 9), INT64 (p <= 18), else FIXED_LEN_BYTE_ARRAY of the
//     fewest bytes that hold p digits (big-endian two's complement), DECIMAL(p, s)
//   date32 -> INT32 DATE          time32[ms] -> INT32 TIME(MILLIS)   time64[us|ns] -> INT64 TIME
//   timestamp[u, tz] -> INT64 TIMESTAMP(u, adjusted to UTC iff tz is not empty); the zone name
//     itself is not stored (the values are instants), so it reads back as "UTC"
// Times are written not adjusted to UTC (Arrow times have no zone; DuckDB reads them as TIME).
// The legacy ConvertedType is written too wherever it means exactly the same (parquet.thrift:
// "implementations using LogicalType must also set the corresponding ConvertedType"), but not
// for local timestamps and times, whose legacy forms meant UTC.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::write {

// The order min/max statistics are computed in (ColumnOrder TYPE_DEFINED_ORDER per logical type).
enum class SortOrder {
  kSigned,        // signed integers (and booleans, false < true)
  kUnsigned,      // INT(n, unsigned) compared as unsigned
  kFloat,         // IEEE 754 numeric order, NaN excluded, -0 = +0
  kFloat16,       // the same over FLOAT16 bits
  kBytes,         // unsigned lexicographic (strings, binary, fixed-size binary)
  kDecimalBytes,  // big-endian two's complement of equal length, compared as signed numbers
};

struct LeafSpec {
  PhysicalType physical = PhysicalType::kBoolean;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  LogicalType logical;      // kind kNone: no annotation
  std::optional<ConvertedType> converted;
  SortOrder order = SortOrder::kSigned;
  // True when signed comparison of the physical values is the type's order, so the deprecated
  // Statistics.min/max (always signed) may be written for older readers.
  bool legacy_min_max = false;
  // False when the type has no defined order (GEOMETRY, GEOGRAPHY): no min/max statistics and
  // no column index are written.
  bool bounds = true;
};

// The leaf for a flat Arrow type; NotSupported (naming the type) for nested and null types
// (nested types are groups of leaves: shredder.h).
Result<LeafSpec> LeafSpecFor(const DataType& type);

// The SchemaElement of a leaf named `name` (a view: it must outlive the element).
SchemaElement LeafSchemaElement(const LeafSpec& spec, std::string_view name, bool nullable);

// Bytes of a decimal of `precision` digits stored as FIXED_LEN_BYTE_ARRAY.
int32_t DecimalByteWidth(int32_t precision);

}  // namespace pqsift::write
