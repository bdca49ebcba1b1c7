// IS NULL / IS NOT NULL on a struct field proven from definition level histograms, end to end:
// a file pqsift writes (struct s {a int64}, both nullable), then the same file as a writer
// without null counts would leave it (the footer's null_count removed, no column index), with
// and without its SizeStatistics. Row groups of 1000 rows:
//   0: every s and s.a present      (no row has `s.a IS NULL`)
//   1: s NULL on every 10th row     (`s.a` NULL there: DuckDB's semantics, the field of a NULL
//                                    struct is NULL)
//   2: s.a NULL on every 10th row
//   3: s NULL on every row          (no row has `s.a IS NOT NULL`)
// The rows a scan returns never depend on the evidence (pruned == --no-prune).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arrow/builder.h"
#include "format/metadata_encoder.h"
#include "prune/access_plan.h"
#include "scan/scan_test_file.h"
#include "scan/scanner_internals.h"
#include "testing/files.h"

namespace pqsift {
namespace {

constexpr int64_t kGroupRows = 1000;

std::vector<uint8_t> WriteStructFile() {
  auto struct_type = Struct({{"a", Int64(), true}});
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"s", struct_type, true}};
  FixedWidthArrayBuilder<int64_t> id(Int64()), a(Int64());
  BitmapBuilder s_valid;
  const int64_t rows = 4 * kGroupRows;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t g = i / kGroupRows;
    const bool s_null = (g == 1 && i % 10 == 0) || g == 3;
    const bool a_null = g == 2 && i % 10 == 0;
    id.Append(i);
    s_valid.Append(!s_null);
    if (s_null || a_null) {
      a.AppendNull();
    } else {
      a.Append(i);
    }
  }
  auto s = std::make_shared<Array>();
  s->type = struct_type;
  s->length = rows;
  s->null_count = s_valid.null_count();
  s->buffers = {s_valid.FinishValidity()};
  s->children = {a.Finish()};
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = rows;
  batch.columns = {id.Finish(), s};
  std::vector<uint8_t> bytes;
  WriterOptions options;
  options.row_group_rows = kGroupRows;
  options.page_rows = 100;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("s.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

// `file` with its footer re-encoded: no null_count in any chunk's statistics, no column index,
// and (unless `keep_levels`) no SizeStatistics.
std::vector<uint8_t> WithoutNullCounts(const std::vector<uint8_t>& file, bool keep_levels) {
  auto md = ReadParquetMetadata(*MakeMemoryFile("s.parquet", file));
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (!md.ok()) return {};
  FileMetaData m = (*md)->file();
  for (RowGroup& rg : m.row_groups) {
    for (ColumnChunk& chunk : rg.columns) {
      chunk.column_index_offset.reset();
      chunk.column_index_length.reset();
      if (!chunk.meta_data) continue;
      if (chunk.meta_data->statistics) chunk.meta_data->statistics->null_count.reset();
      if (!keep_levels) chunk.meta_data->size_statistics.reset();
    }
  }
  const std::vector<uint8_t> old_footer = testing::FooterOf(file);
  std::string out(file.begin(), file.end() - 8 - static_cast<std::ptrdiff_t>(old_footer.size()));
  std::string footer = format::EncodeFooter(m);
  out += footer;
  testing::AppendLE32(out, static_cast<uint32_t>(footer.size()));
  out += "PAR1";
  return {out.begin(), out.end()};
}

struct Outcome {
  std::vector<prune::Decision> decisions;
  std::vector<std::string> evidence;  // of the last verdict per row group
  std::vector<std::optional<int64_t>> ids;
};

Outcome Scan(const std::vector<uint8_t>& bytes, const std::string& where, bool prune = true) {
  Outcome out;
  auto md = ReadParquetMetadata(*MakeMemoryFile("s.parquet", bytes));
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (!md.ok()) return out;
  ScanOptions options;
  options.filter = where;
  options.columns = {"id"};
  options.prune = prune;
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("s.parquet", bytes);
  auto scanner = Scanner::Open({file}, {*md}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  for (const prune::RowGroupPlan& g : ScannerInternals::Plan(**scanner).files[0].row_groups) {
    out.decisions.push_back(g.decision());
    out.evidence.push_back(g.verdicts.empty() ? "" : g.verdicts.back().evidence);
  }
  auto batches = testing::DrainScanner(**scanner);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (batches.ok()) out.ids = testing::Int64Column(*batches, 0);
  return out;
}

using prune::Decision;

TEST(LevelHistogramScanTest, StructFieldIsNullProvenFromLevelsWithoutNullCounts) {
  const std::vector<uint8_t> written = WriteStructFile();
  ASSERT_FALSE(written.empty());
  const std::vector<uint8_t> levels_only = WithoutNullCounts(written, true);
  const std::vector<uint8_t> no_evidence = WithoutNullCounts(written, false);

  const std::vector<Decision> is_null = {Decision::kSkip, Decision::kScan, Decision::kScan,
                                         Decision::kScan};
  const std::vector<Decision> is_not_null = {Decision::kScan, Decision::kScan, Decision::kScan,
                                             Decision::kSkip};
  const std::vector<Decision> none(4, Decision::kScan);
  struct Case {
    std::string where;
    const std::vector<Decision>* with_evidence;
    size_t rows;
  };
  for (const Case& c : {Case{"s.a IS NULL", &is_null, 100 + 100 + 1000},
                        Case{"s.a IS NOT NULL", &is_not_null, 1000 + 900 + 900}}) {
    SCOPED_TRACE(c.where);
    const Outcome all = Scan(written, c.where, /*prune=*/false);
    ASSERT_EQ(all.ids.size(), c.rows);
    // As written (null counts and histograms agree), with the histograms alone, with neither.
    const Outcome full = Scan(written, c.where);
    EXPECT_EQ(full.decisions, *c.with_evidence);
    EXPECT_EQ(full.ids, all.ids);
    const Outcome levels = Scan(levels_only, c.where);
    EXPECT_EQ(levels.decisions, *c.with_evidence);
    EXPECT_EQ(levels.ids, all.ids);
    for (size_t g = 0; g < 4; ++g) {
      if (levels.decisions[g] != Decision::kSkip) continue;
      EXPECT_NE(levels.evidence[g].find("(definition levels)"), std::string::npos)
          << levels.evidence[g];
    }
    const Outcome blind = Scan(no_evidence, c.where);
    EXPECT_EQ(blind.decisions, none);
    EXPECT_EQ(blind.ids, all.ids);
  }
}

}  // namespace
}  // namespace pqsift
