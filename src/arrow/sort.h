// Sorting rows of flat Arrow arrays held in several chunks (the batches of a row group): the
// order of a row reference list by key columns, and taking rows in that order into new arrays.
//
// Order per key: ascending or descending, nulls first or last; within a type as the filter
// language compares (docs/filter-language.md): integers, dates, times, timestamps and decimals
// numerically (unsigned types as unsigned), floats numerically with -0 = +0 and NaN above every
// number, strings and binary as unsigned bytes, false < true; dictionary arrays by the values
// their indices select (a NULL dictionary value above every other). Ties keep the input order.
//
// Thread safety: pure functions over immutable arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift {

// A row of one of the chunks: chunks[chunk], element `row` (counting from the chunk's offset).
struct RowRef {
  uint32_t chunk = 0;
  int64_t row = 0;
};

struct SortKey {
  std::vector<std::shared_ptr<Array>> chunks;  // the key column, one array per chunk
  bool descending = false;
  bool nulls_first = false;
};

// Sorts `rows` (stable) by the keys, first key first. NotSupported for a nested key column.
// REQUIRES: every chunk of every key holds the rows referred to.
Status SortRows(const std::vector<SortKey>& keys, std::vector<RowRef>& rows);

// The first `n` rows of SortRows' order, in that order; `rows` keeps only those. Time linear in
// the rows plus n log n, for a top-k over many more candidates than it keeps.
Status SortFirstRows(const std::vector<SortKey>& keys, std::vector<RowRef>& rows, size_t n);

// The rows of a column held in `chunks`, in the order of `rows`, as one new array of the
// chunks' type (dictionary arrays: against one dictionary, as UnifyDictionaries makes it).
// NotSupported for nested types. REQUIRES: as SortRows.
Result<std::shared_ptr<Array>> TakeRows(const std::vector<std::shared_ptr<Array>>& chunks,
                                        const std::vector<RowRef>& rows);

}  // namespace pqsift
