// The executor's state, shared by its two source files: executor.cc carries the scan out
// (Open, the slices, their launch and prefetch, Next), executor_report.cc says what it will do
// and did (Estimate and its forecast of the remote waves, stats, the public plan). Private to
// them: nothing else includes this header.
//
// Ownership: the Executor owns its State; the State owns the files, the row groups' data (as
// shared with the slices in flight), the pool and the prefetch ledger. Thread safety: the
// consumer's thread alone calls its methods; the tasks on the pool read the const parts
// (files, plan, columns, filter) and write only the atomic counters and their slices' results.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "column/page_reader.h"
#include "expr/binder.h"
#include "io/async_wave.h"
#include "prune/access_plan.h"
#include "scan/executor.h"
#include "scan/limit.h"
#include "scan/planned_file.h"
#include "scan/row_group_data.h"
#include "scan/runtime_check.h"
#include "scan/slice.h"
#include "scan/slice_decoder.h"
#include "scan/slicer.h"
#include "scan/thread_pool.h"

namespace pqsift::scan {

// Slices made ahead of their launch at most (their bytes bounded by ScanOptions::prefetch_bytes
// too): a latency of 50 ms hides behind a few slices' decoding; more would only hold memory.
constexpr size_t kMaxSlicesAhead = 32;
// The slices of a row group fetched in one wave at most, and the bytes of its slices but the
// last at most (a fraction of the prefetch budget, so several waves are in flight).
constexpr size_t kMaxSlicesPerWave = 8;
constexpr uint64_t kWaveBudgetShare = 4;

struct Executor::State {
  ScanOptions options;
  // Built while the scan opens, on the caller's thread; read-only (and shared with the row
  // groups as const) from the first launch on.
  std::vector<std::shared_ptr<PlannedFile>> files;
  // The columns the filter binds to and the projection resolves in (scan/scan_input.h); null
  // in `input`: the first file's, and then every file must hold every column read.
  std::shared_ptr<const Schema> tree;
  bool missing_columns_are_null = false;
  std::vector<std::string> partition_columns;
  DatasetCounts dataset_counts;
  std::vector<UnopenedFile> unopened;       // the dataset's files pruned before opening
  std::shared_ptr<IoCounters> io;           // the files' shared counters (null: each file's own)
  IoStats footer_io;                        // what opening the files and their footers cost
  std::vector<DecodedColumn> columns;       // the output columns: path and the scan's type
  std::optional<expr::BoundFilter> filter;  // bound against `tree`
  std::shared_ptr<const BatchSchema> schema;
  prune::AccessPlan plan;
  std::vector<RowGroupSlicer> slicers;  // in reading order
  size_t next_slicer = 0;
  std::deque<std::shared_ptr<SliceResult>> in_flight;
  // Remote files: slices made ahead of their launch, their bytes being fetched (PrefetchAhead),
  // and what every fetch ahead holds against ScanOptions::prefetch_bytes.
  bool look_ahead = false;
  std::deque<ScanSlice> ahead;
  size_t slices_per_wave = 1;  // of the next wave started ahead (PrefetchAhead)
  std::shared_ptr<io::PrefetchLedger> prefetch;
  std::deque<std::shared_ptr<RecordBatch>> ready;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  std::optional<ScanLimit> limit;
  uint64_t row_groups_read = 0;
  int64_t launches = 0;  // slices launched so far
  double plan_seconds = 0;
  std::vector<std::shared_ptr<RowGroupData>> row_groups;  // every one the slices read
  DecodeCounters counters;
  std::optional<SliceDecoder> decoder;
  // The runtime filter bound to each file, for the version last seen: proofs use `bound`, rows
  // are evaluated with `filter`.
  struct RuntimeBinding {
    uint64_t version = 0;
    BoundRuntimeFilter bound;
    std::shared_ptr<const SliceFilter> filter;
  };
  std::vector<RuntimeBinding> runtime;
  uint64_t runtime_row_groups_skipped = 0;
  uint64_t runtime_pages_skipped = 0;
  // The tasks submit through `workers`, not `pool`: tasks that run while the pool is destroyed
  // (joining its workers) still submit the tasks they lead to, and the pool runs them.
  ThreadPool* workers = nullptr;
  std::unique_ptr<ThreadPool> pool;  // last: destroyed first, joining the workers

  ~State() {
    pool.reset();  // the tasks run (cancelled) and hand their readers on
    ahead.clear();
    // Reads in flight call back into their files: the files stay until they have ended.
    if (prefetch) prefetch->WaitIdle();
    // Steps that never got their turn hold slices, which hold their row group.
    for (const auto& row_group : row_groups) row_group->Abandon();
  }

  std::string Where() const {
    return missing_columns_are_null || files.empty() ? std::string("dataset")
                                                     : files.front()->metadata->file_name();
  }
  Status Resolve();
  Status Plan();
  Status LoadOffsetIndexes();
  Status LoadRuntimeEvidence();
  void OrderSlices();
  Result<bool> ApplyRuntimeFilter(ScanSlice& slice);
  // No columns projected: `rows` rows as batches without columns, so counts stay right.
  void PushRowsWithoutColumns(int64_t rows) {
    for (int64_t done = 0; done < rows; done += options.batch_size) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = schema;
      batch->num_rows = std::min(options.batch_size, rows - done);
      ready.push_back(std::move(batch));
    }
  }
  std::optional<ScanSlice> NextSlice();
  std::optional<ScanSlice> MakeSlice();
  void PrefetchAhead();
  // Adds to a wave (`rows`: its slices' rows, the first given) the next slices of `slicer`, as
  // many as join it (slices_per_wave at most, while its bytes stay under the wave's share of
  // the budget), into `wave`; false when the slicer has no slice left.
  bool FillWave(RowGroupSlicer& slicer, size_t slices_per_wave, std::deque<ScanSlice>* wave,
                std::vector<const prune::RowSelection*>* rows) const;
  // The slicer of a row group the plan reads.
  RowGroupSlicer SlicerOf(std::shared_ptr<RowGroupData> data,
                          const prune::RowGroupPlan& rg_plan) const;
  // What PrefetchAhead will fetch of the remote files (ScanEstimate::remote_requests, waves).
  void ForecastPrefetch(ScanEstimate* out) const;
  void Launch(const ScanSlice& launched);
  bool SubmitWhenReady(const ScanSlice& slice, int role,
                       const std::vector<const DecodedColumn*>& columns, int64_t first_row,
                       std::function<void()> task) const;
  void CountFirstTasks(const ScanSlice& slice, SliceResult* result) const;
  void SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                           const std::shared_ptr<const FilterWindows>& decoded,
                           const std::shared_ptr<SliceResult>& result);
  column::PageReaderOptions page_options() const {
    column::PageReaderOptions o;
    o.verify_crc = options.verify_crc;
    o.max_page_bytes = options.max_page_bytes;
    return o;
  }
};

}  // namespace pqsift::scan
