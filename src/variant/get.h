// variant_get: the value at a path of each variant, converted to a SQL type, as the filter
// language will evaluate `variant_get(v, '$.a.b', 'BIGINT')`. Three-valued: the result is NULL
// when the row is NULL, the path is missing (a member of a non-object, an index past an
// array's end), the value is Variant null, or it does not convert to the type (TRY_CAST
// semantics, as Spark's try_variant_get; DuckDB's CAST would fail the query instead). So
// `variant_get(v, '$.a', 'BIGINT') = 42` is NULL, not FALSE, on a row without `a`.
//
// Conversions (the source's equivalence class, VariantEncoding.md):
//   BIGINT   integers; decimals rounded half away from zero (2.50 -> 3), floats to the
//            nearest, ties to even (2.5 -> 2, 3.5 -> 4), as DuckDB 1.5 casts them, when in
//            range; booleans 1/0; strings holding an integer
//   DOUBLE   every number (decimals to the nearest double); booleans 1/0; numeric strings
//   VARCHAR  strings as themselves; every other value as its JSON text (variant/json.h)
//   BOOLEAN  booleans; integers (non-zero is true); strings 'true'/'false' (any case)
//   DATE     dates; timestamps (micros or nanos) to the day they fall on (UTC for instants)
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "pqsift/array.h"
#include "variant/path.h"

namespace pqsift::variant {

enum class SqlType { kBigint, kDouble, kVarchar, kBoolean, kDate };

// BIGINT/INT8/LONG, DOUBLE/FLOAT8, VARCHAR/STRING/TEXT, BOOLEAN/BOOL, DATE (any case);
// InvalidArgument naming the known ones otherwise.
Result<SqlType> ParseSqlType(std::string_view name);
// "BIGINT", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE".
std::string_view SqlTypeName(SqlType type);
// int64, float64, large_utf8, bool, date32.
std::shared_ptr<const DataType> ArrowTypeOf(SqlType type);

// One output slot per row of `variants` (an arrow.parquet.variant array). Corruption when a
// row's bytes do not decode (they always do for arrays the scan made).
Result<std::shared_ptr<Array>> VariantGet(const Array& variants, const std::vector<PathStep>& path,
                                          SqlType type);

}  // namespace pqsift::variant
