// Slicing: how the executor cuts the selected rows of each row group into slices
// (scan/slice.h), the unit its threads work on.
//
// A slice is at most about 16 MiB and 128Ki rows of the row group: a slice's columns are decoded
// whole before its batches go out, so smaller slices mean less memory (a full scan of 1M-row row
// groups: 214 MB -> 122 MB peak), a LIMIT that stops after fewer rows, and both threads busy on
// files of few, large row groups. Where offset indexes tell, slices end where they cut the
// fewest page bytes (SliceCutter), and are at least as long as the longest page read (up to
// 1Mi rows, and to an eighth of the row group): a page longer than a slice is decompressed once
// (its reader is handed from slice to slice) but then decoded by those slices one after the
// other, while a row group of at least 8 slices still pipelines when it is read alone (its
// output columns decode one slice while its filter walks the next).
//
// Thread safety: none; slicers are used by the consumer thread only. A RowGroupSlicer refers to
// its row group's plan, which must outlive it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "format/page_index.h"
#include "prune/access_plan.h"
#include "scan/planned_file.h"
#include "scan/runtime_check.h"
#include "scan/slice.h"

namespace pqsift::scan {

// The rows of each slice of row group `rg` before page boundaries are taken into account (a
// multiple of the batch size); `forced` > 0 (ScanOptions::slice_rows) instead.
int64_t SliceRows(const RowGroup& rg, int64_t batch_size, int64_t forced);

// Where the slices of a row group end: about every `slice_rows` rows, each end placed, within
// the second half of its slice, where it cuts the fewest page bytes. A page cut by a slice end
// is fetched and decompressed by both slices; the candidates are the page starts of the leaves
// read, and the cost of one is the bytes of the other leaves' pages that straddle it. On files
// whose leaves start pages at the same rows (writers that cut pages by row count, as pqsift
// does) no page is cut at all: a full scan of such a 727 MiB file read 820 MB before.
class SliceCutter {
 public:
  // `indexes`: the offset indexes of the leaves read that have one (the store checked that each
  // lists pages in row order, starting at row 0).
  SliceCutter(std::vector<const format::OffsetIndex*> indexes, int64_t num_rows, int64_t slice_rows,
              bool every_leaf_indexed = false);

  // The cutter of row group `g` of `file` for a scan of `batch_size` batches (ScanOptions).
  static SliceCutter Of(const PlannedFile& file, size_t g, int64_t batch_size,
                        int64_t forced_slice_rows);

  int64_t slice_rows() const { return slice_rows_; }
  // The end of the slice that starts at row `begin` (< num_rows).
  int64_t EndOf(int64_t begin) const;
  // Whether a slice end at `row` leaves every page of the leaves read whole: each starts at or
  // after it, or ends at or before it (false when a leaf read has no offset index to tell).
  bool CutsNoPage(int64_t row) const;

 private:
  // Bytes of the pages that hold rows on both sides of `row`.
  int64_t CutBytes(int64_t row) const;

  std::vector<const format::OffsetIndex*> indexes_;
  int64_t num_rows_;
  int64_t slice_rows_;
  bool every_leaf_indexed_;
  std::vector<int64_t> candidates_;
};

// The slices of one row group, made one at a time as the scan reaches them. A footer may claim
// billions of rows for a row group (a few bytes of RLE can hold them, and so can a corrupt
// count): slices made ahead would cost memory and time in proportion to the claim (a fuzzed
// 2 KiB file claiming 856 billion rows took a minute to plan), one at a time only as far as
// the data goes. Selected rows are found through the plan's ranges, so gaps cost nothing.
class RowGroupSlicer {
 public:
  RowGroupSlicer(std::shared_ptr<RowGroupData> data, const prune::RowGroupPlan& plan,
                 bool needs_filter, std::shared_ptr<const SliceFilter> filter, SliceCutter cutter);

  RowGroupData& data() const { return *data_; }

  // The next slices are at most `rows` long, each twice the one before, until they reach the
  // usual length (scan/limit.h decides when; no ramp when `rows` is that long).
  void Ramp(int64_t rows) { ramp_ = rows > 0 && rows < cutter_.slice_rows() ? rows : 0; }

  // The next slice with a selected row, or nullopt when none is left (then the row group knows
  // it has all its slices).
  std::optional<ScanSlice> Next();

  // The slices' rows, [begin, end): how promising they are for ScanOptions::read_order (a
  // runtime filter published from the first ones then rules out the rest by their pages).
  using RangePromise = std::function<Promise(int64_t begin, int64_t end)>;
  // Hands the slices out most promising first instead of in row order, where that costs no
  // page twice: every slice end leaves the pages of every leaf read whole (SliceCutter::
  // CutsNoPage), so no slice needs what another decompressed. Otherwise, with a ramp, or for
  // more than kMaxOrderedSlices slices, row order. Before the first Next.
  void OrderWithin(const RangePromise& promise, bool descending);

 private:
  static constexpr size_t kMaxOrderedSlices = 4096;

  // The first row at or after `row` the plan reads, `*range` moved to the plan range holding it
  // (it only moves forward); nullopt when none is left.
  std::optional<int64_t> SelectedFrom(int64_t row, size_t* range) const;
  // The slice of rows [begin_, end) (begin_ moves to end).
  ScanSlice Make(int64_t end);
  void Finish();

  std::shared_ptr<RowGroupData> data_;
  const prune::RowGroupPlan* plan_;
  bool needs_filter_;
  std::shared_ptr<const SliceFilter> filter_;
  SliceCutter cutter_;
  int64_t begin_ = 0;  // the next slice starts at or after this row
  size_t range_ = 0;   // the first plan range that may hold rows at or after begin_
  int64_t ramp_ = 0;
  bool done_ = false;
  bool ordered_ = false;
  std::deque<std::pair<int64_t, int64_t>> order_;  // with ordered_: the slices left, [begin, end)
};

}  // namespace pqsift::scan
