// The public access plan (pqsift/plan.h) made from the executor's internal one
// (prune/access_plan.h) and the files as planning left them: per row group every verdict with
// its rows before and after, per column chunk its pages from the offset index with their fates,
// and the bounds behind them.
//
// A page's fate comes from the verdict history: skipped by the first stage whose selection no
// longer reaches it; fully matched when every selected row of it is proven; read otherwise.
//
// Pure: reads its inputs (built, immutable once the scan runs), allocates the result. Called
// by Scanner::plan() on the consumer's thread.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pqsift/plan.h"
#include "prune/access_plan.h"
#include "scan/planned_file.h"
#include "scan/scan_input.h"

namespace pqsift::scan {

struct PublicPlanInput {
  const prune::AccessPlan* plan = nullptr;              // one FilePlan per entry of `files`
  std::span<const std::shared_ptr<PlannedFile>> files;  // the opened files, in plan order
  std::span<const UnopenedFile> unopened;               // the dataset's files never opened
  std::string filter;
  ScanStats stats;
  ScanEstimate estimate;
};

AccessPlan MakePublicPlan(const PublicPlanInput& input);

}  // namespace pqsift::scan
