// The page-index stage: per-page min/max/null counts from the column index, proved for every
// segment of every undecided row group of a file at once.
//
// The row groups are cut into segments at the page boundaries (offset index first_row_index) of
// the filter's columns and proved as prune/page_segments.h says. Before the cut, a filter
// column whose column index is sorted is binary-searched (SortedIndexSearch): the pages at either
// end that cannot match are ruled out with O(log pages) proofs, and only the rows between are
// cut and proved. The plan is the same as without the search; the work is not.
//
// I/O: only for row groups still undecided whose filter columns have a column index, one
// coalesced read per file (the offset indexes of the other columns the scan reads come in the
// same reads, for the scanner to skip pages).
#include <algorithm>
#include <chrono>

#include "prune/page_segments.h"
#include "prune/proof.h"
#include "prune/stage.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

// Binary search on a sorted column index: the pages at either end of a row group that cannot
// match, found with O(log pages) proofs instead of one per segment.
//
// boundary_order is the writer's claim, so it is checked first: over the pages with values, mins
// and maxes must both be ascending (or both descending), and every other page must be a
// confirmed all-NULL page. Then pages [a, b] hold values within [min of the first page with
// values, max of the last] (ascending; mirrored when descending), and a proof that no row within
// that hull can match, the other columns unknown, rules them all out. The result relies only on
// the proofs that ran, so an over-approximating prover can make it rule out less, never wrongly.
class SortedIndexSearch {
 public:
  // Nullopt when the index is unordered or its claimed order does not hold.
  static std::optional<SortedIndexSearch> Make(const FilterLeaf& leaf,
                                               const format::ColumnIndex& index,
                                               const format::PageRows& pages) {
    if (index.boundary_order == BoundaryOrder::kUnordered || pages.pages() == 0) {
      return std::nullopt;
    }
    SortedIndexSearch s(pages, index.boundary_order == BoundaryOrder::kDescending);
    const size_t n = pages.pages();
    s.bounds_.reserve(n);
    const ColumnBounds* previous = nullptr;
    for (size_t p = 0; p < n; ++p) {
      const int64_t rows = pages.end_row(p) - pages.first_row(p);
      s.bounds_.push_back(BoundsFromPageIndex(*leaf.descriptor, *leaf.type, index, p, rows));
      const ColumnBounds& b = s.bounds_.back();
      s.may_contain_nan_ = s.may_contain_nan_ || b.may_contain_nan;
      const bool all_null = b.null_count && *b.null_count == rows && !b.min && !b.max;
      if (all_null) continue;
      if (!b.min || !b.max) return std::nullopt;
      if (previous != nullptr && !s.InOrder(*previous, b)) return std::nullopt;
      previous = &b;
    }
    // next_[p]: the first page >= p with values (n if none); last_[p]: the last page <= p with
    // values (n if none).
    s.next_.assign(n + 1, n);
    for (size_t p = n; p-- > 0;) s.next_[p] = s.bounds_[p].min ? p : s.next_[p + 1];
    s.last_.assign(n, n);
    for (size_t p = 0; p < n; ++p) {
      s.last_[p] = s.bounds_[p].min ? p : (p == 0 ? n : s.last_[p - 1]);
    }
    return s;
  }

  // The rows of the row group left to prove once the pages at both ends that cannot match are
  // ruled out (an empty range: all of them); *pages_ruled_out counts those pages.
  RowRange Window(const expr::BoundFilter& filter, size_t column, int64_t* pages_ruled_out) const {
    const auto n = static_cast<int64_t>(bounds_.size());
    int64_t last = -1;  // the longest prefix [0, last] proven not to match
    for (int64_t hi = n; hi - last > 1;) {
      const int64_t mid = last + (hi - last) / 2;
      (CannotMatchIn(filter, column, 0, mid) ? last : hi) = mid;
    }
    int64_t first = n;  // the longest suffix [first, n) proven not to match, after the prefix
    for (int64_t lo = last; first - lo > 1;) {
      const int64_t mid = lo + (first - lo) / 2;
      (CannotMatchIn(filter, column, mid, n - 1) ? first : lo) = mid;
    }
    *pages_ruled_out = (last + 1) + (n - first);
    const int64_t begin = RowAt(last + 1);
    return {begin, std::max(begin, RowAt(first))};
  }

 private:
  SortedIndexSearch(const format::PageRows& pages, bool descending)
      : pages_(pages), descending_(descending) {}

  int64_t RowAt(int64_t page) const {
    return page >= static_cast<int64_t>(pages_.pages())
               ? pages_.num_rows
               : pages_.first_row(static_cast<size_t>(page));
  }

  bool InOrder(const ColumnBounds& a, const ColumnBounds& b) const {
    const ColumnBounds& low = descending_ ? b : a;
    const ColumnBounds& high = descending_ ? a : b;
    return expr::Compare(*low.min, *high.min) <= 0 && expr::Compare(*low.max, *high.max) <= 0;
  }

  // Whether the filter is proven false or NULL on every row of pages [a, b], knowing only this
  // column's hull over them.
  bool CannotMatchIn(const expr::BoundFilter& filter, size_t column, int64_t a, int64_t b) const {
    const auto first_page = static_cast<size_t>(a);
    const auto last_page = static_cast<size_t>(b);
    ColumnBounds hull;
    hull.num_rows = pages_.end_row(last_page) - pages_.first_row(first_page);
    hull.may_contain_nan = may_contain_nan_;
    const size_t lowest = next_[first_page];
    const size_t highest = last_[last_page];
    if (lowest > last_page) {
      hull.null_count = hull.num_rows;  // only confirmed all-NULL pages
    } else {
      hull.min = bounds_[descending_ ? highest : lowest].min;
      hull.max = bounds_[descending_ ? lowest : highest].max;
    }
    StatisticsTable table;
    table.containers = 1;
    table.bounds.resize(filter.columns.size());
    for (size_t k = 0; k < table.bounds.size(); ++k) {
      ColumnBounds unknown;
      unknown.num_rows = hull.num_rows;
      table.bounds[k].push_back(k == column ? hull : unknown);
    }
    return CannotMatch(Prove(filter, table)[0]);
  }

  format::PageRows pages_;
  bool descending_ = false;
  bool may_contain_nan_ = false;
  std::vector<ColumnBounds> bounds_;
  std::vector<size_t> next_;
  std::vector<size_t> last_;
};

// The column index's bounds of each page.
class ColumnIndexEvidence final : public PageEvidence {
 public:
  explicit ColumnIndexEvidence(const format::PageIndexStore& store) : store_(store) {}
  format::PageRows Pages(size_t g, const FilterLeaf& leaf, int64_t num_rows) const override {
    format::PageRows rows;
    rows.num_rows = num_rows;
    if (leaf.known() && store_.column_index(g, leaf.leaf) != nullptr) {
      rows.index = store_.offset_index(g, leaf.leaf);
    }
    return rows;
  }
  ColumnBounds Bounds(size_t g, const FilterLeaf& leaf, size_t page, int64_t rows) const override {
    return BoundsFromPageIndex(*leaf.descriptor, *leaf.type, *store_.column_index(g, leaf.leaf),
                               page, rows);
  }

 private:
  const format::PageIndexStore& store_;
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
      PQSIFT_RETURN_IF_ERROR(store->Load(Requests(context, groups, leaves), &report.bytes_read));
    }

    ColumnIndexEvidence evidence(*store);
    std::vector<CutRowGroup> cuts;
    for (size_t g : groups) {
      const int64_t num_rows = file.row_groups[g].num_rows;
      RowRange window = SearchSortedIndexes(context, g, num_rows, leaves, *store, evidence, report);
      CutRowGroup cut = CutIntoSegments(g, num_rows, window, leaves, evidence);
      if (cut.indexed) cuts.push_back(std::move(cut));
    }
    ProveSegments(context, std::move(cuts), leaves, evidence, std::string(name()), plan, report);
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

  // The indexes the stage loads: column and offset index of the filter columns, offset index
  // of every leaf the scan reads, in the row groups it can narrow.
  static std::vector<format::PageIndexStore::Request> Requests(
      const FileContext& context, const std::vector<size_t>& groups,
      const std::vector<FilterLeaf>& leaves) {
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g : groups) {
      for (const FilterLeaf& leaf : leaves) {
        if (leaf.known()) requests.push_back({g, leaf.leaf, true});
      }
      for (int32_t leaf : context.read_leaves) requests.push_back({g, leaf, false});
    }
    return requests;
  }

 public:
  std::vector<ByteRange> Needs(const FileContext& context, const FilePlan& plan) override {
    if (!context.filter.root || !context.load_evidence || context.page_indexes == nullptr ||
        !CheckPlanMatchesFile(context, plan).ok()) {
      return {};
    }
    std::vector<FilterLeaf> leaves;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      leaves.push_back(ResolveFilterLeaf(context, k));
    }
    std::vector<size_t> groups = GroupsWithColumnIndex(context, plan, leaves);
    if (groups.empty()) return {};
    return context.page_indexes->ReadsFor(Requests(context, groups, leaves));
  }

 private:
  // The rows of row group g left to prove after binary search on the filter columns whose
  // column index is sorted (all rows when none is).
  static RowRange SearchSortedIndexes(const FileContext& context, size_t g, int64_t num_rows,
                                      const std::vector<FilterLeaf>& leaves,
                                      const format::PageIndexStore& store,
                                      const ColumnIndexEvidence& evidence, StageReport& report) {
    RowRange window{0, num_rows};
    for (size_t k = 0; k < leaves.size() && window.begin < window.end; ++k) {
      format::PageRows pages = evidence.Pages(g, leaves[k], num_rows);
      if (pages.index == nullptr) continue;
      auto search =
          SortedIndexSearch::Make(leaves[k], *store.column_index(g, leaves[k].leaf), pages);
      if (!search) continue;
      int64_t ruled_out = 0;
      RowRange found = search->Window(context.filter, k, &ruled_out);
      report.pages_ruled_out_by_search += ruled_out;
      window.begin = std::max(window.begin, found.begin);
      window.end = std::max(window.begin, std::min(window.end, found.end));
    }
    return window;
  }
};

}  // namespace

std::unique_ptr<PruningStage> MakePageIndexStage() { return std::make_unique<PageIndexStage>(); }

}  // namespace pqsift::prune
