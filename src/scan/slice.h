// A slice: the unit of work of the executor. The selected rows of a whole row group, or of a row
// range of a large one (scan/slicer.h), with what its tasks need to decode them: whether the
// residual filter runs, which rows the plan proved, and which earlier slice's readers each of
// its column readers may continue (scan/reader_handoff.h).
//
//   filter task (when needs_filter)   decodes the filter columns of `rows`, keeps the matches
//   output tasks, one per column      decode the kept rows (scan/slice_decoder.h)
//   SliceResult                       what they decoded, handed out as batches in slice order
//
// A ScanSlice is a value, copied into each of its tasks; what it points to (the row group, the
// filter, the links) is shared and immutable once the slice is launched. SliceResult is filled by
// the tasks under its mutex and read by the consumer once `pending` is 0.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "prune/row_selection.h"
#include "scan/planned_file.h"
#include "scan/row_group_data.h"

namespace pqsift::scan {

// The roles in which a slice reads columns: the filter, and each output column.
constexpr int kFilterRole = 0;
inline int OutputRole(size_t output_column) { return 1 + static_cast<int>(output_column); }

// The chain of readers (scan/reader_handoff.h) a leaf's reader joins in a slice. A leaf that one
// role alone reads in the slice joins the leaf's chain of every role, so the reader goes on from
// a slice that read the leaf in another role: a column the output decoded in slices without a
// filter, then the filter once one applies (a top-k's key as its runtime filter starts), keeps
// its decompressed page. A leaf that several roles read in one slice (a filter column inside a
// struct the output decodes whole) has a chain per role.
constexpr int kAnyRoleChain = -1;

// Where a slice's reader of a leaf in a role is handed from and to: its chain (kAnyRoleChain or
// the role) and the slice it follows there (-1: none).
struct SliceLink {
  int chain = kAnyRoleChain;
  int64_t prev = -1;
};

// The links of a slice's readers, per (role, leaf). Registered at launch.
using SliceLinks = std::map<std::pair<int, int32_t>, SliceLink>;

struct ScanSlice {
  std::shared_ptr<RowGroupData> row_group;
  prune::RowSelection rows;     // row numbers within the row group
  bool needs_filter = false;    // evaluate the residual filter (the row group is not fully matched)
  prune::RowSelection matched;  // rows of `rows` proven to match: no residual filter for them
  std::shared_ptr<const SliceFilter> filter;  // the residual filter (when needs_filter)
  int64_t seq = 0;                            // in the row group's slices
  std::shared_ptr<const SliceLinks> links;
  int64_t order = 0;  // in the scan's launches: its tasks' order on the pool (scan/thread_pool.h)
  // The slice's bytes being fetched ahead (RowGroupData::StartPrefetch; null: none), held as
  // long as a copy of the slice (a task of it) lives.
  std::shared_ptr<const void> prefetched = nullptr;
};

// The decoded columns of one slice: columns[c][w] is output column c of batch window w.
struct SliceResult {
  std::mutex mu;
  std::condition_variable done;
  int pending = 0;
  Status error;
  int error_rank = 0;  // of `error` (Finish)
  std::vector<std::vector<std::shared_ptr<Array>>> columns;
  int64_t rows = 0;  // selected rows (after the filter)
  std::shared_ptr<RowGroupData> row_group;
  // Its first tasks (the filter, or the output columns), and how many of them need not wait for
  // the slice before it (consumer thread only).
  int first_tasks = 0;
  int independent_tasks = 0;

  // Parts' ranks: of several errors, the one of the lowest rank is kept.
  static constexpr int kFilterRank = 0;
  static int OutputRank(size_t column) { return 1 + static_cast<int>(column); }
  static constexpr int kCancelledRank = std::numeric_limits<int>::max();

  // One of the `pending` parts is done; the last one wakes the consumer. Of several errors the
  // one of the lowest `rank` is kept (the filter's, then the output columns' in order), so a
  // slice whose columns fail together reports the same error every time, whichever task
  // failed first.
  void Finish(Status status, int rank = kFilterRank) {
    std::lock_guard<std::mutex> lock(mu);
    if (!status.ok() && (error.ok() || rank < error_rank)) {
      error = std::move(status);
      error_rank = rank;
    }
    if (--pending == 0) done.notify_all();
  }
};

}  // namespace pqsift::scan
