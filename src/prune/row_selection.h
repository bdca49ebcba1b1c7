// Which rows of a row group to read: sorted, disjoint, non-adjacent half-open row ranges.
//
// Stages narrow selections by intersection; evaluation results come in as byte masks. The run
// form is what the column readers consume (skip the gaps, read the ranges).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pqsift::prune {

struct RowRange {
  int64_t begin = 0;  // first row
  int64_t end = 0;    // one past the last row
  int64_t length() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

class RowSelection {
 public:
  RowSelection() = default;  // selects nothing
  static RowSelection All(int64_t num_rows);
  // Sorts and merges overlapping or adjacent ranges; empty ranges are dropped.
  static RowSelection FromRanges(std::vector<RowRange> ranges);
  // Rows first_row + i for every i where mask[i] != 0.
  static RowSelection FromMask(std::span<const uint8_t> mask, int64_t first_row = 0);
  // The same rows appended to `out` (sorted, ending at or before first_row), the first merged
  // with out->back() when they touch: for masks that come in pieces.
  static void AppendMask(std::span<const uint8_t> mask, int64_t first_row,
                         std::vector<RowRange>* out);

  RowSelection Intersect(const RowSelection& other) const;
  RowSelection Union(const RowSelection& other) const;
  // The rows of this selection that `other` does not select.
  RowSelection Difference(const RowSelection& other) const;

  // This selection with every gap of at most `max_gap` rows between two ranges selected too:
  // the rows to decode when dropping rows after decoding is cheaper than skipping them.
  RowSelection WithGapsFilled(int64_t max_gap) const;

  const std::vector<RowRange>& ranges() const { return ranges_; }
  int64_t row_count() const;
  bool empty() const { return ranges_.empty(); }
  // True when the selection is exactly [0, num_rows).
  bool SelectsAll(int64_t num_rows) const;
  bool operator==(const RowSelection&) const = default;
  // "rows 0-99, 200-299" (inclusive, as people count), at most `max_ranges` ranges then
  // "and N more".
  std::string ToString(size_t max_ranges = 8) const;

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace pqsift::prune
