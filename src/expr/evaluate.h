// Vectorised evaluation of a bound filter over decoded columns, with SQL three-valued logic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "expr/expr.h"
#include "pqsift/array.h"

namespace pqsift::expr {

// Evaluates `filter.root` over `num_rows` rows. `columns[k]` is the decoded array of
// filter.columns[k] (its type, num_rows long; an Array's `offset` is honoured). Returns one byte
// per row: 1 where the predicate is TRUE, 0 where FALSE or NULL.
// Errors (InvalidArgument): integer or decimal overflow in arithmetic, a column whose type or
// length does not match. Division by zero is NULL (as DuckDB), not an error.
Result<std::vector<uint8_t>> EvaluateFilter(const BoundFilter& filter,
                                            std::span<const Array* const> columns,
                                            int64_t num_rows);

// The three truth values of a predicate on one row, as EvaluateTruth returns them.
enum class Truth : uint8_t { kFalse = 0, kTrue = 1, kNull = 2 };

// Evaluates `predicate` (a boolean node of `filter`'s tree, e.g. its root or a subtree) over
// `num_rows` rows, keeping NULL apart from FALSE: one Truth per row. `columns` as for
// EvaluateFilter, except that columns the predicate does not reference may be null. Errors as
// EvaluateFilter's.
Result<std::vector<Truth>> EvaluateTruth(const BoundFilter& filter, const Expr& predicate,
                                         std::span<const Array* const> columns, int64_t num_rows);

}  // namespace pqsift::expr
