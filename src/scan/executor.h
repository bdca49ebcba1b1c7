// The scan executor: carries out a scan's access plan (everything but ORDER BY, which is top-k
// over an executor: scan/top_k.h; pqsift::Scanner is the facade over both).
//
//   Open   the files' columns resolved (scan/column_resolver.h) and filter bound, the access plan
//          built (scan/planner.h: the pruning stages, the limit), the offset indexes and runtime
//          evidence loaded, one RowGroupSlicer per row group read (scan/slicer.h), in reading
//          order (file order, or ScanOptions::read_order)
//   Next   keeps up to `threads + 1` slices in flight (scan/limit.h may allow fewer); before each
//          launch the runtime filter, if one was published, narrows or drops the slice
//          (ApplyRuntimeFilter); a launched slice runs as tasks on the thread pool: its filter
//          (when it needs one), then one task per output column (scan/slice_decoder.h), the
//          column tasks submitted in slice order (RowGroupData::RunInOrder) because their
//          readers are handed from slice to slice (scan/reader_handoff.h); when the oldest
//          slice is done it is cut into batches, handed out in order; remote files: the next
//          slices are made ahead of their launch and their bytes fetched while the slices before
//          them decode, within ScanOptions::prefetch_bytes (RowGroupData::StartPrefetch)
//
// Errors: Open fails with the errors of resolving, binding and planning; Next with the first
// error of any task of the slice it waits for (then the scan is cancelled).
//
// Thread safety: one thread at a time calls the public methods (the consumer); the tasks run on
// the executor's own pool, which the destructor joins.
#pragma once

#include <memory>

#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "scan/scan_input.h"

namespace pqsift::scan {

class Executor {
 public:
  static Result<std::unique_ptr<Executor>> Open(ScanInput input, const ScanOptions& options);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  std::shared_ptr<const BatchSchema> schema() const;
  // The next batch in reading order, or nullptr at the end.
  Result<std::shared_ptr<RecordBatch>> Next();
  ScanStats stats() const;
  const prune::AccessPlan& plan() const;
  // The footer of plan().files[f]. REQUIRES: f < plan().files.size().
  const std::shared_ptr<const ParquetMetadata>& file_metadata(size_t f) const;
  // The path plan().files[f] was opened from (PlannedFile::source: not for messages).
  const std::string& file_source(size_t f) const;
  // The plan as the public value (scan/public_plan.h), made on each call.
  AccessPlan PublicPlan() const;
  ScanEstimate Estimate() const;
  // Stops the scan: tasks not yet started do nothing (callable from any thread).
  void Cancel();

 private:
  struct State;
  explicit Executor(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pqsift::scan
