#include "scan/slicer.h"

#include <algorithm>

namespace pqsift::scan {
namespace {

constexpr int64_t kMaxSliceBytes = int64_t{16} << 20;
constexpr int64_t kMaxSliceRows = int64_t{1} << 17;
constexpr int64_t kMaxPageSliceRows = int64_t{1} << 20;  // SlicedRowsOfPages
constexpr int64_t kMinPagedSlicesPerRowGroup = 8;        // SlicedRowsOfPages

// A page longer than a slice is decompressed once (the slices it spans hand its reader on), but
// those slices then decode that column one after the other. Slices are made at least as long as
// the longest page of the leaves read, where the offset indexes tell (up to kMaxPageSliceRows),
// so the slices of a row group decode on every thread. But not so long that a row group makes
// fewer than kMinPagedSlicesPerRowGroup slices: a row group read alone (a selective query) then
// has no other row group's slices to run beside it, and its slices are what lets the output
// columns of one decode while the filter walks the next (a 1M-row row group of one page per
// column, as DuckDB writes, was one slice: its filter ran alone, then its output columns).
int64_t SlicedRowsOfPages(const PlannedFile& file, size_t g, int64_t slice_rows,
                          int64_t batch_size) {
  const RowGroup& rg = file.metadata->file().row_groups[g];
  if (slice_rows >= rg.num_rows || !file.page_indexes) return slice_rows;
  int64_t longest = 0;
  for (int32_t leaf : file.leaves) {
    format::PageRows pages{file.page_indexes->offset_index(g, leaf), rg.num_rows};
    if (pages.index == nullptr) continue;
    for (size_t p = 0; p < pages.pages(); ++p) {
      longest = std::max(longest, pages.end_row(p) - pages.first_row(p));
    }
  }
  if (longest <= slice_rows) return slice_rows;
  // Still bounded, whatever an offset index claims: a slice is decoded whole.
  longest = std::min({longest, rg.num_rows / kMinPagedSlicesPerRowGroup, kMaxPageSliceRows});
  if (longest <= slice_rows) return slice_rows;
  return (longest + batch_size - 1) / batch_size * batch_size;
}

}  // namespace

int64_t SliceRows(const RowGroup& rg, int64_t batch_size, int64_t forced) {
  if (forced > 0) return forced;
  int64_t slice_rows = rg.num_rows;
  if (rg.total_byte_size > kMaxSliceBytes) {
    // In floating point: the product overflows for the row counts a footer may claim.
    slice_rows = static_cast<int64_t>(static_cast<double>(rg.num_rows) * kMaxSliceBytes /
                                      static_cast<double>(rg.total_byte_size));
  }
  // Whatever the footer claims about sizes: a slice's columns are decoded whole before its
  // batches are handed out, and a few bytes of RLE can hold billions of rows.
  slice_rows = std::min(slice_rows, kMaxSliceRows);
  slice_rows = std::max<int64_t>(batch_size, slice_rows);
  return (slice_rows + batch_size - 1) / batch_size * batch_size;
}

SliceCutter::SliceCutter(std::vector<const format::OffsetIndex*> indexes, int64_t num_rows,
                         int64_t slice_rows, bool every_leaf_indexed)
    : indexes_(std::move(indexes)),
      num_rows_(num_rows),
      slice_rows_(slice_rows),
      every_leaf_indexed_(every_leaf_indexed) {
  for (const format::OffsetIndex* index : indexes_) {
    for (const format::PageLocation& page : index->page_locations) {
      candidates_.push_back(page.first_row_index);
    }
  }
  std::sort(candidates_.begin(), candidates_.end());
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
}

SliceCutter SliceCutter::Of(const PlannedFile& file, size_t g, int64_t batch_size,
                            int64_t forced_slice_rows) {
  const RowGroup& rg = file.metadata->file().row_groups[g];
  std::vector<const format::OffsetIndex*> indexes;
  for (int32_t leaf : file.leaves) {
    const format::OffsetIndex* index =
        file.page_indexes ? file.page_indexes->offset_index(g, leaf) : nullptr;
    if (index != nullptr) indexes.push_back(index);
  }
  int64_t slice_rows = SliceRows(rg, batch_size, forced_slice_rows);
  if (forced_slice_rows <= 0) slice_rows = SlicedRowsOfPages(file, g, slice_rows, batch_size);
  const bool every_leaf_indexed = indexes.size() == file.leaves.size();
  return SliceCutter(std::move(indexes), rg.num_rows, slice_rows, every_leaf_indexed);
}

bool SliceCutter::CutsNoPage(int64_t row) const {
  return every_leaf_indexed_ && (row <= 0 || row >= num_rows_ || CutBytes(row) == 0);
}

int64_t SliceCutter::EndOf(int64_t begin) const {
  int64_t end = std::min(num_rows_, begin + slice_rows_);
  if (end == num_rows_ || indexes_.empty()) return end;
  int64_t best_bytes = CutBytes(end);
  auto first = std::upper_bound(candidates_.begin(), candidates_.end(), begin + slice_rows_ / 2);
  auto last = std::upper_bound(candidates_.begin(), candidates_.end(), end);
  // Later ends first (longer slices); at most 64 tried, which bounds the work on wide files
  // whose pages start at different rows in every leaf.
  for (auto c = last; c != first && best_bytes > 0 && last - c < 64;) {
    --c;
    const int64_t bytes = CutBytes(*c);
    if (bytes < best_bytes) {
      best_bytes = bytes;
      end = *c;
    }
  }
  return end;
}

int64_t SliceCutter::CutBytes(int64_t row) const {
  int64_t bytes = 0;
  for (const format::OffsetIndex* index : indexes_) {
    const auto& locations = index->page_locations;
    auto next = std::upper_bound(
        locations.begin(), locations.end(), row,
        [](int64_t r, const format::PageLocation& page) { return r < page.first_row_index; });
    if (next != locations.begin() && std::prev(next)->first_row_index < row) {
      bytes += std::prev(next)->compressed_page_size;
    }
  }
  return bytes;
}

RowGroupSlicer::RowGroupSlicer(std::shared_ptr<RowGroupData> data, const prune::RowGroupPlan& plan,
                               bool needs_filter, std::shared_ptr<const SliceFilter> filter,
                               SliceCutter cutter)
    : data_(std::move(data)),
      plan_(&plan),
      needs_filter_(needs_filter),
      filter_(std::move(filter)),
      cutter_(std::move(cutter)) {}

std::optional<ScanSlice> RowGroupSlicer::Next() {
  if (ordered_) {
    if (order_.empty()) {
      Finish();
      return std::nullopt;
    }
    auto [begin, end] = order_.front();
    order_.pop_front();
    begin_ = begin;
    ScanSlice slice = Make(end);
    if (order_.empty()) Finish();
    return slice;
  }
  std::optional<int64_t> begin = SelectedFrom(begin_, &range_);
  if (!begin) {
    Finish();
    return std::nullopt;
  }
  begin_ = *begin;  // rows the plan does not read are skipped
  int64_t end = cutter_.EndOf(begin_);
  if (ramp_ > 0) {
    // The rest of the usual slice whole when it is less than twice the ramp: no short tail.
    if (end - begin_ >= 2 * ramp_) end = begin_ + ramp_;
    ramp_ = ramp_ * 2 >= cutter_.slice_rows() ? 0 : ramp_ * 2;
  }
  ScanSlice slice = Make(end);
  // Known now when this is the last (a runtime filter that drops it then knows the whole row
  // group was skipped).
  if (!SelectedFrom(begin_, &range_)) Finish();
  return slice;
}

std::optional<int64_t> RowGroupSlicer::SelectedFrom(int64_t row, size_t* range) const {
  const std::vector<prune::RowRange>& ranges = plan_->rows.ranges();
  while (*range < ranges.size() && ranges[*range].end <= row) ++*range;
  if (*range == ranges.size()) return std::nullopt;
  return std::max(row, ranges[*range].begin);
}

ScanSlice RowGroupSlicer::Make(int64_t end) {
  ScanSlice slice{
      data_,         plan_->rows.Intersect(prune::RowSelection::FromRanges({{begin_, end}})),
      needs_filter_, {},
      filter_,       data_->NextSliceSeq(),
      nullptr};
  slice.matched = plan_->matched_rows.Intersect(slice.rows);
  begin_ = end;
  data_->AddSlice();
  return slice;
}

void RowGroupSlicer::OrderWithin(const RangePromise& promise, bool descending) {
  if (ordered_ || ramp_ > 0 || begin_ != 0 || done_) return;
  // The slices Next would make, in row order.
  std::vector<std::pair<int64_t, int64_t>> slices;
  size_t range = 0;
  for (std::optional<int64_t> begin = SelectedFrom(0, &range); begin;
       begin = SelectedFrom(slices.back().second, &range)) {
    const int64_t end = cutter_.EndOf(*begin);
    if (!cutter_.CutsNoPage(*begin) || !cutter_.CutsNoPage(end) ||
        slices.size() == kMaxOrderedSlices) {
      return;  // a page two slices share, or too many to order: row order
    }
    slices.emplace_back(*begin, end);
  }
  if (slices.size() < 2) return;
  std::vector<Promise> promises;
  promises.reserve(slices.size());
  for (const auto& [begin, end] : slices) promises.push_back(promise(begin, end));
  for (size_t i : MostPromisingFirst(promises, descending)) order_.push_back(slices[i]);
  ordered_ = true;
}

void RowGroupSlicer::Finish() {
  if (!done_) data_->AllSlicesAdded();
  done_ = true;
}

}  // namespace pqsift::scan
