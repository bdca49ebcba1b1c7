// Bloom filters written by ParquetWriter: where they lie and how they are sized, and that the
// reader's literal-to-stored-form mapping (prune/bloom_probe.h) finds every value the writer
// stored, over every flat type. A value the filter missed would be a lost row.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "format/bloom_filter_reader.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "prune/bloom_probe.h"
#include "write/random_columns.h"

namespace pqsift {
namespace {

using testing::FlatTypes;
using testing::Nulls;
using testing::RandomColumns;

struct Written {
  std::vector<uint8_t> bytes;
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
};

Written WriteBatch(const RecordBatch& batch, const WriterOptions& options) {
  Written w;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("bloom.parquet", &w.bytes), batch.schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return w;
  Status st = (*writer)->Write(batch);
  EXPECT_TRUE(st.ok()) << st.ToString();
  st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  w.file = MakeMemoryFile("bloom.parquet", w.bytes);
  auto md = ReadParquetMetadata(*w.file);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (md.ok()) w.metadata = *md;
  return w;
}

// Row i of an Arrow array as a filter literal of the column's domain (expr/value.h); nullopt
// for a null.
std::optional<expr::Value> ValueAt(const Array& a, int64_t i) {
  const int64_t slot = a.offset + i;
  if (a.buffers[0] && !(a.buffers[0]->data()[slot / 8] >> (slot % 8) & 1)) return std::nullopt;
  const uint8_t* data = a.buffers[1]->data();
  auto load = [&]<typename T>(T) {
    T v;
    std::memcpy(&v, data + slot * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
  };
  switch (a.type->id) {
    case TypeId::kInt8: return expr::Value::Int(load(int8_t{}));
    case TypeId::kInt16: return expr::Value::Int(load(int16_t{}));
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return expr::Value::Int(load(int32_t{}));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return expr::Value::Int(load(int64_t{}));
    case TypeId::kUInt8: return expr::Value::Int(load(uint8_t{}));
    case TypeId::kUInt16: return expr::Value::Int(load(uint16_t{}));
    case TypeId::kUInt32: return expr::Value::Int(load(uint32_t{}));
    case TypeId::kUInt64: return expr::Value::Int(load(uint64_t{}));
    case TypeId::kFloat16: return expr::Value::Float(0);  // never probed
    case TypeId::kFloat32: return expr::Value::Float(load(float{}));
    case TypeId::kFloat64: return expr::Value::Float(load(double{}));
    case TypeId::kDecimal128: return expr::Value::Int(load(expr::int128{}));
    case TypeId::kFixedSizeBinary:
      return expr::Value::Bytes(
          std::string(reinterpret_cast<const char*>(data) + slot * a.type->byte_width,
                      static_cast<size_t>(a.type->byte_width)));
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const int64_t* offsets = a.buffers[1]->as<int64_t>();
      const char* bytes = reinterpret_cast<const char*>(a.buffers[2]->data());
      return expr::Value::Bytes(std::string(
          bytes + offsets[slot], static_cast<size_t>(offsets[slot + 1] - offsets[slot])));
    }
    default: return std::nullopt;
  }
}

TEST(BloomFilterWriterTest, EveryStoredValueIsFoundThroughTheLiteralMapping) {
  constexpr int64_t kRows = 6000;
  constexpr int64_t kGroupRows = 2000;
  RandomColumns gen(11, 3000);
  auto schema = std::make_shared<BatchSchema>();
  RecordBatch batch;
  WriterOptions options;
  options.row_group_rows = kGroupRows;
  for (const auto& [name, type] : FlatTypes()) {
    if (type->id == TypeId::kBoolean) continue;
    schema->fields.push_back(Field{name, type, true});
    batch.columns.push_back(gen.Make(*type, kRows, Nulls::kSome));
    options.bloom_filters[name] = {};
  }
  batch.schema = schema;
  batch.num_rows = kRows;
  Written w = WriteBatch(batch, options);
  ASSERT_NE(w.metadata, nullptr);
  const FileMetaData& file = w.metadata->file();
  ASSERT_EQ(file.row_groups.size(), 3u);

  // Where they lie: after the last chunk, before the first page index, in row group order.
  int64_t previous_end = 0;
  for (const RowGroup& rg : file.row_groups) {
    for (const ColumnChunk& chunk : rg.columns) {
      const ColumnMetaData& m = *chunk.meta_data;
      ASSERT_TRUE(m.bloom_filter_offset && m.bloom_filter_length);
      EXPECT_GE(*m.bloom_filter_offset, previous_end);
      previous_end = *m.bloom_filter_offset + *m.bloom_filter_length;
      const RowGroup& last = file.row_groups.back();
      const ColumnMetaData& last_chunk = *last.columns.back().meta_data;
      EXPECT_GE(*m.bloom_filter_offset,
                last_chunk.dictionary_page_offset.value_or(last_chunk.data_page_offset) +
                    last_chunk.total_compressed_size);
      EXPECT_LE(previous_end, *file.row_groups[0].columns[0].column_index_offset);
    }
  }

  ScanOptions scan;
  scan.threads = 1;
  auto scanner = Scanner::Open({w.file}, {w.metadata}, scan);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (;;) {
    auto next = (*scanner)->Next();
    ASSERT_TRUE(next.ok());
    if (*next == nullptr) break;
    batches.push_back(*next);
  }

  const std::set<std::string> unprobed = {"int8", "int16", "uint8", "uint16", "float16"};
  const std::vector<ColumnDescriptor>& leaves = w.metadata->schema().columns();
  for (size_t c = 0; c < schema->fields.size(); ++c) {
    const Field& field = schema->fields[c];
    SCOPED_TRACE(field.name);
    std::vector<format::BloomFilterRequest> requests;
    for (size_t g = 0; g < file.row_groups.size(); ++g) {
      requests.push_back({g, static_cast<int32_t>(c), {}});
    }
    uint64_t bytes_read = 0;
    auto loaded = format::LoadBloomFilters(*w.file, *w.metadata, requests, UINT64_MAX,
                                           requests.size(), &bytes_read);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    ASSERT_EQ(loaded->complete, requests.size());
    const auto* filters = &loaded->filters;
    int64_t row = 0, probed = 0;
    for (const auto& b : batches) {
      const Array& column = *b->columns[c];
      for (int64_t i = 0; i < b->num_rows; ++i, ++row) {
        std::optional<expr::Value> v = ValueAt(column, i);
        if (!v) continue;
        std::optional<std::vector<uint64_t>> hashes =
            prune::BloomHashesOf(*v, leaves[c], *field.type);
        if (unprobed.contains(field.name)) {
          EXPECT_FALSE(hashes.has_value());
          continue;
        }
        if (v->kind == expr::Value::Kind::kFloat && std::isnan(v->f)) {
          EXPECT_FALSE(hashes.has_value());
          continue;
        }
        ASSERT_TRUE(hashes.has_value()) << "row " << row;
        const auto& filter = (*filters)[static_cast<size_t>(row / kGroupRows)];
        ASSERT_TRUE(filter.has_value());
        bool found = false;
        for (uint64_t h : *hashes) found |= filter->MightContain(h);
        EXPECT_TRUE(found) << "row " << row;
        ++probed;
      }
    }
    if (!unprobed.contains(field.name)) {
      EXPECT_GT(probed, kRows / 2);
    }
  }
}

std::shared_ptr<RecordBatch> SmallBatch(std::shared_ptr<const DataType> type, int64_t rows,
                                        int64_t distinct) {
  RandomColumns gen(5, distinct);
  auto batch = std::make_shared<RecordBatch>();
  auto schema = std::make_shared<BatchSchema>();
  schema->fields.push_back(Field{"c", type, false});
  batch->schema = schema;
  batch->num_rows = rows;
  batch->columns.push_back(gen.Make(*type, rows, Nulls::kNone));
  return batch;
}

int64_t BitsetBytes(const Written& w, size_t row_group) {
  uint64_t read = 0;
  format::BloomFilterRequest request{row_group, 0, {}};
  auto loaded = format::LoadBloomFilters(*w.file, *w.metadata, {&request, 1}, UINT64_MAX, 1, &read);
  EXPECT_TRUE(loaded.ok());
  return loaded.ok() && loaded->filters[0] ? loaded->filters[0]->num_bytes() : -1;
}

TEST(BloomFilterWriterTest, SizedForTheDistinctValuesOrTheGivenNdv) {
  auto batch = SmallBatch(Int64(), 20'000, 5000);  // about 4,000 distinct values
  WriterOptions options;
  options.bloom_filters["c"] = {};
  Written counted = WriteBatch(*batch, options);
  // About 4,000 values at 1%: 4.8 KB, rounded up to 8 KiB (not 20,000 values' 32 KiB).
  EXPECT_EQ(BitsetBytes(counted, 0), 8192);
  options.bloom_filters["c"] = {100'000, 0.05};
  Written given = WriteBatch(*batch, options);
  EXPECT_EQ(BitsetBytes(given, 0), format::OptimalBloomFilterBytes(100'000, 0.05));
  // Without bloom_filters, no filter.
  Written none = WriteBatch(*batch, WriterOptions{});
  EXPECT_FALSE(none.metadata->file().row_groups[0].columns[0].meta_data->bloom_filter_offset);
}

TEST(BloomFilterWriterTest, OptionsAreChecked) {
  auto batch = SmallBatch(Int64(), 10, 10);
  auto open = [&](const WriterOptions& o, std::shared_ptr<const BatchSchema> schema) {
    std::vector<uint8_t> bytes;
    return ParquetWriter::Open(MakeMemoryWritableFile("x", &bytes), std::move(schema), o).status();
  };
  WriterOptions o;
  o.bloom_filters["nope"] = {};
  EXPECT_EQ(open(o, batch->schema).code(), StatusCode::kInvalidArgument);
  for (double fpp : {0.0, 1.0, -0.5, std::nan("")}) {
    WriterOptions bad;
    bad.bloom_filters["c"] = {0, fpp};
    EXPECT_EQ(open(bad, batch->schema).code(), StatusCode::kInvalidArgument) << fpp;
  }
  WriterOptions negative;
  negative.bloom_filters["c"] = {-1, 0.01};
  EXPECT_EQ(open(negative, batch->schema).code(), StatusCode::kInvalidArgument);
  WriterOptions boolean;
  boolean.bloom_filters["c"] = {};
  Status st = open(boolean, SmallBatch(Boolean(), 10, 2)->schema);
  EXPECT_EQ(st.code(), StatusCode::kNotSupported);
  EXPECT_NE(st.message().find("column 'c'"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace pqsift
