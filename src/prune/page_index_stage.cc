// The page-index stage: per-page min/max/null counts from the column index, proved for every
// segment of every undecided row group of a file at once.
//
// Pages of different columns do not line up, so a row group is cut into segments at the union of
// the page boundaries (offset index first_row_index) of the filter's columns; inside a segment
// every filter column is in one page, whose bounds (restricted to the segment's rows) hold
// there. A filter column without a usable index adds no boundary and contributes its row-group
// statistics. Segments that cannot match leave the row group's selection; segments that match
// whole are recorded as matched rows (no residual filter for them).
//
// I/O: only for row groups still undecided whose filter columns have a column index, one
// coalesced read per file (the offset indexes of the other columns the scan reads come in the
// same reads, for the scanner to skip pages).
#include <algorithm>
#include <chrono>

#include "prune/proof.h"
#include "prune/stage.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

// One undecided row group cut into segments [starts[i], starts[i + 1]).
struct CutRowGroup {
  size_t row_group = 0;
  std::vector<int64_t> starts;  // ascending; the last is the row group's row count
  size_t first_container = 0;   // its first segment's container in the statistics table
  // None when no filter column had a usable index (starts is empty then).
  size_t segments() const { return starts.empty() ? 0 : starts.size() - 1; }
};

class PageIndexStage final : public PruningStage {
 public:
  std::string_view name() const override { return "page index"; }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    const FileMetaData& file = context.metadata.file();
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    if (!context.filter.root) return Status::OK();

    std::vector<FilterLeaf> leaves;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      leaves.push_back(ResolveFilterLeaf(context, k));
    }
    std::vector<size_t> groups = GroupsWithColumnIndex(context, plan, leaves);
    if (groups.empty()) return Status::OK();

    std::optional<format::PageIndexStore> own_store;
    format::PageIndexStore* store = context.page_indexes;
    if (store == nullptr) store = &own_store.emplace(context.file, context.metadata);
    if (context.load_evidence) {
      PQSIFT_RETURN_IF_ERROR(Load(context, groups, leaves, *store, &report.bytes_read));
    }

    std::vector<CutRowGroup> cuts;
    size_t containers = 0;
    for (size_t g : groups) {
      CutRowGroup cut = Cut(g, file.row_groups[g].num_rows, leaves, *store);
      if (cut.segments() == 0) continue;
      cut.first_container = containers;
      containers += cut.segments();
      cuts.push_back(std::move(cut));
    }
    if (!cuts.empty()) {
      StatisticsTable table = BuildTable(context, cuts, containers, leaves, *store);
      std::vector<Outcomes> outcomes = Prove(context.filter, table);
      for (const CutRowGroup& cut : cuts) Narrow(cut, outcomes, leaves, *store, plan, report);
    }
    report.row_groups_considered += static_cast<int64_t>(cuts.size());
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }

 private:
  // Undecided row groups (read, not fully matched) where the footer places a column index and an
  // offset index for some filter column: the only ones the page index can narrow.
  static std::vector<size_t> GroupsWithColumnIndex(const FileContext& context, const FilePlan& plan,
                                                   const std::vector<FilterLeaf>& leaves) {
    const FileMetaData& file = context.metadata.file();
    std::vector<size_t> out;
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      const RowGroupPlan& p = plan.row_groups[g];
      if (p.decision() == Decision::kSkip || p.fully_matched) continue;
      const RowGroup& rg = file.row_groups[g];
      bool indexed = std::any_of(leaves.begin(), leaves.end(), [&](const FilterLeaf& leaf) {
        if (!leaf.known() || static_cast<size_t>(leaf.leaf) >= rg.columns.size()) return false;
        const ColumnChunk& chunk = rg.columns[leaf.leaf];
        return chunk.column_index_offset.has_value() && chunk.offset_index_offset.has_value();
      });
      if (indexed) out.push_back(g);
    }
    return out;
  }

  static Status Load(const FileContext& context, const std::vector<size_t>& groups,
                     const std::vector<FilterLeaf>& leaves, format::PageIndexStore& store,
                     uint64_t* bytes_read) {
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g : groups) {
      for (const FilterLeaf& leaf : leaves) {
        if (leaf.known()) requests.push_back({g, leaf.leaf, true});
      }
      for (int32_t leaf : context.read_leaves) requests.push_back({g, leaf, false});
    }
    return store.Load(requests, bytes_read);
  }

  // A filter column's page index in a row group, when both halves are usable.
  static format::PageRows Pages(const format::PageIndexStore& store, size_t g,
                                const FilterLeaf& leaf, int64_t num_rows) {
    format::PageRows rows;
    rows.num_rows = num_rows;
    if (leaf.known() && store.column_index(g, leaf.leaf) != nullptr) {
      rows.index = store.offset_index(g, leaf.leaf);
    }
    return rows;
  }

  static CutRowGroup Cut(size_t g, int64_t num_rows, const std::vector<FilterLeaf>& leaves,
                         const format::PageIndexStore& store) {
    CutRowGroup cut;
    cut.row_group = g;
    bool indexed = false;
    for (const FilterLeaf& leaf : leaves) {
      format::PageRows pages = Pages(store, g, leaf, num_rows);
      if (pages.index == nullptr) continue;
      indexed = true;
      for (size_t p = 0; p < pages.pages(); ++p) cut.starts.push_back(pages.first_row(p));
    }
    if (!indexed) return cut;  // no segment: nothing to prove
    cut.starts.push_back(num_rows);
    std::sort(cut.starts.begin(), cut.starts.end());
    cut.starts.erase(std::unique(cut.starts.begin(), cut.starts.end()), cut.starts.end());
    return cut;
  }

  // bounds[k][c]: filter column k in segment c, from the page covering the segment or, without
  // an index, from the row group's statistics.
  static StatisticsTable BuildTable(const FileContext& context,
                                    const std::vector<CutRowGroup>& cuts, size_t containers,
                                    const std::vector<FilterLeaf>& leaves,
                                    const format::PageIndexStore& store) {
    const FileMetaData& file = context.metadata.file();
    StatisticsTable table;
    table.containers = static_cast<int64_t>(containers);
    table.bounds.resize(leaves.size());
    for (size_t k = 0; k < leaves.size(); ++k) {
      std::vector<ColumnBounds>& column = table.bounds[k];
      column.resize(containers);
      const FilterLeaf& leaf = leaves[k];
      for (const CutRowGroup& cut : cuts) {
        const RowGroup& rg = file.row_groups[cut.row_group];
        ColumnBounds* out = &column[cut.first_container];
        auto segment_rows = [&](size_t s) { return cut.starts[s + 1] - cut.starts[s]; };
        format::PageRows pages = Pages(store, cut.row_group, leaf, rg.num_rows);
        if (pages.index != nullptr) {
          const format::ColumnIndex& index = *store.column_index(cut.row_group, leaf.leaf);
          size_t p = 0;
          ColumnBounds page_bounds;
          for (size_t s = 0; s < cut.segments(); ++s) {
            bool new_page = s == 0;
            while (pages.end_row(p) <= cut.starts[s]) {
              ++p;
              new_page = true;
            }
            if (new_page) {
              page_bounds = BoundsFromPageIndex(*leaf.descriptor, *leaf.type, index, p,
                                                pages.end_row(p) - pages.first_row(p));
            }
            out[s] = RestrictToRows(page_bounds, segment_rows(s));
          }
          continue;
        }
        ColumnBounds whole;
        whole.num_rows = rg.num_rows;
        if (leaf.known() && static_cast<size_t>(leaf.leaf) < rg.columns.size() &&
            rg.columns[leaf.leaf].meta_data) {
          whole = BoundsFromStatistics(*leaf.descriptor, *leaf.type,
                                       rg.columns[leaf.leaf].meta_data->statistics, rg.num_rows);
        }
        for (size_t s = 0; s < cut.segments(); ++s) out[s] = RestrictToRows(whole, segment_rows(s));
      }
    }
    return table;
  }

  void Narrow(const CutRowGroup& cut, const std::vector<Outcomes>& outcomes,
              const std::vector<FilterLeaf>& leaves, const format::PageIndexStore& store,
              FilePlan& plan, StageReport& report) const {
    std::vector<RowRange> may_match;
    std::vector<RowRange> matched;
    for (size_t s = 0; s < cut.segments(); ++s) {
      Outcomes o = outcomes[cut.first_container + s];
      RowRange segment{cut.starts[s], cut.starts[s + 1]};
      if (!CannotMatch(o)) may_match.push_back(segment);
      if (FullyMatches(o)) matched.push_back(segment);
    }
    RowGroupPlan& p = plan.row_groups[cut.row_group];
    std::string stage(name());
    int64_t before = p.rows.row_count();
    if (may_match.empty()) {
      p.Skip(stage);
      ++report.row_groups_skipped;
    } else {
      p.Narrow(RowSelection::FromRanges(std::move(may_match)), stage);
      int64_t matched_before = p.matched_rows.row_count();
      p.MarkRowsMatched(RowSelection::FromRanges(std::move(matched)), stage);
      if (p.fully_matched) {
        ++report.row_groups_fully_matched;
      } else {
        report.rows_matched += p.matched_rows.row_count() - matched_before;
      }
    }
    report.rows_pruned += before - p.rows.row_count();
    // Pages of the filter columns left without a selected row.
    int64_t num_rows = cut.starts.back();
    for (const FilterLeaf& leaf : leaves) {
      format::PageRows pages = Pages(store, cut.row_group, leaf, num_rows);
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
};

}  // namespace

std::unique_ptr<PruningStage> MakePageIndexStage() { return std::make_unique<PageIndexStage>(); }

}  // namespace pqsift::prune
