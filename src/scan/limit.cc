#include "scan/limit.h"

#include <algorithm>
#include <vector>

namespace pqsift::scan {

void ScanLimit::PruneRowGroups(int64_t limit, bool filtered, prune::AccessPlan& plan) {
  if (limit < 0 || filtered) return;
  prune::StageReport report;
  report.stage = "limit";
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
        rg.Skip(report.stage, "past the first " + std::to_string(limit) + " rows");
        ++report.row_groups_skipped;
      } else {
        rg.Narrow(prune::RowSelection::FromRanges(std::move(kept)), report.stage,
                  "past the first " + std::to_string(limit) + " rows");
      }
      report.rows_pruned += before - rg.rows.row_count();
    }
  }
  plan.stages.push_back(std::move(report));
}

int64_t ScanLimit::RampRows() const {
  if (limit_ <= 0 || ordered_) return 0;
  return std::max<int64_t>(4096, limit_);
}

size_t ScanLimit::MaxInFlight(size_t usual) const { return limit_ >= 0 && filtered_ ? 1 : usual; }

Result<bool> ScanLimit::Take(RecordBatch& batch) {
  if (limit_ >= 0 && rows_returned_ + batch.num_rows >= limit_) {
    int64_t keep = limit_ - rows_returned_;
    if (keep < batch.num_rows) {
      for (auto& column : batch.columns) {
        PQSIFT_ASSIGN_OR_RETURN(column, Slice(*column, 0, keep));
      }
      batch.num_rows = keep;
    }
    reached_ = true;
  }
  rows_returned_ += batch.num_rows;
  return reached_;
}

}  // namespace pqsift::scan
