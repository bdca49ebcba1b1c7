#include "prune/row_selection.h"

#include <algorithm>
#include <cstring>

namespace pqsift::prune {
namespace {

// Appends `r` to sorted `out`, merging it with the last range when they overlap or touch.
// REQUIRES: r.begin >= out.back().begin, r non-empty.
void AppendMerged(std::vector<RowRange>& out, RowRange r) {
  if (!out.empty() && r.begin <= out.back().end) {
    out.back().end = std::max(out.back().end, r.end);
  } else {
    out.push_back(r);
  }
}

}  // namespace

RowSelection RowSelection::All(int64_t num_rows) {
  RowSelection s;
  if (num_rows > 0) s.ranges_.push_back({0, num_rows});
  return s;
}

RowSelection RowSelection::FromRanges(std::vector<RowRange> ranges) {
  std::erase_if(ranges, [](const RowRange& r) { return r.end <= r.begin; });
  bool sorted =
      std::is_sorted(ranges.begin(), ranges.end(),
                     [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  if (!sorted) {
    std::sort(ranges.begin(), ranges.end(),
              [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  }
  RowSelection s;
  s.ranges_.reserve(ranges.size());
  for (const RowRange& r : ranges) AppendMerged(s.ranges_, r);
  return s;
}

RowSelection RowSelection::FromMask(std::span<const uint8_t> mask, int64_t first_row) {
  RowSelection s;
  AppendMask(mask, first_row, &s.ranges_);
  return s;
}

void RowSelection::AppendMask(std::span<const uint8_t> mask, int64_t first_row,
                              std::vector<RowRange>* out) {
  // Runs found eight mask bytes at a time: a selective filter's mask is long runs of zeros, one
  // that keeps most rows long runs of ones (evaluation gives bytes of 1).
  constexpr uint64_t kAllOnes = 0x0101010101010101;
  auto word = [&](size_t at) {
    uint64_t w;
    std::memcpy(&w, mask.data() + at, sizeof w);
    return w;
  };
  const size_t n = mask.size();
  size_t i = 0;
  while (i < n) {
    while (i + 8 <= n && word(i) == 0) i += 8;
    while (i < n && mask[i] == 0) ++i;
    if (i == n) break;
    const size_t begin = i;
    while (i + 8 <= n && word(i) == kAllOnes) i += 8;
    while (i < n && mask[i] != 0) ++i;
    AppendMerged(*out,
                 {first_row + static_cast<int64_t>(begin), first_row + static_cast<int64_t>(i)});
  }
}

RowSelection RowSelection::Intersect(const RowSelection& other) const {
  RowSelection s;
  const std::vector<RowRange>& a = ranges_;
  const std::vector<RowRange>& b = other.ranges_;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    int64_t begin = std::max(a[i].begin, b[j].begin);
    int64_t end = std::min(a[i].end, b[j].end);
    // Both inputs are disjoint and non-adjacent, so pieces of the result never touch.
    if (begin < end) s.ranges_.push_back({begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return s;
}

RowSelection RowSelection::Union(const RowSelection& other) const {
  RowSelection s;
  const std::vector<RowRange>& a = ranges_;
  const std::vector<RowRange>& b = other.ranges_;
  s.ranges_.reserve(a.size() + b.size());
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    bool take_a = j == b.size() || (i < a.size() && a[i].begin <= b[j].begin);
    AppendMerged(s.ranges_, take_a ? a[i++] : b[j++]);
  }
  return s;
}

RowSelection RowSelection::WithGapsFilled(int64_t max_gap) const {
  RowSelection s;
  for (const RowRange& r : ranges_) {
    if (!s.ranges_.empty() && r.begin - s.ranges_.back().end <= max_gap) {
      s.ranges_.back().end = r.end;
    } else {
      s.ranges_.push_back(r);
    }
  }
  return s;
}

RowSelection RowSelection::Difference(const RowSelection& other) const {
  RowSelection s;
  const std::vector<RowRange>& b = other.ranges_;
  size_t j = 0;
  for (RowRange r : ranges_) {
    while (j < b.size() && b[j].end <= r.begin) ++j;  // ranges of `other` wholly before r
    for (size_t k = j; k < b.size() && b[k].begin < r.end; ++k) {
      if (b[k].begin > r.begin) s.ranges_.push_back({r.begin, b[k].begin});
      r.begin = std::max(r.begin, b[k].end);
    }
    if (r.begin < r.end) s.ranges_.push_back(r);
  }
  return s;
}

std::string RowSelection::ToString(size_t max_ranges) const {
  std::string out = "rows ";
  for (size_t i = 0; i < ranges_.size() && i < max_ranges; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(ranges_[i].begin) + "-" + std::to_string(ranges_[i].end - 1);
  }
  if (ranges_.size() > max_ranges) {
    out += " and " + std::to_string(ranges_.size() - max_ranges) + " more";
  }
  return out;
}

int64_t RowSelection::row_count() const {
  int64_t n = 0;
  for (const RowRange& r : ranges_) n += r.length();
  return n;
}

bool RowSelection::SelectsAll(int64_t num_rows) const {
  if (num_rows <= 0) return ranges_.empty();
  return ranges_.size() == 1 && ranges_[0].begin == 0 && ranges_[0].end == num_rows;
}

}  // namespace pqsift::prune
