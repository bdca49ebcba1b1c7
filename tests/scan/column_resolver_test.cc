// One rule for column names in every part of a scan (scan/column_resolver.h, Schema::FindNode):
// the exact path, else the one path equal to it ignoring case. `--where "ID = 5"` found `id`
// while `--select ID` did not.
#include <gtest/gtest.h>

#include "scan_test_file.h"

namespace pqsift {
namespace {

using testing::DrainScanner;
using testing::Int64Column;
using testing::ScanTestFile;

TEST(ColumnResolver, SelectWhereAndOrderByResolveNamesAlike) {
  ScanTestFile file;
  ScanOptions options;
  options.columns = {"ID", "V"};
  options.filter = "Id >= 9990";
  auto scanner = file.Open(options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  // The batch keeps the caller's spelling.
  ASSERT_EQ((*scanner)->schema()->fields.size(), 2u);
  EXPECT_EQ((*scanner)->schema()->fields[0].name, "ID");
  auto batches = DrainScanner(**scanner);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<std::optional<int64_t>> ids = Int64Column(*batches, 0);
  ASSERT_EQ(ids.size(), 10u);
  EXPECT_EQ(ids.front(), 9990);

  // ORDER BY spelled otherwise than the projection: the key column is the projected one (not a
  // second, hidden copy), and the heap orders by it.
  options.filter.clear();
  options.columns = {"id"};
  options.order_by = "ID DESC";
  options.limit = 3;
  auto top = file.Open(options);
  ASSERT_TRUE(top.ok()) << top.status().ToString();
  ASSERT_EQ((*top)->schema()->fields.size(), 1u);
  auto best = DrainScanner(**top);
  ASSERT_TRUE(best.ok()) << best.status().ToString();
  EXPECT_EQ(Int64Column(*best, 0), (std::vector<std::optional<int64_t>>{9999, 9998, 9997}));
}

TEST(ColumnResolver, UnknownNamesFailTheSameWay) {
  ScanTestFile file;
  ScanOptions options;
  options.columns = {"nope"};
  auto select = file.Open(options);
  ASSERT_FALSE(select.ok());
  EXPECT_EQ(select.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(select.status().message().find("no column 'nope'"), std::string::npos)
      << select.status().ToString();
  options.columns.clear();
  options.filter = "nope = 1";
  auto where = file.Open(options);
  ASSERT_FALSE(where.ok());
  EXPECT_NE(where.status().message().find("no column 'nope'"), std::string::npos)
      << where.status().ToString();
}

TEST(ColumnResolver, SchemaFindNodePrefersTheExactPathAndRefusesAmbiguity) {
  // Two leaves differing only in case: each exact spelling finds its own; any other spelling is
  // ambiguous.
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"a", Int64(), false}, {"A", Int64(), false}, {"b", Int64(), false}};
  std::vector<uint8_t> bytes;
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 1;
  for (int k = 0; k < 3; ++k) {
    FixedWidthArrayBuilder<int64_t> column(Int64());
    column.Append(k);
    batch.columns.push_back(column.Finish());
  }
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("case.parquet", &bytes), schema, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto md = ReadParquetMetadata(*MakeMemoryFile("case.parquet", bytes));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  const Schema& s = (*md)->schema();
  EXPECT_EQ(s.NodePath(s.FindNode("a")), "a");
  EXPECT_EQ(s.NodePath(s.FindNode("A")), "A");
  EXPECT_EQ(s.NodePath(s.FindNode("B")), "b");
  EXPECT_EQ(s.FindNode("c"), -1);
  // Neither exact: "a" and "A" both match ignoring case.
  ScanOptions options;
  options.columns = {"b"};
  options.filter = "a = 0";
  auto scanner = Scanner::Open({MakeMemoryFile("case.parquet", bytes)}, {*md}, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto rows = DrainScanner(**scanner);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(Int64Column(*rows, 0), (std::vector<std::optional<int64_t>>{2}));
}

}  // namespace
}  // namespace pqsift
