// Skip/read property test: for random patterns of skips and reads over every column chunk of
// real files, the rows read equal the same rows of a full read — for every encoding, codec,
// page version and nesting the files hold, across page and batch boundaries.
//
// Files: every readable parquet-testing file, plus the peer-written files in the folder named
// by $PQSIFT_PEER_FILES when set (CTest sets it for the run that follows make_files.mjs).
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/output/batch_writer.h"
#include "column/leaf_reader.h"
#include "column/nested.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "testing/parquet_files.h"

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

// Reads one top-level column of one row group by a pattern of (skip?, count) steps and renders
// every row read as a JSON line.
class ColumnUnderTest {
 public:
  ColumnUnderTest(const RandomAccessFile& file, const ParquetMetadata& md, size_t row_group,
                  int32_t node)
      : file_(file), md_(md), row_group_(row_group) {
    auto plan = PlanNode(md.schema(), node, &leaves_);
    ok_ = plan.ok();
    if (ok_) plan_ = std::move(plan).value();
    name_ = std::string(md.schema().nodes()[node].name);
  }
  bool ok() const { return ok_; }

  // Returns the rendered rows, or an error text.
  Result<std::vector<std::string>> Run(const std::vector<std::pair<bool, int64_t>>& steps) {
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
          auto reader, LeafReader::Make(md_.schema().columns()[leaf], meta, chunks.back().span(),
                                        range.offset, rg.num_rows, md_.file_name() + " " + name_));
      readers.push_back(std::move(reader));
    }
    std::vector<std::string> lines;
    auto schema = std::make_shared<BatchSchema>();
    schema->fields.push_back({name_, plan_.type, true});
    for (auto [skip, n] : steps) {
      if (skip) {
        for (auto& r : readers) PQSIFT_RETURN_IF_ERROR(r->SkipRecords(n));
        continue;
      }
      std::vector<LeafBatch> batches;
      for (auto& r : readers) {
        PQSIFT_RETURN_IF_ERROR(r->ReadRecords(n));
        batches.push_back(r->Flush());
      }
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> array, Assemble(plan_, leaves_, batches));
      if (array->length != n) return Status::Internal("assembled a wrong number of rows");
      PQSIFT_RETURN_IF_ERROR(ValidateArray(*array));
      RecordBatch batch{schema, n, {array}};
      std::ostringstream text;
      PQSIFT_ASSIGN_OR_RETURN(auto writer,
                              cli::MakeBatchWriter(cli::OutputFormat::kJsonLines, text, {}));
      PQSIFT_RETURN_IF_ERROR(writer->Write(batch));
      PQSIFT_RETURN_IF_ERROR(writer->Finish());
      std::istringstream in(text.str());
      for (std::string line; std::getline(in, line);) lines.push_back(line);
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
};

// A random pattern over `rows` rows: runs of skips and reads of mixed sizes (single rows,
// small runs, runs the size of typical pages, and large jumps), ending exactly at `rows`.
std::vector<std::pair<bool, int64_t>> RandomPattern(int64_t rows, uint32_t seed,
                                                    std::vector<int64_t>* read_rows) {
  std::mt19937 rng(seed);
  const int64_t sizes[] = {1, 2, 7, 64, 1000, std::max<int64_t>(1, rows / 3)};
  std::vector<std::pair<bool, int64_t>> steps;
  int64_t pos = 0;
  while (pos < rows) {
    bool skip = rng() % 2 == 0;
    int64_t n = std::min(rows - pos, sizes[rng() % 6] + static_cast<int64_t>(rng() % 3));
    steps.emplace_back(skip, n);
    if (!skip) {
      for (int64_t i = 0; i < n; ++i) read_rows->push_back(pos + i);
    }
    pos += n;
  }
  return steps;
}

TEST(LeafReaderSkipRead, RandomPatternsEqualFullRead) {
  std::vector<std::string> files = FilesToTest();
  if (files.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  int columns_tested = 0;
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
          auto steps = RandomPattern(rows, seed * 7919 + static_cast<uint32_t>(node), &read_rows);
          auto got = column.Run(steps);
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
      }
    }
  }
  EXPECT_GT(columns_tested, 100) << "too few columns were exercised";
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
