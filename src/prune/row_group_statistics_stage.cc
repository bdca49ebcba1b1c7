// The row-group statistics stage: footer min/max/null counts through the trust rules, proved
// for all undecided row groups of a file at once. No I/O.
#include <chrono>

#include "prune/proof.h"
#include "prune/stage.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

class RowGroupStatisticsStage final : public PruningStage {
 public:
  std::string_view name() const override { return "row-group statistics"; }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    if (!context.filter.root) return Status::OK();

    // Undecided: still read, and not yet known to match whole.
    std::vector<size_t> groups;
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      const RowGroupPlan& p = plan.row_groups[g];
      if (p.decision() != Decision::kSkip && !p.fully_matched) groups.push_back(g);
    }
    if (!groups.empty()) {
      StatisticsTable table = RowGroupStatisticsTable(context, groups);
      std::vector<Outcomes> outcomes = Prove(context.filter, table);
      std::string stage(name());
      for (size_t i = 0; i < groups.size(); ++i) {
        ApplyRowGroupOutcome(outcomes[i], stage, context.filter, table, i,
                             plan.row_groups[groups[i]], report);
      }
    }
    report.row_groups_considered += static_cast<int64_t>(groups.size());
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<PruningStage> MakeRowGroupStatisticsStage() {
  return std::make_unique<RowGroupStatisticsStage>();
}

}  // namespace pqsift::prune
