#include "scan/planner.h"

#include <algorithm>
#include <chrono>

#include "prune/stage.h"

namespace pqsift::scan {
namespace {

// Without a filter every row counts towards the limit, so the row groups after the first
// `limit` rows cannot contribute: the plan skips them and trims the last one.
void ApplyLimit(int64_t limit, prune::AccessPlan& plan, prune::StageReport& report) {
  int64_t budget = limit;
  for (prune::FilePlan& file : plan.files) {
    for (prune::RowGroupPlan& rg : file.row_groups) {
      if (rg.decision() == prune::Decision::kSkip) continue;
      ++report.row_groups_considered;
      int64_t selected = rg.rows.row_count();
      if (budget >= selected) {
        budget -= selected;
        continue;
      }
      // Keep the first `budget` selected rows.
      std::vector<prune::RowRange> kept;
      for (const prune::RowRange& r : rg.rows.ranges()) {
        if (budget == 0) break;
        int64_t take = std::min(budget, r.length());
        kept.push_back({r.begin, r.begin + take});
        budget -= take;
      }
      int64_t before = selected;
      if (kept.empty()) {
        rg.Skip(report.stage);
        ++report.row_groups_skipped;
      } else {
        rg.Narrow(prune::RowSelection::FromRanges(std::move(kept)), report.stage);
      }
      report.rows_pruned += before - rg.rows.row_count();
    }
  }
}

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
        rg_plan.MarkFullyMatched(std::string(input.fully_matched_by));
      }
      if (g < input.excluded_row_groups.size() && input.excluded_row_groups[g] != 0) {
        rg_plan.Skip("split");
      }
      file.row_groups.push_back(std::move(rg_plan));
    }
    plan.files.push_back(std::move(file));
  }
  bool has_filter = !files.empty() && files.front().filter != nullptr;
  if (options.prune && has_filter) {
    std::vector<std::unique_ptr<prune::PruningStage>> stages;
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
      for (size_t f = 0; f < files.size(); ++f) {
        prune::FileContext context{*files[f].metadata,    *files[f].file,       *files[f].filter,
                                   files[f].page_indexes, files[f].read_leaves, true,
                                   files[f].dictionaries};
        PQSIFT_RETURN_IF_ERROR(stage->Apply(context, plan.files[f], report));
      }
      report.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      plan.stages.push_back(std::move(report));
    }
  }
  if (options.limit >= 0 && !has_filter) {
    prune::StageReport report;
    report.stage = "limit";
    ApplyLimit(options.limit, plan, report);
    plan.stages.push_back(std::move(report));
  }
  return plan;
}

}  // namespace pqsift::scan
