// Replacing filter columns whose value is known for a whole file by literals: a hive partition
// column holds one value in every row of a file, and a column the file lacks is NULL in every
// row. The pruning stages then reason about the rest of the filter with those values fixed
// (the prover treats a literal as a range of one value), at every level: file, row group, page.
#pragma once

#include <optional>
#include <vector>

#include "expr/expr.h"

namespace pqsift::expr {

// `filter` with every reference to column k replaced by a literal of the column's type when
// constants[k] is set (Value::Null() for NULL), and the other columns renumbered in order (their
// ColumnRefs kept). REQUIRES: constants.size() == filter.columns.size().
BoundFilter SubstituteConstants(const BoundFilter& filter,
                                const std::vector<std::optional<Value>>& constants);

}  // namespace pqsift::expr
