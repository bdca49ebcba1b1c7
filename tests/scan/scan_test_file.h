// A small Parquet file in memory for the runtime filter and top-k tests: 10 row groups of 1000
// rows, data pages of 100 rows, a page index. Columns:
//   id  int64, 0..9999 in order (row group g holds [1000 g, 1000 g + 1000))
//   v   int64, nullable: NULL on every 7th row, else (id * 37) % 101 (many ties)
//   f   float64: NaN on every 13th row, -0.0 on every 17th, else ((id * 11) % 53) - 26.5
//   s   large_utf8: "k" + ((id * 7) % 31)
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"

namespace pqsift::testing {

struct ScanTestRow {
  int64_t id = 0;
  std::optional<int64_t> v;
  double f = 0;
  std::string s;
};

inline ScanTestRow ScanTestRowAt(int64_t id) {
  ScanTestRow r;
  r.id = id;
  if (id % 7 != 0) r.v = (id * 37) % 101;
  r.f = id % 13 == 0   ? std::numeric_limits<double>::quiet_NaN()
        : id % 17 == 0 ? -0.0
                       : static_cast<double>((id * 11) % 53) - 26.5;
  r.s = "k" + std::to_string((id * 7) % 31);
  return r;
}

struct ScanTestFile {
  static constexpr int64_t kRows = 10000;
  std::vector<uint8_t> bytes;
  std::shared_ptr<const ParquetMetadata> metadata;
  int64_t slice_rows = 0;  // ScanOptions::slice_rows of the scans Open makes (0: the default)

  // Row groups of `row_group_rows` rows, pages of 100 rows (with a page index).
  explicit ScanTestFile(int64_t row_group_rows = 1000) {
    auto schema = std::make_shared<BatchSchema>();
    schema->fields = {{"id", Int64(), false},
                      {"v", Int64(), true},
                      {"f", Float64(), false},
                      {"s", LargeUtf8(), false}};
    FixedWidthArrayBuilder<int64_t> id(Int64()), v(Int64());
    FixedWidthArrayBuilder<double> f(Float64());
    BinaryArrayBuilder s(LargeUtf8());
    for (int64_t i = 0; i < kRows; ++i) {
      ScanTestRow r = ScanTestRowAt(i);
      id.Append(r.id);
      if (r.v) {
        v.Append(*r.v);
      } else {
        v.AppendNull();
      }
      f.Append(r.f);
      s.Append(std::string_view(r.s));
    }
    RecordBatch batch;
    batch.schema = schema;
    batch.num_rows = kRows;
    batch.columns = {id.Finish(), v.Finish(), f.Finish(), s.Finish()};
    WriterOptions options;
    options.row_group_rows = row_group_rows;
    options.page_rows = 100;
    auto writer =
        ParquetWriter::Open(MakeMemoryWritableFile("test.parquet", &bytes), schema, options);
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    if (!writer.ok()) return;
    EXPECT_TRUE((*writer)->Write(batch).ok());
    EXPECT_TRUE((*writer)->Close().ok());
    auto md = ReadParquetMetadata(*MakeMemoryFile("test.parquet", bytes));
    EXPECT_TRUE(md.ok()) << md.status().ToString();
    if (md.ok()) metadata = *md;
  }

  // A scanner over the file (a fresh counted file each time).
  Result<std::unique_ptr<Scanner>> Open(ScanOptions options) const {
    std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("test.parquet", bytes);
    if (options.slice_rows == 0) options.slice_rows = slice_rows;
    return Scanner::Open({file}, {metadata}, options);
  }
};

// Every batch of a scan; the error of the first failing Next().
inline Result<std::vector<std::shared_ptr<RecordBatch>>> DrainScanner(Scanner& scanner) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner.Next());
    if (!batch) return out;
    out.push_back(std::move(batch));
  }
}

// Column `c` of every batch as int64 values (NULL as nullopt).
inline std::vector<std::optional<int64_t>> Int64Column(
    const std::vector<std::shared_ptr<RecordBatch>>& batches, size_t c) {
  std::vector<std::optional<int64_t>> out;
  for (const auto& b : batches) {
    const Array& a = *b->columns[c];
    for (int64_t i = 0; i < a.length; ++i) {
      if (!a.IsValid(i)) {
        out.push_back(std::nullopt);
      } else {
        out.push_back(a.buffers[1]->as<int64_t>()[a.offset + i]);
      }
    }
  }
  return out;
}

}  // namespace pqsift::testing
