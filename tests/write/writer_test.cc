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
#include "arrow/layout.h"
#include "column/arrow_type.h"
#include "column/leaf_reader.h"
#include "format/page_index.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "prune/statistics.h"
#include "write/leaf_spec.h"
#include "write/random_columns.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

using testing::ExpectPageIndexMatchesPages;
using testing::ExpectReadsBack;
using testing::FlatTypes;
using testing::Nulls;
using testing::RandomColumns;
using testing::ScannedBatches;
using testing::ScanWritten;
using testing::ValueAt;
using testing::Write;
using testing::Written;

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

// A row group longer than a slice (128Ki rows) is scanned in several slices; ends placed at
// page starts mean no page is fetched twice when every column starts its pages at the same
// rows. With pages cut by bytes instead (starts differ by column), the rows still read back.
TEST(Writer, SlicesOfALongRowGroupEndAtPageStarts) {
  const int64_t rows = 300000;
  FixedWidthArrayBuilder<int64_t> id(Int64());
  FixedWidthArrayBuilder<double> price(Float64());
  for (int64_t r = 0; r < rows; ++r) {
    id.Append(r);
    price.Append(static_cast<double>(r % 1000) / 8);
  }
  auto batch = std::make_shared<RecordBatch>();
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"price", Float64(), false}};
  batch->schema = schema;
  batch->columns = {id.Finish(), price.Finish()};
  batch->num_rows = rows;
  for (bool by_rows : {true, false}) {
    SCOPED_TRACE(by_rows ? "pages by rows" : "pages by bytes");
    WriterOptions options;
    options.row_group_rows = rows;
    options.page_rows = by_rows ? 10000 : rows;
    if (!by_rows) options.page_bytes = 30000;
    Written w = Write(*batch, options, 50000);
    ASSERT_NE(w.metadata, nullptr);
    ASSERT_EQ(w.metadata->num_row_groups(), 1u);
    ExpectReadsBack(w, *batch);
    ScanOptions scan;
    scan.threads = 2;
    ScannedBatches all = ScanWritten(w, scan);
    EXPECT_EQ(all.rows(), rows);
    if (by_rows) {
      EXPECT_LE(all.stats.bytes_read, w.bytes.size());
    }
    // A filtered LIMIT decodes the first 4096 rows (its first, shortest slice), not 128Ki, and
    // returns the first matching rows in order.
    ScanOptions limited;
    limited.threads = 2;
    limited.filter = "price > 0.25";  // row % 1000 >= 3
    limited.limit = 10;
    ScannedBatches first = ScanWritten(w, limited);
    std::vector<int64_t> ids;
    for (const auto& batch : first.batches) {
      for (int64_t r = 0; r < batch->num_rows; ++r) {
        ids.push_back(layout::LoadValue<int64_t>(*batch->columns[0], r));
      }
    }
    ASSERT_EQ(ids.size(), 10u);
    for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], static_cast<int64_t>(3 + i));
    EXPECT_EQ(first.stats.rows_decoded, 4096);
  }
}

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
  schema->fields.push_back(Field{"n", NullType(), true});
  auto null_type = ParquetWriter::Open(MakeMemoryWritableFile("x", &out), schema);
  EXPECT_EQ(null_type.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(null_type.status().message().find("column 'n'"), std::string::npos);

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
