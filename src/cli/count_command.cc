// `pqsift count PATH... [--where EXPR] [--no-prune] [--threads N] [--stats] [--stats-json FILE]`:
// prints the number of rows that match (count(*)). Row groups the statistics prove fully
// matched are counted from their metadata; only the others read the filter's columns.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dataset_args.h"
#include "cli/progress.h"
#include "cli/report_files.h"
#include "pqsift/scan.h"

namespace pqsift::cli {
namespace {

struct CountArgs {
  DatasetArgs dataset;
  std::string where;
  bool no_prune = false;
  bool no_dictionary = false;
  bool no_page_headers = false;
  int threads = 0;
  bool stats = false;
  std::string stats_json;
};

int RunCount(const CountArgs& args) {
  ScanOptions options;
  options.count_only = true;
  options.filter = args.where;
  options.prune = !args.no_prune;
  options.pruning.dictionary = !args.no_dictionary;
  options.pruning.page_headers = !args.no_page_headers;
  options.threads = args.threads;
  auto scanner = OpenScan(args.dataset, options);
  if (!scanner.ok()) return ReportError(scanner.status());
  int64_t rows = 0;
  {
    Progress progress;
    for (;;) {
      auto batch = (*scanner)->Next();
      if (!batch.ok()) return ReportError(batch.status());
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows;
      if (progress.enabled()) progress.Update(rows, (*scanner)->stats());
    }
  }
  std::cout << rows << '\n';
  std::cout.flush();
  if (!std::cout) return ReportError(Status::IOError("stdout: write failed"));
  ScanStats stats = (*scanner)->stats();
  Status reported = ReportStats(stats, args.stats, args.stats_json);
  if (!reported.ok()) return ReportError(reported);
  return 0;
}

}  // namespace

Command AddCountCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand("count", "Print the number of rows that match (count(*)).");
  auto args = std::make_shared<CountArgs>();
  AddDatasetOptions(sub, args->dataset);
  AddKeyOptions(sub, args->dataset.keys);
  AddVirtualColumnOptions(sub, args->dataset);
  sub->add_option("--where", args->where,
                  "Count only the rows where EXPR is true (SQL-like; docs/filter-language.md)");
  sub->add_flag("--no-prune", args->no_prune,
                "Prune nothing: filter every row of every row group (same result)");
  sub->add_flag("--no-dictionary", args->no_dictionary,
                "Do not read dictionary pages to prune (the other stages still run)");
  sub->add_flag("--no-page-headers", args->no_page_headers,
                "Do not read page headers to prune chunks without a column index");
  sub->add_option("--threads", args->threads, "Decoding threads (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--stats", args->stats, "After the count, print on stderr what it read and pruned");
  sub->add_option("--stats-json", args->stats_json, "Write the same counters as JSON to FILE");
  return {sub, [args] { return RunCount(*args); }};
}

}  // namespace pqsift::cli
