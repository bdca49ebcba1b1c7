// Proving a predicate page by page, the part the page-index and page-header stages share: their
// evidence differs (a column index, or the statistics in the pages' own headers), the proof does
// not.
//
// Pages of different columns do not line up, so a row group is cut into segments at the union of
// the page boundaries of the filter's columns; inside a segment every filter column is in one
// page, whose bounds (restricted to the segment's rows) hold there. A filter column without page
// evidence adds no boundary and contributes its row-group statistics. Segments that cannot match
// leave the row group's selection; segments that match whole are recorded as matched rows (no
// residual filter for them).
//
// Thread safety: none needed (planning runs on one thread).
#pragma once

#include <string>
#include <vector>

#include "format/page_index_store.h"
#include "prune/stage.h"

namespace pqsift::prune {

// Where a stage's per-page evidence comes from.
class PageEvidence {
 public:
  virtual ~PageEvidence() = default;
  // The pages of a filter column in row group `g` (`index` null: no page evidence for it).
  virtual format::PageRows Pages(size_t g, const FilterLeaf& leaf, int64_t num_rows) const = 0;
  // The bounds of page `page` (of `rows` rows) of that column. REQUIRES: Pages gave an index.
  virtual ColumnBounds Bounds(size_t g, const FilterLeaf& leaf, size_t page,
                              int64_t rows) const = 0;
};

// One undecided row group cut into segments [starts[i], starts[i + 1]) covering the rows left to
// prove (all rows, or those binary search left).
struct CutRowGroup {
  size_t row_group = 0;
  int64_t num_rows = 0;
  bool indexed = false;         // some filter column has page evidence: the stage can narrow it
  std::vector<int64_t> starts;  // ascending; empty when nothing is left to prove
  size_t first_container = 0;   // its first segment's container in the statistics table
  size_t segments() const { return starts.empty() ? 0 : starts.size() - 1; }
};

// Segments of `window` of row group `g`, cut at every page boundary of the filter columns with
// page evidence.
CutRowGroup CutIntoSegments(size_t g, int64_t num_rows, RowRange window,
                            const std::vector<FilterLeaf>& leaves, const PageEvidence& evidence);

// Proves every segment of `cuts` (the row groups with page evidence) in one pass and narrows
// `plan`: segments that cannot match leave the selection, segments that must match become
// matched rows, a row group left without rows is skipped; all recorded as decided by `stage`,
// counted in `report` (row groups considered, rows pruned, pages of the filter columns left
// without a selected row).
void ProveSegments(const FileContext& context, std::vector<CutRowGroup> cuts,
                   const std::vector<FilterLeaf>& leaves, const PageEvidence& evidence,
                   const std::string& stage, FilePlan& plan, StageReport& report);

}  // namespace pqsift::prune
