// What a bloom filter must be asked to prove that no row of a column equals a filter literal:
// the hashes of every stored (physical) form a matching value can have.
//
// The binder puts a literal compared with a plain column into the column's own domain (expr.h:
// decimals at the column's scale, timestamps in the column's unit, dates in days), so the
// stored form follows from the Parquet type alone:
//   INT32 / INT64 (int32, int64, uint32, uint64 bit patterns, dates, times, timestamps,
//     decimals): the little-endian integer, when the literal fits the physical width
//   FLOAT / DOUBLE: the literal when the type holds it exactly; 0 as both +0 and -0 (they
//     compare equal, and a writer hashes the bits it stored)
//   BYTE_ARRAY strings and binary: the bytes; FIXED_LEN_BYTE_ARRAY: the bytes when of the
//     column's width, decimals as big-endian two's complement of that width
// No answer (nullopt: the filter cannot help) wherever a matching row could be stored in a form
// we cannot list: NaN (many bit patterns), BOOLEAN, INT96, FLOAT16, decimals on BYTE_ARRAY (any
// length), and INT(8)/INT(16) columns (the reader narrows a stored int32 by wrapping, so many
// stored values read as one), and any literal the column cannot hold exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "expr/value.h"
#include "pqsift/array.h"
#include "pqsift/schema.h"

namespace pqsift::prune {

// The hashes (BloomFilterHash of the PLAIN form) of the stored values equal to `literal` in a
// column of Parquet type `column` read as Arrow `type`: a row equals the literal only if its
// value has one of them. nullopt when that set cannot be given.
std::optional<std::vector<uint64_t>> BloomHashesOf(const expr::Value& literal,
                                                   const ColumnDescriptor& column,
                                                   const DataType& type);

}  // namespace pqsift::prune
