// The page-index stage on hand-built files: one row group of 100 rows, x (INT64 required) in
// pages starting at rows 0, 30, 60, 90 and y (INT64 optional) in pages starting at 0, 25, 50,
// 75, so the stage must cut at the union 0, 25, 30, 50, 60, 75, 90. The file holds the footer
// and the page indexes only (the stage never reads a data page).
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <random>

#include "prune/expr_builders.h"
#include "prune/stage.h"
#include "testing/files.h"
#include "testing/metadata_encoder.h"
#include "testing/sample_metadata.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders
namespace files = ::pqsift::testing;

struct PageSpec {
  int64_t first_row;
  std::optional<std::pair<int64_t, int64_t>> bounds;  // nullopt: a null page
  int64_t nulls = 0;
};

struct ColumnSpec {
  std::vector<PageSpec> pages;
  BoundaryOrder order = BoundaryOrder::kUnordered;
  bool column_index = true;
  bool corrupt = false;   // column index bytes that do not decode
  bool optional = false;  // x only (y is always optional)
  bool null_counts = true;
  // Definition level histograms per page ({nulls, values}: max level 1), with `levels_skew`
  // added to every page's value count (non-zero: histograms that do not add up to the rows).
  bool levels = false;
  int64_t levels_skew = 0;
};

class PageIndexStageTest : public ::testing::Test {
 protected:
  std::string_view Keep(std::string bytes) { return storage_.emplace_back(std::move(bytes)); }
  std::string_view Int64Bytes(int64_t v) {
    std::string s(8, '\0');
    std::memcpy(s.data(), &v, 8);
    return Keep(s);
  }

  // x's and y's pages; row-group statistics are left out so only the page index can prune.
  void MakeFile(const ColumnSpec& x, const ColumnSpec& y) {
    FileMetaData m;
    m.version = 2;
    m.schema = {files::Root(2),
                files::Leaf("x", PhysicalType::kInt64,
                            x.optional ? Repetition::kOptional : Repetition::kRequired),
                files::Leaf("y", PhysicalType::kInt64, Repetition::kOptional)};
    m.column_orders =
        std::vector<ColumnOrder>{ColumnOrder::kTypeDefined, ColumnOrder::kTypeDefined};
    RowGroup rg;
    rg.num_rows = 100;
    rg.total_byte_size = 2000;
    std::string body = "PAR1";
    const ColumnSpec* specs[] = {&x, &y};
    for (int c = 0; c < 2; ++c) {
      const ColumnSpec& spec = *specs[c];
      int64_t chunk_offset = 4 + c * 1000;
      ColumnChunk chunk =
          files::Chunk(PhysicalType::kInt64, {c == 0 ? "x" : "y"}, chunk_offset, 1000, 100);
      format::OffsetIndex oi;
      format::ColumnIndex ci;
      ci.boundary_order = spec.order;
      ci.null_counts.emplace();
      for (size_t p = 0; p < spec.pages.size(); ++p) {
        const PageSpec& page = spec.pages[p];
        oi.page_locations.push_back(
            {chunk_offset + static_cast<int64_t>(p) * 100, 100, page.first_row});
        ci.null_pages.push_back(!page.bounds);
        ci.min_values.push_back(page.bounds ? Int64Bytes(page.bounds->first) : "");
        ci.max_values.push_back(page.bounds ? Int64Bytes(page.bounds->second) : "");
        ci.null_counts->push_back(page.nulls);
        if (spec.levels) {
          const int64_t end = p + 1 < spec.pages.size() ? spec.pages[p + 1].first_row : 100;
          ci.definition_level_histograms.push_back(page.nulls);
          ci.definition_level_histograms.push_back(end - page.first_row - page.nulls +
                                                   spec.levels_skew);
        }
      }
      if (!spec.null_counts) ci.null_counts.reset();
      std::string ci_bytes = files::MetadataEncoder().ColumnIndex(ci).Take();
      if (spec.corrupt) ci_bytes = std::string(ci_bytes.size(), '\xff');
      std::string oi_bytes = files::MetadataEncoder().OffsetIndex(oi).Take();
      index_bytes_[c] = ci_bytes.size() + oi_bytes.size();
      if (spec.column_index) {
        chunk.column_index_offset = 2004 + static_cast<int64_t>(body.size() - 4);
        chunk.column_index_length = static_cast<int32_t>(ci_bytes.size());
      }
      body += ci_bytes;
      chunk.offset_index_offset = 2004 + static_cast<int64_t>(body.size() - 4);
      chunk.offset_index_length = static_cast<int32_t>(oi_bytes.size());
      body += oi_bytes;
      rg.columns.push_back(chunk);
    }
    m.row_groups = {rg};
    m.num_rows = 100;
    // The data region [4, 2004) is zeros: the stage must not read it.
    std::string file = "PAR1" + std::string(2000, '\0') + body.substr(4);
    std::string footer = files::EncodeFooter(m);
    file += footer;
    files::AppendLE32(file, static_cast<uint32_t>(footer.size()));
    file += "PAR1";
    file_ = files::MemoryFile("t.parquet", file);
    OpenOptions options;
    options.tail_bytes = 8;  // the page index is not in the footer's read
    auto md = ReadParquetMetadata(*file_, options);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    metadata_ = *md;
    before_ = file_->stats();
  }

  // Runs the row-group stage then the page-index stage with `root` over x (0) and y (1).
  FilePlan Run(const ExprPtr& root, StageReport* report = nullptr, bool only_y = false) {
    expr::BoundFilter filter;
    filter.root = root;
    filter.columns = {{"x", 0, Int64()}, {"y", 1, Int64()}};
    if (only_y) filter.columns = {{"y", 1, Int64()}};  // Col(0) is y
    FileContext context{*metadata_, *file_, filter, nullptr, {}};
    FilePlan plan = ScanAllPlan("t.parquet", metadata_->file());
    StageReport row_groups;
    EXPECT_TRUE(MakeRowGroupStatisticsStage()->Apply(context, plan, row_groups).ok());
    StageReport local;
    Status st = MakePageIndexStage()->Apply(context, plan, report ? *report : local);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return plan;
  }

  static RowSelection Rows(std::vector<RowRange> ranges) {
    return RowSelection::FromRanges(std::move(ranges));
  }

  // x ascending: page p holds p*30 .. p*30+29 (the last page 90..99).
  static ColumnSpec AscendingX() {
    return {{{0, {{0, 29}}}, {30, {{30, 59}}}, {60, {{60, 89}}}, {90, {{90, 99}}}},
            BoundaryOrder::kAscending};
  }
  // y: page 0 in [0, 9], page 1 in [100, 109] with NULLs, page 2 NULL only, page 3 in [5, 6].
  static ColumnSpec SomeY() {
    return {{{0, {{0, 9}}}, {25, {{100, 109}}, 3}, {50, std::nullopt, 25}, {75, {{5, 6}}}}};
  }

  std::deque<std::string> storage_;
  std::shared_ptr<const ParquetMetadata> metadata_;
  std::unique_ptr<RandomAccessFile> file_;
  IoStats before_;
  size_t index_bytes_[2] = {0, 0};
};

TEST_F(PageIndexStageTest, SegmentsAcrossMisalignedPages) {
  MakeFile(AscendingX(), SomeY());
  StageReport report;
  // x >= 70 AND y <= 9: x rules out [0, 60); y rules out [25, 75) (page 1 above 9, page 2 NULL).
  FilePlan plan = Run(
      And({Cmp(Op::kGe, Col(0, Int64()), IntLit(70)), Cmp(Op::kLe, Col(1, Int64()), IntLit(9))}),
      &report);
  const RowGroupPlan& g = plan.row_groups[0];
  EXPECT_EQ(g.rows, Rows({{75, 100}}));
  EXPECT_EQ(g.decided_by, "page index");
  // Segment [90, 100): x in [90, 99] >= 70 and y in [5, 6] <= 9: every row matches; in
  // [75, 90) x's page [60, 89] may hold smaller values.
  EXPECT_EQ(g.matched_rows, Rows({{90, 100}}));
  EXPECT_FALSE(g.fully_matched);
  EXPECT_EQ(report.row_groups_considered, 1);
  EXPECT_EQ(report.rows_pruned, 75);
  EXPECT_EQ(report.rows_matched, 10);
  EXPECT_EQ(report.pages_total, 8);
  EXPECT_EQ(report.pages_pruned, 5);  // x pages 0, 1 (page 2 holds rows 75-89); y pages 0, 1, 2
  // Both columns' indexes in one read.
  EXPECT_EQ(file_->stats().read_requests - before_.read_requests, 1u);
  EXPECT_EQ(report.bytes_read, index_bytes_[0] + index_bytes_[1]);
  EXPECT_EQ(file_->stats().bytes_read - before_.bytes_read, report.bytes_read);
}

TEST_F(PageIndexStageTest, OrAcrossColumnsKeepsEitherSide) {
  MakeFile(AscendingX(), SomeY());
  // x < 10 OR y >= 100: [0, 30) from x; [25, 50) from y.
  FilePlan plan = Run(
      Or({Cmp(Op::kLt, Col(0, Int64()), IntLit(10)), Cmp(Op::kGe, Col(1, Int64()), IntLit(100))}));
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{0, 50}}));
  EXPECT_TRUE(plan.row_groups[0].matched_rows.empty());
}

TEST_F(PageIndexStageTest, NullPages) {
  MakeFile(AscendingX(), SomeY());
  // Page 0 of y has no NULLs (null count 0); page 3 neither; page 1 has some, page 2 only NULLs.
  EXPECT_EQ(Run(IsNull(Col(1, Int64()))).row_groups[0].rows, Rows({{25, 75}}));
  FilePlan plan = Run(IsNull(Col(1, Int64())));
  EXPECT_EQ(plan.row_groups[0].matched_rows, Rows({{50, 75}}));
  // No value of a NULL page can compare.
  EXPECT_EQ(Run(Cmp(Op::kGe, Col(1, Int64()), IntLit(0))).row_groups[0].rows,
            Rows({{0, 50}, {75, 100}}));
}

// Without null counts, the definition level histograms tell which pages hold NULLs: pages 1
// and 2 for IS NULL, page 2 (only NULLs) ruled out for IS NOT NULL. Histograms that do not add
// up to the offset index's page rows, or no histograms at all, prove nothing.
TEST_F(PageIndexStageTest, LevelHistogramsProveNullsWithoutNullCounts) {
  ColumnSpec y = SomeY();
  y.null_counts = false;
  MakeFile(AscendingX(), y);
  EXPECT_EQ(Run(IsNull(Col(1, Int64()))).row_groups[0].rows, Rows({{0, 100}}));
  y.levels = true;
  MakeFile(AscendingX(), y);
  FilePlan plan = Run(IsNull(Col(1, Int64())));
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{25, 75}}));
  EXPECT_EQ(plan.row_groups[0].matched_rows, Rows({{50, 75}}));
  EXPECT_EQ(Run(IsNotNull(Col(1, Int64()))).row_groups[0].rows, Rows({{0, 50}, {75, 100}}));
  y.levels_skew = 1;
  MakeFile(AscendingX(), y);
  EXPECT_EQ(Run(IsNull(Col(1, Int64()))).row_groups[0].rows, Rows({{0, 100}}));
  EXPECT_EQ(Run(IsNotNull(Col(1, Int64()))).row_groups[0].rows, Rows({{0, 100}}));
}

// Polars flags pages without bounds (all NaN) as null pages; their null count gives it away.
TEST_F(PageIndexStageTest, NullPageWithValuesIsNotBelieved) {
  ColumnSpec y = SomeY();
  y.pages[2].nulls = 3;
  MakeFile(AscendingX(), y);
  EXPECT_EQ(Run(Cmp(Op::kGe, Col(1, Int64()), IntLit(0))).row_groups[0].rows, Rows({{0, 100}}));
}

TEST_F(PageIndexStageTest, MissingIndexMayMatch) {
  ColumnSpec y = SomeY();
  y.column_index = false;
  MakeFile(AscendingX(), y);
  // Only y's index could prune: without it nothing is pruned (x's index cuts the row group, but
  // y's bounds are unknown in every segment).
  StageReport report;
  FilePlan plan = Run(Cmp(Op::kGe, Col(1, Int64()), IntLit(100)), &report);
  EXPECT_EQ(plan.row_groups[0].decision(), Decision::kScan);
  EXPECT_EQ(report.rows_pruned, 0);
  // A filter on y alone: no index to load, no read at all.
  StageReport y_only;
  IoStats before = file_->stats();
  plan = Run(Cmp(Op::kGe, Col(0, Int64()), IntLit(100)), &y_only, true);
  EXPECT_EQ(plan.row_groups[0].decision(), Decision::kScan);
  EXPECT_EQ(y_only.row_groups_considered, 0);
  EXPECT_EQ(file_->stats().read_requests, before.read_requests);
  // x's index still cuts; y is unknown in every segment.
  plan = Run(
      And({Cmp(Op::kLt, Col(0, Int64()), IntLit(10)), Cmp(Op::kGe, Col(1, Int64()), IntLit(100))}));
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{0, 30}}));
}

TEST_F(PageIndexStageTest, CorruptIndexMayMatch) {
  ColumnSpec x = AscendingX();
  x.corrupt = true;
  MakeFile(x, SomeY());
  FilePlan plan = Run(Cmp(Op::kLt, Col(0, Int64()), IntLit(10)));
  EXPECT_EQ(plan.row_groups[0].decision(), Decision::kScan);
}

TEST_F(PageIndexStageTest, DescendingIndex) {
  ColumnSpec x = {{{0, {{70, 99}}}, {30, {{40, 69}}}, {60, {{10, 39}}}, {90, {{0, 9}}}},
                  BoundaryOrder::kDescending};
  MakeFile(x, SomeY());
  FilePlan plan = Run(Cmp(Op::kLe, Col(0, Int64()), IntLit(40)));
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{30, 100}}));
  EXPECT_EQ(plan.row_groups[0].matched_rows, Rows({{60, 100}}));
}

TEST_F(PageIndexStageTest, EveryKeptPageMatchingIsFullyMatched) {
  MakeFile(AscendingX(), SomeY());
  StageReport report;
  FilePlan plan = Run(
      And({Cmp(Op::kGe, Col(0, Int64()), IntLit(30)), Cmp(Op::kLe, Col(0, Int64()), IntLit(89))}),
      &report);
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{30, 90}}));
  EXPECT_TRUE(plan.row_groups[0].fully_matched);
  EXPECT_EQ(report.row_groups_fully_matched, 1);
  // Nothing left: the row group is skipped.
  plan = Run(Cmp(Op::kGt, Col(0, Int64()), IntLit(1000)), &report);
  EXPECT_EQ(plan.row_groups[0].decision(), Decision::kSkip);
}

TEST_F(PageIndexStageTest, SortedIndexIsSearchedFromBothEnds) {
  // x in 10 pages of 10 rows, page p holding [10p, 10p + 9].
  ColumnSpec x;
  for (int64_t p = 0; p < 10; ++p) x.pages.push_back({p * 10, {{p * 10, p * 10 + 9}}});
  x.order = BoundaryOrder::kAscending;
  MakeFile(x, SomeY());
  StageReport report;
  FilePlan plan = Run(
      And({Cmp(Op::kGe, Col(0, Int64()), IntLit(35)), Cmp(Op::kLe, Col(0, Int64()), IntLit(52))}),
      &report);
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{30, 60}}));
  EXPECT_EQ(plan.row_groups[0].matched_rows, Rows({{40, 50}}));
  EXPECT_EQ(report.pages_ruled_out_by_search, 7);  // pages 0-2 and 6-9
  EXPECT_EQ(report.pages_pruned, 9);               // and y pages 0 and 3
  EXPECT_NE(ToString(AccessPlan{{plan}, {report}}).find("(7 by binary search)"), std::string::npos);

  // The same bounds in reverse, declared descending.
  ColumnSpec reversed;
  for (int64_t p = 0; p < 10; ++p) reversed.pages.push_back({p * 10, {{90 - p * 10, 99 - p * 10}}});
  reversed.order = BoundaryOrder::kDescending;
  MakeFile(reversed, SomeY());
  StageReport descending;
  plan = Run(Cmp(Op::kGt, Col(0, Int64()), IntLit(75)), &descending);
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{0, 30}}));
  EXPECT_EQ(descending.pages_ruled_out_by_search, 7);
}

TEST_F(PageIndexStageTest, AClaimedOrderThatDoesNotHoldIsNotSearched) {
  // Declared ascending, but page 2's values lie below page 1's: searching from the end would
  // rule out page 2 together with page 3 for x < 20.
  ColumnSpec x = {{{0, {{0, 29}}}, {30, {{30, 59}}}, {60, {{5, 15}}}, {90, {{90, 99}}}},
                  BoundaryOrder::kAscending};
  MakeFile(x, SomeY());
  StageReport report;
  FilePlan plan = Run(Cmp(Op::kLt, Col(0, Int64()), IntLit(20)), &report);
  EXPECT_EQ(plan.row_groups[0].rows, Rows({{0, 30}, {60, 90}}));
  EXPECT_EQ(report.pages_ruled_out_by_search, 0);
}

// Whatever the bounds and the claimed order, searching changes how much is proved, never the
// plan: the same file declared unordered gives the same selection and matched rows.
TEST_F(PageIndexStageTest, SearchGivesThePlanOfTheUnorderedIndex) {
  std::mt19937_64 rng(20261130);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int64_t searched = 0;
  for (int round = 0; round < 400; ++round) {
    // Ascending or descending pages of random sizes, sometimes with NULL-only pages and
    // sometimes one page out of order.
    ColumnSpec x;
    bool descending = uniform(0, 1) == 1;
    x.order = descending ? BoundaryOrder::kDescending : BoundaryOrder::kAscending;
    int64_t value = uniform(-50, 50);
    for (int64_t row = 0; row < 100; row += uniform(1, 30)) {
      if (uniform(0, 9) == 0) {
        x.pages.push_back({row, std::nullopt, 0});
        continue;
      }
      int64_t low = value;
      value += uniform(0, 20);
      x.pages.push_back({row, {{low, value}}});
      value += uniform(0, 5);
    }
    for (PageSpec& page : x.pages) {
      if (descending && page.bounds) page.bounds = {{-page.bounds->second, -page.bounds->first}};
    }
    if (uniform(0, 4) == 0) {
      PageSpec& page =
          x.pages[static_cast<size_t>(uniform(0, static_cast<int64_t>(x.pages.size()) - 1))];
      if (page.bounds) page.bounds = {{page.bounds->first - 40, page.bounds->second - 40}};
    }
    // A NULL-only page's null count covers its rows: believed when x is optional (the search
    // passes over it), not when x is required (no bounds at all: the search gives up).
    x.optional = uniform(0, 1) == 1;
    for (size_t p = 0; p < x.pages.size(); ++p) {
      int64_t end = p + 1 < x.pages.size() ? x.pages[p + 1].first_row : 100;
      if (!x.pages[p].bounds) x.pages[p].nulls = end - x.pages[p].first_row;
    }
    auto lit = [&] { return IntLit(uniform(-120, 120)); };
    auto x_cond = [&]() -> ExprPtr {
      static const Op kOps[] = {Op::kLt, Op::kLe, Op::kGt, Op::kGe, Op::kEq, Op::kNe};
      return Cmp(kOps[uniform(0, 5)], Col(0, Int64()), lit());
    };
    ExprPtr root;
    switch (uniform(0, 4)) {
      case 0: root = x_cond(); break;
      case 1: root = And({x_cond(), x_cond()}); break;
      case 2: root = Or({x_cond(), x_cond()}); break;
      case 3: root = Not(And({x_cond(), x_cond()})); break;
      default: root = And({x_cond(), Cmp(Op::kLe, Col(1, Int64()), lit())}); break;
    }
    MakeFile(x, SomeY());
    StageReport report;
    FilePlan sorted = Run(root, &report);
    searched += report.pages_ruled_out_by_search;
    x.order = BoundaryOrder::kUnordered;
    MakeFile(x, SomeY());
    FilePlan unordered = Run(root);
    SCOPED_TRACE("round " + std::to_string(round));
    EXPECT_EQ(sorted.row_groups[0].rows, unordered.row_groups[0].rows);
    EXPECT_EQ(sorted.row_groups[0].matched_rows, unordered.row_groups[0].matched_rows);
    EXPECT_EQ(sorted.row_groups[0].fully_matched, unordered.row_groups[0].fully_matched);
  }
  EXPECT_GT(searched, 400);  // the search did run
}

}  // namespace
}  // namespace pqsift::prune
