#include "prune/page_segments.h"

#include <algorithm>

#include "prune/evidence.h"
#include "prune/proof.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

// bounds[k][c]: filter column k in segment c, from the page covering the segment or, without
// page evidence, from the row group's statistics.
StatisticsTable BuildTable(const FileContext& context, const std::vector<CutRowGroup>& cuts,
                           size_t containers, const std::vector<FilterLeaf>& leaves,
                           const PageEvidence& evidence) {
  const FileMetaData& file = context.metadata.file();
  StatisticsTable table;
  table.containers = static_cast<int64_t>(containers);
  table.bounds.resize(leaves.size());
  for (size_t k = 0; k < leaves.size(); ++k) {
    std::vector<ColumnBounds>& column = table.bounds[k];
    column.resize(containers);
    const FilterLeaf& leaf = leaves[k];
    for (const CutRowGroup& cut : cuts) {
      if (cut.segments() == 0) continue;
      const RowGroup& rg = file.row_groups[cut.row_group];
      ColumnBounds* out = &column[cut.first_container];
      auto segment_rows = [&](size_t s) { return cut.starts[s + 1] - cut.starts[s]; };
      format::PageRows pages = evidence.Pages(cut.row_group, leaf, rg.num_rows);
      if (pages.index != nullptr) {
        size_t p = 0;
        ColumnBounds page_bounds;
        for (size_t s = 0; s < cut.segments(); ++s) {
          bool new_page = s == 0;
          while (pages.end_row(p) <= cut.starts[s]) {
            ++p;
            new_page = true;
          }
          if (new_page) {
            page_bounds =
                evidence.Bounds(cut.row_group, leaf, p, pages.end_row(p) - pages.first_row(p));
          }
          out[s] = RestrictToRows(page_bounds, segment_rows(s));
        }
        continue;
      }
      ColumnBounds whole;
      whole.num_rows = rg.num_rows;
      if (leaf.known() && static_cast<size_t>(leaf.leaf) < rg.columns.size() &&
          rg.columns[leaf.leaf].meta_data) {
        whole = BoundsFromChunk(*leaf.descriptor, *leaf.type, *rg.columns[leaf.leaf].meta_data,
                                rg.num_rows);
      }
      for (size_t s = 0; s < cut.segments(); ++s) out[s] = RestrictToRows(whole, segment_rows(s));
    }
  }
  return table;
}

// "18 of 20 segments (rows 0-99999 of pages cut at every filter column's page boundary); e.g.
// rows 0-4999: min(id) = 0, max(id) = 4999: no row can satisfy the filter": the evidence of one
// kind of verdict (segments that cannot match, or that match whole) for the explain report.
std::string SegmentEvidence(const FileContext& context, const StatisticsTable& table,
                            const CutRowGroup& cut, const std::vector<size_t>& segments,
                            Outcomes example_outcome) {
  if (segments.empty()) return {};
  int64_t rows = 0;
  for (size_t s : segments) rows += cut.starts[s + 1] - cut.starts[s];
  size_t first = segments.front();
  return std::to_string(segments.size()) + " of " + std::to_string(cut.segments()) +
         " page segments, " + std::to_string(rows) + " rows; e.g. rows " +
         std::to_string(cut.starts[first]) + "-" + std::to_string(cut.starts[first + 1] - 1) +
         ": " + DescribeBounds(context.filter, table, cut.first_container + first) + ": " +
         DescribeOutcome(example_outcome);
}

// The rows binary search on a sorted column index left out of the segments (page_index_stage.cc
// proves only the window it leaves): "rows 0-511 ruled out by binary search ...", or "".
std::string SearchEvidence(const CutRowGroup& cut) {
  if (cut.segments() == 0) {
    return "binary search on a sorted column index: no page can hold a matching row";
  }
  const int64_t begin = cut.starts.front();
  const int64_t end = cut.starts.back();
  std::string out;
  if (begin > 0) out = "rows 0-" + std::to_string(begin - 1);
  if (end < cut.num_rows) {
    out += (out.empty() ? "rows " : " and ") + std::to_string(end) + "-" +
           std::to_string(cut.num_rows - 1);
  }
  if (!out.empty()) out += " ruled out by binary search on a sorted column index";
  return out;
}

// The evidence of a verdict that removed rows: binary search's and the segments'.
std::string PrunedEvidence(const FileContext& context, const StatisticsTable& table,
                           const CutRowGroup& cut, const std::vector<size_t>& pruned) {
  std::string search = SearchEvidence(cut);
  std::string segments = SegmentEvidence(context, table, cut, pruned, 0);
  if (search.empty() || segments.empty()) return search + segments;
  return search + "; " + segments;
}

void Narrow(const FileContext& context, const StatisticsTable& table, const CutRowGroup& cut,
            const std::vector<Outcomes>& outcomes, const std::vector<FilterLeaf>& leaves,
            const PageEvidence& evidence, const std::string& stage, FilePlan& plan,
            StageReport& report) {
  std::vector<RowRange> may_match;
  std::vector<RowRange> matched;
  std::vector<size_t> pruned_segments;
  std::vector<size_t> matched_segments;
  for (size_t s = 0; s < cut.segments(); ++s) {
    Outcomes o = outcomes[cut.first_container + s];
    RowRange segment{cut.starts[s], cut.starts[s + 1]};
    if (CannotMatch(o)) {
      pruned_segments.push_back(s);
    } else {
      may_match.push_back(segment);
    }
    if (FullyMatches(o)) {
      matched.push_back(segment);
      matched_segments.push_back(s);
    }
  }
  RowGroupPlan& p = plan.row_groups[cut.row_group];
  int64_t before = p.rows.row_count();
  if (may_match.empty()) {
    p.Skip(stage, PrunedEvidence(context, table, cut, pruned_segments));
    ++report.row_groups_skipped;
  } else {
    p.Narrow(RowSelection::FromRanges(std::move(may_match)), stage,
             PrunedEvidence(context, table, cut, pruned_segments));
    int64_t matched_before = p.matched_rows.row_count();
    p.MarkRowsMatched(RowSelection::FromRanges(std::move(matched)), stage,
                      SegmentEvidence(context, table, cut, matched_segments, kCanBeTrue));
    if (p.fully_matched) {
      ++report.row_groups_fully_matched;
    } else {
      report.rows_matched += p.matched_rows.row_count() - matched_before;
    }
  }
  report.rows_pruned += before - p.rows.row_count();
  // Pages of the filter columns left without a selected row.
  const int64_t num_rows = cut.num_rows;
  for (const FilterLeaf& leaf : leaves) {
    format::PageRows pages = evidence.Pages(cut.row_group, leaf, num_rows);
    if (pages.index == nullptr) continue;
    report.pages_total += static_cast<int64_t>(pages.pages());
    const std::vector<RowRange>& ranges = p.rows.ranges();
    auto range = ranges.begin();
    for (size_t i = 0; i < pages.pages(); ++i) {
      while (range != ranges.end() && range->end <= pages.first_row(i)) ++range;
      bool selected = range != ranges.end() && range->begin < pages.end_row(i);
      if (!selected) ++report.pages_pruned;
    }
  }
}

}  // namespace

CutRowGroup CutIntoSegments(size_t g, int64_t num_rows, RowRange window,
                            const std::vector<FilterLeaf>& leaves, const PageEvidence& evidence) {
  CutRowGroup cut;
  cut.row_group = g;
  cut.num_rows = num_rows;
  for (const FilterLeaf& leaf : leaves) {
    format::PageRows pages = evidence.Pages(g, leaf, num_rows);
    if (pages.index == nullptr) continue;
    cut.indexed = true;
    for (size_t p = 0; p < pages.pages(); ++p) {
      const int64_t start = pages.first_row(p);
      if (start > window.begin && start < window.end) cut.starts.push_back(start);
    }
  }
  if (!cut.indexed || window.begin >= window.end) return cut;  // nothing (left) to prove
  cut.starts.push_back(window.begin);
  cut.starts.push_back(window.end);
  std::sort(cut.starts.begin(), cut.starts.end());
  cut.starts.erase(std::unique(cut.starts.begin(), cut.starts.end()), cut.starts.end());
  return cut;
}

void ProveSegments(const FileContext& context, std::vector<CutRowGroup> cuts,
                   const std::vector<FilterLeaf>& leaves, const PageEvidence& evidence,
                   const std::string& stage, FilePlan& plan, StageReport& report) {
  report.row_groups_considered += static_cast<int64_t>(cuts.size());
  size_t containers = 0;
  for (CutRowGroup& cut : cuts) {
    cut.first_container = containers;
    containers += cut.segments();
  }
  if (cuts.empty()) return;
  std::vector<Outcomes> outcomes;
  StatisticsTable table;
  if (containers > 0) {
    table = BuildTable(context, cuts, containers, leaves, evidence);
    outcomes = Prove(context.filter, table);
  }
  for (const CutRowGroup& cut : cuts) {
    Narrow(context, table, cut, outcomes, leaves, evidence, stage, plan, report);
  }
}

}  // namespace pqsift::prune
