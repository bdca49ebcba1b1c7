// Runtime filters: facts learnt while a scan runs (a join's build side, a top-k heap) that drop
// rows the plan could not know about.
//
// A RuntimeFilter is created with the columns it may constrain and handed to the scan
// (ScanOptions::runtime_filter). While the scan runs, anyone holding it publishes bounds or
// value sets on those columns. Right before the scan fetches a row group, and again before each
// part of a very large row group, it proves the filter against that row group's statistics and,
// where the page index is loaded, against each page's (the same proof as the planning stages,
// prune/proof.h): a row group whose statistics show no row can pass is not fetched; pages that
// cannot hold a passing row are left out. The rows that are read are filtered too.
//
// Semantics: the filter is an extra AND conjunct of the scan's filter, taken as it stands when a
// row group (or a part of it) is launched. Every returned row satisfies every constraint that was
// published before its part was launched; rows returned earlier are not recalled. Constraints
// only tighten: a bound looser than the one in force, or a value set adding values, changes
// nothing. Per column, all constraints hold together:
//   lower bound  v > x (exclusive) or v >= x (inclusive)
//   upper bound  v < x or v <= x
//   value set    v IN (set)   (an empty set admits no value)
// and a NULL passes only while every publish on the column said `nulls_pass` (the filter of
// `ORDER BY v NULLS FIRST LIMIT k`; a join drops NULL keys, so its publishes do not).
// Values compare as the filter language does (docs/filter-language.md): NaN above every number,
// -0 = +0, strings and binary as unsigned bytes.
//
// Example (a join's build side, published while the probe side is scanned):
//   auto filter = std::make_shared<RuntimeFilter>(std::vector<std::string>{"customer_id"});
//   options.runtime_filter = filter;
//   auto scanner = Scanner::Open(paths, options);
//   ... on another thread, once the build side is known:
//   filter->PublishValueSet(0, *build_keys, /*nulls_pass=*/false);
//
// Thread safety: Publish* and version() may be called from any thread, concurrently with the
// scan. A scan reads the version (one atomic load) before each launch, and the constraints only
// when it changed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift {

class RuntimeFilter {
 public:
  // `columns`: dotted paths of the leaf columns it may constrain (as in --where). A scan given
  // the filter resolves them at Open: InvalidArgument there for an unknown or nested column.
  explicit RuntimeFilter(std::vector<std::string> columns);
  ~RuntimeFilter();
  RuntimeFilter(const RuntimeFilter&) = delete;
  RuntimeFilter& operator=(const RuntimeFilter&) = delete;

  const std::vector<std::string>& columns() const;

  // Drops rows whose value of columns()[column] is below `values[index]` (or equal, when not
  // `inclusive`). The value's type must be the column's Arrow type (a scan reports a mismatch as
  // InvalidArgument from Next). InvalidArgument: column out of range, index out of the array, a
  // NULL or nested value.
  Status PublishLowerBound(size_t column, const Array& values, int64_t index, bool inclusive,
                           bool nulls_pass = false);
  // Drops rows whose value is above `values[index]` (or equal, when not `inclusive`).
  Status PublishUpperBound(size_t column, const Array& values, int64_t index, bool inclusive,
                           bool nulls_pass = false);
  // Drops rows whose value is not among the non-null elements of `values`.
  Status PublishValueSet(size_t column, const Array& values, bool nulls_pass = false);

  // Increases with every publish that tightened the filter; 0 while nothing is published.
  uint64_t version() const;

  // The constraints as the scan reads them (scan/runtime_filter_state.h; opaque here).
  struct State;
  const State& state() const { return *state_; }

 private:
  std::unique_ptr<State> state_;
};

}  // namespace pqsift
