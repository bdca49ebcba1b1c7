// `pqsift splits PATH... --target-bytes N [--where EXPR] [--with-row-index [NAME]]
// [--with-filename [NAME]] [--json]`: byte-range splits of the
// row groups a scan would read (after file and row-group pruning), one FILE:START:END per
// line; `pqsift scan --split FILE:START:END` scans one. Each row group the plan reads is in
// exactly one split (the midpoint rule, pqsift/dataset.h).
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include "cli/command.h"
#include "cli/dataset_args.h"
#include "pqsift/dataset.h"

namespace pqsift::cli {
namespace {

using json = nlohmann::ordered_json;

struct SplitsArgs {
  DatasetArgs dataset;
  std::string where;
  uint64_t target_bytes = uint64_t{128} << 20;
  bool json = false;
  bool no_prune = false;
};

int RunSplits(const SplitsArgs& args) {
  auto dataset = DiscoverDataset(args.dataset);
  if (!dataset.ok()) return ReportError(dataset.status());
  ScanOptions options;
  options.filter = args.where;
  options.prune = !args.no_prune;
  // A filter on a virtual column plans as the scan of a split will run it: files skipped by
  // their names, row groups by the row positions the filter allows.
  if (Status st = ApplyVirtualColumns(args.dataset, &options); !st.ok()) return ReportError(st);
  auto splits = PlanSplits(*dataset, options, args.target_bytes);
  if (!splits.ok()) return ReportError(splits.status());
  if (args.json) {
    json out = json::array();
    for (const Split& s : *splits) {
      out.push_back({{"path", s.path},
                     {"start", s.start},
                     {"end", s.end},
                     {"row_groups", s.row_groups},
                     {"rows", s.rows}});
    }
    std::cout << out.dump(2) << '\n';
  } else {
    for (const Split& s : *splits) std::cout << s.path << ':' << s.start << ':' << s.end << '\n';
  }
  std::cout.flush();
  if (!std::cout) return ReportError(Status::IOError("stdout: write failed"));
  return 0;
}

}  // namespace

Command AddSplitsCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "splits", "Print byte-range splits (FILE:START:END) of the row groups a scan would read.");
  auto args = std::make_shared<SplitsArgs>();
  AddDatasetOptions(sub, args->dataset);
  AddVirtualColumnOptions(sub, args->dataset);
  sub->add_option("--target-bytes", args->target_bytes,
                  "About this many bytes of column data per split (row groups are never cut)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--where", args->where, "Only row groups this filter may match (as for scan)");
  sub->add_flag("--no-prune", args->no_prune, "Split every row group");
  sub->add_flag("--json", args->json, "Print the splits as JSON, with row group and row counts");
  return {sub, [args] { return RunSplits(*args); }};
}

}  // namespace pqsift::cli
