// The writer end to end: files written by ParquetWriter read back by pqsift's own reader with
// equal values, over every flat type, several codecs, dictionary on and off and null patterns;
// the page index checked page by page against each page decoded on its own; chunk statistics
// checked against the values.
#include "pqsift/writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "column/arrow_type.h"
#include "column/leaf_reader.h"
#include "format/page_index.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "prune/statistics.h"
#include "write/leaf_spec.h"
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

std::shared_ptr<RecordBatch> MakeFlatBatch(RandomColumns& gen, int64_t rows, Nulls nulls,
                                           const std::vector<std::string>& only = {}) {
  auto schema = std::make_shared<BatchSchema>();
  auto batch = std::make_shared<RecordBatch>();
  for (const auto& [name, type] : FlatTypes()) {
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    schema->fields.push_back(Field{name, type, nulls != Nulls::kNone});
    batch->columns.push_back(gen.Make(*type, rows, nulls));
  }
  batch->schema = schema;
  batch->num_rows = rows;
  return batch;
}

// Writes `batch` in pieces of `piece` rows (so batches cross page and row group boundaries).
Written Write(const RecordBatch& batch, const WriterOptions& options, int64_t piece = 1000) {
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

// Reads the whole file back and compares every column with `expected`.
void ExpectReadsBack(const Written& w, const RecordBatch& expected) {
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

std::optional<expr::Value> ValueAt(const Array& a, int64_t i) {
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

bool IsNaN(const expr::Value& v) { return v.kind == expr::Value::Kind::kFloat && std::isnan(v.f); }

// What one page or chunk holds: the values (NaN left out), NaNs and nulls.
struct Census {
  std::vector<expr::Value> values;
  int64_t nans = 0;
  int64_t nulls = 0;
};

Census Count(const column::LeafBatch& b, int16_t max_def) {
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
void ExpectBounds(const Census& c, const std::optional<expr::Value>& min,
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
bool IndexBoundExact(const Census& c, bool min, PhysicalType physical, size_t limit) {
  if (physical != PhysicalType::kByteArray || c.values.empty() || limit == 0) return true;
  const expr::Value* extreme = &c.values[0];
  for (const expr::Value& v : c.values) {
    if (min ? expr::Compare(v, *extreme) < 0 : expr::Compare(v, *extreme) > 0) extreme = &v;
  }
  return extreme->bytes.size() <= limit;
}

// Reads rows [0, rows) of the chunk bytes given (dictionary page + some data pages).
column::LeafBatch ReadPages(const ColumnDescriptor& column, ColumnMetaData meta,
                            std::vector<uint8_t> bytes, int64_t rows, const std::string& where) {
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
void ExpectPageIndexMatchesPages(const Written& w, bool expect_index = true, size_t truncate = 64) {
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
        Census census = Count(page, column.max_definition_level);
        chunk_census.nulls += census.nulls;
        chunk_census.nans += census.nans;
        chunk_census.values.insert(chunk_census.values.end(), census.values.begin(),
                                   census.values.end());
        if (!ci_bytes) continue;
        ASSERT_TRUE(ci.null_counts.has_value()) << page_where;
        EXPECT_EQ((*ci.null_counts)[p], census.nulls) << page_where;
        const bool null_page = census.nulls == page.num_records;
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
      EXPECT_EQ(bounds.null_count, s.null_count) << where;
    }
  }
}

struct RoundTripCase {
  CompressionCodec codec;
  bool dictionary;
  Nulls nulls;
  int64_t distinct;
  bool v2 = false;
};

std::string CaseName(const ::testing::TestParamInfo<RoundTripCase>& info) {
  const RoundTripCase& c = info.param;
  return CodecName(c.codec) + (c.dictionary ? "_dict_" : "_plain_") + NullsName(c.nulls) + "_" +
         std::to_string(c.distinct) + (c.v2 ? "_v2" : "");
}

class WriterRoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(WriterRoundTrip, ReadsBackEqualWithSoundPageIndex) {
  const RoundTripCase& c = GetParam();
  RandomColumns gen(static_cast<uint32_t>(c.distinct * 31 + static_cast<int>(c.nulls)), c.distinct);
  auto batch = MakeFlatBatch(gen, 5000, c.nulls);
  WriterOptions options;
  options.compression = c.codec;
  options.dictionary = c.dictionary;
  options.row_group_rows = 3000;         // two row groups, the second partial
  options.page_rows = 700;               // several pages per chunk, not aligned with the batches
  options.dictionary_page_bytes = 2000;  // large dictionaries fall back to PLAIN mid-chunk
  options.data_page_v2 = c.v2;
  Written w = Write(*batch, options, 1100);
  ASSERT_NE(w.metadata, nullptr);
  EXPECT_EQ(w.metadata->num_rows(), 5000);
  EXPECT_EQ(w.metadata->num_row_groups(), 2u);
  ExpectReadsBack(w, *batch);
  ExpectPageIndexMatchesPages(w);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WriterRoundTrip,
    ::testing::Values(RoundTripCase{CompressionCodec::kUncompressed, true, Nulls::kSome, 50},
                      RoundTripCase{CompressionCodec::kUncompressed, false, Nulls::kNone, 100000},
                      RoundTripCase{CompressionCodec::kSnappy, true, Nulls::kRuns, 100000},
                      RoundTripCase{CompressionCodec::kSnappy, false, Nulls::kSome, 7},
                      RoundTripCase{CompressionCodec::kGzip, true, Nulls::kNone, 300},
                      RoundTripCase{CompressionCodec::kZstd, true, Nulls::kAll, 10},
                      RoundTripCase{CompressionCodec::kZstd, false, Nulls::kRuns, 1000},
                      RoundTripCase{CompressionCodec::kLz4Raw, true, Nulls::kSome, 100000},
                      RoundTripCase{CompressionCodec::kBrotli, false, Nulls::kSome, 40},
                      RoundTripCase{CompressionCodec::kZstd, true, Nulls::kSome, 100000, true},
                      RoundTripCase{CompressionCodec::kUncompressed, false, Nulls::kRuns, 30, true},
                      RoundTripCase{CompressionCodec::kSnappy, true, Nulls::kNone, 500, true}),
    CaseName);

// Every column in a non-default encoding chosen per physical type (two choices each), on v1
// and v2 pages.
TEST(Writer, ColumnEncodingsRoundTrip) {
  for (int variant = 0; variant < 2; ++variant) {
    RandomColumns gen(static_cast<uint32_t>(variant + 100), variant == 0 ? 1000000 : 20);
    auto batch = MakeFlatBatch(gen, 4000, Nulls::kSome);
    WriterOptions options;
    options.page_rows = 900;
    options.data_page_v2 = variant == 1;
    for (const Field& f : batch->schema->fields) {
      auto leaf = write::LeafSpecFor(*f.type);
      ASSERT_TRUE(leaf.ok());
      Encoding e = Encoding::kPlain;
      switch (leaf->physical) {
        case PhysicalType::kBoolean: e = Encoding::kRle; break;
        case PhysicalType::kInt32:
        case PhysicalType::kInt64: e = Encoding::kDeltaBinaryPacked; break;
        case PhysicalType::kFloat:
        case PhysicalType::kDouble: e = Encoding::kByteStreamSplit; break;
        case PhysicalType::kByteArray:
          e = variant == 0 ? Encoding::kDeltaLengthByteArray : Encoding::kDeltaByteArray;
          break;
        default: e = variant == 0 ? Encoding::kByteStreamSplit : Encoding::kDeltaByteArray; break;
      }
      options.column_encodings[f.name] = e;
    }
    Written w = Write(*batch, options, 1500);
    ASSERT_NE(w.metadata, nullptr);
    for (const ColumnChunk& chunk : w.metadata->file().row_groups[0].columns) {
      const ColumnMetaData& m = *chunk.meta_data;
      EXPECT_FALSE(m.dictionary_page_offset.has_value());
      for (const PageEncodingStats& s : *m.encoding_stats) {
        EXPECT_EQ(s.encoding, options.column_encodings[std::string(m.path_in_schema[0])]);
      }
    }
    ExpectReadsBack(w, *batch);
    ExpectPageIndexMatchesPages(w);
  }
}

// sorting_columns lists exactly the columns seen sorted in each row group, with their direction
// and null placement.
TEST(Writer, DeclaresTheColumnsItSawSorted) {
  const int64_t n = 3000;
  FixedWidthArrayBuilder<int64_t> up(Int64()), down(Int64()), nulls_last(Int64());
  FixedWidthArrayBuilder<int32_t> shuffled(Int32());
  BinaryArrayBuilder words(LargeUtf8());
  FixedWidthArrayBuilder<double> with_nan(Float64());
  for (int64_t i = 0; i < n; ++i) {
    if (i < 100) {
      up.AppendNull();  // nulls first
    } else {
      up.Append(i / 3);  // ties allowed
    }
    down.Append(-i);
    if (i >= n - 7) {
      nulls_last.AppendNull();
    } else {
      nulls_last.Append(i);
    }
    shuffled.Append(static_cast<int32_t>((i * 7919) % 1000));
    words.Append("w" + std::to_string(100000 + i));  // same length: byte order is numeric order
    with_nan.Append(i == 1500 ? NAN : static_cast<double>(i));
  }
  auto batch = std::make_shared<RecordBatch>();
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"up", Int64(), true},         {"down", Int64(), false},
                    {"nulls_last", Int64(), true}, {"shuffled", Int32(), false},
                    {"words", LargeUtf8(), false}, {"with_nan", Float64(), false}};
  batch->schema = schema;
  batch->num_rows = n;
  batch->columns = {up.Finish(),       down.Finish(),  nulls_last.Finish(),
                    shuffled.Finish(), words.Finish(), with_nan.Finish()};
  WriterOptions options;
  options.row_group_rows = 2000;
  Written w = Write(*batch, options, 700);
  ASSERT_NE(w.metadata, nullptr);
  ExpectReadsBack(w, *batch);
  // Row group 0 (rows 0..1999) and 1 (2000..2999): `nulls_last` has its nulls in group 1 only,
  // `with_nan` its NaN in group 0 only.
  auto describe = [](const std::optional<std::vector<SortingColumn>>& s) {
    std::string out;
    for (const SortingColumn& c : s.value_or(std::vector<SortingColumn>{})) {
      out += std::to_string(c.column_idx) + (c.descending ? "d" : "a") +
             (c.nulls_first ? "f" : "l") + " ";
    }
    return out;
  };
  EXPECT_EQ(describe(w.metadata->file().row_groups[0].sorting_columns), "0af 1dl 2al 4al ");
  EXPECT_EQ(describe(w.metadata->file().row_groups[1].sorting_columns), "0al 1dl 2al 4al 5al ");
}

// sort_by: every row group holds the same rows as the input's rows in its range, in key
// order, and declares the keys as its sorting_columns.
TEST(Writer, SortsEachRowGroupByTheKeys) {
  RandomColumns gen(77, 40);  // few distinct values: many ties on the first key
  auto batch = MakeFlatBatch(gen, 5000, Nulls::kSome, {"int16", "string", "uint64", "float32"});
  WriterOptions options;
  options.row_group_rows = 2000;
  options.page_rows = 300;
  options.sort_by = {{"int16", false, true}, {"string", true, false}};
  Written w = Write(*batch, options, 900);
  ASSERT_NE(w.metadata, nullptr);
  ExpectPageIndexMatchesPages(w);
  ScanOptions scan;
  scan.threads = 1;
  auto scanner = Scanner::Open({w.file}, {w.metadata}, scan);
  ASSERT_TRUE(scanner.ok());
  // Every row read, as (batch, row in batch), in file order.
  std::vector<std::shared_ptr<RecordBatch>> batches;
  std::vector<std::pair<const RecordBatch*, int64_t>> at;
  for (;;) {
    auto read = (*scanner)->Next();
    ASSERT_TRUE(read.ok());
    if (*read == nullptr) break;
    batches.push_back(*read);
    for (int64_t i = 0; i < (*read)->num_rows; ++i) at.emplace_back(read->get(), i);
  }
  ASSERT_EQ(at.size(), 5000u);
  auto row_text = [](const RecordBatch& b, int64_t i) {
    std::string out;
    for (const auto& c : b.columns) {
      auto v = c->IsValid(i) ? ValueAt(*c, i) : std::nullopt;
      out += (v ? DebugString(*v) : "NULL") + "|";
    }
    return out;
  };
  for (int64_t g = 0; g < 3; ++g) {
    const int64_t begin = g * 2000, end = std::min<int64_t>(5000, begin + 2000);
    std::multiset<std::string> want, have;
    for (int64_t i = begin; i < end; ++i) {
      want.insert(row_text(*batch, i));
      have.insert(row_text(*at[i].first, at[i].second));
    }
    EXPECT_EQ(want, have) << "row group " << g;
    // int16 ascending with nulls first, then string descending with nulls last.
    auto key = [&](int64_t i, int column) {
      const Array& a = *at[i].first->columns[column];
      return a.IsValid(at[i].second) ? ValueAt(a, at[i].second) : std::nullopt;
    };
    for (int64_t i = begin + 1; i < end; ++i) {
      auto p1 = key(i - 1, 0), c1 = key(i, 0);
      ASSERT_FALSE(p1.has_value() && !c1.has_value()) << "row " << i << ": int16 nulls first";
      if (p1 && c1) {
        ASSERT_LE(expr::Compare(*p1, *c1), 0) << "row " << i;
      }
      if (p1.has_value() != c1.has_value() || (p1 && expr::Compare(*p1, *c1) != 0)) continue;
      auto p2 = key(i - 1, 3), c2 = key(i, 3);  // columns: int16, uint64, float32, string
      ASSERT_FALSE(!p2.has_value() && c2.has_value()) << "row " << i << ": string nulls last";
      if (p2 && c2) {
        ASSERT_GE(expr::Compare(*p2, *c2), 0) << "row " << i;
      }
    }
    const auto& declared = w.metadata->file().row_groups[g].sorting_columns;
    ASSERT_TRUE(declared.has_value());
    ASSERT_EQ(declared->size(), 2u);
    EXPECT_EQ((*declared)[0].column_idx, 0);
    EXPECT_TRUE((*declared)[0].nulls_first);
    EXPECT_EQ((*declared)[1].column_idx, 3);
    EXPECT_TRUE((*declared)[1].descending);
  }
}

TEST(Writer, FileCarriesStatisticsOrdersAndEncodingStats) {
  RandomColumns gen(7, 50);
  auto batch = MakeFlatBatch(gen, 2000, Nulls::kSome);
  Written w = Write(*batch, WriterOptions{});
  ASSERT_NE(w.metadata, nullptr);
  const FileMetaData& f = w.metadata->file();
  EXPECT_EQ(f.version, 1);
  ASSERT_TRUE(f.created_by.has_value());
  EXPECT_EQ(f.created_by->substr(0, 15), "pqsift version ");
  ASSERT_TRUE(f.column_orders.has_value());
  EXPECT_EQ(f.column_orders->size(), batch->columns.size());
  for (ColumnOrder o : *f.column_orders) {
    EXPECT_EQ(o, ColumnOrder::kTypeDefined);
  }
  for (const ColumnChunk& chunk : f.row_groups[0].columns) {
    const ColumnMetaData& m = *chunk.meta_data;
    ASSERT_TRUE(m.encoding_stats.has_value());
    int32_t pages = 0;
    for (const PageEncodingStats& s : *m.encoding_stats) pages += s.count;
    EXPECT_GE(pages, 1);
    EXPECT_EQ(m.codec, CompressionCodec::kSnappy);
    // 50 distinct values: dictionary-encoded except booleans.
    bool dictionary = m.dictionary_page_offset.has_value();
    EXPECT_EQ(dictionary, m.type != PhysicalType::kBoolean) << m.path_in_schema[0];
  }
  ExpectPageIndexMatchesPages(w);
}

// The first page decides: a column of mostly distinct values is smaller in PLAIN, so it gets no
// dictionary page at all (readers of a few pages would fetch it for nothing).
TEST(Writer, MostlyDistinctColumnsGetNoDictionary) {
  RandomColumns gen(11, 1000000);
  auto batch = MakeFlatBatch(gen, 4000, Nulls::kSome, {"int64", "float64", "string"});
  Written w = Write(*batch, WriterOptions{});
  ExpectReadsBack(w, *batch);
  for (const ColumnChunk& chunk : w.metadata->file().row_groups[0].columns) {
    const ColumnMetaData& m = *chunk.meta_data;
    EXPECT_FALSE(m.dictionary_page_offset.has_value()) << m.path_in_schema[0];
    for (const PageEncodingStats& s : *m.encoding_stats) {
      EXPECT_NE(s.encoding, Encoding::kRleDictionary) << m.path_in_schema[0];
    }
  }
}

TEST(Writer, WithoutPageIndexWritesNone) {
  RandomColumns gen(3, 1000);
  auto batch = MakeFlatBatch(gen, 3000, Nulls::kSome, {"int64", "string"});
  WriterOptions options;
  options.page_index = false;
  Written w = Write(*batch, options);
  ExpectReadsBack(w, *batch);
  ExpectPageIndexMatchesPages(w, /*expect_index=*/false);
}

TEST(Writer, PagesAreCutByRowsAndBytes) {
  RandomColumns gen(5, 1000000, /*max_string=*/400);
  auto batch = MakeFlatBatch(gen, 10000, Nulls::kNone, {"int32", "string"});
  WriterOptions options;
  options.page_rows = 1000;
  options.page_bytes = 64 * 1024;  // ~200 rows of ~200-byte strings
  options.dictionary = false;
  Written w = Write(*batch, options, 4096);
  ExpectReadsBack(w, *batch);
  ExpectPageIndexMatchesPages(w);
  const RowGroup& rg = w.metadata->file().row_groups[0];
  for (const ColumnChunk& chunk : rg.columns) {
    auto bytes = w.file->Read({static_cast<uint64_t>(*chunk.offset_index_offset),
                               static_cast<uint64_t>(*chunk.offset_index_length)});
    format::OffsetIndex oi;
    ASSERT_TRUE(format::DecodeOffsetIndex(bytes->span(), oi).ok());
    const bool strings = chunk.meta_data->type == PhysicalType::kByteArray;
    // int32: 10 pages of 1000 rows; strings: cut by bytes, each page near 64 KiB.
    if (!strings) {
      EXPECT_EQ(oi.page_locations.size(), 10u);
    } else {
      EXPECT_GT(oi.page_locations.size(), 20u);
      for (const auto& loc : oi.page_locations) {
        EXPECT_LT(loc.compressed_page_size, 80 * 1024);
      }
    }
  }
}

TEST(Writer, LongStringBoundsAreTruncatedAndSound) {
  RandomColumns gen(11, 1000000, /*max_string=*/300);
  auto batch = MakeFlatBatch(gen, 3000, Nulls::kSome, {"string", "binary"});
  WriterOptions options;
  options.statistics_truncate_bytes = 16;
  Written w = Write(*batch, options);
  ExpectReadsBack(w, *batch);
  ExpectPageIndexMatchesPages(w, true, 16);
  for (const ColumnChunk& chunk : w.metadata->file().row_groups[0].columns) {
    const Statistics& s = *chunk.meta_data->statistics;
    ASSERT_TRUE(s.min_value.has_value());
    EXPECT_LE(s.min_value->size(), 16u);
    if (s.max_value) {
      EXPECT_LE(s.max_value->size(), 16u);
    }
    EXPECT_FALSE(s.min == s.min_value && s.min.has_value()) << "no legacy min for byte arrays";
  }
}

TEST(Writer, RejectsWhatItCannotWrite) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields.push_back(Field{"l", LargeList(Int32()), true});
  std::vector<uint8_t> out;
  auto nested = ParquetWriter::Open(MakeMemoryWritableFile("x", &out), schema);
  EXPECT_EQ(nested.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(nested.status().message().find("column 'l'"), std::string::npos);

  auto flat = std::make_shared<BatchSchema>();
  flat->fields.push_back(Field{"a", Int32(), false});
  WriterOptions lz4;
  lz4.compression = CompressionCodec::kLz4;
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat, lz4).status().code(),
            StatusCode::kNotSupported);
  WriterOptions bad;
  bad.page_rows = 0;
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat, bad).status().code(),
            StatusCode::kInvalidArgument);
  bad = WriterOptions{};
  bad.compression = CompressionCodec::kZstd;
  bad.compression_level = 99;
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat, bad).status().code(),
            StatusCode::kInvalidArgument);

  WriterOptions delta_on_strings;
  delta_on_strings.column_encodings["a"] = Encoding::kDeltaLengthByteArray;  // "a" is int32
  EXPECT_EQ(ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat, delta_on_strings)
                .status()
                .code(),
            StatusCode::kNotSupported);
  WriterOptions unknown_column;
  unknown_column.column_encodings["zz"] = Encoding::kPlain;
  EXPECT_EQ(
      ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat, unknown_column).status().code(),
      StatusCode::kInvalidArgument);

  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("x", &out), flat);
  ASSERT_TRUE(writer.ok());
  RandomColumns gen(1, 10);
  RecordBatch wrong;
  wrong.schema = flat;
  wrong.num_rows = 3;
  wrong.columns.push_back(gen.Make(*Int64(), 3, Nulls::kNone));
  EXPECT_EQ((*writer)->Write(wrong).code(), StatusCode::kInvalidArgument);
  // A decimal(9,2) value of 12 digits does not fit the INT32 the type is stored as: an error,
  // never a cut value. Likewise for INT64 (precision 18) and the 9 bytes of precision 20.
  for (auto type : {Decimal128(9, 2), Decimal128(18, 0), Decimal128(20, 0)}) {
    auto schema = std::make_shared<BatchSchema>();
    schema->fields.push_back(Field{"d", type, false});
    std::vector<uint8_t> bytes;
    auto w = ParquetWriter::Open(MakeMemoryWritableFile("x", &bytes), schema);
    ASSERT_TRUE(w.ok());
    FixedWidthArrayBuilder<std::array<uint8_t, 16>> b(type);
    std::array<uint8_t, 16> wide{};
    wide[12] = 1;  // 2^96
    b.Append(wide);
    RecordBatch decimals;
    decimals.schema = schema;
    decimals.num_rows = 1;
    decimals.columns.push_back(b.Finish());
    EXPECT_EQ((*w)->Write(decimals).code(), StatusCode::kInvalidArgument) << type->ToString();
  }

  RecordBatch with_nulls = wrong;
  {
    std::vector<uint8_t> closed_bytes;
    auto closed = ParquetWriter::Open(MakeMemoryWritableFile("x", &closed_bytes), flat);
    ASSERT_TRUE(closed.ok());
    ASSERT_TRUE((*closed)->Close().ok());
    EXPECT_EQ((*closed)->Close().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ((*closed)->Write(wrong).code(), StatusCode::kInvalidArgument);
  }
  with_nulls.columns[0] = gen.Make(*Int32(), 3, Nulls::kAll);
  EXPECT_EQ((*writer)->Write(with_nulls).code(), StatusCode::kInvalidArgument);
}

TEST(Writer, EmptyFileIsValid) {
  RandomColumns gen(1, 10);
  auto batch = MakeFlatBatch(gen, 0, Nulls::kSome, {"int32", "string"});
  Written w = Write(*batch, WriterOptions{});
  ASSERT_NE(w.metadata, nullptr);
  EXPECT_EQ(w.metadata->num_rows(), 0);
  EXPECT_EQ(w.metadata->num_row_groups(), 0u);
  ExpectReadsBack(w, *batch);
}

}  // namespace
}  // namespace pqsift
