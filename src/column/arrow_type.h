// The Arrow type a Parquet column is read as: the one place that decides it, from the physical
// type and the (resolved) logical type.
//
//   BOOLEAN -> bool            INT32/INT64 -> int32/int64, INT(8|16|32|64, signed) -> intN,
//   INT(n, unsigned) -> uintN  DATE -> date32        TIME(MILLIS) -> time32[ms]
//   TIME(MICROS|NANOS) -> time64[us|ns]              TIMESTAMP(u) -> timestamp[u] ("UTC" when
//   adjusted to UTC, no zone otherwise)              INT96 -> timestamp[us] (see .cc)
//   FLOAT/DOUBLE -> float32/64 FLOAT16 -> float16    DECIMAL(p<=38) on any type -> decimal128
//   STRING/ENUM/JSON -> large_utf8; other BYTE_ARRAY -> large_binary
//   FIXED_LEN_BYTE_ARRAY (incl. UUID) -> fixed_size_binary[n]
//   groups: struct; LIST -> large_list; MAP -> map<key, value>
#pragma once

#include <memory>

#include "pqsift/array.h"
#include "pqsift/schema.h"

namespace pqsift::column {

// NotSupported for types pqsift cannot represent exactly (e.g. DECIMAL with precision > 38).
Result<std::shared_ptr<const DataType>> ArrowTypeForLeaf(const ColumnDescriptor& column);

}  // namespace pqsift::column
