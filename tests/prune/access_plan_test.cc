// The access plan (narrowing only, explain text) and the row-group statistics stage over a
// crafted footer with several row groups.
#include "prune/access_plan.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>

#include "prune/expr_builders.h"
#include "prune/stage.h"
#include "testing/metadata_encoder.h"
#include "testing/parquet_files.h"
#include "testing/sample_metadata.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders
namespace files = ::pqsift::testing;

TEST(AccessPlan, NarrowSkipAndFullyMatched) {
  RowGroupPlan p = RowGroupPlan::ScanAll(100);
  EXPECT_EQ(p.decision(), Decision::kScan);
  p.Narrow(RowSelection::All(100), "noop");
  EXPECT_EQ(p.decided_by, "");  // nothing changed, nothing recorded
  p.Narrow(RowSelection::FromRanges({{10, 20}, {50, 200}}), "page index");
  EXPECT_EQ(p.decision(), Decision::kSelection);
  EXPECT_EQ(p.rows.row_count(), 60);
  EXPECT_EQ(p.decided_by, "page index");
  // Narrowing never widens.
  p.Narrow(RowSelection::All(100), "other");
  EXPECT_EQ(p.rows.row_count(), 60);
  EXPECT_EQ(p.decided_by, "page index");
  p.MarkFullyMatched("dictionary");
  EXPECT_TRUE(p.fully_matched);
  EXPECT_EQ(p.decided_by, "dictionary");
  p.Skip("bloom");
  EXPECT_EQ(p.decision(), Decision::kSkip);
  EXPECT_FALSE(p.fully_matched);
  EXPECT_EQ(p.decided_by, "bloom");
  p.Skip("again");
  EXPECT_EQ(p.decided_by, "bloom");
}

TEST(AccessPlan, ExplainText) {
  AccessPlan plan;
  FilePlan& f = plan.files.emplace_back();
  f.path = "a.parquet";
  f.row_groups = {RowGroupPlan::ScanAll(10), RowGroupPlan::ScanAll(10), RowGroupPlan::ScanAll(10)};
  f.row_groups[0].Skip("row-group statistics");
  f.row_groups[1].Narrow(RowSelection::FromRanges({{0, 2}, {5, 6}}), "page index");
  f.row_groups[2].MarkFullyMatched("row-group statistics");
  StageReport& s = plan.stages.emplace_back();
  s.stage = "row-group statistics";
  s.row_groups_considered = 3;
  s.row_groups_skipped = 1;
  s.rows_pruned = 10;
  s.seconds = 0.0015;
  EXPECT_EQ(ToString(plan),
            "file a.parquet: 3 row groups (1 scan, 1 selection, 1 skip), 13 of 30 rows selected\n"
            "  row group 0: skip, 0 of 10 rows (row-group statistics)\n"
            "  row group 1: selection, 3 of 10 rows in 2 ranges: rows 0-1, 5-5 (page index)\n"
            "  row group 2: scan, 10 of 10 rows, fully matched (row-group statistics)\n"
            "stage row-group statistics: 3 row groups considered, 1 skipped, 0 fully matched, "
            "10 rows pruned, 0 bytes read, 1.500 ms\n");
}

// A file of two columns (x INT64 required, s STRING optional) and five row groups.
class RowGroupStatisticsStageTest : public ::testing::Test {
 protected:
  std::string_view Keep(std::string bytes) { return storage_.emplace_back(std::move(bytes)); }
  std::string_view Int64Bytes(int64_t v) {
    std::string s(8, '\0');
    std::memcpy(s.data(), &v, 8);
    return Keep(s);
  }

  void SetUp() override {
    FileMetaData m;
    m.version = 2;
    SchemaElement s = files::Leaf("s", PhysicalType::kByteArray, Repetition::kOptional);
    s.converted_type = ConvertedType::kUtf8;
    s.logical_type = files::MakeLogical(LogicalType::Kind::kString);
    m.schema = {files::Root(2), files::Leaf("x", PhysicalType::kInt64), s};
    m.column_orders =
        std::vector<ColumnOrder>{ColumnOrder::kTypeDefined, ColumnOrder::kTypeDefined};
    // x ranges per row group; the last row group has no statistics for x.
    const std::optional<std::pair<int64_t, int64_t>> ranges[] = {
        {{0, 9}}, {{10, 19}}, {{20, 29}}, {{30, 39}}, std::nullopt};
    for (const auto& range : ranges) {
      RowGroup rg;
      rg.num_rows = 10;
      rg.total_byte_size = 20;
      ColumnChunk x = files::Chunk(PhysicalType::kInt64, {"x"}, 4, 10, 10);
      if (range) {
        Statistics& st = x.meta_data->statistics.emplace();
        st.min_value = Int64Bytes(range->first);
        st.max_value = Int64Bytes(range->second);
        st.null_count = 0;
      }
      ColumnChunk str = files::Chunk(PhysicalType::kByteArray, {"s"}, 14, 10, 10);
      Statistics& st = str.meta_data->statistics.emplace();
      st.min_value = Keep("apple");
      st.max_value = Keep("melon");
      st.null_count = 2;
      rg.columns = {x, str};
      m.row_groups.push_back(rg);
      m.num_rows += rg.num_rows;
    }
    std::string footer = files::EncodeFooter(m);
    auto md = DecodeParquetMetadata(
        "t.parquet", 1000,
        Buffer::CopyOf({reinterpret_cast<const uint8_t*>(footer.data()), footer.size()}));
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    metadata_ = *md;
    file_ = MakeMemoryFile("t.parquet", {});
  }

  // Runs the stage with `root` over x (column 0) and s (column 1).
  Status Run(const ExprPtr& root, FilePlan& plan, StageReport& report) {
    expr::BoundFilter filter;
    filter.root = root;
    filter.columns = {{"x", 0, Int64()}, {"s", 1, LargeUtf8()}};
    FileContext context{*metadata_, *file_, filter, nullptr, {}};
    return MakeRowGroupStatisticsStage()->Apply(context, plan, report);
  }

  std::deque<std::string> storage_;
  std::shared_ptr<const ParquetMetadata> metadata_;
  std::unique_ptr<RandomAccessFile> file_;
};

TEST_F(RowGroupStatisticsStageTest, SkipsAndMatchesRowGroups) {
  FilePlan plan = ScanAllPlan("t.parquet", metadata_->file());
  ASSERT_EQ(plan.row_groups.size(), 5u);
  StageReport report;
  // x >= 15 AND x < 35: rg0 cannot, rg1 may, rg2 must, rg3 may, rg4 unknown.
  ExprPtr root =
      And({Cmp(Op::kGe, Col(0, Int64()), IntLit(15)), Cmp(Op::kLt, Col(0, Int64()), IntLit(35))});
  ASSERT_TRUE(Run(root, plan, report).ok());
  EXPECT_EQ(plan.row_groups[0].decision(), Decision::kSkip);
  EXPECT_EQ(plan.row_groups[0].decided_by, "row-group statistics");
  EXPECT_EQ(plan.row_groups[1].decision(), Decision::kScan);
  EXPECT_FALSE(plan.row_groups[1].fully_matched);
  EXPECT_TRUE(plan.row_groups[2].fully_matched);
  EXPECT_EQ(plan.row_groups[2].decision(), Decision::kScan);
  EXPECT_FALSE(plan.row_groups[3].fully_matched);
  EXPECT_EQ(plan.row_groups[4].decision(), Decision::kScan);
  EXPECT_FALSE(plan.row_groups[4].fully_matched);
  EXPECT_EQ(report.stage, "row-group statistics");
  EXPECT_EQ(report.row_groups_considered, 5);
  EXPECT_EQ(report.row_groups_skipped, 1);
  EXPECT_EQ(report.row_groups_fully_matched, 1);
  EXPECT_EQ(report.rows_pruned, 10);
  EXPECT_EQ(report.bytes_read, 0u);

  // A second run looks only at what is still undecided.
  StageReport again;
  ASSERT_TRUE(Run(root, plan, again).ok());
  EXPECT_EQ(again.row_groups_considered, 3);
  EXPECT_EQ(again.row_groups_skipped, 0);
}

TEST_F(RowGroupStatisticsStageTest, NullableStringColumn) {
  FilePlan plan = ScanAllPlan("t.parquet", metadata_->file());
  StageReport report;
  // s has NULLs: s >= 'a' is never fully matched; s > 'zebra' cannot match anywhere.
  ASSERT_TRUE(Run(Cmp(Op::kGe, Col(1, LargeUtf8()), StrLit("a")), plan, report).ok());
  EXPECT_EQ(report.row_groups_fully_matched, 0);
  EXPECT_EQ(report.row_groups_skipped, 0);
  ASSERT_TRUE(Run(Cmp(Op::kGt, Col(1, LargeUtf8()), StrLit("zebra")), plan, report).ok());
  EXPECT_EQ(report.row_groups_skipped, 5);
  EXPECT_EQ(report.rows_pruned, 50);
  // OR across columns: x < 5 OR s IS NULL keeps every row group.
  FilePlan or_plan = ScanAllPlan("t.parquet", metadata_->file());
  StageReport or_report;
  ASSERT_TRUE(Run(Or({Cmp(Op::kLt, Col(0, Int64()), IntLit(5)), IsNull(Col(1, LargeUtf8()))}),
                  or_plan, or_report)
                  .ok());
  EXPECT_EQ(or_report.row_groups_skipped, 0);
}

TEST_F(RowGroupStatisticsStageTest, PlanOfAnotherFileIsAnError) {
  FilePlan plan;
  plan.row_groups = {RowGroupPlan::ScanAll(10)};
  StageReport report;
  EXPECT_FALSE(Run(BoolLit(true), plan, report).ok());
}

// The stage over a parquet-testing file whose statistics are the deprecated fields only.
TEST(RowGroupStatisticsStageFile, DeprecatedStatsPruneIntegersNotStrings) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "datapage_v2.snappy.parquet");
  files::OpenedFile f = files::OpenParquet(path);
  ASSERT_NE(f.metadata, nullptr);
  const Schema& schema = f.metadata->schema();
  int32_t a = static_cast<int32_t>(schema.FindColumn("a") - schema.columns().data());
  int32_t b = static_cast<int32_t>(schema.FindColumn("b") - schema.columns().data());
  auto run = [&](const ExprPtr& root) {
    expr::BoundFilter filter;
    filter.root = root;
    filter.columns = {{"a", a, LargeUtf8()}, {"b", b, Int32()}};
    FilePlan plan = ScanAllPlan(path, f.metadata->file());
    StageReport report;
    FileContext context{*f.metadata, *f.file, filter, nullptr, {}};
    EXPECT_TRUE(MakeRowGroupStatisticsStage()->Apply(context, plan, report).ok());
    return plan.row_groups.at(0);
  };
  ExprPtr b_col = Col(1, Int32());
  EXPECT_EQ(run(Cmp(Op::kGt, b_col, Lit(Value::Int(5), Int32()))).decision(), Decision::kSkip);
  EXPECT_TRUE(run(Cmp(Op::kGe, b_col, Lit(Value::Int(1), Int32()))).fully_matched);
  EXPECT_EQ(run(Cmp(Op::kGe, b_col, Lit(Value::Int(3), Int32()))).decision(), Decision::kScan);
  // The deprecated string bounds ("abc".."abc") are not trusted: nothing is proven.
  EXPECT_EQ(run(Cmp(Op::kEq, Col(0, LargeUtf8()), StrLit("zzz"))).decision(), Decision::kScan);
}

}  // namespace
}  // namespace pqsift::prune
