// The planner: builds a scan's access plan by running the pruning stages over each file,
// cheapest evidence first, each stage only over what the previous ones left undecided:
// row-group statistics, page index, dictionary (then, without a filter, the limit). Before a
// stage runs, the ranges it states it needs (PruningStage::Needs) are fetched for every file
// in one wave, so a stage costs one round trip however many files it reads.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "expr/expr.h"
#include "format/page_index_store.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/access_plan.h"
#include "prune/stage.h"

namespace pqsift::scan {

struct PlanInput {
  RandomAccessFile* file = nullptr;
  const ParquetMetadata* metadata = nullptr;
  const expr::BoundFilter* filter = nullptr;  // bound to this file; null: no filter
  // Where the stages keep the page indexes they load (null: nowhere, the scan does not use them)
  // and the leaves the scan reads (their offset indexes are loaded with the filter's).
  format::PageIndexStore* page_indexes = nullptr;
  std::span<const int32_t> read_leaves;
  // Where the dictionary stage fetches dictionary pages (null: the stage does nothing here).
  prune::DictionarySource* dictionaries = nullptr;
  // Non-empty: evidence above the file (partition values, the manifest; named here) proved
  // every row matches: every row group starts fully matched, decided by it.
  std::string_view fully_matched_by;
  // Row groups outside the scan (a split), skipped before any stage; empty: none.
  std::span<const uint8_t> excluded_row_groups;
  // The name of the virtual row index column (ScanOptions::row_index_column; empty: none): the
  // row positions stage proves the filter's conditions on it from the footer's row counts.
  std::string_view row_index_column = {};
};

struct PlanOptions {
  bool prune = true;         // false: no stage runs (every row group is scanned)
  int64_t limit = -1;        // without a filter, row groups past the first `limit` rows are skipped
                             // (scan/limit.h)
  bool dictionary = true;    // false: the dictionary stage does not run
  bool page_headers = true;  // false: the page-header stage does not run
  int64_t min_page_header_chunk_bytes = int64_t{256} << 10;
  prune::DictionaryStageOptions dictionary_options;
  // The scan's I/O counters: each stage's report gets its requests and round trips (null:
  // not counted).
  IoCounters* io = nullptr;
};

// Every row group starts as Scan; the stages narrow. A stage error (e.g. unreadable evidence)
// fails the plan: evidence we cannot read is a sign of a broken file, reported, not ignored.
Result<prune::AccessPlan> BuildAccessPlan(std::span<const PlanInput> files,
                                          const PlanOptions& options);

}  // namespace pqsift::scan
