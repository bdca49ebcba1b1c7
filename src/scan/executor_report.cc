// What the executor will do and did: Estimate (the rows, bytes and requests the plan will
// read, forecast before any data is read, and the remote waves PrefetchAhead will make),
// stats() (what the scan read and pruned so far) and the public plan. The executor itself is
// executor.cc; the state both use, executor_state.h.
#include <algorithm>
#include <optional>

#include "format/page_index_store.h"
#include "scan/dictionary_store.h"
#include "scan/executor_state.h"
#include "scan/page_fetch.h"
#include "scan/page_locations.h"
#include "scan/public_plan.h"

namespace pqsift::scan {

AccessPlan Executor::PublicPlan() const {
  const State& s = *state_;
  return MakePublicPlan({&s.plan, s.files, s.unopened, s.options.filter, stats(), Estimate()});
}

ScanEstimate Executor::Estimate() const {
  ScanEstimate out;
  const State& s = *state_;
  for (size_t f = 0; f < s.files.size(); ++f) {
    const auto& file = *s.files[f];
    const auto& row_groups = file.metadata->file().row_groups;
    for (size_t g = 0; g < row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg = s.plan.files[f].row_groups[g];
      if (rg.rows.empty()) continue;
      ++out.row_groups_to_read;
      out.rows_to_read += rg.rows.row_count();
      for (int32_t leaf : file.leaves) {
        const ColumnChunk& chunk = row_groups[g].columns[leaf];
        if (!chunk.meta_data) continue;
        auto range = column::ColumnChunkRange(*chunk.meta_data, file.file->size(), "");
        if (!range.ok()) continue;
        // The bytes read with the footer reach the end of the file: only what lies before them
        // is still to read.
        ByteRange cached = file.metadata->cached_range();
        auto before_cache = [&](const ByteRange& r) {
          return r.offset >= cached.offset ? 0 : std::min(r.end(), cached.offset) - r.offset;
        };
        const format::OffsetIndex* index =
            rg.decision() == prune::Decision::kSelection && file.page_indexes
                ? file.page_indexes->offset_index(g, leaf)
                : nullptr;
        std::optional<PageFetch> pages;
        if (index != nullptr && before_cache(*range) == range->length) {
          pages = PlanPageFetch(*range, *index, row_groups[g].num_rows, rg.rows);
        }
        if (!pages) {
          out.bytes_to_read += before_cache(*range);
          if (before_cache(*range) > 0) ++out.ranges_to_read;
          continue;
        }
        for (const ByteRange& r : pages->reads) {
          out.bytes_to_read += before_cache(r);
          if (before_cache(r) > 0) ++out.ranges_to_read;
        }
      }
    }
  }
  s.ForecastPrefetch(&out);
  return out;
}

// PrefetchAhead's waves replayed on slicers and row group data of their own, nothing read:
// the same slices, the same grouping (the ramp, the wave's share of the budget), the same
// reads (RowGroupData::PlanWave), merged as the store merges them. Exact for a fixed plan as
// long as the scan's earlier waves are still held when a later one starts (they are unless
// the decoding catches up with the prefetch, which then reads for itself). The replay stops
// after kMaxForecastSlices slices (then a lower bound): a footer claiming billions of rows
// costs no more.
void Executor::State::ForecastPrefetch(ScanEstimate* out) const {
  constexpr size_t kMaxForecastSlices = size_t{1} << 16;
  if (!look_ahead) return;
  size_t slices = 0;
  size_t slices_per_wave = 1;  // the ramp, as PrefetchAhead's
  for (size_t f = 0; f < files.size(); ++f) {
    const std::shared_ptr<const PlannedFile>& file = files[f];
    if (!file->file->remote()) continue;
    for (size_t g = 0; g < file->metadata->file().row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      if (rg_plan.rows.empty()) continue;
      auto data = std::make_shared<RowGroupData>(file, g, file->leaves);
      RowGroupSlicer slicer = SlicerOf(data, rg_plan);
      std::vector<ByteRange> earlier;
      for (std::optional<ScanSlice> first = slicer.Next(); first; first = slicer.Next()) {
        if (slices >= kMaxForecastSlices) return;
        std::deque<ScanSlice> wave;
        wave.push_back(std::move(*first));
        std::vector<const prune::RowSelection*> rows{&wave.back().rows};
        FillWave(slicer, slices_per_wave, &wave, &rows);
        slices += rows.size();
        std::vector<ByteRange> reads = data->PlanWave(rows, &earlier);
        if (!reads.empty()) {
          out->remote_requests += file->file->CountRequests(reads);
          ++out->remote_waves;
        }
        slices_per_wave = std::min(slices_per_wave * 2, kMaxSlicesPerWave);
      }
    }
  }
}

ScanStats Executor::stats() const {
  const State& s = *state_;
  ScanStats out;
  out.files_total = s.dataset_counts.files_total;
  out.files_skipped_by_partition = s.dataset_counts.files_skipped_by_partition;
  out.files_skipped_by_manifest = s.dataset_counts.files_skipped_by_manifest;
  out.footers_read = s.dataset_counts.footers_read;
  out.files_counted_by_manifest = s.dataset_counts.files_counted_by_manifest;
  for (const auto& f : s.files) {
    IoStats io = f->file->stats();
    out.files += 1;
    out.file_bytes += f->file->size();
    out.bytes_read += io.bytes_read;
    out.read_requests += io.read_requests;
    out.retries += io.retries;
    out.row_groups += f->metadata->num_row_groups();
    out.rows_total += f->metadata->num_rows();
  }
  for (const prune::FilePlan& file : s.plan.files) {
    for (const prune::RowGroupPlan& rg : file.row_groups) {
      if (rg.rows.empty()) ++out.row_groups_skipped;
      if (!rg.rows.empty() && rg.fully_matched) ++out.row_groups_fully_matched;
    }
  }
  out.row_groups_read = s.row_groups_read;
  out.row_groups_skipped_at_runtime = s.runtime_row_groups_skipped;
  out.pages_skipped_at_runtime = s.runtime_pages_skipped;
  out.pages_read = static_cast<uint64_t>(s.counters.pages.decoded.load());
  int64_t pages_not_fetched = 0;
  for (const auto& row_group : s.row_groups) {
    row_group->CountPagesNotFetched(&pages_not_fetched, &out.bytes_not_fetched);
  }
  out.pages_not_fetched = static_cast<uint64_t>(pages_not_fetched);
  out.pages_decompressed = static_cast<uint64_t>(s.counters.pages.decompressed.load());
  out.bytes_decompressed = static_cast<uint64_t>(s.counters.pages.bytes_decompressed.load());
  out.pages_total = out.pages_read + static_cast<uint64_t>(s.counters.pages.passed_over.load()) +
                    out.pages_not_fetched;
  out.rows_decoded = s.counters.rows_decoded.load();
  out.rows_returned = s.limit->rows_returned();
  out.plan_seconds = s.plan_seconds;
  out.filter_seconds = static_cast<double>(s.counters.filter_nanos.load()) * 1e-9;
  out.decode_seconds = static_cast<double>(s.counters.decode_nanos.load()) * 1e-9;
  for (const auto& f : s.files) {
    if (f->dictionaries) out.evidence_bytes_reused += f->dictionaries->bytes_reused();
  }
  for (const prune::StageReport& r : s.plan.stages) {
    out.stages.push_back({r.stage, static_cast<uint64_t>(r.row_groups_considered),
                          static_cast<uint64_t>(r.row_groups_skipped),
                          static_cast<uint64_t>(r.row_groups_fully_matched), r.rows_pruned,
                          r.bytes_read, r.seconds, r.requests, r.round_trips, r.waves, r.retries,
                          r.io_wait_seconds});
  }
  if (s.io) {
    IoStats io = s.io->Snapshot();
    out.round_trips = io.round_trips;
    out.waves = io.waves;
    out.io_wait_seconds = io.wait_seconds;
    out.io_busy_seconds = io.busy_seconds;
  }
  out.footer_requests = s.footer_io.read_requests;
  out.footer_round_trips = s.footer_io.round_trips;
  out.footer_bytes = s.footer_io.bytes_read;
  out.footer_waves = s.footer_io.waves;
  out.footer_retries = s.footer_io.retries;
  out.footer_io_wait_seconds = s.footer_io.wait_seconds;
  return out;
}

}  // namespace pqsift::scan
