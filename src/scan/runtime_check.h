// Where a runtime filter (pqsift/runtime_filter.h) meets one file: its columns resolved on the
// file's schema, its constraints as a bound filter, and the check made right before a row group
// (or a part of one) is fetched: the planning stages run again, over that row group only, on the
// runtime filter, with the evidence already in memory (footer statistics, and the page indexes
// the planning loaded). No I/O, no second comparison of bounds: prune/proof.h decides.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "format/page_index_store.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/row_selection.h"
#include "scan/runtime_filter_state.h"

namespace pqsift::scan {

// A leaf column by dotted path, as the filter language resolves it (InvalidArgument: unknown,
// nested, or inside a list or map).
Result<expr::ColumnRef> ResolveLeafColumn(const std::string& path, const Schema& schema);

// A snapshot over one file: `filter` references only the constrained columns; declared[i] is the
// RuntimeFilter column of filter.columns[i]. filter.root is null when nothing is constrained.
struct BoundRuntimeFilter {
  uint64_t version = 0;
  expr::BoundFilter filter;
  std::vector<size_t> declared;
};
// InvalidArgument when a published value's type is not the column's type in this file.
Result<BoundRuntimeFilter> BindRuntimeFilter(const RuntimeSnapshot& snapshot,
                                             const std::vector<expr::ColumnRef>& refs,
                                             const std::string& file_name);

// The scan's own filter AND the runtime filter, for evaluating rows: the scan filter's columns
// first, then the runtime filter's columns that are not among them (added[j] is the RuntimeFilter
// column of filter.columns[scan_filter_columns + j]). `scan_filter` may be null.
struct CombinedFilter {
  expr::BoundFilter filter;
  std::vector<size_t> added;
};
CombinedFilter CombineFilters(const expr::BoundFilter* scan_filter, const RuntimeSnapshot& snapshot,
                              const std::vector<expr::ColumnRef>& refs);

struct RuntimeCheck {
  prune::RowSelection rows;     // the rows of the input that may pass (empty: none)
  prune::RowSelection matched;  // of those, the rows proven to pass
  int64_t pages_pruned = 0;     // pages of the constrained columns the check left without a row
};
// Proves `filter` over `rows` of row group `row_group`. REQUIRES: filter.filter.root set.
Result<RuntimeCheck> CheckRowGroup(const BoundRuntimeFilter& filter, RandomAccessFile& file,
                                   const ParquetMetadata& metadata,
                                   format::PageIndexStore* page_indexes, size_t row_group,
                                   const prune::RowSelection& rows);

// How promising a row group is for the first rows of ORDER BY column [DESC] [NULLS FIRST], from
// its statistics under the trust rules: NULLs that sort first, then the most extreme bound
// (max for DESC, min for ASC). Unknown bounds are least promising.
struct Promise {
  bool leading_nulls = false;       // nulls sort first and the row group may hold some
  std::optional<expr::Value> edge;  // max (DESC) or min (ASC); NaN when NaN may be the max
};
Promise RowGroupPromise(const ParquetMetadata& metadata, const expr::ColumnRef& column,
                        size_t row_group, bool descending, bool nulls_first);
// How promising rows [begin, end) of row group `row_group` are, from the pages holding them in
// the column index of `column` (the most promising of those pages); least promising when the
// page index does not tell (no column or offset index, or lists that do not agree).
Promise RowRangePromise(const ParquetMetadata& metadata, const expr::ColumnRef& column,
                        const format::PageIndexStore& page_indexes, size_t row_group, int64_t begin,
                        int64_t end, bool descending, bool nulls_first);
// Whether `a` should be read before `b` (a strict weak order).
bool MorePromising(const Promise& a, const Promise& b, bool descending);
// The positions of `promises`, most promising first (equals keep their order).
std::vector<size_t> MostPromisingFirst(const std::vector<Promise>& promises, bool descending);

}  // namespace pqsift::scan
