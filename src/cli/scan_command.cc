// `pqsift scan PATH... [--select ...] [--where EXPR] [--order-by KEYS] [--limit N] [--format ...]
// [-o FILE]
// [--threads N] [--stats] [--stats-json FILE] [--no-prune]`: decodes the selected columns of the
// rows that match and writes them as CSV, JSON Lines, a table, nothing, or a Parquet file. With
// --order-by and --limit K: the first K rows in that order (top-k).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dataset_args.h"
#include "cli/output/batch_writer.h"
#include "cli/progress.h"
#include "cli/report_files.h"
#include "pqsift/scan.h"

namespace pqsift::cli {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size() && !list.empty()) {
    size_t comma = list.find(',', pos);
    std::string part =
        list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t b = part.find_first_not_of(' '), e = part.find_last_not_of(' ');
    if (b != std::string::npos) out.push_back(part.substr(b, e - b + 1));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

namespace {

struct ScanArgs {
  DatasetArgs dataset;
  std::string split;
  std::string select;
  std::string where;
  std::string order_by;
  bool no_prune = false;
  bool no_dictionary = false;
  bool no_page_headers = false;
  int64_t page_headers_min_bytes = int64_t{256} << 10;
  std::string stats_json;
  std::string stats_html;
  int64_t limit = -1;
  std::string format = "csv";
  std::string output;
  int threads = 0;
  int64_t batch_size = int64_t{64} * 1024;
  int64_t slice_rows = 0;
  uint64_t prefetch_bytes = ScanOptions{}.prefetch_bytes;
  int64_t page_locations_min_bytes = int64_t{1} << 20;
  bool verify_crc = false;
  int64_t max_page_bytes = ScanOptions{}.max_page_bytes;
  std::optional<uint64_t> footer_read_bytes;  // unset: TailBytes' default
  bool stats = false;
  std::string binary = "hex";
};

int RunScan(const ScanArgs& args) {
  static const std::map<std::string, OutputFormat> kFormats = {{"csv", OutputFormat::kCsv},
                                                               {"jsonl", OutputFormat::kJsonLines},
                                                               {"table", OutputFormat::kTable},
                                                               {"none", OutputFormat::kNone}};
  auto format = kFormats.find(args.format);
  const bool parquet = args.format == "parquet";
  if (format == kFormats.end() && !parquet) {
    return ReportError(Status::InvalidArgument("unknown --format '" + args.format +
                                               "' (csv, jsonl, table, none, parquet)"));
  }
  if (parquet && args.output.empty()) {
    return ReportError(Status::InvalidArgument("--format parquet needs -o FILE"));
  }
  ScanOptions options;
  options.columns = SplitList(args.select);
  options.limit = args.limit;
  options.filter = args.where;
  if (!args.order_by.empty() && args.limit < 0) {
    return ReportError(Status::InvalidArgument("--order-by needs --limit K (top-k)"));
  }
  options.order_by = args.order_by;
  options.prune = !args.no_prune;
  options.pruning.dictionary = !args.no_dictionary;
  options.pruning.page_headers = !args.no_page_headers;
  options.pruning.min_page_header_chunk_bytes = args.page_headers_min_bytes;
  options.threads = args.threads;
  options.batch_size = args.batch_size;
  options.slice_rows = args.slice_rows;
  options.prefetch_bytes = args.prefetch_bytes;
  options.page_locations_min_chunk_bytes = args.page_locations_min_bytes;
  options.verify_crc = args.verify_crc;
  options.max_page_bytes = args.max_page_bytes;
  options.open.tail_bytes = args.footer_read_bytes;
  auto scanner = OpenScan(args.dataset, options, args.split);
  if (!scanner.ok()) return ReportError(scanner.status());
  // --stats-html pictures the plan as it stood before the scan read any data (its forecast),
  // next to what the scan then read.
  std::optional<AccessPlan> plan;
  if (!args.stats_html.empty()) plan = (*scanner)->plan();

  std::ofstream file;
  if (!args.output.empty() && !parquet) {
    file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!file) return ReportError(Status::IOError(args.output + ": cannot open for writing"));
  }
  std::ostream& out = args.output.empty() ? std::cout : file;
  OutputOptions output_options;
  output_options.binary_as_base64 = args.binary == "base64";
  auto writer = parquet ? MakeParquetBatchWriter(args.output, (*scanner)->schema())
                        : MakeBatchWriter(format->second, out, output_options);
  if (!writer.ok()) return ReportError(writer.status());

  Progress progress;
  bool wrote = false;
  for (;;) {
    auto batch = (*scanner)->Next();
    if (!batch.ok()) return ReportError(batch.status());
    if (*batch == nullptr) break;
    Status st = (*writer)->Write(**batch);
    if (!st.ok()) return ReportError(st);
    wrote = true;
    if (progress.enabled()) {
      ScanStats s = (*scanner)->stats();
      progress.Update(s.rows_returned, s);
    }
  }
  // No batch (every row filtered out or pruned): the header of CSV and tables still comes.
  if (!wrote && !parquet) {
    Status empty = WriteEmptyResult(**writer, (*scanner)->schema());
    if (!empty.ok()) return ReportError(empty);
  }
  Status st = (*writer)->Finish();
  if (!st.ok()) return ReportError(st);
  out.flush();
  if (!parquet && !out) {
    return ReportError(
        Status::IOError((args.output.empty() ? "stdout" : args.output) + ": write failed"));
  }
  ScanStats stats = (*scanner)->stats();
  Status reported = ReportStats(stats, args.stats, args.stats_json);
  if (!reported.ok()) return ReportError(reported);
  if (plan) {
    reported = WriteReportFile(args.stats_html, ExplainHtml(*plan, &stats));
    if (!reported.ok()) return ReportError(reported);
  }
  return 0;
}

}  // namespace

Command AddScanCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand("scan", "Read columns of Parquet files and write them out.");
  auto args = std::make_shared<ScanArgs>();
  AddDatasetOptions(sub, args->dataset, /*paths_optional=*/true);
  AddKeyOptions(sub, args->dataset.keys);
  AddVirtualColumnOptions(sub, args->dataset);
  sub->add_option("--split", args->split,
                  "Scan one split FILE:START:END (from pqsift splits): the row groups of FILE "
                  "whose byte midpoint lies in [START, END)");
  sub->add_option("--select", args->select,
                  "Comma-separated columns to read (dotted paths for nested fields: s.a); "
                  "default: all");
  sub->add_option("--where", args->where,
                  "Return only the rows where EXPR is true (SQL-like; docs/filter-language.md)");
  sub->add_option("--order-by", args->order_by,
                  "With --limit K: the first K rows in this order, as SQL ORDER BY: \"ts DESC, "
                  "id\", NULLS FIRST|LAST (default ASC NULLS LAST, as DuckDB)");
  sub->add_flag("--no-prune", args->no_prune,
                "Prune nothing: read every row group and filter every row (same result)");
  sub->add_flag("--no-dictionary", args->no_dictionary,
                "Do not read dictionary pages to prune (the other stages still run)");
  sub->add_flag("--no-page-headers", args->no_page_headers,
                "Do not read page headers to prune chunks without a column index");
  sub->add_option("--page-headers-min-bytes", args->page_headers_min_bytes,
                  "Chunks smaller than this are not walked for their page headers")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--page-locations-min-bytes", args->page_locations_min_bytes,
                  "Chunks without an offset index smaller than this are read whole, not page by "
                  "page from their headers' locations")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--limit", args->limit, "Stop after N rows")->check(CLI::NonNegativeNumber);
  sub->add_option("--format", args->format,
                  "Output: csv (RFC 4180, header row), jsonl (one object per line), table "
                  "(aligned, for terminals), none (decode only, for timing), parquet (a file "
                  "with statistics and page index; needs -o)")
      ->capture_default_str();
  sub->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  sub->add_option("--threads", args->threads, "Decoding threads (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--batch-size", args->batch_size, "Rows per batch")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--prefetch-bytes", args->prefetch_bytes,
                  "Remote files: bytes of the next slices fetched while earlier ones decode, at "
                  "most (default 128 MiB; 0: each slice's when it starts)");
  sub->add_option("--slice-rows", args->slice_rows,
                  "Rows per slice, a thread's unit of work (default: chosen per row group)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--verify-crc", args->verify_crc,
                "Check page CRCs where the writer stored them; a mismatch is an error");
  sub->add_option("--max-page-bytes", args->max_page_bytes,
                  "Memory limit per page: a page declaring more uncompressed bytes (or levels "
                  "needing more) is refused as corrupt or hostile")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--footer-read-bytes", args->footer_read_bytes,
                  "Bytes read from the end of each file with the footer in one request (column "
                  "data and page indexes they cover are not read again); default: 64 KiB of a "
                  "local file, 512 KiB of a remote one");
  sub->add_option("--binary", args->binary, "How binary values are written: hex or base64")
      ->check(CLI::IsMember({"hex", "base64"}))
      ->capture_default_str();
  sub->add_flag("--stats", args->stats,
                "After the scan, print on stderr what it read and pruned (bytes, requests, row "
                "groups, pages, rows, time per stage)");
  sub->add_option("--stats-json", args->stats_json, "Write the same counters as JSON to FILE");
  sub->add_option("--stats-html", args->stats_html,
                  "Write the access plan and what the scan read as one self-contained HTML page "
                  "to FILE (as explain --html, with the scan's counters and time per stage)");
  return {sub, [args] { return RunScan(*args); }};
}

}  // namespace pqsift::cli
