#include "scan/planner.h"

#include <algorithm>
#include <chrono>

#include "io/wave.h"
#include "prune/stage.h"
#include "scan/limit.h"

namespace pqsift::scan {
namespace {

// A bound on a stage's waves, whatever its NeedsNext states (the dictionary stage: one round per
// filter column at most).
constexpr int kMaxStageWaves = 64;

}  // namespace

Result<prune::AccessPlan> BuildAccessPlan(std::span<const PlanInput> files,
                                          const PlanOptions& options) {
  prune::AccessPlan plan;
  for (const PlanInput& input : files) {
    prune::FilePlan file;
    file.path = input.file->name();
    const auto& row_groups = input.metadata->file().row_groups;
    for (size_t g = 0; g < row_groups.size(); ++g) {
      const RowGroup& rg = row_groups[g];
      prune::RowGroupPlan rg_plan;
      rg_plan.num_rows = rg.num_rows;
      rg_plan.rows = prune::RowSelection::All(rg.num_rows);
      if (!input.fully_matched_by.empty() && options.prune && input.filter != nullptr) {
        rg_plan.MarkFullyMatched(std::string(input.fully_matched_by),
                                 "every row of the file satisfies the filter");
      }
      if (g < input.excluded_row_groups.size() && input.excluded_row_groups[g] != 0) {
        rg_plan.Skip("split", "the row group's midpoint lies outside the split");
      }
      file.row_groups.push_back(std::move(rg_plan));
    }
    plan.files.push_back(std::move(file));
  }
  bool has_filter = !files.empty() && files.front().filter != nullptr;
  if (options.prune && has_filter) {
    std::vector<std::unique_ptr<prune::PruningStage>> stages;
    // Only when the filter reads the virtual row index, so other plans print as before.
    bool row_positions = false;
    for (const PlanInput& input : files) {
      for (const expr::ColumnRef& ref : input.filter->columns) {
        row_positions = row_positions ||
                        (!input.row_index_column.empty() && ref.path == input.row_index_column);
      }
    }
    if (row_positions) stages.push_back(prune::MakeRowPositionStage());
    stages.push_back(prune::MakeRowGroupStatisticsStage());
    stages.push_back(prune::MakePageIndexStage());
    if (options.page_headers) {
      stages.push_back(prune::MakePageHeaderStage(options.min_page_header_chunk_bytes));
    }
    if (options.dictionary)
      stages.push_back(prune::MakeDictionaryStage(options.dictionary_options));
    stages.push_back(prune::MakeBloomFilterStage());
    for (auto& stage : stages) {
      prune::StageReport report;
      report.stage = std::string(stage->name());
      auto start = std::chrono::steady_clock::now();
      IoStats before = options.io ? options.io->Snapshot() : IoStats{};
      auto context_of = [&](size_t f) {
        return prune::FileContext{*files[f].metadata,    *files[f].file,           *files[f].filter,
                                  files[f].page_indexes, files[f].read_leaves,     true,
                                  files[f].dictionaries, files[f].row_index_column};
      };
      // What the stage will read, for every file, fetched in one wave before it runs; then
      // what depends on those bytes (NeedsNext), one more wave at a time, until no file states
      // a read an earlier wave of the stage did not make (the bloom filter stage: its blocks,
      // then nothing new; the dictionary stage: one wave per round).
      std::vector<const RandomAccessFile*> holding;
      std::vector<std::vector<ByteRange>> stated(files.size());
      for (int round = 0; round < kMaxStageWaves; ++round) {
        std::vector<io::WaveRead> wave;
        for (size_t f = 0; f < files.size(); ++f) {
          std::vector<ByteRange> needs = round == 0
                                             ? stage->Needs(context_of(f), plan.files[f])
                                             : stage->NeedsNext(context_of(f), plan.files[f]);
          std::erase_if(needs, [&](const ByteRange& r) {
            return std::find(stated[f].begin(), stated[f].end(), r) != stated[f].end();
          });
          if (needs.empty()) continue;
          stated[f].insert(stated[f].end(), needs.begin(), needs.end());
          wave.push_back({files[f].file, std::move(needs), {}, {}});
          if (std::find(holding.begin(), holding.end(), files[f].file) == holding.end()) {
            holding.push_back(files[f].file);
          }
        }
        if (wave.empty()) break;
        io::PrefetchWave(wave);
      }
      Status applied;
      for (size_t f = 0; f < files.size() && applied.ok(); ++f) {
        applied = stage->Apply(context_of(f), plan.files[f], report);
      }
      for (const RandomAccessFile* file : holding) file->ReleasePrefetched();
      PQSIFT_RETURN_IF_ERROR(applied);
      report.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (options.io) {
        IoStats after = options.io->Snapshot();
        report.requests = after.read_requests - before.read_requests;
        report.round_trips = after.round_trips - before.round_trips;
        report.waves = after.waves - before.waves;
        report.retries = after.retries - before.retries;
        report.io_wait_seconds = after.wait_seconds - before.wait_seconds;
      }
      plan.stages.push_back(std::move(report));
    }
  }
  ScanLimit::PruneRowGroups(options.limit, has_filter, plan);
  return plan;
}

}  // namespace pqsift::scan
