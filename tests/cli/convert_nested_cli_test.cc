// `pqsift convert` of Parquet files with nested columns (parquet-testing's lists, maps, structs,
// legacy list shapes, deep Impala nesting): the rewrite, with small row groups and pages, reads
// back through pqsift's reader with the same Arrow schema and equal values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pqsift/scan.h"
#include "testing/cli.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

struct Rows {
  std::shared_ptr<const BatchSchema> schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

Rows ReadAll(const std::string& path) {
  Rows out;
  ScanOptions options;
  options.threads = 1;
  auto scanner = Scanner::Open({path}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  out.schema = (*scanner)->schema();
  for (;;) {
    auto batch = (*scanner)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    out.batches.push_back(*batch);
  }
  return out;
}

// The same rows in both, however they are cut into batches.
void ExpectSameRows(const Rows& want, const Rows& got, const std::string& where) {
  ASSERT_NE(want.schema, nullptr);
  ASSERT_NE(got.schema, nullptr);
  ASSERT_EQ(want.schema->fields.size(), got.schema->fields.size()) << where;
  for (size_t c = 0; c < want.schema->fields.size(); ++c) {
    EXPECT_TRUE(want.schema->fields[c] == got.schema->fields[c])
        << where << ": " << want.schema->fields[c].type->ToString() << " became "
        << got.schema->fields[c].type->ToString();
  }
  size_t wb = 0, gb = 0;
  int64_t wr = 0, gr = 0, row = 0;
  for (;;) {
    while (wb < want.batches.size() && wr == want.batches[wb]->num_rows) ++wb, wr = 0;
    while (gb < got.batches.size() && gr == got.batches[gb]->num_rows) ++gb, gr = 0;
    if (wb == want.batches.size() || gb == got.batches.size()) break;
    const RecordBatch& w = *want.batches[wb];
    const RecordBatch& g = *got.batches[gb];
    const int64_t n = std::min(w.num_rows - wr, g.num_rows - gr);
    for (size_t c = 0; c < w.columns.size(); ++c) {
      auto a = Slice(*w.columns[c], wr, n);
      auto b = Slice(*g.columns[c], gr, n);
      ASSERT_TRUE(a.ok() && b.ok());
      ASSERT_TRUE(ArrayEquals(**a, **b))
          << where << ": column " << w.schema->fields[c].name << " rows " << row << ".." << row + n;
    }
    wr += n;
    gr += n;
    row += n;
  }
  EXPECT_EQ(wb, want.batches.size()) << where << ": rows missing after " << row;
  EXPECT_EQ(gb, got.batches.size()) << where << ": extra rows after " << row;
  EXPECT_GT(row, 0) << where;
}

TEST(ConvertNestedCli, ParquetTestingNestedFilesRoundTrip) {
  const std::string data = testing::ParquetTestingDir();
  if (data.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("pqsift_convert_nested_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::string> files = {"nested_lists.snappy", "nested_maps.snappy",
                                          "list_columns",        "map_no_value",
                                          "nonnullable.impala",  "nulls.snappy",
                                          "old_list_structure",  "repeated_primitive_no_list"};
  int variant = 0;
  for (const std::string& name : files) {
    const std::string in = data + "/data/" + name + ".parquet";
    const std::string out = (dir / (name + ".parquet")).string();
    // Pages of one or two rows and row groups of three, so that pages and row groups cut the
    // lists everywhere; v1 and v2 pages, dictionary on and off in turn.
    std::vector<std::string> argv = {
        "convert",          in, out, "--page-rows", std::to_string(1 + variant % 2),
        "--row-group-rows", "3"};
    if (variant % 2 == 1) argv.push_back("--data-page-v2");
    if (variant % 3 == 2) argv.insert(argv.end(), {"--dictionary", "off"});
    ++variant;
    auto r = testing::RunCli(argv);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    ExpectSameRows(ReadAll(in), ReadAll(out), name);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pqsift
