// `pqsift explain PATH... [--where EXPR] [--select ...] [--limit N] [--json] [--html OUT]
// [--no-prune]`: the access plan and why, without reading any data page: per row group whether
// the scan skips it, scans it or selects rows of it, every stage that proved something and its
// evidence, and the bytes the scan would read. The reports are the library's (pqsift/plan.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dataset_args.h"
#include "cli/report_files.h"
#include "pqsift/scan.h"

namespace pqsift::cli {
namespace {

struct ExplainArgs {
  DatasetArgs dataset;
  std::string select;
  std::string where;
  int64_t limit = -1;
  bool json = false;
  bool chunks = false;
  std::string html;
  bool no_prune = false;
  bool no_dictionary = false;
  bool no_page_headers = false;
};

int RunExplain(const ExplainArgs& args) {
  ScanOptions options;
  options.columns = SplitList(args.select);
  options.filter = args.where;
  options.limit = args.limit;
  options.prune = !args.no_prune;
  options.pruning.dictionary = !args.no_dictionary;
  options.pruning.page_headers = !args.no_page_headers;
  options.threads = 1;
  auto scanner = OpenScan(args.dataset, options);
  if (!scanner.ok()) return ReportError(scanner.status());
  const AccessPlan& plan = (*scanner)->plan();
  if (!args.html.empty()) {
    Status written = WriteReportFile(args.html, ExplainHtml(plan));
    if (!written.ok()) return ReportError(written);
  }
  if (args.json) {
    std::cout << ExplainJson(plan, 2, args.chunks) << '\n';
  } else if (args.html.empty()) {
    std::cout << ExplainText(plan);
  }
  std::cout.flush();
  if (!std::cout) return ReportError(Status::IOError("stdout: write failed"));
  return 0;
}

}  // namespace

Command AddExplainCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "explain", "Show what a scan would read and why, without reading any data page.");
  auto args = std::make_shared<ExplainArgs>();
  AddDatasetOptions(sub, args->dataset);
  AddKeyOptions(sub, args->dataset.keys);
  AddVirtualColumnOptions(sub, args->dataset);
  sub->add_option("--where", args->where, "The filter (as for scan)");
  sub->add_option("--select", args->select, "The columns (as for scan)");
  sub->add_option("--limit", args->limit, "A row limit (as for scan)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--json", args->json, "Print the plan as JSON");
  sub->add_flag("--chunks", args->chunks,
                "With --json: also each row group's column chunks and their pages, with fates");
  sub->add_option("--html", args->html,
                  "Write the plan as one self-contained HTML page to FILE (a grid of row groups "
                  "by columns, pages coloured by what pruned them; the text is then not printed)");
  sub->add_flag("--no-prune", args->no_prune, "Show the plan without pruning");
  sub->add_flag("--no-dictionary", args->no_dictionary,
                "Do not read dictionary pages to prune (the other stages still run)");
  sub->add_flag("--no-page-headers", args->no_page_headers,
                "Do not read page headers to prune chunks without a column index");
  return {sub, [args] { return RunExplain(*args); }};
}

}  // namespace pqsift::cli
