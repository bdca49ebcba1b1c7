// The row positions stage (prune/row_position_stage.cc) over a crafted footer of row groups of
// 10, 20, 5 and 15 rows: conditions on the virtual row index become skipped row groups and row
// selections from the row counts alone; conditions on other columns leave their rows in.
#include <gtest/gtest.h>

#include "prune/access_plan.h"
#include "prune/expr_builders.h"
#include "prune/stage.h"
#include "testing/metadata_encoder.h"
#include "testing/parquet_files.h"
#include "testing/sample_metadata.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders
namespace files = ::pqsift::testing;

class RowPositionStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FileMetaData m;
    m.version = 2;
    m.schema = {files::Root(1), files::Leaf("x", PhysicalType::kInt64)};
    for (int64_t rows : {10, 20, 5, 15}) {
      RowGroup rg;
      rg.num_rows = rows;
      rg.total_byte_size = 20;
      rg.columns = {files::Chunk(PhysicalType::kInt64, {"x"}, 4, rows, 10)};
      m.row_groups.push_back(rg);
      m.num_rows += rows;
    }
    std::string footer = files::EncodeFooter(m);
    auto md = DecodeParquetMetadata(
        "t.parquet", 1000,
        Buffer::CopyOf({reinterpret_cast<const uint8_t*>(footer.data()), footer.size()}));
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    metadata_ = *md;
    file_ = MakeMemoryFile("t.parquet", {});
  }

  // The plan the stage leaves for `root` over x (column 0) and the row index "pos" (column 1),
  // as "skip" or the selected rows per row group.
  std::vector<std::string> Run(const ExprPtr& root, StageReport* report = nullptr) {
    expr::BoundFilter filter;
    filter.root = root;
    filter.columns = {{"x", 0, Int64()}, {"pos", -1, Int64()}};
    FileContext context{*metadata_, *file_, filter, nullptr, {}};
    context.row_index_column = "pos";
    FilePlan plan = ScanAllPlan("t.parquet", metadata_->file());
    StageReport local;
    Status st = MakeRowPositionStage()->Apply(context, plan, report ? *report : local);
    EXPECT_TRUE(st.ok()) << st.ToString();
    std::vector<std::string> out;
    for (const RowGroupPlan& p : plan.row_groups) {
      out.push_back(p.decision() == Decision::kSkip ? "skip" : p.rows.ToString());
    }
    return out;
  }

  static ExprPtr Pos() { return Col(1, Int64()); }
  static ExprPtr X() { return Col(0, Int64()); }

  std::shared_ptr<const ParquetMetadata> metadata_;
  std::unique_ptr<RandomAccessFile> file_;
};

using Plan = std::vector<std::string>;

TEST_F(RowPositionStageTest, RangesFromRowCounts) {
  // Rows 0-9 | 10-29 | 30-34 | 35-49.
  StageReport report;
  EXPECT_EQ(Run(And({Cmp(Op::kGe, Pos(), IntLit(12)), Cmp(Op::kLe, Pos(), IntLit(31))}), &report),
            (Plan{"skip", "rows 2-19", "rows 0-1", "skip"}));
  EXPECT_EQ(report.row_groups_considered, 4);
  EXPECT_EQ(report.row_groups_skipped, 2);
  EXPECT_EQ(report.rows_pruned, 50 - 20);
  EXPECT_EQ(Run(Cmp(Op::kEq, Pos(), IntLit(34))), (Plan{"skip", "skip", "rows 4-4", "skip"}));
  // A literal on the left.
  EXPECT_EQ(Run(Cmp(Op::kGt, IntLit(10), Pos())), (Plan{"rows 0-9", "skip", "skip", "skip"}));
  EXPECT_EQ(Run(In(Pos(), {Value::Int(0), Value::Int(49), Value::Int(50), Value::Int(-3)})),
            (Plan{"rows 0-0", "skip", "skip", "rows 14-14"}));
  EXPECT_EQ(Run(Cmp(Op::kNe, Pos(), IntLit(0))),
            (Plan{"rows 1-9", "rows 0-19", "rows 0-4", "rows 0-14"}));
  EXPECT_EQ(Run(Cmp(Op::kLt, Pos(), IntLit(-5))), (Plan{"skip", "skip", "skip", "skip"}));
  EXPECT_EQ(Run(IsNull(Pos())), (Plan{"skip", "skip", "skip", "skip"}));
}

TEST_F(RowPositionStageTest, BooleanStructure) {
  // OR of two ranges; NOT of a range.
  EXPECT_EQ(Run(Or({Cmp(Op::kLt, Pos(), IntLit(2)), Cmp(Op::kGe, Pos(), IntLit(48))})),
            (Plan{"rows 0-1", "skip", "skip", "rows 13-14"}));
  EXPECT_EQ(Run(Not(Cmp(Op::kGe, Pos(), IntLit(3)))), (Plan{"rows 0-2", "skip", "skip", "skip"}));
  // Another column's condition can be anything: OR with it keeps every row, AND narrows.
  EXPECT_EQ(Run(Or({Cmp(Op::kLt, Pos(), IntLit(2)), Cmp(Op::kGt, X(), IntLit(5))})),
            (Plan{"rows 0-9", "rows 0-19", "rows 0-4", "rows 0-14"}));
  EXPECT_EQ(Run(And({Cmp(Op::kLt, Pos(), IntLit(2)), Cmp(Op::kGt, X(), IntLit(5))})),
            (Plan{"rows 0-1", "skip", "skip", "skip"}));
  // NOT over another column's condition proves nothing either.
  EXPECT_EQ(Run(Not(Or({Cmp(Op::kGe, Pos(), IntLit(2)), Cmp(Op::kGt, X(), IntLit(5))}))),
            (Plan{"rows 0-1", "skip", "skip", "skip"}));
  // IN with NULL: a non-match is NULL, so NOT of it is never TRUE there either.
  EXPECT_EQ(Run(Not(In(Pos(), {Value::Int(1)}, /*list_has_null=*/true))),
            (Plan{"skip", "skip", "skip", "skip"}));
  // Arithmetic on the row index is not understood: every row stays.
  EXPECT_EQ(Run(Cmp(Op::kEq, Arith(Op::kAdd, Pos(), IntLit(1)), IntLit(3))),
            (Plan{"rows 0-9", "rows 0-19", "rows 0-4", "rows 0-14"}));
}

TEST_F(RowPositionStageTest, NoRowIndexNoChange) {
  expr::BoundFilter filter;
  filter.root = Cmp(Op::kEq, Pos(), IntLit(3));
  filter.columns = {{"x", 0, Int64()}, {"pos", -1, Int64()}};
  FileContext context{*metadata_, *file_, filter, nullptr, {}};  // no row_index_column
  FilePlan plan = ScanAllPlan("t.parquet", metadata_->file());
  StageReport report;
  ASSERT_TRUE(MakeRowPositionStage()->Apply(context, plan, report).ok());
  for (const RowGroupPlan& p : plan.row_groups) EXPECT_EQ(p.decision(), Decision::kScan);
}

}  // namespace
}  // namespace pqsift::prune
