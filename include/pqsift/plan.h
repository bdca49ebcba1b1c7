// The access plan and the scan report as plain values: what a scan will read and why (the
// plan), and what it read (the stats), with the text, JSON and HTML forms every front end prints.
//
// A Scanner (pqsift/scan.h) builds its plan when it opens; Scanner::plan() returns it as an
// AccessPlan, Scanner::stats() the ScanStats so far. Both are copies owned by the caller: plain
// structs of strings, numbers and vectors, no pointers into the scan, valid after it is gone,
// safe to move between threads. Every number is exact (the same counters the scan keeps).
//
// The plan, per file and row group, lists every pruning stage that proved something about the
// row group (a Verdict: skipped it, narrowed its rows, proved rows or all of it matched) with
// the evidence as text, and per column chunk the pages the offset index places, each with its
// fate. The explain report is made from these values alone (ExplainText, ExplainJson,
// ExplainHtml), so the CLI, the Python package and any embedder print the same thing.
//
// Errors: none; these are values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pqsift {

// Rows [begin, end) of a row group.
struct RowSpan {
  int64_t begin = 0;
  int64_t end = 0;
};

// What a row group's plan is: read nothing, every row, or some row ranges.
enum class RowGroupDecision : uint8_t { kSkip, kScan, kSelection };

// What one stage proved about a row group.
enum class VerdictKind : uint8_t {
  kSkipped,       // no row can satisfy the filter: the row group is not read
  kNarrowed,      // rows that cannot satisfy it left the selection
  kFullyMatched,  // every selected row satisfies it: no per-row filter
  kRowsMatched,   // some selected rows satisfy it: the per-row filter skips them
};

struct Verdict {
  std::string stage;  // "row-group statistics", "page index", "page headers", "dictionary", ...
  VerdictKind kind = VerdictKind::kNarrowed;
  int64_t rows_before = 0;   // selected rows before the stage
  int64_t rows_after = 0;    // and after it
  int64_t rows_matched = 0;  // rows proven to match after it
  // What the stage saw: "min(ts) = TIMESTAMP '2026-01-01 00:00:00', max(ts) = ...: no row can
  // satisfy the filter". Bounds are printed as literals of the column's type.
  std::string evidence;
};

// Where a page (or a whole chunk) ends up.
enum class Fate : uint8_t {
  kRead,          // read, and the per-row filter runs on its rows
  kFullyMatched,  // read; every selected row of it proven to match
  kSkipped,       // not read: `stage` proved it holds no row the scan needs
};

// One data page of a column chunk, as the offset index places it.
struct PagePlan {
  int64_t first_row = 0;  // in the row group
  int64_t num_rows = 0;
  int64_t offset = 0;  // in the file
  int64_t compressed_bytes = 0;
  Fate fate = Fate::kRead;
  // For kSkipped: the stage whose verdict left the page without a selected row; for
  // kFullyMatched: the stage that proved its rows. Empty for kRead.
  std::string stage;
  int64_t rows_selected = 0;  // of the page's rows, those the plan reads
  // The page's bounds from the column index ("min(id) = 5, max(id) = 9, nulls(id) = 0"), for
  // the filter's columns; empty when there is none.
  std::string bounds;
};

// One column chunk of a row group the scan reads (an output or a filter column).
struct ColumnChunkPlan {
  std::string path;  // dotted leaf path
  bool filter_column = false;
  int64_t offset = 0;  // where the chunk's first page starts
  int64_t compressed_bytes = 0;
  int64_t uncompressed_bytes = 0;
  // The chunk's footer statistics under the trust rules, for filter columns ("" when none).
  std::string bounds;
  // Its data pages, where an offset index (written, or read from the page headers by a stage)
  // places them; empty otherwise (then the chunk is read whole or not at all).
  std::vector<PagePlan> pages;
};

struct RowGroupPlan {
  int64_t index = 0;  // in the file
  int64_t num_rows = 0;
  int64_t compressed_bytes = 0;  // of every column chunk of the row group
  RowGroupDecision decision = RowGroupDecision::kScan;
  std::vector<RowSpan> selection;  // the rows read, for kSelection
  int64_t rows_selected = 0;
  bool fully_matched = false;
  int64_t rows_matched = 0;              // rows proven to match (all selected when fully_matched)
  std::string decided_by;                // the stage of the last verdict ("" when none)
  std::vector<Verdict> verdicts;         // every stage that changed the plan, in the order they ran
  std::vector<ColumnChunkPlan> columns;  // the chunks the scan reads, in leaf order
};

// Files never opened: the dataset's evidence proved no row of them can match (or, for a count,
// gave their rows).
enum class FileFate : uint8_t {
  kOpened,
  kSkippedByPartition,
  kSkippedByManifest,
  kCountedByManifest,
};

struct FilePlan {
  std::string path;
  uint64_t size = 0;  // bytes
  FileFate fate = FileFate::kOpened;
  // For files not opened, or whose every row the dataset's evidence proved: what proved it
  // ("day=2026-01-05"); empty otherwise.
  std::string evidence;
  int64_t num_rows = -1;                 // -1: unknown (a file never opened)
  std::vector<RowGroupPlan> row_groups;  // empty for files not opened
};

// What one pruning stage decided and what its evidence cost, summed over the files.
struct StagePlan {
  std::string stage;
  int64_t row_groups_considered = 0;
  int64_t row_groups_skipped = 0;
  int64_t row_groups_fully_matched = 0;
  int64_t rows_pruned = 0;
  int64_t rows_matched = 0;  // rows proven to match in row groups not fully matched
  int64_t pages_total = 0;   // page stages: data pages of the filter columns they cut
  int64_t pages_pruned = 0;
  int64_t pages_ruled_out_by_search = 0;
  uint64_t bytes_read = 0;  // evidence fetched (page indexes, dictionaries, bloom filters)
  uint64_t requests = 0;
  uint64_t round_trips = 0;
  int64_t evidence_loaded = 0;  // evidence stages: items fetched, too large to fetch, unusable
  int64_t evidence_too_large = 0;
  int64_t evidence_unusable = 0;
  double seconds = 0;
};

// What the plan says a scan will read, before it reads any data page.
struct ScanEstimate {
  // Column chunk bytes of the projected and filter columns (only the pages a selection needs,
  // where the offset index says where they are).
  uint64_t bytes_to_read = 0;
  // The byte ranges those bytes lie in (a chunk, or a run of needed pages): the requests a scan
  // sends before the I/O layer merges neighbours closer than the store's gap (so at most that).
  uint64_t ranges_to_read = 0;
  // Of remote files (HTTP, S3): the requests and waves (round trips, when nothing else delays
  // them) the scan's data reads will make as its prefetch plans them: consecutive slices of a
  // row group in one wave, a wave's reads of a column one request. 0 for local files, whose
  // pages the threads read as they decode them, and for scans that do not prefetch (a limit,
  // an order): their slices read at launch. (A lower bound past 65,536 slices.)
  uint64_t remote_requests = 0;
  uint64_t remote_waves = 0;
  int64_t row_groups_to_read = 0;
  int64_t rows_to_read = 0;
};

struct AccessPlan {
  std::string filter;             // as given ("" when none)
  std::vector<FilePlan> files;    // every file of the scan, opened or not, in the scan's order
  std::vector<StagePlan> stages;  // in the order they ran
  // The dataset's counts (files not opened also appear in `files`).
  uint64_t files_total = 0;
  uint64_t files_skipped_by_partition = 0;
  uint64_t files_skipped_by_manifest = 0;
  uint64_t footers_read = 0;
  uint64_t row_groups_total = 0;
  uint64_t row_groups_skipped = 0;
  uint64_t row_groups_fully_matched = 0;
  int64_t rows_total = 0;
  uint64_t file_bytes = 0;           // of the opened files
  uint64_t bytes_read_for_plan = 0;  // footers and evidence, read while planning
  ScanEstimate forecast;
};

// What one pruning stage of the plan decided and what its evidence cost (in ScanStats).
struct StageStats {
  std::string stage;  // "row-group statistics", "page index", "dictionary", ...
  uint64_t row_groups_considered = 0;
  uint64_t row_groups_skipped = 0;
  uint64_t row_groups_fully_matched = 0;
  int64_t rows_pruned = 0;
  uint64_t bytes_read = 0;  // evidence fetched (also counted in ScanStats::bytes_read)
  double seconds = 0;
  uint64_t requests = 0;     // the stage's reads (one wave for all files: see round_trips)
  uint64_t round_trips = 0;  // sequential waits they cost
  uint64_t waves = 0;        // waves of requests (see ScanStats::waves)
  uint64_t retries = 0;      // requests sent again
  double io_wait_seconds = 0;
};

// What a scan cost and produced so far. Exact: every byte read goes through the counted I/O.
struct ScanStats {
  // Files of the dataset (after path expansion), those never opened because their partition
  // values or the manifest's statistics proved no row can match, and footers decoded (the
  // footer cache spares the others).
  uint64_t files_total = 0;
  uint64_t files_skipped_by_partition = 0;
  uint64_t files_skipped_by_manifest = 0;
  uint64_t footers_read = 0;
  // A count (count_only) of files proven fully matched: their rows from the manifest, unopened.
  uint64_t files_counted_by_manifest = 0;
  uint64_t files = 0;       // files opened (their footers known)
  uint64_t file_bytes = 0;  // total size of the files
  uint64_t bytes_read = 0;  // footers, pruning evidence and column chunks
  uint64_t read_requests = 0;
  // Remote stores: requests sent again after transient failures (5xx, 429, resets, truncated
  // bodies, stalls); not counted in read_requests.
  uint64_t retries = 0;
  // Sequential round trips: busy periods of the stores, where a wave of requests sent side by
  // side, or while others are in flight (the data fetched ahead), counts once (pqsift/io.h);
  // waves: the waves of requests themselves, each once (exact for a fixed plan, whatever the
  // timing); the wall time with at least one thread waiting on a store (latency the prefetch did
  // not hide), and with at least one request in flight.
  uint64_t round_trips = 0;
  uint64_t waves = 0;
  double io_wait_seconds = 0;
  double io_busy_seconds = 0;
  // Opening the files and reading their footers (part of the totals above).
  uint64_t footer_requests = 0;
  uint64_t footer_round_trips = 0;
  uint64_t footer_bytes = 0;
  uint64_t footer_waves = 0;
  uint64_t footer_retries = 0;
  double footer_io_wait_seconds = 0;
  uint64_t row_groups = 0;                // in the files
  uint64_t row_groups_skipped = 0;        // by the plan (pruned, or beyond a limit)
  uint64_t row_groups_fully_matched = 0;  // by the plan: read without a per-row filter
  uint64_t row_groups_read = 0;           // whose data the scan started to read
  // Data pages of the column chunks the scan opened: decoded, and passed over undecoded (row
  // groups the plan skipped are not opened, so their pages are not counted). pages_total
  // includes the pages not fetched at all: the offset index showed they hold no selected row;
  // bytes_not_fetched are the column chunk bytes that saved.
  uint64_t pages_total = 0;
  uint64_t pages_read = 0;
  uint64_t pages_not_fetched = 0;
  uint64_t bytes_not_fetched = 0;
  // Pages (data and dictionary) whose bodies were decompressed (stored uncompressed: taken as
  // they are) and decoded, and their uncompressed bytes: of a large ZSTD or GZIP page, which is
  // decompressed only as far as its rows are read, the bytes decompressed. A scan decompresses a
  // page at most once, however it cuts its rows into slices: a reader is handed from slice to
  // slice.
  uint64_t pages_decompressed = 0;
  uint64_t bytes_decompressed = 0;
  // Row groups and pages of the constrained columns a runtime filter ruled out right before
  // their fetch (not counted in row_groups_skipped, which the plan decided).
  uint64_t row_groups_skipped_at_runtime = 0;
  uint64_t pages_skipped_at_runtime = 0;
  int64_t rows_total = 0;     // in the files
  int64_t rows_decoded = 0;   // rows decoded in at least one column
  int64_t rows_returned = 0;  // rows handed out by Next()
  double plan_seconds = 0;    // footers and pruning stages (wall)
  double filter_seconds = 0;  // decoding filter columns and evaluating the filter (all threads)
  double decode_seconds = 0;  // decoding the returned columns (all threads)
  std::vector<StageStats> stages;  // the plan's stages, in the order they ran
  // Dictionary page bytes the dictionary stage fetched that the scan then used instead of
  // reading them again.
  uint64_t evidence_bytes_reused = 0;
};

// The explain report: per file and row group the decision, why (the last stage that decided,
// and every verdict with its evidence), per stage its counts, the bytes the scan will read.
// The text is for people (`pqsift explain`); the JSON is one object for programs (keys:
// docs/cli.md), the same facts, so the two always agree. With `chunks`, the JSON also lists each
// row group's column chunks and their pages (`explain --json --chunks`; left out by default, as
// a wide file's chunks would make the report many times longer than the rest).
std::string ExplainText(const AccessPlan& plan);
std::string ExplainJson(const AccessPlan& plan, int indent = 2, bool chunks = false);

// The counters of a scan as text (`pqsift scan --stats`) and as one JSON object
// (`--stats-json`, keys: docs/cli.md).
std::string StatsText(const ScanStats& stats);
std::string StatsJson(const ScanStats& stats, int indent = 2);

// The plan as one self-contained HTML page (no network, no external scripts or fonts): per file
// a grid of row groups by columns, pages to scale by bytes, each coloured by its fate, a
// legend, totals per stage, the evidence on hover or click; datasets of many files grouped,
// with details on demand. With `stats` (after a scan): also what was fetched, decompressed and
// decoded, and the time per stage.
std::string ExplainHtml(const AccessPlan& plan, const ScanStats* stats = nullptr);

}  // namespace pqsift
