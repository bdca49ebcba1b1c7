// Evidence as text: what a pruning stage saw when it decided a row group or a page, for the
// verdicts of the access plan (access_plan.h) that explain shows ("min(ts) = 2026-01-01,
// max(ts) = 2026-02-28: no row can satisfy the filter").
//
// Pure functions over bounds already computed by the stages; no I/O, no state, thread-safe.
#pragma once

#include <cstddef>
#include <string>

#include "expr/expr.h"
#include "prune/proof.h"
#include "prune/statistics.h"

namespace pqsift::prune {

// The bounds of every filter column in container `c` of `table`, in each column's type:
// "min(id) = 5, max(id) = 9, nulls(id) = 0"; a value set as "values(cat): 3"; a column with
// nothing known as "id: unknown". REQUIRES: table.bounds has one entry per filter column.
std::string DescribeBounds(const expr::BoundFilter& filter, const StatisticsTable& table, size_t c);

// The one bounds object of one column: "min(id) = 5, max(id) = 9, nulls(id) = 0 of 100"; a null
// count known only from a definition level histogram as "nulls(s.a) = 0 of 100 (definition
// levels)".
std::string DescribeColumnBounds(const std::string& name, const ColumnBounds& bounds,
                                 const DataType& type);

// What a proof's outcome means for the rows: "no row can satisfy the filter", "every row
// satisfies the filter", or "some rows may match" (then nothing was decided).
std::string DescribeOutcome(Outcomes o);

}  // namespace pqsift::prune
