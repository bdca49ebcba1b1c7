// One run of a scan, for Python: the Scanner opened from a ScanRequest (paths as on the command
// line: files, folders, globs, hive datasets; or one split), its batches, stats and plan. Every
// library call runs on the handle's ScanWorker, so the calling Python thread waits without the
// GIL and a Ctrl-C interrupts the wait (scan_worker.h); after an interrupt the handle is closed.
//
// Lifetime: the Scanner lives in state shared with the worker's tasks and is destroyed on the
// worker (Close, an interrupt, or the destructor), never while a call of it runs.
// Thread safety: a handle is used by one Python thread at a time (the GIL serialises callers;
// the Python Scan never shares a handle between threads).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pqsift/dataset.h"
#include "pqsift/scan.h"
#include "scan_worker.h"

namespace pqsift::python {

struct ScanRequest {
  // Files, folders or globs (pqsift/dataset.h); empty when `split` is set.
  std::vector<std::string> paths;
  std::optional<Split> split;  // scan the row groups of this split of split->path only
  ScanOptions options;
  DatasetOptions dataset;
  // With `split` (Dask's partitions): requested columns the split's file lacks are left out of
  // the scan instead of being an error (files of a dataset may differ in their columns; the
  // caller fills them in as NULL).
  bool skip_missing_columns = false;
};

class ScanHandle {
 public:
  explicit ScanHandle(ScanRequest request);
  // Closes the scan, waiting (without the GIL) for a call still in flight after an interrupt.
  ~ScanHandle();

  // Each of these opens the scan first if needed (footers, the access plan); errors are thrown
  // as StatusError, an interrupt as pybind11::error_already_set (KeyboardInterrupt).
  std::shared_ptr<const BatchSchema> Schema();
  // The next batch, nullptr at the end (and after Close).
  std::shared_ptr<RecordBatch> Next();
  ScanStats Stats();
  std::string ExplainJson(bool chunks);
  // Reads to the end, counting rows (for a count_only request: count(*)).
  int64_t CountRows();
  // The rows the plan will read at most (LIMIT applied): an upper bound on the rows returned,
  // exact without a filter.
  int64_t MaxRows();
  // Hands the open Scanner over (for the Arrow C stream): the handle is closed afterwards.
  std::shared_ptr<Scanner> TakeScanner();
  // Releases the Scanner (its threads and buffers). Stats stay readable.
  void Close();

  // The list of (start, end) monotonic nanoseconds the calling threads waited without the GIL.
  void set_trace(bool on) { worker_->set_trace(on); }
  const std::vector<std::pair<int64_t, int64_t>>& trace() const { return worker_->spans(); }

 private:
  struct State;
  // Runs `fn` on the worker (opening the scan first when `open`) and throws its Status. `fn`
  // leaves its results in the State (a plain function: it cannot capture the caller's frame,
  // which an interrupted call outlives).
  void Call(Status (*fn)(State&), bool open = true);

  std::shared_ptr<State> state_;
  std::unique_ptr<ScanWorker> worker_;
};

// Opens the Scanner a request describes (on the calling thread).
Result<std::unique_ptr<Scanner>> OpenScanner(const ScanRequest& request);

}  // namespace pqsift::python
