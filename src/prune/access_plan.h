// The access plan: the one place that says which rows of which row groups a scan reads, and why.
//
// Stages (prune/stage.h) only narrow it; the executor (scan/) carries it out. It is built before
// any data page is fetched, so `explain` prints it without reading data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pqsift/metadata.h"
#include "prune/row_selection.h"

namespace pqsift::prune {

enum class Decision : uint8_t { kSkip, kScan, kSelection };

// What one stage proved about a row group. Every stage that changed the plan of a row group
// leaves one (two when it both narrowed and proved rows matched), in the order they ran, so
// explain shows each proof and not only the last.
enum class VerdictKind : uint8_t { kSkipped, kNarrowed, kFullyMatched, kRowsMatched };
struct Verdict {
  std::string stage;
  VerdictKind kind = VerdictKind::kNarrowed;
  RowSelection rows;         // the row group's selection right after this verdict
  int64_t rows_matched = 0;  // rows proven to match right after it
  std::string evidence;      // what the stage saw, e.g. "max(ts) = 2026-02-28: no row matches"
};

struct RowGroupPlan {
  int64_t num_rows = 0;
  RowSelection rows;           // All(num_rows) for Scan, empty for Skip
  bool fully_matched = false;  // every selected row satisfies the filter: no residual filter
  // Selected rows proven to satisfy the filter (a subset of `rows`; the page index proves it for
  // some pages of a row group that is not fully matched): the residual filter skips them.
  RowSelection matched_rows;
  std::string decided_by;         // the stage that last narrowed it or proved it ("" = none)
  std::vector<Verdict> verdicts;  // every stage that changed it, in order (decided_by: the last)

  // A row group read whole, nothing proven yet: where every plan starts.
  static RowGroupPlan ScanAll(int64_t num_rows);

  Decision decision() const;
  // Narrows to rows ∩ selection and records `stage` (and its `evidence`) if that changed
  // anything. Each mutator records a Verdict only when it changes the plan.
  void Narrow(const RowSelection& selection, const std::string& stage, std::string evidence = {});
  void Skip(const std::string& stage, std::string evidence = {});
  void MarkFullyMatched(const std::string& stage, std::string evidence = {});
  // Adds `matched` ∩ rows to matched_rows; all of them matched: fully matched.
  void MarkRowsMatched(const RowSelection& matched, const std::string& stage,
                       std::string evidence = {});

 private:
  void Record(const std::string& stage, VerdictKind kind, std::string evidence);
};

struct FilePlan {
  std::string path;
  std::vector<RowGroupPlan> row_groups;
};

// Every row group of `file` scanned whole.
FilePlan ScanAllPlan(std::string path, const FileMetaData& file);

// What one stage did, summed over the files.
struct StageReport {
  std::string stage;
  int64_t row_groups_considered = 0;  // undecided row groups the stage looked at
  int64_t row_groups_skipped = 0;
  int64_t row_groups_fully_matched = 0;
  int64_t rows_pruned = 0;
  int64_t rows_matched = 0;  // rows proven to match in row groups not fully matched
  // Page-level stages: data pages of the predicate columns in the row groups they cut into
  // pages, and those left holding no selected row.
  int64_t pages_total = 0;
  int64_t pages_pruned = 0;
  // Of the pages_pruned, those ruled out by binary search on a sorted column index rather than
  // proved one by one.
  int64_t pages_ruled_out_by_search = 0;
  uint64_t bytes_read = 0;  // evidence the stage fetched (page index, dictionaries, bloom)
  // Requests, sequential round trips, waves, retries and time blocked on the store the
  // stage's reads cost (when the scan counts them: pqsift/io.h's IoCounters).
  uint64_t requests = 0;
  uint64_t round_trips = 0;
  uint64_t waves = 0;
  uint64_t retries = 0;
  double io_wait_seconds = 0;
  // Evidence stages (dictionary, ...): items fetched (one per column chunk), items left unread
  // because they exceed the stage's size cap, and items fetched that turned out unusable.
  int64_t evidence_loaded = 0;
  int64_t evidence_too_large = 0;
  int64_t evidence_unusable = 0;
  double seconds = 0;
};

struct AccessPlan {
  std::vector<FilePlan> files;
  std::vector<StageReport> stages;
};

// One line per file and per row group, then one per stage: the text `pqsift explain` prints.
std::string ToString(const AccessPlan& plan);

}  // namespace pqsift::prune
