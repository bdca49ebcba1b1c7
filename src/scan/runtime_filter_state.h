// The inside of a RuntimeFilter (pqsift/runtime_filter.h): per column, the tightest constraints
// published so far, and what a scan makes of them: an expression over the file's columns, proved
// against statistics by the planning stages and evaluated on rows by the filter evaluator.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "pqsift/runtime_filter.h"

namespace pqsift::scan {

// What is known about one column: every constraint published on it, combined.
struct ColumnConstraint {
  std::shared_ptr<const DataType> type;  // of the published values; null: nothing published
  std::optional<expr::Value> lower;
  bool lower_inclusive = true;
  std::optional<expr::Value> upper;
  bool upper_inclusive = true;
  std::optional<std::vector<expr::Value>> set;  // sorted, distinct
  bool nulls_pass = true;                       // every publish let NULLs pass

  bool active() const { return type != nullptr; }
};

struct RuntimeSnapshot {
  uint64_t version = 0;
  std::vector<ColumnConstraint> columns;  // one per RuntimeFilter::columns() entry
};

// The filter's constraints as they stand (a copy, taken under the filter's lock).
RuntimeSnapshot TakeSnapshot(const RuntimeFilter& filter);

// The conjunction of the snapshot's constraints as a bound expression; `column_of(k)` gives
// the index in the enclosing BoundFilter::columns of RuntimeFilter column k. Null when no column
// is constrained.
std::shared_ptr<const expr::Expr> RuntimeExpr(const RuntimeSnapshot& snapshot,
                                              const std::vector<expr::ColumnRef>& refs,
                                              const std::function<int32_t(size_t)>& column_of);

}  // namespace pqsift::scan

namespace pqsift {

struct RuntimeFilter::State {
  std::vector<std::string> columns;
  std::atomic<uint64_t> version{0};
  mutable std::mutex mu;
  std::vector<scan::ColumnConstraint> constraints;  // guarded by mu
};

}  // namespace pqsift
