// Checks on files ParquetWriter wrote, shared by the writer tests: write a batch in pieces,
// read it back with pqsift's reader and compare, and check every page of every chunk against
// its column index and offset index entries (pages decoded on their own, so a page that does not
// start at a record, or whose bounds miss a value, is found).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/select.h"
#include "column/arrow_type.h"
#include "column/leaf_reader.h"
#include "expr/value.h"
#include "format/page_index.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "prune/statistics.h"

namespace pqsift::testing {

// A nullable list<int32> column of `rows` rows in `type`: row i is null when i % 13 == 0, else
// holds i % 4 elements i, i + 1, ... (empty lists, nulls and lists that cross pages).
inline std::shared_ptr<Array> SampleLists(int64_t rows, std::shared_ptr<const DataType> type) {
  FixedWidthArrayBuilder<int32_t> values(Int32());
  TypedBufferBuilder<int64_t> offsets;
  BitmapBuilder valid;
  int64_t elements = 0;
  offsets.Append(&elements, 1);
  for (int64_t i = 0; i < rows; ++i) {
    valid.Append(i % 13 != 0);
    if (i % 13 != 0) {
      for (int64_t e = 0; e < i % 4; ++e) values.Append(static_cast<int32_t>(i + e));
      elements += i % 4;
    }
    offsets.Append(&elements, 1);
  }
  auto lists = std::make_shared<Array>();
  lists->type = std::move(type);
  lists->length = rows;
  lists->buffers = {valid.FinishValidity(), offsets.Finish()};
  lists->null_count = valid.null_count();
  lists->children = {values.Finish()};
  return lists;
}

struct Written {
  std::vector<uint8_t> bytes;
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
};

// Writes `batch` in pieces of `piece` rows (so batches cross page and row group boundaries).
inline Written Write(const RecordBatch& batch, const WriterOptions& options, int64_t piece = 1000) {
  Written w;
  auto writer =
      ParquetWriter::Open(MakeMemoryWritableFile("mem.parquet", &w.bytes), batch.schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return w;
  for (int64_t at = 0; at < batch.num_rows; at += piece) {
    RecordBatch part;
    part.schema = batch.schema;
    part.num_rows = std::min(piece, batch.num_rows - at);
    for (const auto& c : batch.columns) part.columns.push_back(*Slice(*c, at, part.num_rows));
    Status st = (*writer)->Write(part);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  w.file = MakeMemoryFile("mem.parquet", w.bytes);
  auto md = ReadParquetMetadata(*w.file);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (md.ok()) w.metadata = *md;
  return w;
}

// The batches of a scan of `w` through a file object of its own (its read counters count this
// scan alone) and the scanner's stats after the last. Fails the test on an error.
struct ScannedBatches {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  ScanStats stats;
  int64_t rows() const {
    int64_t n = 0;
    for (const auto& b : batches) n += b->num_rows;
    return n;
  }
};
inline ScannedBatches ScanWritten(const Written& w, const ScanOptions& options) {
  ScannedBatches out;
  auto scanner = Scanner::Open({MakeMemoryFile("mem.parquet", w.bytes)}, {w.metadata}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  for (;;) {
    auto batch = (*scanner)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    out.batches.push_back(*batch);
  }
  out.stats = (*scanner)->stats();
  return out;
}

// Each column of the scan as one array (the batches concatenated).
inline std::vector<std::shared_ptr<Array>> Columns(const ScannedBatches& scanned) {
  std::vector<std::shared_ptr<Array>> out;
  if (scanned.batches.empty()) return out;
  for (size_t c = 0; c < scanned.batches.front()->columns.size(); ++c) {
    std::vector<ElementRange> whole;
    std::vector<RangesOf> sources;
    whole.reserve(scanned.batches.size());
    for (const auto& batch : scanned.batches) whole.push_back({0, batch->num_rows});
    for (size_t b = 0; b < scanned.batches.size(); ++b) {
      sources.push_back({scanned.batches[b]->columns[c].get(), {&whole[b], 1}});
    }
    out.push_back(SelectRanges(sources));
  }
  return out;
}

inline void ExpectSameRows(const ScannedBatches& got, const ScannedBatches& want) {
  std::vector<std::shared_ptr<Array>> a = Columns(got);
  std::vector<std::shared_ptr<Array>> b = Columns(want);
  ASSERT_EQ(a.size(), b.size());
  for (size_t c = 0; c < a.size(); ++c) EXPECT_TRUE(ArrayEquals(*a[c], *b[c])) << "column " << c;
}

// Reads the whole file back and compares every column with `expected`.
inline void ExpectReadsBack(const Written& w, const RecordBatch& expected) {
  ASSERT_NE(w.metadata, nullptr);
  ScanOptions options;
  options.threads = 1;
  options.batch_size = 777;
  auto scanner = Scanner::Open({w.file}, {w.metadata}, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  int64_t row = 0;
  for (;;) {
    auto batch = (*scanner)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    ASSERT_EQ((*batch)->columns.size(), expected.columns.size());
    for (size_t c = 0; c < expected.columns.size(); ++c) {
      auto want = Slice(*expected.columns[c], row, (*batch)->num_rows);
      ASSERT_TRUE(want.ok());
      const Array& got = *(*batch)->columns[c];
      ASSERT_TRUE(ArrayEquals(**want, got))
          << expected.schema->fields[c].name << " rows " << row << ".." << row + (*batch)->num_rows
          << " (" << (*want)->type->ToString() << " vs " << got.type->ToString() << ")";
    }
    row += (*batch)->num_rows;
  }
  EXPECT_EQ(row, expected.num_rows);
}

// ---- the value oracle: an Arrow element as a Value of the prune layer's domain ----

inline std::optional<expr::Value> ValueAt(const Array& a, int64_t i) {
  const int64_t s = a.offset + i;
  const uint8_t* data = a.buffers.size() > 1 && a.buffers[1] ? a.buffers[1]->data() : nullptr;
  auto load = [&](auto sample) {
    decltype(sample) v;
    std::memcpy(&v, data + s * sizeof(v), sizeof(v));
    return v;
  };
  using expr::Value;
  switch (a.type->id) {
    case TypeId::kBoolean: return Value::Bool(bit_util::GetBit(data, s));
    case TypeId::kInt8: return Value::Int(load(int8_t{}));
    case TypeId::kInt16: return Value::Int(load(int16_t{}));
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return Value::Int(load(int32_t{}));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return Value::Int(load(int64_t{}));
    case TypeId::kUInt8: return Value::Int(load(uint8_t{}));
    case TypeId::kUInt16: return Value::Int(load(uint16_t{}));
    case TypeId::kUInt32: return Value::Int(load(uint32_t{}));
    case TypeId::kUInt64: return Value::Int(load(uint64_t{}));
    case TypeId::kFloat32: return Value::Float(load(float{}));
    case TypeId::kFloat64: return Value::Float(load(double{}));
    case TypeId::kFloat16: {
      uint16_t bits = load(uint16_t{});
      // Half to double by hand (independent of the code under test).
      int exp = (bits >> 10) & 0x1F, man = bits & 0x3FF;
      double v = exp == 0    ? std::ldexp(man, -24)
                 : exp == 31 ? (man ? NAN : INFINITY)
                             : std::ldexp(man + 1024, exp - 25);
      return Value::Float(bits & 0x8000 ? -v : v);
    }
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, data + s * 16, 16);
      return Value::Int(v);
    }
    case TypeId::kFixedSizeBinary:
      return Value::Bytes(std::string(reinterpret_cast<const char*>(data + s * a.type->byte_width),
                                      a.type->byte_width));
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const int64_t* offsets = a.buffers[1]->as<int64_t>();
      const char* bytes = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
      return Value::Bytes(std::string(bytes + offsets[s], offsets[s + 1] - offsets[s]));
    }
    default: return std::nullopt;
  }
}

inline bool IsNaN(const expr::Value& v) {
  return v.kind == expr::Value::Kind::kFloat && std::isnan(v.f);
}

// What one page or chunk holds: the values (NaN left out), NaNs and nulls.
struct Census {
  std::vector<expr::Value> values;
  int64_t nans = 0;
  int64_t nulls = 0;
};

inline Census Count(const column::LeafBatch& b, int16_t max_def) {
  Census c;
  for (int64_t i = 0; i < b.values->length; ++i) {
    auto v = ValueAt(*b.values, i);
    if (IsNaN(*v)) {
      ++c.nans;
    } else {
      c.values.push_back(*v);
    }
  }
  c.nulls = max_def == 0 ? 0 : b.num_levels - b.values->length;
  return c;
}

// min <= every value <= max; `exact` bounds are the extreme values themselves.
inline void ExpectBounds(const Census& c, const std::optional<expr::Value>& min,
                         const std::optional<expr::Value>& max, bool min_exact, bool max_exact,
                         const std::string& where) {
  if (c.values.empty()) return;
  ASSERT_TRUE(min.has_value()) << where;
  const expr::Value* lowest = &c.values[0];
  const expr::Value* highest = &c.values[0];
  for (const expr::Value& v : c.values) {
    if (expr::Compare(v, *lowest) < 0) lowest = &v;
    if (expr::Compare(v, *highest) > 0) highest = &v;
  }
  EXPECT_LE(expr::Compare(*min, *lowest), 0)
      << where << " min " << DebugString(*min) << " > " << DebugString(*lowest);
  if (min_exact) {
    EXPECT_EQ(expr::Compare(*min, *lowest), 0)
        << where << " exact min " << DebugString(*min) << " is not " << DebugString(*lowest);
  }
  if (!max) return;
  EXPECT_GE(expr::Compare(*max, *highest), 0)
      << where << " max " << DebugString(*max) << " < " << DebugString(*highest);
  if (max_exact) {
    EXPECT_EQ(expr::Compare(*max, *highest), 0)
        << where << " exact max " << DebugString(*max) << " is not " << DebugString(*highest);
  }
}

// Whether a column index bound of this page must be the extreme value itself: always, except
// BYTE_ARRAY values longer than the truncation limit.
inline bool IndexBoundExact(const Census& c, bool min, PhysicalType physical, size_t limit) {
  if (physical != PhysicalType::kByteArray || c.values.empty() || limit == 0) return true;
  const expr::Value* extreme = &c.values[0];
  for (const expr::Value& v : c.values) {
    if (min ? expr::Compare(v, *extreme) < 0 : expr::Compare(v, *extreme) > 0) extreme = &v;
  }
  return extreme->bytes.size() <= limit;
}

// Reads rows [0, rows) of the chunk bytes given (dictionary page + some data pages).
inline column::LeafBatch ReadPages(const ColumnDescriptor& column, ColumnMetaData meta,
                                   std::vector<uint8_t> bytes, int64_t rows,
                                   const std::string& where) {
  meta.dictionary_page_offset.reset();
  auto reader = column::LeafReader::Make(column, meta, bytes, 0, rows, where);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  Status st = (*reader)->ReadRecords(rows);
  EXPECT_TRUE(st.ok()) << where << ": " << st.ToString();
  return (*reader)->Flush();
}

// Every page of every chunk decoded on its own agrees with its column index entry and offset
// index location; the chunk's statistics agree with all its values.
inline void ExpectPageIndexMatchesPages(const Written& w, bool expect_index = true,
                                        size_t truncate = 64) {
  const ParquetMetadata& md = *w.metadata;
  for (size_t g = 0; g < md.num_row_groups(); ++g) {
    const RowGroup& rg = md.file().row_groups[g];
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& chunk = rg.columns[c];
      const ColumnMetaData& meta = *chunk.meta_data;
      const ColumnDescriptor& column = md.schema().columns()[c];
      auto type = column::ArrowTypeForLeaf(column);
      ASSERT_TRUE(type.ok());
      const std::string where = "row group " + std::to_string(g) + " column " + column.path;
      if (!expect_index) {
        EXPECT_FALSE(chunk.offset_index_offset.has_value()) << where;
        EXPECT_FALSE(chunk.column_index_offset.has_value()) << where;
        continue;
      }
      ASSERT_TRUE(chunk.offset_index_offset && chunk.offset_index_length) << where;
      auto oi_bytes = w.file->Read({static_cast<uint64_t>(*chunk.offset_index_offset),
                                    static_cast<uint64_t>(*chunk.offset_index_length)});
      ASSERT_TRUE(oi_bytes.ok());
      format::OffsetIndex oi;
      ASSERT_TRUE(format::DecodeOffsetIndex(oi_bytes->span(), oi).ok()) << where;
      std::optional<Buffer> ci_bytes;
      format::ColumnIndex ci;
      if (chunk.column_index_offset) {
        ci_bytes = std::move(*w.file->Read({static_cast<uint64_t>(*chunk.column_index_offset),
                                            static_cast<uint64_t>(*chunk.column_index_length)}));
        ASSERT_TRUE(format::DecodeColumnIndex(ci_bytes->span(), ci).ok()) << where;
        ASSERT_EQ(ci.null_pages.size(), oi.page_locations.size()) << where;
      }

      // The dictionary page (if any) lies between the chunk start and the first data page.
      std::vector<uint8_t> dictionary;
      if (meta.dictionary_page_offset) {
        dictionary.assign(w.bytes.begin() + *meta.dictionary_page_offset,
                          w.bytes.begin() + meta.data_page_offset);
      }
      ASSERT_FALSE(oi.page_locations.empty()) << where;
      EXPECT_EQ(oi.page_locations.front().offset, meta.data_page_offset) << where;
      int64_t expected_offset = meta.data_page_offset;
      Census chunk_census;
      for (size_t p = 0; p < oi.page_locations.size(); ++p) {
        const format::PageLocation& loc = oi.page_locations[p];
        const std::string page_where = where + " page " + std::to_string(p);
        EXPECT_EQ(loc.offset, expected_offset) << page_where;  // pages are back to back
        expected_offset = loc.offset + loc.compressed_page_size;
        const int64_t end_row = p + 1 < oi.page_locations.size()
                                    ? oi.page_locations[p + 1].first_row_index
                                    : rg.num_rows;
        std::vector<uint8_t> bytes = dictionary;
        bytes.insert(bytes.end(), w.bytes.begin() + loc.offset,
                     w.bytes.begin() + loc.offset + loc.compressed_page_size);
        column::LeafBatch page =
            ReadPages(column, meta, std::move(bytes), end_row - loc.first_row_index, page_where);
        ASSERT_NE(page.values, nullptr) << page_where;
        // Pages start at records (PageIndex.md: first_row_index is a row): read on its own, the
        // page's first level entry starts one, and it holds the rows the offset index says.
        if (!page.repetition_levels.empty()) {
          EXPECT_EQ(page.repetition_levels.front(), 0) << page_where << " starts inside a row";
          EXPECT_EQ(std::count(page.repetition_levels.begin(), page.repetition_levels.end(), 0),
                    end_row - loc.first_row_index)
              << page_where;
        }
        EXPECT_EQ(page.num_records, end_row - loc.first_row_index) << page_where;
        Census census = Count(page, column.max_definition_level);
        chunk_census.nulls += census.nulls;
        chunk_census.nans += census.nans;
        chunk_census.values.insert(chunk_census.values.end(), census.values.begin(),
                                   census.values.end());
        if (!ci_bytes) continue;
        ASSERT_TRUE(ci.null_counts.has_value()) << page_where;
        EXPECT_EQ((*ci.null_counts)[p], census.nulls) << page_where;
        const bool null_page = page.values->length == 0;
        EXPECT_EQ(ci.null_pages[p], null_page) << page_where;
        if (ci.nan_counts) {
          EXPECT_EQ((*ci.nan_counts)[p], census.nans) << page_where;
        }
        if (null_page) continue;
        auto min = prune::DecodeStatisticsValue(ci.min_values[p], column, **type);
        auto max = prune::DecodeStatisticsValue(ci.max_values[p], column, **type);
        ExpectBounds(census, min, max,
                     IndexBoundExact(census, true, column.physical_type, truncate),
                     IndexBoundExact(census, false, column.physical_type, truncate), page_where);
      }
      EXPECT_EQ(expected_offset, meta.data_page_offset + (meta.total_compressed_size -
                                                          static_cast<int64_t>(dictionary.size())))
          << where;
      // Chunk statistics.
      ASSERT_TRUE(meta.statistics.has_value()) << where;
      const Statistics& s = *meta.statistics;
      ASSERT_TRUE(s.null_count.has_value()) << where;
      EXPECT_EQ(*s.null_count, chunk_census.nulls) << where;
      if (s.nan_count) {
        EXPECT_EQ(*s.nan_count, chunk_census.nans) << where;
      }
      EXPECT_EQ(s.min_value.has_value(), !chunk_census.values.empty()) << where;
      std::optional<expr::Value> min, max;
      if (s.min_value) min = prune::DecodeStatisticsValue(*s.min_value, column, **type);
      if (s.max_value) max = prune::DecodeStatisticsValue(*s.max_value, column, **type);
      ExpectBounds(chunk_census, min, max, s.is_min_value_exact.value_or(false),
                   s.is_max_value_exact.value_or(false), where);
      // The trust rules take them as bounds (the column order is written).
      auto bounds = prune::BoundsFromStatistics(column, **type, meta.statistics, rg.num_rows);
      EXPECT_EQ(bounds.min.has_value(), min.has_value()) << where;
      // (Inside lists, null counts count level entries, not rows: the trust rules drop them.)
      if (column.max_repetition_level == 0) {
        EXPECT_EQ(bounds.null_count, s.null_count) << where;
      }
    }
  }
}

}  // namespace pqsift::testing
