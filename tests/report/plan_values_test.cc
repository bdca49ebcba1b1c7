// The public access plan (pqsift/plan.h) against the internal decisions it is made from, for
// every pruning stage, on files written here: the same decision, rows and stages per row group,
// every verdict kept in order, pages whose selected rows add up to the row group's, pruned and
// read rows adding up to the file's, and the reports made from the values.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/plan.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "prune/access_plan.h"
#include "scan/scanner_internals.h"

namespace pqsift {
namespace {

constexpr int64_t kRows = 4000;
constexpr int64_t kGroupRows = 1000;
constexpr int64_t kPageRows = 100;

// id: 0..3999 sorted; cat: "a"/"c" in even row groups, "b"/"d" in odd ones (bounds overlap,
// dictionaries do not); k: id * 7 (PLAIN, with a bloom filter: only the filter can prove an
// absent value inside the bounds).
std::vector<uint8_t> WriteFile(bool page_index) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {Field{"id", Int64(), false}, Field{"cat", LargeUtf8(), false},
                    Field{"k", Int64(), false}};
  FixedWidthArrayBuilder<int64_t> id(Int64());
  BinaryArrayBuilder cat;
  FixedWidthArrayBuilder<int64_t> k(Int64());
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    bool even = (i / kGroupRows) % 2 == 0;
    cat.Append(even ? (i % 2 ? "a" : "c") : (i % 2 ? "b" : "d"));
    k.Append(i * 7);
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRows;
  batch.columns = {id.Finish(), cat.Finish(), k.Finish()};
  WriterOptions options;
  options.row_group_rows = kGroupRows;
  options.page_rows = kPageRows;
  options.page_index = page_index;
  options.column_encodings["k"] = Encoding::kPlain;
  options.bloom_filters["k"] = BloomFilterOptions{};
  std::vector<uint8_t> bytes;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("plan.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return bytes;
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

struct Opened {
  std::vector<uint8_t> bytes;
  std::unique_ptr<Scanner> scanner;
};

Opened Open(bool page_index, const std::string& filter, ScanOptions options = {}) {
  Opened out;
  out.bytes = WriteFile(page_index);
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("plan.parquet", out.bytes);
  auto md = ReadParquetMetadata(*file);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (!md.ok()) return out;
  options.filter = filter;
  options.threads = 1;
  options.pruning.min_page_header_chunk_bytes = 0;
  auto scanner = Scanner::Open(std::vector<std::shared_ptr<RandomAccessFile>>{file},
                               std::vector<std::shared_ptr<const ParquetMetadata>>{*md}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (scanner.ok()) out.scanner = std::move(scanner).value();
  return out;
}

RowGroupDecision PublicDecision(prune::Decision d) {
  switch (d) {
    case prune::Decision::kSkip: return RowGroupDecision::kSkip;
    case prune::Decision::kScan: return RowGroupDecision::kScan;
    case prune::Decision::kSelection: return RowGroupDecision::kSelection;
  }
  return RowGroupDecision::kScan;
}

// Everything the public plan says, checked against the internal plan and against itself.
void ExpectPlanMatches(const Scanner& scanner) {
  const AccessPlan& plan = scanner.plan();
  const prune::AccessPlan& internal = ScannerInternals::Plan(scanner);
  ASSERT_EQ(plan.files.size(), internal.files.size());
  ASSERT_EQ(plan.stages.size(), internal.stages.size());
  int64_t rows_read = 0, rows_pruned_by_stages = 0, rows_total = 0;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    EXPECT_EQ(plan.stages[s].stage, internal.stages[s].stage);
    EXPECT_EQ(plan.stages[s].rows_pruned, internal.stages[s].rows_pruned);
    EXPECT_EQ(plan.stages[s].row_groups_skipped, internal.stages[s].row_groups_skipped);
    rows_pruned_by_stages += plan.stages[s].rows_pruned;
  }
  for (size_t f = 0; f < plan.files.size(); ++f) {
    const FilePlan& file = plan.files[f];
    ASSERT_EQ(file.row_groups.size(), internal.files[f].row_groups.size());
    EXPECT_EQ(file.fate, FileFate::kOpened);
    for (size_t g = 0; g < file.row_groups.size(); ++g) {
      SCOPED_TRACE("row group " + std::to_string(g));
      const RowGroupPlan& rg = file.row_groups[g];
      const prune::RowGroupPlan& in = internal.files[f].row_groups[g];
      rows_total += rg.num_rows;
      rows_read += rg.rows_selected;
      EXPECT_EQ(rg.decision, PublicDecision(in.decision()));
      EXPECT_EQ(rg.rows_selected, in.rows.row_count());
      EXPECT_EQ(rg.fully_matched, in.fully_matched);
      EXPECT_EQ(rg.decided_by, in.decided_by);
      ASSERT_EQ(rg.verdicts.size(), in.verdicts.size());
      int64_t before = rg.num_rows;
      for (size_t v = 0; v < rg.verdicts.size(); ++v) {
        EXPECT_EQ(rg.verdicts[v].stage, in.verdicts[v].stage);
        EXPECT_EQ(rg.verdicts[v].rows_before, before);
        EXPECT_EQ(rg.verdicts[v].rows_after, in.verdicts[v].rows.row_count());
        EXPECT_FALSE(rg.verdicts[v].evidence.empty()) << rg.verdicts[v].stage;
        before = rg.verdicts[v].rows_after;
      }
      EXPECT_EQ(before, rg.rows_selected);  // the last verdict leaves the final selection
      if (!rg.verdicts.empty()) {
        EXPECT_EQ(rg.decided_by, rg.verdicts.back().stage);
      }
      int64_t selection_rows = 0;
      for (const RowSpan& r : rg.selection) selection_rows += r.end - r.begin;
      if (rg.decision == RowGroupDecision::kSelection) {
        EXPECT_EQ(selection_rows, rg.rows_selected);
      }
      int64_t chunk_bytes = 0;
      for (const ColumnChunkPlan& c : rg.columns) {
        SCOPED_TRACE(c.path);
        chunk_bytes += c.compressed_bytes;
        if (c.pages.empty()) continue;
        int64_t page_rows = 0, page_selected = 0, page_bytes = 0;
        for (const PagePlan& p : c.pages) {
          EXPECT_EQ(p.first_row, page_rows);
          page_rows += p.num_rows;
          page_selected += p.rows_selected;
          page_bytes += p.compressed_bytes;
          if (p.fate == Fate::kSkipped) {
            EXPECT_EQ(p.rows_selected, 0);
            EXPECT_FALSE(p.stage.empty());
          } else {
            EXPECT_GT(p.rows_selected, 0);
          }
        }
        EXPECT_EQ(page_rows, rg.num_rows);
        EXPECT_EQ(page_selected, rg.rows_selected);
        EXPECT_LE(page_bytes, c.compressed_bytes);
      }
      EXPECT_LE(chunk_bytes, rg.compressed_bytes);
    }
  }
  EXPECT_EQ(rows_total, kRows);
  EXPECT_EQ(rows_read + rows_pruned_by_stages, rows_total);  // every row pruned once or read
  EXPECT_EQ(plan.forecast.rows_to_read, rows_read);
  EXPECT_EQ(plan.rows_total, rows_total);
  // The reports are made from these values.
  auto json = nlohmann::json::parse(ExplainJson(plan));
  EXPECT_EQ(json["summary"]["rows_to_read"], rows_read);
  EXPECT_FALSE(ExplainText(plan).empty());
  EXPECT_NE(ExplainHtml(plan).find("plan-data"), std::string::npos);
}

const RowGroupPlan& Group(const Scanner& scanner, size_t g) {
  return scanner.plan().files[0].row_groups[g];
}

TEST(PlanValues, RowGroupStatistics) {
  Opened o = Open(true, "id < 1000 OR id >= 3000");
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  EXPECT_EQ(Group(*o.scanner, 1).decision, RowGroupDecision::kSkip);
  EXPECT_EQ(Group(*o.scanner, 1).decided_by, "row-group statistics");
  EXPECT_NE(Group(*o.scanner, 1).verdicts[0].evidence.find("max(id) = 1999"), std::string::npos)
      << Group(*o.scanner, 1).verdicts[0].evidence;
  EXPECT_TRUE(Group(*o.scanner, 0).fully_matched);
  EXPECT_EQ(Group(*o.scanner, 0).verdicts[0].kind, VerdictKind::kFullyMatched);
}

TEST(PlanValues, PageIndex) {
  Opened o = Open(true, "id BETWEEN 1234 AND 1456");
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  const RowGroupPlan& g = Group(*o.scanner, 1);
  EXPECT_EQ(g.decision, RowGroupDecision::kSelection);
  EXPECT_EQ(g.rows_selected, 300);  // pages 200-299, 300-399, 400-499 of the row group
  EXPECT_EQ(g.decided_by, "page index");
  const ColumnChunkPlan& id = g.columns[0];
  ASSERT_EQ(id.pages.size(), 10u);
  EXPECT_EQ(id.pages[0].fate, Fate::kSkipped);
  EXPECT_EQ(id.pages[0].stage, "page index");
  EXPECT_EQ(id.pages[3].fate, Fate::kFullyMatched);  // rows 1300-1399: all match
  EXPECT_EQ(id.pages[2].fate, Fate::kRead);
  EXPECT_NE(id.pages[0].bounds.find("max(id) = 1099"), std::string::npos) << id.pages[0].bounds;
}

TEST(PlanValues, PageHeaders) {
  Opened o = Open(false, "id BETWEEN 1234 AND 1456");
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  const RowGroupPlan& g = Group(*o.scanner, 1);
  EXPECT_EQ(g.decided_by, "page headers");
  EXPECT_EQ(g.rows_selected, 300);
}

TEST(PlanValues, DictionaryAfterThePageIndex) {
  // Row group 0: the page index narrows it to its last page, then its dictionary (a, c) proves
  // cat = 'b' absent: both verdicts kept, in order.
  Opened o = Open(true, "id >= 950 AND cat = 'b'");
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  const RowGroupPlan& g = Group(*o.scanner, 0);
  ASSERT_EQ(g.verdicts.size(), 2u);
  EXPECT_EQ(g.verdicts[0].stage, "page index");
  EXPECT_EQ(g.verdicts[0].kind, VerdictKind::kNarrowed);
  EXPECT_EQ(g.verdicts[0].rows_after, kPageRows);
  EXPECT_EQ(g.verdicts[1].stage, "dictionary");
  EXPECT_EQ(g.verdicts[1].kind, VerdictKind::kSkipped);
  EXPECT_EQ(g.decision, RowGroupDecision::kSkip);
  // Its pages: nine skipped by the page index, the last by the dictionary.
  EXPECT_EQ(g.columns[0].pages[0].stage, "page index");
  EXPECT_EQ(g.columns[0].pages[9].stage, "dictionary");
  EXPECT_NE(ExplainText(o.scanner->plan()).find("    dictionary: skipped, 100 -> 0 rows"),
            std::string::npos)
      << ExplainText(o.scanner->plan());
}

TEST(PlanValues, BloomFilter) {
  // 7 * 1500 + 3 lies inside row group 1's bounds of k, but no k is 3 mod 7.
  Opened o = Open(false, "k = 10503");
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  const RowGroupPlan& g = Group(*o.scanner, 1);
  EXPECT_EQ(g.decision, RowGroupDecision::kSkip);
  EXPECT_EQ(g.decided_by, "bloom filter");
  EXPECT_NE(g.verdicts.back().evidence.find("bloom filter of k"), std::string::npos);
}

TEST(PlanValues, Limit) {
  ScanOptions options;
  options.limit = 1500;
  Opened o = Open(true, "", options);
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  EXPECT_EQ(Group(*o.scanner, 1).rows_selected, 500);
  EXPECT_EQ(Group(*o.scanner, 2).decided_by, "limit");
}

TEST(PlanValues, NoPruneDecidesNothing) {
  ScanOptions options;
  options.prune = false;
  Opened o = Open(true, "id = 5", options);
  ASSERT_TRUE(o.scanner);
  ExpectPlanMatches(*o.scanner);
  for (const RowGroupPlan& g : o.scanner->plan().files[0].row_groups) {
    EXPECT_EQ(g.decision, RowGroupDecision::kScan);
    EXPECT_TRUE(g.verdicts.empty());
  }
}

}  // namespace
}  // namespace pqsift
