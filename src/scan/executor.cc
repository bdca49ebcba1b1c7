#include "scan/executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "io/async_wave.h"
#include "scan/column_resolver.h"
#include "scan/executor_state.h"
#include "scan/limit.h"
#include "scan/page_locations.h"
#include "scan/planned_file.h"
#include "scan/planner.h"
#include "scan/row_group_data.h"
#include "scan/runtime_check.h"
#include "scan/slice.h"
#include "scan/slice_decoder.h"
#include "scan/slice_readers.h"
#include "scan/slicer.h"
#include "scan/thread_pool.h"

namespace pqsift::scan {
namespace {

using Clock = std::chrono::steady_clock;

int64_t NanosSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// The leaves that one role alone reads in `slice` (scan/slice.h, kAnyRoleChain), with that
// role: the filter's when it runs, and those of each output column it does not serve from its
// own decoded windows. (An output column the filter serves registers its slots but reads none.)
std::map<int32_t, int> LeavesReadByOneRole(const ScanSlice& slice, const PlannedFile& file) {
  std::map<int32_t, std::pair<int, int>> roles;  // leaf -> (roles reading it, the last)
  auto count = [&](int role, const std::vector<const DecodedColumn*>& columns) {
    std::set<int32_t> leaves;
    for (const DecodedColumn* column : columns) {
      if (!column->constant) leaves.insert(column->leaves.begin(), column->leaves.end());
    }
    for (int32_t leaf : leaves) {
      auto& [n, last] = roles[leaf];
      ++n;
      last = role;
    }
  };
  const bool gather = slice.needs_filter && slice.filter->FeedsOutputs();
  if (slice.needs_filter) count(kFilterRole, slice.filter->columns);
  for (size_t c = 0; c < file.output_columns.size(); ++c) {
    if (gather && slice.filter->output_from_filter[c] >= 0) continue;
    count(OutputRole(c), {&file.output_columns[c]});
  }
  std::map<int32_t, int> out;
  for (const auto& [leaf, reading] : roles) {
    if (reading.first == 1) out[leaf] = reading.second;
  }
  return out;
}

// A task's rank in the pool (lowest first). Ahead of the rest, in slice order: every slice's
// filter, and the output tasks that only pass on what the filter made (a filter column's rows
// gathered from its windows, a column without rows to decode), which are quick and let go of
// the filter's windows. A filter task is the scan's critical path: the output tasks of its slice
// wait for it, and so does the next slice's filter, which continues its readers (a page longer
// than a slice is decoded by one filter after another). Ranked by slice alone, the next filter
// waited behind the output columns of the slice before it, and every worker but one sat idle
// once those were done; ranked first, one worker walks the filter while the others decode what
// it found. The slices in flight are few (Next), so the decoding of the oldest is never far
// behind.
int64_t TaskOrder(const ScanSlice& slice, bool ahead) {
  constexpr int64_t kDecodingTasks = int64_t{1} << 40;
  return ahead ? slice.order : kDecodingTasks + slice.order;
}

}  // namespace

// The output columns, the filter and the runtime filter's columns, in the scan's schema and in
// each file (scan/column_resolver.h).
Status Executor::State::Resolve() {
  if (!options.count_only) {
    PQSIFT_ASSIGN_OR_RETURN(columns, ResolveOutputColumns(*tree, options.columns, Where(), &schema,
                                                          options.filename_column));
  } else {
    schema = std::make_shared<BatchSchema>();
  }
  const std::string first = files.empty() ? "dataset" : files.front()->metadata->file_name();
  ColumnResolver resolver(partition_columns, missing_columns_are_null, first,
                          options.row_index_column);
  for (const auto& file : files) {
    PQSIFT_RETURN_IF_ERROR(resolver.ResolveOutputs(columns, file.get()));
  }
  if (!options.filter.empty()) {
    auto bound = expr::BindFilter(options.filter, *tree);
    if (!bound.ok()) return bound.status().WithContext(Where());
    filter = std::move(bound).value();
    for (const auto& file : files) PQSIFT_RETURN_IF_ERROR(resolver.BindFilter(*filter, file.get()));
  }
  if (options.runtime_filter) {
    runtime.resize(files.size());
    for (const auto& file : files) {
      const PlannedFile* first_file = file == files.front() ? nullptr : files.front().get();
      PQSIFT_RETURN_IF_ERROR(
          resolver.BindRuntimeColumns(*options.runtime_filter, first_file, file.get()));
    }
  }
  return Status::OK();
}

// The evidence the runtime checks use, loaded during planning (later loads would race with the
// workers reading the store): the column indexes of the runtime filter's columns, and the offset
// indexes of every leaf read, so pages the check rules out are not fetched.
Status Executor::State::LoadRuntimeEvidence() {
  if (!options.runtime_filter || !options.prune) return Status::OK();
  for (size_t f = 0; f < files.size(); ++f) {
    const PlannedFile& file = *files[f];
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = 0; g < plan.files[f].row_groups.size(); ++g) {
      if (plan.files[f].row_groups[g].decision() == prune::Decision::kSkip) continue;
      for (const expr::ColumnRef& ref : file.runtime_refs) requests.push_back({g, ref.leaf, true});
      for (int32_t leaf : file.leaves) requests.push_back({g, leaf, false});
    }
    uint64_t bytes_read = 0;
    PQSIFT_RETURN_IF_ERROR(file.page_indexes->Load(requests, &bytes_read));
  }
  return Status::OK();
}

// The most promising row groups first (ScanOptions::read_order); a row group's slices stay
// together and in order.
void Executor::State::OrderSlices() {
  if (!options.read_order) return;
  const ReadOrder& order = *options.read_order;
  std::vector<std::optional<expr::ColumnRef>> refs(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    auto ref = ResolveLeafColumn(order.column, files[f]->metadata->schema());
    if (ref.ok()) refs[f] = *std::move(ref);  // no such column: nothing promised, file order
  }
  std::vector<Promise> promises;
  promises.reserve(slicers.size());
  for (const RowGroupSlicer& slicer : slicers) {
    const RowGroupData& data = slicer.data();
    const std::optional<expr::ColumnRef>& ref = refs[data.file().index];
    promises.push_back(ref ? RowGroupPromise(*data.file().metadata, *ref, data.row_group_index(),
                                             order.descending, order.nulls_first)
                           : Promise{});
  }
  std::vector<RowGroupSlicer> ordered;
  ordered.reserve(slicers.size());
  for (size_t i : MostPromisingFirst(promises, order.descending)) {
    ordered.push_back(std::move(slicers[i]));
  }
  slicers = std::move(ordered);
  // Inside a row group too, where its page index says the key's pages are in order (its
  // boundary order) and the runtime filter can use it: the first slices then publish a bound
  // the page index proves most later pages cannot beat (a top-10 by ts DESC of a file sorted by
  // ts reads its last pages only, not every page). Pages in no order would gain little, and
  // slices out of row order then ran more of them before the first bound (ORDER BY an unsorted
  // string column: 1.28x the time).
  if (!options.runtime_filter || !options.prune) return;
  for (RowGroupSlicer& slicer : slicers) {
    const RowGroupData& data = slicer.data();
    const PlannedFile& file = data.file();
    const std::optional<expr::ColumnRef>& ref = refs[file.index];
    if (!ref || !file.page_indexes) continue;
    const format::ColumnIndex* index =
        file.page_indexes->column_index(data.row_group_index(), ref->leaf);
    if (index == nullptr || index->boundary_order == BoundaryOrder::kUnordered) continue;
    slicer.OrderWithin(
        [&](int64_t begin, int64_t end) {
          return RowRangePromise(*file.metadata, *ref, *file.page_indexes, data.row_group_index(),
                                 begin, end, order.descending, order.nulls_first);
        },
        order.descending);
  }
}

// Right before a slice is launched: the runtime filter as it stands now, proved against the
// statistics of the slice's row group and its loaded page indexes. The slice keeps only the rows
// that may pass (so its readers fetch only their pages) and evaluates the filter on the rows not
// proven. False: no row of the slice can pass.
Result<bool> Executor::State::ApplyRuntimeFilter(ScanSlice& slice) {
  if (!options.runtime_filter) return true;
  RowGroupData& data = *slice.row_group;
  const uint64_t version = options.runtime_filter->version();
  if (version == 0) return true;
  const PlannedFile& file = data.file();
  RuntimeBinding& binding = runtime[file.index];
  if (binding.version != version) {
    RuntimeSnapshot snapshot = TakeSnapshot(*options.runtime_filter);
    PQSIFT_ASSIGN_OR_RETURN(
        binding.bound, BindRuntimeFilter(snapshot, file.runtime_refs, file.metadata->file_name()));
    CombinedFilter combined =
        CombineFilters(file.filter ? &*file.filter : nullptr, snapshot, file.runtime_refs);
    auto filter = std::make_shared<SliceFilter>();
    for (const DecodedColumn& col : file.filter_columns) filter->columns.push_back(&col);
    for (size_t k : combined.added) filter->columns.push_back(&file.runtime_columns[k]);
    filter->filter = std::move(combined.filter);
    filter->MatchOutputColumns(file.output_columns);
    binding.filter = std::move(filter);
    binding.version = snapshot.version;
  }
  if (!binding.bound.filter.root) return true;
  if (!options.prune) {
    // No proof (--no-prune): every row is read and the runtime filter evaluated on it.
    slice.matched = prune::RowSelection();
    slice.needs_filter = true;
    slice.filter = binding.filter;
    return true;
  }
  // The slice's readers fetch only the pages holding its rows: narrowing them here leaves the
  // pages ruled out in the file.
  PQSIFT_ASSIGN_OR_RETURN(RuntimeCheck check, CheckRowGroup(binding.bound, *file.file,
                                                            *file.metadata, file.page_indexes.get(),
                                                            data.row_group_index(), slice.rows));
  runtime_pages_skipped += static_cast<uint64_t>(check.pages_pruned);
  if (check.rows.empty()) {
    if (data.DropSlice()) ++runtime_row_groups_skipped;
    return false;
  }
  // Proven rows: those the plan proved for the scan's filter (all, without one) that the
  // runtime proof proved too; the rest are evaluated.
  prune::RowSelection scan_matched = slice.needs_filter ? slice.matched : slice.rows;
  slice.rows = slice.rows.Intersect(check.rows);
  slice.matched = scan_matched.Intersect(check.matched).Intersect(slice.rows);
  slice.needs_filter = slice.matched.row_count() != slice.rows.row_count();
  slice.filter = binding.filter;
  return true;
}
Status Executor::State::Plan() {
  PQSIFT_RETURN_IF_ERROR(Resolve());

  auto start = Clock::now();
  std::vector<PlanInput> inputs;
  for (const auto& file : files) {
    std::vector<int32_t>& leaves = file->leaves;
    for (const auto* list : {&file->output_columns, &file->filter_columns}) {
      for (const DecodedColumn& col : *list) {
        if (!col.constant) leaves.insert(leaves.end(), col.leaves.begin(), col.leaves.end());
      }
    }
    std::sort(leaves.begin(), leaves.end());
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    file->page_indexes = std::make_unique<format::PageIndexStore>(*file->file, *file->metadata);
    file->dictionaries = std::make_unique<DictionaryStore>(*file->file, *file->metadata);
    PlanInput input{file->file.get(),
                    file->metadata.get(),
                    file->proof_filter ? &*file->proof_filter : nullptr,
                    file->page_indexes.get(),
                    file->leaves,
                    file->dictionaries.get(),
                    file->fully_matched_by,
                    file->excluded_row_groups,
                    options.row_index_column};
    inputs.push_back(input);
  }
  PlanOptions plan_options;
  plan_options.prune = options.prune;
  plan_options.limit = options.limit;
  plan_options.dictionary = options.pruning.dictionary;
  plan_options.page_headers = options.pruning.page_headers;
  plan_options.min_page_header_chunk_bytes = options.pruning.min_page_header_chunk_bytes;
  plan_options.dictionary_options.max_dictionary_bytes = options.pruning.max_dictionary_bytes;
  plan_options.io = io.get();
  PQSIFT_ASSIGN_OR_RETURN(plan, BuildAccessPlan(inputs, plan_options));
  for (size_t f = 0; f < files.size(); ++f) files[f]->dictionaries->ReleaseAfterPlan(plan.files[f]);
  PQSIFT_RETURN_IF_ERROR(LoadOffsetIndexes());
  PQSIFT_RETURN_IF_ERROR(LoadRuntimeEvidence());
  plan_seconds = static_cast<double>(NanosSince(start)) * 1e-9;

  for (size_t f = 0; f < files.size(); ++f) {
    const std::shared_ptr<const PlannedFile> file = files[f];
    const std::vector<int32_t>& leaves = file->leaves;
    const FileMetaData& meta = file->metadata->file();
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      if (rg_plan.rows.empty()) continue;
      auto data = std::make_shared<RowGroupData>(file, g, leaves);
      row_groups.push_back(data);
      slicers.push_back(SlicerOf(data, rg_plan));
    }
  }
  OrderSlices();
  if (!slicers.empty()) slicers.front().Ramp(limit->RampRows());
  return Status::OK();
}

// The next slice in reading order: made ahead already, or made now; nullopt at the end.
std::optional<ScanSlice> Executor::State::NextSlice() {
  if (!ahead.empty()) {
    ScanSlice slice = std::move(ahead.front());
    ahead.pop_front();
    return slice;
  }
  return MakeSlice();
}

// Remote files: the next slices are made before their launch and their bytes fetched
// (io/async_wave.h) while the slices before them decode, as long as the ledger has room: the
// latency of each wave is paid while the workers decode the slices before it. Their rows are
// what they will be at launch (no runtime filter, no limit: look_ahead), so nothing is fetched
// that the launch would not have fetched. Consecutive slices of a row group share a wave, so
// their reads of a column, which follow one another in the file, are one request (fewer
// requests: less work per byte for the store and for us); the first waves of a scan hold one
// slice, then two, four, up to kMaxSlicesPerWave, so the first slice does not wait for many.
void Executor::State::PrefetchAhead() {
  if (!look_ahead) return;
  // A wave starts only where it can have its slices: waves of a slice each would come back.
  while (ahead.size() + slices_per_wave <= kMaxSlicesAhead && prefetch->HasRoom()) {
    std::optional<ScanSlice> slice = MakeSlice();
    if (!slice) return;
    RowGroupData& data = *slice->row_group;
    const size_t first = ahead.size();
    ahead.push_back(std::move(*slice));
    if (!data.file().file->remote()) continue;
    // MakeSlice left next_slicer at the slicer of this row group: its next slices join.
    std::vector<const prune::RowSelection*> rows{&ahead.back().rows};
    if (!FillWave(slicers[next_slicer], slices_per_wave, &ahead, &rows)) ++next_slicer;
    std::shared_ptr<const void> held = data.StartPrefetch(rows, prefetch);
    for (size_t i = first; i < ahead.size(); ++i) ahead[i].prefetched = held;
    slices_per_wave = std::min(slices_per_wave * 2, kMaxSlicesPerWave);
  }
}

bool Executor::State::FillWave(RowGroupSlicer& slicer, size_t slices_per_wave,
                               std::deque<ScanSlice>* wave,
                               std::vector<const prune::RowSelection*>* rows) const {
  const RowGroupData& data = slicer.data();
  const uint64_t wave_bytes = options.prefetch_bytes / kWaveBudgetShare;
  while (rows->size() < slices_per_wave && data.EstimateReadBytes(*rows) < wave_bytes) {
    std::optional<ScanSlice> next = slicer.Next();
    if (!next) return false;
    wave->push_back(std::move(*next));
    rows->push_back(&wave->back().rows);
  }
  return true;
}

RowGroupSlicer Executor::State::SlicerOf(std::shared_ptr<RowGroupData> data,
                                         const prune::RowGroupPlan& rg_plan) const {
  const PlannedFile& file = data->file();
  const size_t g = data->row_group_index();
  const bool needs_filter = file.filter.has_value() && !rg_plan.fully_matched;
  return RowGroupSlicer(std::move(data), rg_plan, needs_filter, file.scan_filter,
                        SliceCutter::Of(file, g, options.batch_size, options.slice_rows));
}

// The next slice of the slicers, made now; nullopt at the end of the scan.
std::optional<ScanSlice> Executor::State::MakeSlice() {
  for (; next_slicer < slicers.size(); ++next_slicer) {
    std::optional<ScanSlice> slice = slicers[next_slicer].Next();
    if (slice) return slice;
  }
  return std::nullopt;
}
// The offset indexes of the leaves read in row groups the plan reads only in part or that are
// cut into several slices, for the fetches to take only the pages they need (the page-index
// stage loaded most already, in the same reads as the column indexes), or, for chunks the footer
// gives none, their page locations from their headers. Without them, a slice fetches the whole
// chunk, held until the row group's last slice is done.
Status Executor::State::LoadOffsetIndexes() {
  for (size_t f = 0; f < files.size(); ++f) {
    const PlannedFile& file = *files[f];
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = 0; g < plan.files[f].row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      const RowGroup& rg = file.metadata->file().row_groups[g];
      bool in_part = rg_plan.decision() == prune::Decision::kSelection;
      bool sliced = rg_plan.decision() != prune::Decision::kSkip &&
                    SliceRows(rg, options.batch_size, options.slice_rows) < rg.num_rows;
      if (!in_part && !sliced) continue;
      for (int32_t leaf : file.leaves) requests.push_back({g, leaf, false});
    }
    uint64_t bytes_read = 0;
    PQSIFT_RETURN_IF_ERROR(file.page_indexes->Load(requests, &bytes_read));
    // Chunks without an offset index get one from their page headers (scan/page_locations.h).
    PageLocationOptions locations;
    locations.min_chunk_bytes = options.page_locations_min_chunk_bytes;
    PQSIFT_RETURN_IF_ERROR(DerivePageLocations(*file.file, *file.metadata, requests,
                                               *file.page_indexes, &bytes_read, locations));
  }
  return Status::OK();
}
// Phase two: one task per output column over `rows`. Called with result->pending counting the
// caller; each task adds itself before the caller finishes.
void Executor::State::SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                                          const std::shared_ptr<const FilterWindows>& decoded,
                                          const std::shared_ptr<SliceResult>& result) {
  {
    std::lock_guard<std::mutex> lock(result->mu);
    result->rows = rows.row_count();
    result->pending += static_cast<int>(columns.size());
  }
  // The filter's windows (it decodes every row of the slice when they are kept) serve the output
  // columns that are filter columns.
  const bool gather = decoded != nullptr;
  // A filtered slice counted the rows whose filter columns it decoded; proven rows it did not
  // decode are decoded here first.
  if (!columns.empty()) {
    counters.rows_decoded += !slice.needs_filter ? rows.row_count()
                             : gather            ? 0
                                                 : slice.matched.row_count();
  }
  auto shared_rows = std::make_shared<const prune::RowSelection>(std::move(rows));
  for (size_t c = 0; c < columns.size(); ++c) {
    int from = gather ? slice.filter->output_from_filter[c] : -1;
    // Only a gathering task holds the filter's windows: they go once the last gather is done.
    std::shared_ptr<const FilterWindows> windows = from >= 0 ? decoded : nullptr;
    auto task = [this, slice, shared_rows, c, from, windows, result, cancelled = cancelled] {
      if (cancelled->load()) {
        SliceDecoder::ReleaseOutputSlots(slice, c);
        return result->Finish(Status::Internal("cancelled"), SliceResult::kCancelledRank);
      }
      auto arrays = from >= 0 ? decoder->GatherFilterColumn(slice, *shared_rows, *windows,
                                                            static_cast<size_t>(from), c)
                              : decoder->DecodeColumn(slice, *shared_rows, c);
      Status status = arrays.status();
      if (status.ok()) {
        std::lock_guard<std::mutex> lock(result->mu);
        result->columns[c] = std::move(arrays).value();
      }
      result->Finish(std::move(status), SliceResult::OutputRank(c));
    };
    // A gathered column has no readers of its own; a column with no row to decode opens none.
    if (from >= 0 || shared_rows->empty()) {
      workers->Submit(std::move(task), TaskOrder(slice, /*ahead=*/true));
    } else {
      SubmitWhenReady(slice, OutputRole(c), {&slice.row_group->file().output_columns[c]},
                      shared_rows->ranges().front().begin, std::move(task));
    }
  }
}

// Submits `task` (of the slice, in `role`, over `columns`, its walk starting at `first_row`) once
// none of its readers' Takes would wait (scan/reader_handoff.h): a task never holds a worker
// while the slice before it decodes, so tasks of other row groups (or columns) run meanwhile.
// True when it had to wait for the slice before.
bool Executor::State::SubmitWhenReady(const ScanSlice& slice, int role,
                                      const std::vector<const DecodedColumn*>& columns,
                                      int64_t first_row, std::function<void()> task) const {
  std::vector<ReaderHandoff*> awaited =
      first_row < 0 ? std::vector<ReaderHandoff*>{}
                    : SliceReaders::Awaited(slice, role, columns, first_row);
  ThreadPool* pool_of_tasks = workers;
  const int64_t order = TaskOrder(slice, /*ahead=*/role == kFilterRole);
  if (awaited.empty()) {
    pool_of_tasks->Submit(std::move(task), order);
    return false;
  }
  auto left = std::make_shared<std::atomic<size_t>>(awaited.size());
  auto run = std::make_shared<std::function<void()>>(std::move(task));
  for (ReaderHandoff* handoff : awaited) {
    handoff->WhenReady(slice.seq, [left, run, pool_of_tasks, order] {
      if (--*left == 0) pool_of_tasks->Submit(std::move(*run), order);
    });
  }
  return true;
}

// The slice's first tasks (its filter, or its output columns), and how many of them can run
// beside the slices before it: those that do not continue a reader the slice before leaves
// (scan/reader_handoff.h). Next launches further slices while the slices in flight give the
// workers too few tasks that can run side by side.
void Executor::State::CountFirstTasks(const ScanSlice& slice, SliceResult* result) const {
  result->first_tasks = 0;
  result->independent_tasks = 0;
  if (slice.rows.empty()) return;
  if (slice.needs_filter) {
    int64_t first = SliceDecoder::FilterWalkStart(slice);
    result->first_tasks = 1;
    result->independent_tasks =
        first < 0 || SliceReaders::Awaited(slice, kFilterRole, slice.filter->columns, first).empty()
            ? 1
            : 0;
    return;
  }
  const int64_t first = slice.rows.ranges().front().begin;
  const std::vector<DecodedColumn>& outputs = slice.row_group->file().output_columns;
  for (size_t c = 0; c < outputs.size(); ++c) {
    if (outputs[c].constant) continue;
    ++result->first_tasks;
    if (SliceReaders::Awaited(slice, OutputRole(c), {&outputs[c]}, first).empty()) {
      ++result->independent_tasks;
    }
  }
}

void Executor::State::Launch(const ScanSlice& launched) {
  auto result = std::make_shared<SliceResult>();
  result->pending = 1;  // this launch; output column tasks add themselves
  result->columns.resize(columns.size());
  result->row_group = launched.row_group;
  in_flight.push_back(result);
  if (!launched.row_group->launched()) {
    launched.row_group->MarkLaunched();
    ++row_groups_read;
  }
  // The slots of the readers the slice's tasks will hand on, taken here in slice order.
  ScanSlice slice = launched;
  slice.order = launches++;
  auto links = std::make_shared<SliceLinks>();
  const PlannedFile& entry = slice.row_group->file();
  const std::map<int32_t, int> shared = LeavesReadByOneRole(slice, entry);
  if (slice.needs_filter)
    SliceReaders::Register(slice, kFilterRole, slice.filter->columns, shared, &*links);
  for (size_t c = 0; c < columns.size(); ++c) {
    SliceReaders::Register(slice, OutputRole(c), {&entry.output_columns[c]}, shared, &*links);
  }
  slice.links = std::move(links);
  RowGroupData& data = *slice.row_group;
  // A remote file: the bytes every task of the slice will read, in one wave, unless
  // PrefetchAhead started it already; the tasks wait for it only if it has not arrived.
  if (entry.file->remote() && !slice.prefetched) {
    const prune::RowSelection* rows = &slice.rows;
    slice.prefetched = data.StartPrefetch({&rows, 1}, prefetch);
  }
  if (!slice.needs_filter) {
    CountFirstTasks(slice, result.get());
    data.RunInOrder(slice.seq, [this, slice, result] {
      SubmitOutputColumns(slice, slice.rows, nullptr, result);
      result->Finish(Status::OK());
    });
    return;
  }
  CountFirstTasks(slice, result.get());
  auto filter_task = [this, slice, result, cancelled = cancelled] {
    RowGroupData& data = *slice.row_group;
    auto fail = [&](Status status, int rank) {
      for (size_t c = 0; c < columns.size(); ++c) SliceDecoder::ReleaseOutputSlots(slice, c);
      result->Finish(std::move(status), rank);
      data.RunInOrder(slice.seq, nullptr);
    };
    if (cancelled->load()) {
      SliceReaders unused(slice, kFilterRole, slice.filter->columns);
      return fail(Status::Internal("cancelled"), SliceResult::kCancelledRank);
    }
    // The filter's decoded windows serve the output columns that are filter columns.
    std::shared_ptr<FilterWindows> keep;
    if (slice.filter->FeedsOutputs()) {
      keep = std::make_shared<FilterWindows>();
      keep->kept.resize(slice.filter->columns.size());
      keep->arrays.resize(slice.filter->columns.size());
      for (int from : slice.filter->output_from_filter) {
        if (from >= 0) keep->kept[static_cast<size_t>(from)] = true;
      }
    }
    auto matches = decoder->EvaluateFilter(slice, keep.get());
    if (!matches.ok()) return fail(matches.status(), SliceResult::kFilterRank);
    auto rows = std::make_shared<prune::RowSelection>(std::move(matches).value());
    data.RunInOrder(slice.seq, [this, slice, rows, keep, result] {
      SubmitOutputColumns(slice, std::move(*rows), keep, result);
      result->Finish(Status::OK());
    });
  };
  SubmitWhenReady(slice, kFilterRole, slice.filter->columns, SliceDecoder::FilterWalkStart(slice),
                  std::move(filter_task));
}

Executor::Executor(std::unique_ptr<State> state) : state_(std::move(state)) {}

Executor::~Executor() { Cancel(); }

void Executor::Cancel() { state_->cancelled->store(true); }

Result<std::unique_ptr<Executor>> Executor::Open(ScanInput input, const ScanOptions& options) {
  if (input.files.empty() && !input.schema) return Status::InvalidArgument("no files to scan");
  if (options.batch_size <= 0) return Status::InvalidArgument("batch size must be positive");
  auto state = std::make_unique<State>();
  state->options = options;
  for (ScanFile& f : input.files) {
    if (f.partition_values.size() != input.partition_columns.size()) {
      return Status::InvalidArgument(
          "a file of the scan has " + std::to_string(f.partition_values.size()) +
          " partition values for " + std::to_string(input.partition_columns.size()) + " columns");
    }
    auto file = std::make_shared<PlannedFile>();
    file->index = state->files.size();
    file->file = std::move(f.file);
    file->metadata = std::move(f.metadata);
    file->partition_values = std::move(f.partition_values);
    file->fully_matched_by = std::move(f.fully_matched_by);
    file->excluded_row_groups = std::move(f.excluded_row_groups);
    file->source = std::move(f.source);
    if (file->source.empty()) file->source = file->file->name();
    int64_t first_row = 0;
    for (const RowGroup& rg : file->metadata->file().row_groups) {
      file->row_group_first_rows.push_back(first_row);
      first_row += rg.num_rows;
    }
    state->files.push_back(std::move(file));
  }
  state->missing_columns_are_null = input.schema != nullptr && !input.strict_columns;
  if (input.schema) {
    state->tree = std::move(input.schema);
  } else {
    // The first file's schema, kept alive by its metadata.
    const auto& first = state->files.front()->metadata;
    state->tree = std::shared_ptr<const Schema>(first, &first->schema());
  }
  state->partition_columns = std::move(input.partition_columns);
  state->dataset_counts = input.counts;
  state->unopened = std::move(input.unopened);
  state->io = input.io;
  state->footer_io = input.footer_io;
  state->limit.emplace(options.limit, !options.filter.empty(), options.read_order.has_value());
  state->decoder.emplace(options.batch_size, state->page_options(), state->cancelled.get(),
                         &state->counters, options.keep_dictionaries);
  PQSIFT_RETURN_IF_ERROR(state->Plan());
  // The rows of files a fresh manifest counted (count_only) come first.
  state->PushRowsWithoutColumns(input.counts.rows_counted_by_manifest);
  state->prefetch = std::make_shared<io::PrefetchLedger>(options.prefetch_bytes);
  state->look_ahead = options.prefetch_bytes > 0 && options.limit < 0 && !options.runtime_filter &&
                      !options.read_order &&
                      std::any_of(state->files.begin(), state->files.end(),
                                  [](const auto& f) { return f->file->remote(); });
  state->pool = std::make_unique<ThreadPool>(options.threads);
  state->workers = state->pool.get();
  return std::unique_ptr<Executor>(new Executor(std::move(state)));
}

std::shared_ptr<const BatchSchema> Executor::schema() const { return state_->schema; }

Result<std::shared_ptr<RecordBatch>> Executor::Next() {
  State& s = *state_;
  ScanLimit& limit = *s.limit;
  if (limit.zero()) return std::shared_ptr<RecordBatch>();
  // Reading in a chosen order (top-k), the first row group is read alone: the runtime filter it
  // leads to then reaches every later launch.
  const bool first_alone =
      s.options.read_order && s.options.runtime_filter && s.options.runtime_filter->version() == 0;
  const size_t max_in_flight =
      first_alone ? 1 : limit.MaxInFlight(static_cast<size_t>(s.pool->size()) + 1);
  for (;;) {
    if (!s.ready.empty()) {
      std::shared_ptr<RecordBatch> batch = std::move(s.ready.front());
      s.ready.pop_front();
      PQSIFT_ASSIGN_OR_RETURN(bool reached, limit.Take(*batch));
      if (reached) {
        s.ready.clear();
        s.cancelled->store(true);
      }
      if (batch->num_rows == 0) continue;
      return batch;
    }
    if (limit.reached()) return std::shared_ptr<RecordBatch>();
    // Slices that follow the slice before them (a page of theirs holds its rows too) decode
    // after it. The tasks that can run side by side: every first task of the oldest slice in
    // flight of each row group (what it follows is done), and the others' independent ones.
    // While they are fewer than max_in_flight, more slices are launched (up to four times as
    // many), so that the next row groups' run meanwhile.
    auto side_by_side = [&] {
      size_t n = 0;
      std::vector<const RowGroupData*> seen;
      for (const auto& r : s.in_flight) {
        const bool oldest = std::find(seen.begin(), seen.end(), r->row_group.get()) == seen.end();
        if (oldest) seen.push_back(r->row_group.get());
        n += static_cast<size_t>(oldest ? r->first_tasks : r->independent_tasks);
      }
      return n;
    };
    // Before the launches too: the first slices' bytes come in the prefetch's waves.
    s.PrefetchAhead();
    while (s.in_flight.size() < max_in_flight ||
           (max_in_flight > 1 && s.in_flight.size() < 4 * max_in_flight &&
            side_by_side() < max_in_flight)) {
      std::optional<ScanSlice> slice = s.NextSlice();
      if (!slice) break;
      PQSIFT_ASSIGN_OR_RETURN(bool launch, s.ApplyRuntimeFilter(*slice));
      if (launch) {
        s.Launch(*slice);
      } else {
        slice->row_group->RunInOrder(slice->seq, nullptr);  // nothing of it runs
      }
    }
    s.PrefetchAhead();
    if (s.in_flight.empty()) return std::shared_ptr<RecordBatch>();
    std::shared_ptr<SliceResult> result = s.in_flight.front();
    {
      std::unique_lock<std::mutex> lock(result->mu);
      result->done.wait(lock, [&] { return result->pending == 0; });
    }
    s.in_flight.pop_front();
    result->row_group->SliceDone();
    if (!result->error.ok()) {
      s.cancelled->store(true);
      return result->error;
    }
    if (result->columns.empty()) {
      s.PushRowsWithoutColumns(result->rows);
      continue;
    }
    size_t windows = result->columns.front().size();
    for (size_t w = 0; w < windows; ++w) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = s.schema;
      batch->num_rows = result->columns.front()[w]->length;
      for (auto& col : result->columns) batch->columns.push_back(std::move(col[w]));
      s.ready.push_back(std::move(batch));
    }
  }
}

const prune::AccessPlan& Executor::plan() const { return state_->plan; }

const std::shared_ptr<const ParquetMetadata>& Executor::file_metadata(size_t f) const {
  return state_->files[f]->metadata;
}

const std::string& Executor::file_source(size_t f) const { return state_->files[f]->source; }

}  // namespace pqsift::scan
