// Hand-built footers for tests: a valid FileMetaData that sets every field the decoder knows
// (so a round trip through MetadataEncoder checks them all), and small building blocks for
// schemas and column chunks.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "pqsift/metadata.h"

namespace pqsift::testing {

inline SchemaElement Group(std::string_view name, int32_t num_children,
                           std::optional<Repetition> rep = Repetition::kRequired) {
  SchemaElement e;
  e.name = name;
  e.num_children = num_children;
  e.repetition_type = rep;
  return e;
}

inline SchemaElement Leaf(std::string_view name, PhysicalType type,
                          Repetition rep = Repetition::kRequired) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = rep;
  return e;
}

inline SchemaElement Root(int32_t num_children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = num_children;
  return e;
}

inline LogicalType MakeLogical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

inline LogicalType DecimalLogical(int32_t precision, int32_t scale) {
  LogicalType t = MakeLogical(LogicalType::Kind::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

inline LogicalType TemporalLogical(LogicalType::Kind kind, TimeUnit unit, bool utc) {
  LogicalType t = MakeLogical(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

inline LogicalType IntLogical(int8_t bits, bool is_signed) {
  LogicalType t = MakeLogical(LogicalType::Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

// A column chunk with metadata for a leaf of `type` at `path`, located at `offset`.
inline ColumnChunk Chunk(PhysicalType type, std::vector<std::string_view> path, int64_t offset = 4,
                         int64_t size = 10, int64_t num_values = 3) {
  ColumnChunk c;
  c.file_offset = offset;
  ColumnMetaData& m = c.meta_data.emplace();
  m.type = type;
  m.encodings = {Encoding::kPlain, Encoding::kRle};
  m.path_in_schema = std::move(path);
  m.codec = CompressionCodec::kUncompressed;
  m.num_values = num_values;
  m.total_uncompressed_size = size;
  m.total_compressed_size = size;
  m.data_page_offset = offset;
  return c;
}

// A flat schema of one required INT32 column "x" with one row group of `rows` rows.
inline FileMetaData OneColumnFileMetaData(int64_t rows = 3) {
  FileMetaData m;
  m.version = 2;
  m.schema = {Root(1), Leaf("x", PhysicalType::kInt32)};
  m.num_rows = rows;
  RowGroup rg;
  rg.columns = {Chunk(PhysicalType::kInt32, {"x"})};
  rg.num_rows = rows;
  rg.total_byte_size = 10;
  m.row_groups = {rg};
  return m;
}

// A valid footer setting every field the decoder reads, with nested groups (struct, 3-level
// list) and every LogicalType parameter shape. 6 leaf columns, 2 row groups.
inline FileMetaData SampleFileMetaData() {
  using Kind = LogicalType::Kind;
  FileMetaData m;
  m.version = 2;
  m.num_rows = 7;
  m.created_by = "pqsift tests";
  m.key_value_metadata = {{"k1", "v1"}, {"k2", std::nullopt}};
  m.footer_signing_key_metadata = std::string_view("\x01\x02\x00", 3);

  SchemaElement root = Root(5);
  root.field_id = 0;

  SchemaElement id = Leaf("id", PhysicalType::kInt64);
  id.field_id = 1;
  id.converted_type = ConvertedType::kInt64;
  id.logical_type = IntLogical(64, true);

  SchemaElement name = Leaf("name", PhysicalType::kByteArray, Repetition::kOptional);
  name.converted_type = ConvertedType::kUtf8;
  name.logical_type = MakeLogical(Kind::kString);

  SchemaElement price = Leaf("price", PhysicalType::kFixedLenByteArray, Repetition::kOptional);
  price.type_length = 16;
  price.converted_type = ConvertedType::kDecimal;
  price.scale = 4;
  price.precision = 38;
  price.logical_type = DecimalLogical(38, 4);

  SchemaElement point = Group("point", 2, Repetition::kOptional);
  SchemaElement ts = Leaf("ts", PhysicalType::kInt64, Repetition::kOptional);
  ts.converted_type = ConvertedType::kTimestampMicros;
  ts.logical_type = TemporalLogical(Kind::kTimestamp, TimeUnit::kMicros, true);
  SchemaElement t = Leaf("t", PhysicalType::kInt64);
  t.logical_type = TemporalLogical(Kind::kTime, TimeUnit::kNanos, false);

  SchemaElement tags = Group("tags", 1, Repetition::kOptional);
  tags.converted_type = ConvertedType::kList;
  tags.logical_type = MakeLogical(Kind::kList);
  SchemaElement list = Group("list", 1, Repetition::kRepeated);
  SchemaElement element = Leaf("element", PhysicalType::kInt32, Repetition::kOptional);
  element.converted_type = ConvertedType::kUint16;
  element.logical_type = IntLogical(16, false);

  m.schema = {root, id, name, price, point, ts, t, tags, list, element};
  m.column_orders = std::vector<ColumnOrder>(6, ColumnOrder::kTypeDefined);

  struct LeafSpec {
    PhysicalType type;
    std::vector<std::string_view> path;
  };
  const std::vector<LeafSpec> leaves = {{PhysicalType::kInt64, {"id"}},
                                        {PhysicalType::kByteArray, {"name"}},
                                        {PhysicalType::kFixedLenByteArray, {"price"}},
                                        {PhysicalType::kInt64, {"point", "ts"}},
                                        {PhysicalType::kInt64, {"point", "t"}},
                                        {PhysicalType::kInt32, {"tags", "list", "element"}}};
  int64_t offset = 4;
  for (int g = 0; g < 2; ++g) {
    RowGroup rg;
    rg.num_rows = g == 0 ? 4 : 3;
    rg.total_byte_size = 600;
    rg.file_offset = offset;
    rg.total_compressed_size = 500;
    rg.ordinal = static_cast<int16_t>(g);
    if (g == 0) rg.sorting_columns = std::vector<SortingColumn>{{0, false, true}, {3, true, false}};
    for (const LeafSpec& leaf : leaves) {
      ColumnChunk c = Chunk(leaf.type, leaf.path, offset, 50, rg.num_rows);
      ColumnMetaData& md = *c.meta_data;
      md.codec = CompressionCodec::kZstd;
      md.encodings = {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle};
      md.dictionary_page_offset = offset;
      md.data_page_offset = offset + 20;
      md.index_page_offset = offset + 30;
      md.total_uncompressed_size = 80;
      md.key_value_metadata = {{"chunk", "kv"}};
      Statistics& s = md.statistics.emplace();
      s.min = "\x01";
      s.max = "\x09";
      s.null_count = 1;
      s.distinct_count = 3;
      s.min_value = std::string_view("\x00\x01", 2);
      s.max_value = "\xff\xfe";
      s.is_min_value_exact = true;
      s.is_max_value_exact = false;
      s.nan_count = 0;
      md.encoding_stats =
          std::vector<PageEncodingStats>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                         {PageType::kDataPage, Encoding::kRleDictionary, 2}};
      md.bloom_filter_offset = 900 + offset;
      md.bloom_filter_length = 40;
      SizeStatistics& ss = md.size_statistics.emplace();
      ss.unencoded_byte_array_data_bytes = 123;
      ss.repetition_level_histogram = {4, 1};
      ss.definition_level_histogram = {1, 2, 3};
      c.offset_index_offset = 2000 + offset;
      c.offset_index_length = 20;
      c.column_index_offset = 3000 + offset;
      c.column_index_length = 30;
      c.file_path = g == 1 ? std::optional<std::string_view>("other.parquet") : std::nullopt;
      rg.columns.push_back(c);
      offset += 50;
    }
    m.row_groups.push_back(rg);
  }
  return m;
}

}  // namespace pqsift::testing
