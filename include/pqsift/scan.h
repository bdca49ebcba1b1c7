// Scanning Parquet files into Arrow-layout record batches.
//
// A Scanner reads the projected columns of one or more files and returns the rows that satisfy
// the filter, as batches in file order (or, with ScanOptions::order_by and a limit, the first
// rows in that order). Open() reads the footers and builds the access plan
// (pqsift/plan.h): the pruning stages decide, from the cheapest evidence first, which row
// groups cannot match (skipped: no byte of them is read) and which match on every row (fully
// matched: no per-row filter). Next() carries the plan out: row groups (and within them,
// columns) are decoded in parallel on a pool of `threads` workers; the filter's columns are
// decoded first and only the rows that match are decoded from the other columns. At most a few
// row groups are decoded ahead of the consumer, so memory stays bounded however large the files.
//
// Example:
//   ScanOptions options;
//   options.columns = {"id", "s.a"};
//   auto scanner = Scanner::Open({"data.parquet"}, options);
//   if (!scanner.ok()) return scanner.status();
//   for (;;) {
//     auto batch = (*scanner)->Next();
//     if (!batch.ok()) return batch.status();
//     if (*batch == nullptr) break;  // the end
//     Use(**batch);
//   }
//
// Thread safety: a Scanner is used by one thread at a time (it runs its own workers inside).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/arrow_export.h"
#include "pqsift/parquet_file.h"
#include "pqsift/plan.h"
#include "pqsift/runtime_filter.h"
#include "pqsift/status.h"

namespace pqsift {

struct ScannerInternals;  // the library's own access (src/scan/scanner_internals.h)

// The order in which a scan reads row groups, most promising first for the first rows of
// ORDER BY column [DESC] [NULLS FIRST]: by the statistics' max (DESC) or min (ASC), row groups
// that may hold NULLs first when NULLs sort first, unknown statistics last.
struct ReadOrder {
  std::string column;  // a leaf column, dotted path
  bool descending = false;
  bool nulls_first = false;
};

// Which pruning stages run (when ScanOptions::prune) and what they may fetch.
struct PruningOptions {
  // Read the dictionary pages of filter columns whose data pages are all dictionary-encoded and
  // test the predicate on their values.
  bool dictionary = true;
  // Read the page headers of filter columns whose chunks have no column index and test the
  // predicate on their statistics (the pages themselves are not read for that).
  bool page_headers = true;
  // Chunks smaller than this are not walked for their page headers (reading the headers costs
  // about what skipping their pages would save).
  int64_t min_page_header_chunk_bytes = int64_t{256} << 10;
  // Dictionary pages larger than this are not read for pruning.
  uint64_t max_dictionary_bytes = uint64_t{1} << 20;
};

struct ScanOptions {
  // Dotted paths of the columns to return ("id", "s.a" for a struct field, "tags" for a whole
  // list). A group returns all its fields. Empty: every top-level field.
  std::vector<std::string> columns;
  // True: return batches without columns, only row counts (count(*)): `columns` is ignored and
  // only the filter's columns are read, and only for row groups not proven fully matched.
  bool count_only = false;
  int64_t batch_size = int64_t{64} * 1024;  // rows per batch at most
  // Rows per slice, the unit of work of a thread (0: chosen per row group, at most 128Ki rows
  // and about 16 MiB). Tests set it small to cut row groups into many slices.
  int64_t slice_rows = 0;
  // Column chunks without an offset index of at least this many bytes get their page locations
  // from their page headers (a few small reads) when the scan cuts their row group into slices or
  // reads it in part: each reader then fetches only the pages it needs, while it needs them, and
  // slices start at page starts. Smaller chunks are read whole. Tests set 0.
  int64_t page_locations_min_chunk_bytes = int64_t{1} << 20;
  int threads = 0;  // decoding threads; 0: one per core
  // Remote files: the bytes of the next slices are fetched while the slices before them decode,
  // as long as what they hold (fetched or in flight, not yet decoded) stays under this (plus one
  // slice's); 0: each slice's bytes are fetched when it is launched. Not with a limit or a
  // runtime filter (which may leave later slices unread): those fetch at launch. Local files
  // are read by the tasks themselves (prefetching them measured no faster, with 3.5x the
  // memory). 128 MiB covers 100 ms of latency at 1 GiB/s.
  uint64_t prefetch_bytes = uint64_t{128} << 20;
  int64_t limit = -1;  // stop after this many rows; -1: no limit
  // A filter in the `--where` language (docs/filter-language.md); empty: every row.
  std::string filter;
  // False: no pruning stage runs; every row group is read and the filter evaluated on every row
  // (for comparison and debugging; the result is the same). A runtime filter then skips no row
  // group either; it only filters rows.
  bool prune = true;
  PruningOptions pruning;
  bool verify_crc = false;  // check page CRCs where written (a mismatch is an error)
  // Memory limit per page, against hostile files: a page declaring a larger uncompressed size,
  // or whose levels (2 bytes each, held whole) would take more, is refused before anything is
  // allocated. Declared sizes are also checked against what the compressed bytes can expand to.
  int64_t max_page_bytes = int64_t{512} << 20;
  OpenOptions open;
  // Constraints published while the scan runs (runtime_filter.h): checked against the
  // statistics of each row group and loaded page index right before it is fetched, and applied
  // to the rows read. Null: none.
  std::shared_ptr<RuntimeFilter> runtime_filter;
  // Set: row groups are read in this order (then batches do not come in file order), and only
  // one at a time until the runtime filter has something published.
  std::optional<ReadOrder> read_order;
  // SQL ORDER BY ("ts DESC, id NULLS FIRST"; defaults ASC NULLS LAST, as DuckDB): with `limit`
  // K, the scan returns the first K rows in that order (top-k): it reads row groups in the order
  // their statistics promise for the first key and, once it holds K rows, prunes the rest with a
  // runtime filter on that key. Needs limit >= 0; not with count_only or runtime_filter (it uses
  // its own). The keys need not be among `columns`. Empty: file order.
  std::string order_by;
  // Virtual columns (empty name: none), appended after the files' columns and partition columns
  // under these names, usable in the projection, the filter and ORDER BY; a file or partition
  // column of the same name is an error.
  // row_index_column: BIGINT, each row's 0-based position in its file: the footer's row counts
  // of the row groups before its own (read or not) plus its position in its row group, the same
  // under every pruning stage, LIMIT, top-k and splits (a position in the file, not the split).
  // A filter on it is a pruning stage of its own ("row positions"): row groups and pages
  // outside the rows it allows are never read. CLI: --with-row-index [NAME].
  std::string row_index_column;
  // filename_column: VARCHAR, the path or URL of the row's file as the scan names it. A filter
  // on it is decided per file before its footer is read, as a partition value is. In the
  // batches it is dictionary-encoded (dictionary<values=large_string, indices=int32>): one
  // dictionary per file, shared by its batches, and int32 zeros, not the string per row.
  // CLI: --with-filename [NAME].
  std::string filename_column;
  // True: a flat string or binary output column comes, where its pages are dictionary-encoded
  // (with at most 16,384 entries), as dictionary arrays (dictionary<values=the column's type,
  // indices=int32>) over its column chunk's dictionary, converted once per chunk; its other
  // batches (pages of another encoding, or rows gathered from the filter's own reading of the
  // column) hold values. A batch's column is then of either type while the schema names the
  // values' type: for consumers that convert each distinct value once (the Python package's
  // to_pandas shares one str object per entry), not for writers of the schema's type. Ignored
  // with order_by (top-k merges rows across chunks).
  bool keep_dictionaries = false;
};

class Scanner : public BatchReader {
 public:
  // Opens every file, reads its footer and builds the access plan. InvalidArgument for an unknown
  // column, a filter that does not parse or type-check, or files whose projected or filter
  // columns have different types; the errors of ReadParquetMetadata otherwise.
  static Result<std::unique_ptr<Scanner>> Open(const std::vector<std::string>& paths,
                                               const ScanOptions& options);
  // Scans files that are already open (their metadata read).
  static Result<std::unique_ptr<Scanner>> Open(
      std::vector<std::shared_ptr<RandomAccessFile>> files,
      std::vector<std::shared_ptr<const ParquetMetadata>> metadata, const ScanOptions& options);
  // (Datasets: pqsift/dataset.h opens a Scanner over a dataset's files.)

  ~Scanner() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  // The next batch in file order, or nullptr at the end.
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ScanStats stats() const;
  // Stops the scan; callable from any thread, also while another thread is inside Next, which
  // then returns soon with an error: slices not started do nothing and those decoding stop at
  // their next window. For interrupting a scan (Ctrl-C in Python); afterwards the Scanner is
  // good for stats() and destruction only.
  void Cancel();
  // The access plan built by Open (pqsift/plan.h: per file, row group, column chunk and page,
  // what each stage proved and why, and the forecast), built on the first call and kept: the
  // reference stays valid as long as the Scanner.
  const AccessPlan& plan() const;
  ScanEstimate Estimate() const;

 private:
  friend struct ScannerInternals;
  struct State;
  explicit Scanner(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Optional, for applications (the pqsift CLI calls it first thing): sets the C allocator's
// process-wide options for scans. With glibc's defaults, each worker thread's heap is trimmed
// back to the system whenever a slice's vectors of a few megabytes are freed, and regrown, page
// fault by page fault, by the next slice: a third of a 20M-row scan's CPU time (32k faults,
// 3.2 s of CPU; 2.9k faults, 2.3 s with the options). Memory freed stays in the process, up to
// its peak in use. Does nothing outside glibc. Call it before starting threads.
void TuneAllocatorForScans();

}  // namespace pqsift
