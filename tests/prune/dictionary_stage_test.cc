// The dictionary stage over files written by pqsift's writer: a low-cardinality string column
// `cat` whose value set differs per row group while its min/max overlap (so the row-group
// statistics cannot tell the row groups apart), and an INT64 column `n` for predicates over two
// columns. Every case runs the scan with and without the dictionary stage: same rows, and the
// plan says which row groups the dictionary decided.
//
//   row group 0: cat in {apple, cherry}         n 0..99
//   row group 1: cat in {banana, date}          n 100..199
//   row group 2: cat in {apple} and NULLs       n 200..299
//   row group 3: cat in {apple, date}           n 300..399
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "column/dictionary_page.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "prune/access_plan.h"
#include "scan/scanner_internals.h"

namespace pqsift {
namespace {

constexpr int64_t kRowsPerGroup = 100;

const std::vector<std::vector<std::string>> kGroupValues = {
    {"apple", "cherry"}, {"banana", "date"}, {"apple"}, {"apple", "date"}};

struct Written {
  std::vector<uint8_t> bytes;
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
};

Written WriteFile(const WriterOptions& options) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {Field{"cat", LargeUtf8(), true}, Field{"n", Int64(), false}};
  BinaryArrayBuilder cat;
  FixedWidthArrayBuilder<int64_t> n(Int64());
  for (size_t g = 0; g < kGroupValues.size(); ++g) {
    for (int64_t i = 0; i < kRowsPerGroup; ++i) {
      const std::vector<std::string>& values = kGroupValues[g];
      if (g == 2 && i % 3 == 0) {
        cat.AppendNull();
      } else {
        cat.Append(values[static_cast<size_t>(i * 7 + i / 5) % values.size()]);
      }
      // 20 values per row group: few enough that the writer keeps n's dictionary.
      n.Append(static_cast<int64_t>(g) * kRowsPerGroup + i % 20);
    }
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRowsPerGroup * static_cast<int64_t>(kGroupValues.size());
  batch.columns = {cat.Finish(), n.Finish()};
  Written w;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("dict.parquet", &w.bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return w;
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  w.file = MakeMemoryFile("dict.parquet", w.bytes);
  OpenOptions open;
  open.tail_bytes = 8;  // the column chunks are not in the footer's read
  auto md = ReadParquetMetadata(*w.file, open);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (md.ok()) w.metadata = *md;
  return w;
}

WriterOptions SmallRowGroups() {
  WriterOptions options;
  options.row_group_rows = kRowsPerGroup;
  options.page_index = false;  // the row-group statistics and the dictionary only
  return options;
}

struct Outcome {
  std::vector<std::string> decisions;  // per row group: "skip", "full", "read"
  std::vector<std::string> decided_by;
  std::vector<int64_t> n_values;  // the rows returned (their n)
  prune::StageReport dictionary;  // the dictionary stage's report
  ScanStats stats;
};

Outcome Scan(const Written& w, const std::string& filter, PruningOptions pruning = {}) {
  Outcome out;
  ScanOptions options;
  options.threads = 1;
  options.filter = filter;
  options.columns = {"n"};
  options.pruning = pruning;
  // Each run reads its own copy, so the byte counters are this scan's alone.
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("dict.parquet", w.bytes);
  OpenOptions open;
  open.tail_bytes = 8;
  auto md = ReadParquetMetadata(*file, open);
  EXPECT_TRUE(md.ok());
  if (!md.ok()) return out;
  auto scanner = Scanner::Open(std::vector<std::shared_ptr<RandomAccessFile>>{file},
                               std::vector<std::shared_ptr<const ParquetMetadata>>{*md}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  for (const prune::RowGroupPlan& rg : ScannerInternals::Plan(**scanner).files[0].row_groups) {
    out.decisions.push_back(rg.rows.empty() ? "skip" : rg.fully_matched ? "full" : "read");
    out.decided_by.push_back(rg.decided_by);
  }
  for (const prune::StageReport& s : ScannerInternals::Plan(**scanner).stages) {
    if (s.stage == "dictionary") out.dictionary = s;
  }
  for (;;) {
    auto batch = (*scanner)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    const Array& n = *(*batch)->columns[0];
    const auto* values = n.buffers[1]->as<int64_t>() + n.offset;
    for (int64_t i = 0; i < n.length; ++i) out.n_values.push_back(values[i]);
  }
  out.stats = (*scanner)->stats();
  return out;
}

// The scan with the dictionary stage returns what it returns without it.
Outcome ScanBoth(const Written& w, const std::string& filter) {
  Outcome with = Scan(w, filter);
  PruningOptions off;
  off.dictionary = false;
  Outcome without = Scan(w, filter, off);
  EXPECT_EQ(with.n_values, without.n_values) << filter;
  EXPECT_TRUE(without.dictionary.stage.empty()) << "the stage ran though disabled";
  return with;
}

using Decisions = std::vector<std::string>;

class DictionaryStageTest : public ::testing::Test {
 protected:
  void SetUp() override { file_ = WriteFile(SmallRowGroups()); }
  Written file_;
};

TEST_F(DictionaryStageTest, TheWriterProvesEveryDataPageDictionaryEncoded) {
  ASSERT_NE(file_.metadata, nullptr);
  for (const RowGroup& rg : file_.metadata->file().row_groups) {
    EXPECT_TRUE(column::AllDataPagesDictionaryEncoded(*rg.columns[0].meta_data));
  }
}

TEST_F(DictionaryStageTest, EqualitySkipsRowGroupsWhoseDictionaryLacksTheValue) {
  Outcome o = ScanBoth(file_, "cat = 'banana'");
  EXPECT_EQ(o.decisions, (Decisions{"skip", "read", "skip", "skip"}));
  EXPECT_EQ(o.decided_by[0], "dictionary");
  EXPECT_EQ(o.decided_by[3], "dictionary");
  EXPECT_EQ(o.decided_by[2], "row-group statistics");  // apple..apple
  EXPECT_EQ(o.dictionary.row_groups_skipped, 2);
  EXPECT_GT(o.dictionary.bytes_read, 0u);
  EXPECT_EQ(o.dictionary.evidence_loaded, 3);  // not row group 2's: decided already
  // The surviving row group's dictionary page is not read twice.
  EXPECT_GT(o.stats.evidence_bytes_reused, 0u);
  EXPECT_FALSE(o.n_values.empty());
}

TEST_F(DictionaryStageTest, InMatchesWholeRowGroupsWithoutNulls) {
  Outcome o = ScanBoth(file_, "cat IN ('apple', 'cherry')");
  // Row group 2 holds NULLs (not TRUE) besides apple: read with the filter.
  EXPECT_EQ(o.decisions, (Decisions{"full", "skip", "read", "read"}));
  EXPECT_EQ(o.decided_by[0], "dictionary");
}

TEST_F(DictionaryStageTest, NullsCountOnlyWhenThePredicateIsTrueOnNull) {
  EXPECT_EQ(ScanBoth(file_, "cat = 'apple'").decisions[2], "read");
  Outcome o = ScanBoth(file_, "cat IS NULL OR cat = 'apple'");
  EXPECT_EQ(o.decisions[2], "full");
  EXPECT_EQ(o.decided_by[2], "dictionary");
}

TEST_F(DictionaryStageTest, NotIn) {
  Outcome o = ScanBoth(file_, "cat NOT IN ('apple', 'cherry')");
  EXPECT_EQ(o.decisions, (Decisions{"skip", "full", "skip", "read"}));
}

TEST_F(DictionaryStageTest, LikeAnywhereInTheString) {
  // No prefix: the statistics cannot reason about it, the dictionary can.
  Outcome o = ScanBoth(file_, "cat LIKE '%an%'");
  EXPECT_EQ(o.decisions, (Decisions{"skip", "read", "skip", "skip"}));
  o = ScanBoth(file_, "cat NOT LIKE '%e%'");  // every value but banana has an 'e'
  EXPECT_EQ(o.decisions, (Decisions{"skip", "read", "skip", "skip"}));
}

TEST_F(DictionaryStageTest, RangesOnUnsortedValues) {
  Outcome o = ScanBoth(file_, "cat < 'b'");
  EXPECT_EQ(o.decisions[1], "skip");               // min banana: the statistics already skip it
  o = ScanBoth(file_, "cat > 'c' AND cat < 'd'");  // only cherry
  EXPECT_EQ(o.decisions, (Decisions{"read", "skip", "skip", "skip"}));
}

TEST_F(DictionaryStageTest, OtherColumnsKeepTheirStatistics) {
  // AND: the dictionary of cat decides alone.
  Outcome o = ScanBoth(file_, "cat = 'cherry' AND n >= 0");
  EXPECT_EQ(o.decisions, (Decisions{"read", "skip", "skip", "skip"}));
  // OR with a branch n's statistics rule out: still decided by cat's dictionary.
  o = ScanBoth(file_, "cat = 'cherry' OR n > 100000");
  EXPECT_EQ(o.decisions, (Decisions{"read", "skip", "skip", "skip"}));
  // n's dictionary decides n's conditions exactly too (arithmetic included): n >= 100 in row
  // groups 1-3.
  o = ScanBoth(file_, "cat = 'cherry' OR n + n > 98");
  EXPECT_EQ(o.decisions, (Decisions{"read", "full", "full", "full"}));
}

TEST(DictionaryStage, NothingIsFetchedWhereNoDictionaryCanDecide) {
  // n written without a dictionary: in `cat = 'apple' OR n + n > 98`, only cat's dictionary
  // holding nothing but apple could decide a row group (fully matched), and not in row group 2,
  // whose NULLs in cat leave the OR to n: its dictionary is not fetched.
  WriterOptions options = SmallRowGroups();
  options.column_encodings["n"] = Encoding::kPlain;
  Written w = WriteFile(options);
  Outcome o = ScanBoth(w, "cat = 'apple' OR n + n > 98");
  EXPECT_EQ(o.decisions, (Decisions{"read", "read", "read", "read"}));
  EXPECT_EQ(o.dictionary.evidence_loaded, 3);
  EXPECT_EQ(o.dictionary.row_groups_considered, 4);
  // With AND, cat's dictionary alone decides: fetched.
  o = ScanBoth(w, "cat = 'cherry' AND n + n > 98");
  EXPECT_EQ(o.decisions, (Decisions{"read", "skip", "skip", "skip"}));
  EXPECT_EQ(o.dictionary.evidence_loaded, 3);
}

TEST_F(DictionaryStageTest, RowGroupsDecidedEarlierFetchNothing) {
  // n's statistics skip every row group but 1 before the dictionary stage runs.
  Outcome o = ScanBoth(file_, "n BETWEEN 100 AND 150 AND cat = 'cherry'");
  EXPECT_EQ(o.decisions, (Decisions{"skip", "skip", "skip", "skip"}));
  EXPECT_EQ(o.decided_by[1], "dictionary");
  EXPECT_EQ(o.dictionary.evidence_loaded, 1);
  EXPECT_EQ(o.dictionary.row_groups_considered, 1);
}

TEST_F(DictionaryStageTest, DictionariesAboveTheCapAreNotRead) {
  PruningOptions small;
  small.max_dictionary_bytes = 4;
  Outcome o = Scan(file_, "cat = 'banana'", small);
  EXPECT_EQ(o.decisions, (Decisions{"read", "read", "skip", "read"}));  // statistics only
  EXPECT_EQ(o.dictionary.bytes_read, 0u);
  EXPECT_EQ(o.dictionary.evidence_too_large, 3);
}

TEST(DictionaryStage, ChunksThatFellBackToPlainAreNotUsed) {
  WriterOptions options = SmallRowGroups();
  options.page_rows = 10;
  options.dictionary_page_bytes = 8;  // the dictionary fills up after the first page
  // Many distinct values, so the dictionary overflows: row group 0 holds apple, cherry and
  // (after the fallback) nothing the dictionary lacks; the chunk is not usable either way.
  Written w = WriteFile(options);
  ASSERT_NE(w.metadata, nullptr);
  const ColumnMetaData& meta = *w.metadata->file().row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(meta.encoding_stats.has_value());
  bool plain_data_page = false;
  for (const PageEncodingStats& s : *meta.encoding_stats) {
    plain_data_page |= s.page_type == PageType::kDataPage && s.encoding == Encoding::kPlain;
  }
  ASSERT_TRUE(plain_data_page) << "the writer did not fall back to PLAIN";
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  Outcome o = ScanBoth(w, "cat = 'banana'");
  EXPECT_EQ(o.dictionary.evidence_loaded, 0);
  EXPECT_EQ(o.dictionary.bytes_read, 0u);
}

TEST(DictionaryStage, TheEncodingsListAloneProvesOnlyWithoutPlain) {
  ColumnMetaData meta;
  meta.type = PhysicalType::kByteArray;
  meta.encodings = {Encoding::kRleDictionary, Encoding::kRle};
  EXPECT_TRUE(column::AllDataPagesDictionaryEncoded(meta));
  meta.encodings = {Encoding::kPlainDictionary, Encoding::kRle, Encoding::kBitPacked};
  EXPECT_TRUE(column::AllDataPagesDictionaryEncoded(meta));
  // parquet-mr lists PLAIN for the dictionary page, but a fallback page would list it too.
  meta.encodings = {Encoding::kPlainDictionary, Encoding::kPlain, Encoding::kRle};
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  meta.encodings = {Encoding::kRle, Encoding::kBitPacked};  // no dictionary at all
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  meta.encodings = {Encoding::kRleDictionary, Encoding::kDeltaByteArray};
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  meta.type = PhysicalType::kBoolean;  // RLE is a value encoding of booleans
  meta.encodings = {Encoding::kRleDictionary, Encoding::kRle};
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  // Encoding stats decide when present, whatever the list says.
  meta.type = PhysicalType::kByteArray;
  meta.encodings = {Encoding::kPlain, Encoding::kRleDictionary};
  meta.encoding_stats =
      std::vector<PageEncodingStats>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                     {PageType::kDataPage, Encoding::kRleDictionary, 3}};
  EXPECT_TRUE(column::AllDataPagesDictionaryEncoded(meta));
  meta.encoding_stats->push_back({PageType::kDataPageV2, Encoding::kPlain, 1});
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
  meta.encoding_stats = std::vector<PageEncodingStats>{};  // no data page counted: no proof
  EXPECT_FALSE(column::AllDataPagesDictionaryEncoded(meta));
}

TEST(DictionaryStage, AnUnreadableDictionaryIsNoEvidenceNotAnError) {
  Written w = WriteFile(SmallRowGroups());
  ASSERT_NE(w.metadata, nullptr);
  // Overwrite row group 0's dictionary page with bytes that are no page header.
  const ColumnMetaData& meta = *w.metadata->file().row_groups[0].columns[0].meta_data;
  auto range = column::DictionaryPageRange(meta, w.bytes.size());
  ASSERT_TRUE(range.has_value());
  for (uint64_t i = 0; i < range->length; ++i) w.bytes[range->offset + i] = 0xff;
  ScanOptions options;
  options.filter = "cat = 'banana'";
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("dict.parquet", w.bytes);
  OpenOptions open;
  open.tail_bytes = 8;
  auto md = ReadParquetMetadata(*file, open);
  ASSERT_TRUE(md.ok());
  auto scanner = Scanner::Open(std::vector<std::shared_ptr<RandomAccessFile>>{file},
                               std::vector<std::shared_ptr<const ParquetMetadata>>{*md}, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  const prune::AccessPlan& plan = ScannerInternals::Plan(**scanner);
  EXPECT_FALSE(plan.files[0].row_groups[0].rows.empty());  // kept: no proof
  EXPECT_TRUE(plan.files[0].row_groups[3].rows.empty());   // the others still decided
  for (const prune::StageReport& s : plan.stages) {
    if (s.stage == "dictionary") {
      EXPECT_EQ(s.evidence_unusable, 1);
    }
  }
}

TEST(DictionaryStage, ReadsTheDictionaryPageIntoTheColumnsArrowType) {
  Written w = WriteFile(SmallRowGroups());
  ASSERT_NE(w.metadata, nullptr);
  const ColumnMetaData& meta = *w.metadata->file().row_groups[1].columns[0].meta_data;
  auto range = column::DictionaryPageRange(meta, w.bytes.size());
  ASSERT_TRUE(range.has_value());
  std::span<const uint8_t> bytes(w.bytes.data() + range->offset, range->length);
  auto values = column::ReadDictionaryPage(w.metadata->schema().columns()[0], meta, bytes,
                                           range->offset, "row group 1");
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  const Array& a = **values;
  ASSERT_EQ(a.type->id, TypeId::kLargeString);
  ASSERT_EQ(a.length, 2);
  const auto* offsets = a.buffers[1]->as<int64_t>();
  std::vector<std::string> got;
  for (int64_t i = 0; i < a.length; ++i) {
    got.emplace_back(reinterpret_cast<const char*>(a.buffers[2]->data()) + offsets[i],
                     offsets[i + 1] - offsets[i]);
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"banana", "date"}));
  // A range that starts at a data page is not a dictionary page.
  std::span<const uint8_t> data(w.bytes.data() + meta.data_page_offset, 64);
  EXPECT_FALSE(column::ReadDictionaryPage(w.metadata->schema().columns()[0], meta, data,
                                          meta.data_page_offset, "row group 1")
                   .ok());
}

}  // namespace
}  // namespace pqsift
