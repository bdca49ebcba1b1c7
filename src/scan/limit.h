// LIMIT: every decision a scan's limit (ScanOptions::limit) takes, in one place.
//
//   planning    without a filter every row counts, so the row groups after the first `limit`
//               rows cannot contribute: the plan skips them and trims the last one (the plan's
//               "limit" stage; PruneRowGroups, called by the planner)
//   slicing     a limited scan may need only its first rows, so its first slices are
//               max(4096, limit) rows, each twice the one before (RampRows): a LIMIT decodes a
//               few thousand rows where a slice of 128Ki rows would have been decoded whole
//               (`qty > 95 LIMIT 10`: 6.4 MB -> 1.3 MB read)
//   launching   with a filter, one slice at a time (MaxInFlight): decoding row groups ahead
//               would fetch data the answer does not need
//   handing out the last batch is trimmed and the scan stops (Take)
//
// ORDER BY ... LIMIT is not this: top-k (scan/top_k.h) runs an unlimited inner scan.
//
// Thread safety: none; the consumer thread's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pqsift/array.h"
#include "pqsift/status.h"
#include "prune/access_plan.h"

namespace pqsift::scan {

class ScanLimit {
 public:
  // `limit` < 0: none. `filtered`: the scan has a residual filter; `ordered`: it reads row
  // groups in an order of its own (ScanOptions::read_order), not file order.
  ScanLimit(int64_t limit, bool filtered, bool ordered)
      : limit_(limit), filtered_(filtered), ordered_(ordered) {}

  // Planning: skips the row groups past the first `limit` selected rows of an unfiltered scan
  // and trims the last one, reported as the stage "limit". Does nothing otherwise.
  static void PruneRowGroups(int64_t limit, bool filtered, prune::AccessPlan& plan);

  // The rows of the first slices (RowGroupSlicer::Ramp), or 0 for no ramp.
  int64_t RampRows() const;
  // At most how many slices may be in flight, `usual` without a limit.
  size_t MaxInFlight(size_t usual) const;

  // Whether nothing is to be returned at all (LIMIT 0).
  bool zero() const { return limit_ == 0; }
  // Whether the limit was reached: no batch is to be returned after the one that reached it.
  bool reached() const { return reached_; }
  int64_t rows_returned() const { return rows_returned_; }

  // Counts `batch` as returned, trimmed to the rows the limit still wants. True when this batch
  // reaches the limit (the scan then stops).
  Result<bool> Take(RecordBatch& batch);

 private:
  int64_t limit_;
  bool filtered_;
  bool ordered_;
  int64_t rows_returned_ = 0;
  bool reached_ = false;
};

}  // namespace pqsift::scan
