// Skip/read property test: for random patterns of skips and reads over every column chunk of
// real files, the rows read equal the same rows of a full read — for every encoding, codec,
// page version and nesting the files hold, across page and batch boundaries, with pages read
// whole or arriving as they are read (PageReaderOptions::on_demand_page_bytes), and, for flat
// columns, reads that keep only some of their rows (LeafReader::ReadRecordsKeeping).
//
// Files: every readable parquet-testing file, plus the peer-written files in the folder named
// by $PQSIFT_PEER_FILES when set (CTest sets it for the run that follows make_files.mjs).
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "arrow/dictionary.h"
#include "cli/output/batch_writer.h"
#include "column/leaf_reader.h"
#include "column/nested.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "testing/parquet_files.h"
#include "write/written_file.h"

namespace pqsift::column {
namespace {

std::vector<std::string> ParquetFilesIn(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 8 && name.substr(name.size() - 8) == ".parquet")
      out.push_back(dir + "/" + name);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> FilesToTest() {
  std::vector<std::string> files;
  if (std::string dir = ::pqsift::testing::ParquetTestingDir(); !dir.empty()) {
    for (const std::string& f : ParquetFilesIn(dir + "/data")) {
      if (f.find("malformed") == std::string::npos) files.push_back(f);
    }
  }
  if (const char* peers = std::getenv("PQSIFT_PEER_FILES")) {
    for (const std::string& f : ParquetFilesIn(peers)) files.push_back(f);
  }
  return files;
}

// A step of a read pattern: skip or read `n` rows; a read with `keep` (n bytes) keeps only the
// rows whose byte is nonzero (ReadRecordsKeeping).
struct Step {
  Step(bool skip, int64_t n, std::vector<uint8_t> keep = {})
      : skip(skip), n(n), keep(std::move(keep)) {}
  bool skip;
  int64_t n;
  std::vector<uint8_t> keep;
};

// Reads one top-level column of one row group by a pattern of steps and renders every row
// read as a JSON line.
class ColumnUnderTest {
 public:
  ColumnUnderTest(const RandomAccessFile& file, const ParquetMetadata& md, size_t row_group,
                  int32_t node)
      : file_(file), md_(md), row_group_(row_group) {
    auto plan = PlanNode(md.schema(), node, &leaves_);
    ok_ = plan.ok();
    if (ok_) plan_ = std::move(plan).value();
    name_ = std::string(md.schema().nodes()[node].name);
    for (int32_t leaf : leaves_)
      flat_ = flat_ && md.schema().columns()[leaf].max_repetition_level == 0;
  }
  bool ok() const { return ok_; }
  int64_t dictionary_batches() const { return dictionary_batches_; }
  // No leaf repeats: reads may keep some of their rows.
  bool flat() const { return flat_; }

  // Returns the rendered rows, or an error text. `options` go to every page reader; the page
  // counts of the run are added to `*counts` when given.
  // With `indices`, flat readers keep dictionary indices (LeafReader::KeepDictionaryIndices):
  // a batch assembled as a dictionary array is rendered by its values, and counted in
  // dictionary_batches().
  Result<std::vector<std::string>> Run(const std::vector<Step>& steps,
                                       PageReaderOptions options = {},
                                       LeafReader::PageCounts* counts = nullptr,
                                       bool indices = false) {
    const RowGroup& rg = md_.file().row_groups[row_group_];
    std::vector<std::unique_ptr<LeafReader>> readers;
    std::vector<Buffer> chunks;
    chunks.reserve(leaves_.size());
    for (int32_t leaf : leaves_) {
      const ColumnMetaData& meta = *rg.columns[leaf].meta_data;
      PQSIFT_ASSIGN_OR_RETURN(ByteRange range, ColumnChunkRange(meta, file_.size(), "test"));
      PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, file_.Read(range));
      chunks.push_back(std::move(bytes));
      PQSIFT_ASSIGN_OR_RETURN(
          auto reader,
          LeafReader::Make(md_.schema().columns()[leaf], meta, chunks.back().span(), range.offset,
                           rg.num_rows, md_.file_name() + " " + name_, options));
      if (indices && flat_ && plan_.kind == AssemblyNode::Kind::kLeaf) {
        reader->KeepDictionaryIndices(true);
      }
      readers.push_back(std::move(reader));
    }
    std::vector<std::string> lines;
    auto schema = std::make_shared<BatchSchema>();
    schema->fields.push_back({name_, plan_.type, true});
    for (const Step& step : steps) {
      if (step.skip) {
        for (auto& r : readers) PQSIFT_RETURN_IF_ERROR(r->SkipRecords(step.n));
        continue;
      }
      int64_t n = step.n;
      if (!step.keep.empty()) n = std::count(step.keep.begin(), step.keep.end(), 1);
      std::vector<LeafBatch> batches;
      for (auto& r : readers) {
        PQSIFT_RETURN_IF_ERROR(step.keep.empty() ? r->ReadRecords(step.n)
                                                 : r->ReadRecordsKeeping(step.n, step.keep.data()));
        batches.push_back(r->Flush());
      }
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> array, Assemble(plan_, leaves_, batches));
      if (array->length != n) return Status::Internal("assembled a wrong number of rows");
      PQSIFT_RETURN_IF_ERROR(ValidateArray(*array));
      if (array->type->id == TypeId::kDictionary && plan_.type->id != TypeId::kDictionary) {
        ++dictionary_batches_;
        PQSIFT_ASSIGN_OR_RETURN(array, DecodeDictionary(*array));
      }
      RecordBatch batch{schema, n, {array}};
      std::ostringstream text;
      PQSIFT_ASSIGN_OR_RETURN(auto writer,
                              cli::MakeBatchWriter(cli::OutputFormat::kJsonLines, text, {}));
      PQSIFT_RETURN_IF_ERROR(writer->Write(batch));
      PQSIFT_RETURN_IF_ERROR(writer->Finish());
      std::istringstream in(text.str());
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    if (counts != nullptr) {
      for (auto& r : readers) {
        LeafReader::PageCounts c = r->TakePageCounts();
        counts->decompressed += c.decompressed;
        counts->bytes_decompressed += c.bytes_decompressed;
      }
    }
    return lines;
  }

 private:
  const RandomAccessFile& file_;
  const ParquetMetadata& md_;
  size_t row_group_;
  std::vector<int32_t> leaves_;
  AssemblyNode plan_;
  std::string name_;
  bool ok_ = false;
  bool flat_ = true;
  int64_t dictionary_batches_ = 0;
};

// A random pattern over `rows` rows: runs of skips and reads of mixed sizes (single rows,
// small runs, runs the size of typical pages, and large jumps), ending exactly at `rows`. With
// `keeping`, half the reads keep a random share of their rows (none, some, most or all).
std::vector<Step> RandomPattern(int64_t rows, uint32_t seed, std::vector<int64_t>* read_rows,
                                bool keeping = false) {
  std::mt19937 rng(seed);
  const int64_t sizes[] = {1, 2, 7, 64, 1000, std::max<int64_t>(1, rows / 3)};
  const uint32_t shares[] = {0, 10, 50, 90, 100};  // percent of a read's rows kept
  std::vector<Step> steps;
  int64_t pos = 0;
  while (pos < rows) {
    const bool skip = rng() % 2 == 0;
    Step step(skip, std::min(rows - pos, sizes[rng() % 6] + static_cast<int64_t>(rng() % 3)));
    if (!step.skip && keeping && rng() % 2 == 0) {
      const uint32_t share = shares[rng() % 5];
      for (int64_t i = 0; i < step.n; ++i) step.keep.push_back(rng() % 100 < share ? 1 : 0);
    }
    if (!step.skip) {
      for (int64_t i = 0; i < step.n; ++i) {
        if (step.keep.empty() || step.keep[static_cast<size_t>(i)] != 0)
          read_rows->push_back(pos + i);
      }
    }
    pos += step.n;
    steps.push_back(std::move(step));
  }
  return steps;
}

TEST(LeafReaderSkipRead, RandomPatternsEqualFullRead) {
  std::vector<std::string> files = FilesToTest();
  if (files.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  int columns_tested = 0;
  int64_t dictionary_batches = 0;
  for (const std::string& path : files) {
    auto file = OpenLocalFile(path);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto md = ReadParquetMetadata(**file);
    if (!md.ok()) continue;  // footers pqsift refuses are tested elsewhere
    const Schema& schema = (*md)->schema();
    for (size_t g = 0; g < (*md)->num_row_groups(); ++g) {
      int64_t rows = (*md)->file().row_groups[g].num_rows;
      for (int32_t node : schema.root().children) {
        ColumnUnderTest column(**file, **md, g, node);
        if (!column.ok()) continue;  // a shape pqsift does not read
        auto full = column.Run({{false, rows}});
        if (!full.ok()) continue;  // unreadable columns are the scan tests' business
        ASSERT_EQ(static_cast<int64_t>(full->size()), rows) << path;
        for (uint32_t seed = 1; seed <= 4; ++seed) {
          std::vector<int64_t> read_rows;
          auto steps = RandomPattern(rows, seed * 7919 + static_cast<uint32_t>(node), &read_rows,
                                     column.flat());
          // Odd seeds: every page of a streaming codec arrives as it is read. Seeds 3 and 4:
          // flat columns keep dictionary indices, as a filter's readers do.
          PageReaderOptions options;
          if (seed % 2 == 1) options.on_demand_page_bytes = 0;
          auto got = column.Run(steps, options, nullptr, seed >= 3);
          ASSERT_TRUE(got.ok()) << path << " column " << schema.nodes()[node].name << " seed "
                                << seed << ": " << got.status().ToString();
          ASSERT_EQ(got->size(), read_rows.size()) << path;
          for (size_t i = 0; i < read_rows.size(); ++i) {
            ASSERT_EQ((*got)[i], (*full)[read_rows[i]])
                << path << " row group " << g << " column " << schema.nodes()[node].name << " row "
                << read_rows[i] << " seed " << seed;
          }
        }
        ++columns_tested;
        dictionary_batches += column.dictionary_batches();
      }
    }
  }
  EXPECT_GT(columns_tested, 100) << "too few columns were exercised";
  EXPECT_GT(dictionary_batches, 100) << "too few batches were read as dictionary indices";
}

// Large pages of every shape a leaf reader meets: a sorted int64, unique strings (PLAIN), a
// dictionary-encoded string, a nullable double, a boolean and a nullable list, all in one page
// per column chunk.
RecordBatch LargePageRows(int64_t rows) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {
      {"id", Int64(), false},       {"name", LargeUtf8(), false},
      {"kind", LargeUtf8(), false}, {"d", Float64(), true},
      {"flag", Boolean(), true},    {"tags", LargeList(Field{"element", Int32(), false}), true}};
  FixedWidthArrayBuilder<int64_t> id(Int64());
  BinaryArrayBuilder name(LargeUtf8());
  BinaryArrayBuilder kind(LargeUtf8());
  FixedWidthArrayBuilder<double> d(Float64());
  FixedWidthArrayBuilder<bool> flag(Boolean());
  for (int64_t i = 0; i < rows; ++i) {
    id.Append(i);
    name.Append(std::string_view("name-" + std::to_string(i * 7919 % 100003) + "-" +
                                 std::string(static_cast<size_t>(i % 17), 'x')));
    kind.Append(std::string_view("kind" + std::to_string(i * 5 % 9)));
    if (i % 11 == 0) {
      d.AppendNull();
    } else {
      d.Append(static_cast<double>(i) / 4);
    }
    if (i % 5 == 0) {
      flag.AppendNull();
    } else {
      flag.Append(i % 3 == 0);
    }
  }
  auto tags = testing::SampleLists(rows, schema->fields[5].type);
  return RecordBatch{
      schema, rows, {id.Finish(), name.Finish(), kind.Finish(), d.Finish(), flag.Finish(), tags}};
}

// Pages of a streaming codec that arrive as they are read give the rows whole pages give, for
// random patterns of skips and reads; reading the first rows of a large page decompresses a
// fraction of it, and reading all of it decompresses it all, once.
TEST(LeafReaderSkipRead, PagesArrivingOnDemandReadAsWholePages) {
  constexpr int64_t kRows = 120'000;
  const RecordBatch rows = LargePageRows(kRows);
  PageReaderOptions whole;
  whole.on_demand_page_bytes = std::numeric_limits<int64_t>::max();
  PageReaderOptions on_demand;
  on_demand.on_demand_page_bytes = 0;
  const std::pair<CompressionCodec, bool> layouts[] = {{CompressionCodec::kZstd, false},
                                                       {CompressionCodec::kZstd, true},
                                                       {CompressionCodec::kGzip, false},
                                                       {CompressionCodec::kSnappy, false}};
  for (auto [codec, v2] : layouts) {
    {
      SCOPED_TRACE(CodecName(codec) + (v2 ? " v2" : " v1"));
      WriterOptions write;
      write.compression = codec;
      write.data_page_v2 = v2;
      write.page_rows = kRows;
      write.page_bytes = int64_t{256} << 20;
      write.row_group_rows = kRows;
      testing::Written w = testing::Write(rows, write, 30'000);
      ASSERT_NE(w.metadata, nullptr);
      const Schema& schema = w.metadata->schema();
      for (int32_t node : schema.root().children) {
        SCOPED_TRACE(std::string(schema.nodes()[node].name));
        ColumnUnderTest column(*w.file, *w.metadata, 0, node);
        ASSERT_TRUE(column.ok());
        auto full = column.Run({{false, kRows}}, whole);
        ASSERT_TRUE(full.ok()) << full.status().ToString();
        LeafReader::PageCounts all;
        auto arrived = column.Run({{false, kRows}}, on_demand, &all);
        ASSERT_TRUE(arrived.ok()) << arrived.status().ToString();
        EXPECT_EQ(*arrived, *full);
        for (uint32_t seed = 1; seed <= 2; ++seed) {
          std::vector<int64_t> read_rows;
          auto steps = RandomPattern(kRows, seed * 104729 + static_cast<uint32_t>(node), &read_rows,
                                     column.flat());
          auto got = column.Run(steps, on_demand);
          ASSERT_TRUE(got.ok()) << got.status().ToString();
          ASSERT_EQ(got->size(), read_rows.size());
          for (size_t i = 0; i < read_rows.size(); ++i) {
            ASSERT_EQ((*got)[i], (*full)[read_rows[i]]) << "row " << read_rows[i];
          }
        }
        // The first rows of the page: a fraction of it, where the codec streams.
        LeafReader::PageCounts first;
        auto head = column.Run({{false, 10}, {true, kRows - 10}}, on_demand, &first);
        ASSERT_TRUE(head.ok()) << head.status().ToString();
        EXPECT_LE(first.decompressed, all.decompressed);
        EXPECT_LE(first.bytes_decompressed, all.bytes_decompressed);
        if (codec != CompressionCodec::kSnappy &&
            all.bytes_decompressed > 4 * static_cast<int64_t>(compression::PageStream::kStep)) {
          EXPECT_LT(first.bytes_decompressed, all.bytes_decompressed / 2);
        }
      }
    }
  }
}

TEST(LeafReaderSkipRead, ReadingPastTheRowGroupIsOutOfRange) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_plain.parquet");
  auto file = OpenLocalFile(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto md = ReadParquetMetadata(**file);
  ASSERT_TRUE(md.ok());
  ColumnUnderTest column(**file, **md, 0, (*md)->schema().root().children[0]);
  int64_t rows = (*md)->file().row_groups[0].num_rows;
  auto r = column.Run({{false, rows + 1}});
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfRange);
  auto skip = column.Run({{true, rows}, {false, 1}});
  EXPECT_EQ(skip.status().code(), StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace pqsift::column
