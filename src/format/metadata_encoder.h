// Encodes pqsift's metadata structs (the footer, page headers, page index, bloom filter header)
// into Thrift compact bytes with CompactWriter: the writer (src/write) uses it for every
// structure it stores, and tests use it to build exact, malformed or hostile inputs (the
// EncodeOptions hooks: leave out a required field, add unknown fields of every wire type, or
// write raw bytes through `writer()`); the writer uses the default options.
//
// Field ids follow parquet.thrift. The encoder is independent of the decoders (it shares only
// CompactWriter), so a round trip checks both against the spec numbering.
//
// Thread safety: an encoder is used by one thread at a time.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "format/bloom_filter_header.h"
#include "format/page_header.h"
#include "format/page_index.h"
#include "pqsift/metadata.h"
#include "thrift/compact_writer.h"

namespace pqsift::format {

struct EncodeOptions {
  // Fields to leave out, spelled "Struct.field" as the decoders name them in errors
  // ("FileMetaData.num_rows", "SchemaElement.name", "TimestampType/TimeType.unit", ...).
  std::set<std::string> omit;
  // Adds fields the decoders do not know (every wire type, nested containers, a negative id
  // at the start and large ids at the end) to every struct.
  bool unknown_fields = false;

  static EncodeOptions Omit(std::string field) {
    EncodeOptions o;
    o.omit.insert(std::move(field));
    return o;
  }
  static EncodeOptions WithUnknownFields() {
    EncodeOptions o;
    o.unknown_fields = true;
    return o;
  }
};

class MetadataEncoder {
 public:
  using CType = thrift::CType;

  explicit MetadataEncoder(EncodeOptions options = {}) : o_(std::move(options)) {}

  thrift::CompactWriter& writer() { return w_; }
  std::string Take() { return w_.Take(); }

  // ---- the footer ----

  MetadataEncoder& FileMetaData(const pqsift::FileMetaData& m) {
    Begin();
    if (Keep("FileMetaData.version")) w_.WriteI32Field(1, m.version);
    if (Keep("FileMetaData.schema")) {
      w_.WriteListFieldHeader(2, CType::kStruct, Size(m.schema));
      for (const auto& e : m.schema) SchemaElement(e);
    }
    if (Keep("FileMetaData.num_rows")) w_.WriteI64Field(3, m.num_rows);
    if (Keep("FileMetaData.row_groups")) {
      w_.WriteListFieldHeader(4, CType::kStruct, Size(m.row_groups));
      for (const auto& rg : m.row_groups) RowGroup(rg);
    }
    if (!m.key_value_metadata.empty()) KeyValues(5, m.key_value_metadata);
    if (m.created_by) w_.WriteBinaryField(6, *m.created_by);
    if (m.column_orders) {
      w_.WriteListFieldHeader(7, CType::kStruct, Size(*m.column_orders));
      for (ColumnOrder o : *m.column_orders) {
        // TypeDefinedOrder = 1, IEEE754TotalOrder = 2, ...; kUnknown as a member from the future.
        EmptyStructUnion(o == pqsift::ColumnOrder::kUnknown ? 42 : static_cast<int16_t>(o));
      }
    }
    if (m.encryption_algorithm) {
      w_.WriteStructFieldHeader(8);
      EncryptionAlgorithm(*m.encryption_algorithm);
    } else if (m.has_encryption_algorithm) {
      w_.WriteStructFieldHeader(8);
      EmptyStructUnion(1);  // AES_GCM_V1 (its fields are optional)
    }
    if (m.footer_signing_key_metadata) w_.WriteBinaryField(9, *m.footer_signing_key_metadata);
    End();
    return *this;
  }

  void SchemaElement(const pqsift::SchemaElement& e) {
    Begin();
    if (e.type) w_.WriteI32Field(1, static_cast<int32_t>(*e.type));
    if (e.type_length) w_.WriteI32Field(2, *e.type_length);
    if (e.repetition_type) w_.WriteI32Field(3, static_cast<int32_t>(*e.repetition_type));
    if (Keep("SchemaElement.name")) w_.WriteBinaryField(4, e.name);
    if (e.num_children) w_.WriteI32Field(5, *e.num_children);
    if (e.converted_type) w_.WriteI32Field(6, static_cast<int32_t>(*e.converted_type));
    if (e.scale) w_.WriteI32Field(7, *e.scale);
    if (e.precision) w_.WriteI32Field(8, *e.precision);
    if (e.field_id) w_.WriteI32Field(9, *e.field_id);
    if (e.logical_type) {
      w_.WriteStructFieldHeader(10);
      LogicalType(*e.logical_type);
    }
    End();
  }

  // The LogicalType union. kInterval and kMapKeyValue have no union member (legacy only).
  void LogicalType(const pqsift::LogicalType& t) {
    using Kind = pqsift::LogicalType::Kind;
    BeginUnion();
    switch (t.kind) {
      case Kind::kNone: break;  // an empty union
      case Kind::kDecimal:
        w_.WriteStructFieldHeader(5);
        Begin();
        if (Keep("DecimalType.scale")) w_.WriteI32Field(1, t.scale);
        if (Keep("DecimalType.precision")) w_.WriteI32Field(2, t.precision);
        End();
        break;
      case Kind::kTime:
      case Kind::kTimestamp:
        w_.WriteStructFieldHeader(t.kind == Kind::kTime ? 7 : 8);
        Begin();
        if (Keep("TimestampType/TimeType.isAdjustedToUTC")) {
          w_.WriteBoolField(1, t.is_adjusted_to_utc);
        }
        if (Keep("TimestampType/TimeType.unit")) {
          w_.WriteStructFieldHeader(2);
          EmptyStructUnion(static_cast<int16_t>(t.unit));
        }
        End();
        break;
      case Kind::kInteger:
        w_.WriteStructFieldHeader(10);
        Begin();
        if (Keep("IntType.bitWidth")) w_.WriteI8Field(1, t.bit_width);
        if (Keep("IntType.isSigned")) w_.WriteBoolField(2, t.is_signed);
        End();
        break;
      case Kind::kGeometry:
      case Kind::kGeography:
        w_.WriteStructFieldHeader(static_cast<int16_t>(t.kind));
        Begin();
        if (!t.crs.empty()) w_.WriteBinaryField(1, t.crs);
        if (t.kind == Kind::kGeography && t.edge_algorithm) {
          w_.WriteI32Field(2, *t.edge_algorithm);
        }
        End();
        break;
      case Kind::kUnrecognized:
        w_.WriteStructFieldHeader(t.unrecognized_id);
        EmptyStruct();
        break;
      default:
        w_.WriteStructFieldHeader(static_cast<int16_t>(t.kind));
        EmptyStruct();
        break;
    }
    EndUnion();
  }

  void RowGroup(const pqsift::RowGroup& rg) {
    Begin();
    if (Keep("RowGroup.columns")) {
      w_.WriteListFieldHeader(1, CType::kStruct, Size(rg.columns));
      for (const auto& c : rg.columns) ColumnChunk(c);
    }
    if (Keep("RowGroup.total_byte_size")) w_.WriteI64Field(2, rg.total_byte_size);
    if (Keep("RowGroup.num_rows")) w_.WriteI64Field(3, rg.num_rows);
    if (rg.sorting_columns) {
      w_.WriteListFieldHeader(4, CType::kStruct, Size(*rg.sorting_columns));
      for (const auto& s : *rg.sorting_columns) {
        Begin();
        if (Keep("SortingColumn.column_idx")) w_.WriteI32Field(1, s.column_idx);
        if (Keep("SortingColumn.descending")) w_.WriteBoolField(2, s.descending);
        if (Keep("SortingColumn.nulls_first")) w_.WriteBoolField(3, s.nulls_first);
        End();
      }
    }
    if (rg.file_offset) w_.WriteI64Field(5, *rg.file_offset);
    if (rg.total_compressed_size) w_.WriteI64Field(6, *rg.total_compressed_size);
    if (rg.ordinal) w_.WriteI16Field(7, *rg.ordinal);
    End();
  }

  void ColumnChunk(const pqsift::ColumnChunk& c) {
    Begin();
    if (c.file_path) w_.WriteBinaryField(1, *c.file_path);
    w_.WriteI64Field(2, c.file_offset);
    if (c.meta_data) {
      w_.WriteStructFieldHeader(3);
      ColumnMetaData(*c.meta_data);
    }
    if (c.offset_index_offset) w_.WriteI64Field(4, *c.offset_index_offset);
    if (c.offset_index_length) w_.WriteI32Field(5, *c.offset_index_length);
    if (c.column_index_offset) w_.WriteI64Field(6, *c.column_index_offset);
    if (c.column_index_length) w_.WriteI32Field(7, *c.column_index_length);
    if (c.crypto_metadata) {
      w_.WriteStructFieldHeader(8);  // crypto_metadata: ColumnCryptoMetaData union
      ColumnCryptoMetaData(*c.crypto_metadata);
    } else if (c.is_encrypted) {
      w_.WriteStructFieldHeader(8);
      EmptyStructUnion(1);  // ENCRYPTION_WITH_FOOTER_KEY
    }
    if (c.encrypted_column_metadata) w_.WriteBinaryField(9, *c.encrypted_column_metadata);
    End();
  }

  // ---- Parquet modular encryption (Encryption.md 5.2-5.4) ----

  // union ColumnCryptoMetaData { 1: EncryptionWithFooterKey {}, 2: EncryptionWithColumnKey {
  //   1: required list<string> path_in_schema, 2: optional binary key_metadata } }
  void ColumnCryptoMetaData(const pqsift::ColumnCryptoMetaData& m) {
    if (m.with_footer_key) {
      EmptyStructUnion(1);
      return;
    }
    BeginUnion();
    w_.WriteStructFieldHeader(2);
    Begin();
    if (Keep("EncryptionWithColumnKey.path_in_schema")) BinaryList(1, m.path_in_schema);
    if (m.key_metadata) w_.WriteBinaryField(2, *m.key_metadata);
    End();
    EndUnion();
  }

  // union EncryptionAlgorithm { 1: AesGcmV1, 2: AesGcmCtrV1 }, both { 1: optional binary
  // aad_prefix, 2: optional binary aad_file_unique, 3: optional bool supply_aad_prefix }.
  // REQUIRES: kind is not kUnknown.
  void EncryptionAlgorithm(const pqsift::EncryptionAlgorithm& a) {
    BeginUnion();
    w_.WriteStructFieldHeader(a.kind == pqsift::EncryptionAlgorithm::Kind::kAesGcmCtrV1 ? 2 : 1);
    Begin();
    if (a.aad_prefix) w_.WriteBinaryField(1, *a.aad_prefix);
    if (a.aad_file_unique) w_.WriteBinaryField(2, *a.aad_file_unique);
    if (a.supply_aad_prefix) w_.WriteBoolField(3, *a.supply_aad_prefix);
    End();
    EndUnion();
  }

  // The plaintext head of an encrypted footer: { 1: required EncryptionAlgorithm, 2: optional
  // binary key_metadata }.
  MetadataEncoder& FileCryptoMetaData(const pqsift::FileCryptoMetaData& m) {
    Begin();
    if (Keep("FileCryptoMetaData.encryption_algorithm")) {
      w_.WriteStructFieldHeader(1);
      EncryptionAlgorithm(m.encryption_algorithm);
    }
    if (m.key_metadata) w_.WriteBinaryField(2, *m.key_metadata);
    End();
    return *this;
  }

  void ColumnMetaData(const pqsift::ColumnMetaData& m) {
    Begin();
    if (Keep("ColumnMetaData.type")) w_.WriteI32Field(1, static_cast<int32_t>(m.type));
    if (Keep("ColumnMetaData.encodings")) {
      w_.WriteListFieldHeader(2, CType::kI32, Size(m.encodings));
      for (Encoding e : m.encodings) w_.WriteVarintElement(static_cast<int32_t>(e));
    }
    if (Keep("ColumnMetaData.path_in_schema")) {
      w_.WriteListFieldHeader(3, CType::kBinary, Size(m.path_in_schema));
      for (std::string_view p : m.path_in_schema) w_.WriteBinary(p);
    }
    if (Keep("ColumnMetaData.codec")) w_.WriteI32Field(4, static_cast<int32_t>(m.codec));
    if (Keep("ColumnMetaData.num_values")) w_.WriteI64Field(5, m.num_values);
    if (Keep("ColumnMetaData.total_uncompressed_size")) {
      w_.WriteI64Field(6, m.total_uncompressed_size);
    }
    if (Keep("ColumnMetaData.total_compressed_size")) w_.WriteI64Field(7, m.total_compressed_size);
    if (!m.key_value_metadata.empty()) KeyValues(8, m.key_value_metadata);
    if (Keep("ColumnMetaData.data_page_offset")) w_.WriteI64Field(9, m.data_page_offset);
    if (m.index_page_offset) w_.WriteI64Field(10, *m.index_page_offset);
    if (m.dictionary_page_offset) w_.WriteI64Field(11, *m.dictionary_page_offset);
    if (m.statistics) {
      w_.WriteStructFieldHeader(12);
      Statistics(*m.statistics);
    }
    if (m.encoding_stats) {
      w_.WriteListFieldHeader(13, CType::kStruct, Size(*m.encoding_stats));
      for (const auto& s : *m.encoding_stats) {
        Begin();
        if (Keep("PageEncodingStats.page_type")) {
          w_.WriteI32Field(1, static_cast<int32_t>(s.page_type));
        }
        if (Keep("PageEncodingStats.encoding")) {
          w_.WriteI32Field(2, static_cast<int32_t>(s.encoding));
        }
        if (Keep("PageEncodingStats.count")) w_.WriteI32Field(3, s.count);
        End();
      }
    }
    if (m.bloom_filter_offset) w_.WriteI64Field(14, *m.bloom_filter_offset);
    if (m.bloom_filter_length) w_.WriteI32Field(15, *m.bloom_filter_length);
    if (m.size_statistics) {
      w_.WriteStructFieldHeader(16);
      Begin();
      const SizeStatistics& s = *m.size_statistics;
      if (s.unencoded_byte_array_data_bytes) {
        w_.WriteI64Field(1, *s.unencoded_byte_array_data_bytes);
      }
      if (!s.repetition_level_histogram.empty()) I64List(2, s.repetition_level_histogram);
      if (!s.definition_level_histogram.empty()) I64List(3, s.definition_level_histogram);
      End();
    }
    if (m.geospatial_statistics) {
      w_.WriteStructFieldHeader(17);
      GeospatialStatistics(*m.geospatial_statistics);
    }
    End();
  }

  void GeospatialStatistics(const pqsift::GeospatialStatistics& g) {
    Begin();
    if (g.bbox) {
      const BoundingBox& b = *g.bbox;
      w_.WriteStructFieldHeader(1);
      Begin();
      w_.WriteDoubleField(1, b.xmin);
      w_.WriteDoubleField(2, b.xmax);
      w_.WriteDoubleField(3, b.ymin);
      w_.WriteDoubleField(4, b.ymax);
      if (b.zmin) w_.WriteDoubleField(5, *b.zmin);
      if (b.zmax) w_.WriteDoubleField(6, *b.zmax);
      if (b.mmin) w_.WriteDoubleField(7, *b.mmin);
      if (b.mmax) w_.WriteDoubleField(8, *b.mmax);
      End();
    }
    if (g.geospatial_types) {
      w_.WriteListFieldHeader(2, CType::kI32, Size(*g.geospatial_types));
      for (int32_t t : *g.geospatial_types) w_.WriteVarintElement(t);
    }
    End();
  }

  void Statistics(const pqsift::Statistics& s) {
    Begin();
    if (s.max) w_.WriteBinaryField(1, *s.max);
    if (s.min) w_.WriteBinaryField(2, *s.min);
    if (s.null_count) w_.WriteI64Field(3, *s.null_count);
    if (s.distinct_count) w_.WriteI64Field(4, *s.distinct_count);
    if (s.max_value) w_.WriteBinaryField(5, *s.max_value);
    if (s.min_value) w_.WriteBinaryField(6, *s.min_value);
    if (s.is_max_value_exact) w_.WriteBoolField(7, *s.is_max_value_exact);
    if (s.is_min_value_exact) w_.WriteBoolField(8, *s.is_min_value_exact);
    if (s.nan_count) w_.WriteI64Field(9, *s.nan_count);
    End();
  }

  void KeyValues(int16_t id, const std::vector<KeyValue>& kvs) {
    w_.WriteListFieldHeader(id, CType::kStruct, Size(kvs));
    for (const auto& kv : kvs) {
      Begin();
      if (Keep("KeyValue.key")) w_.WriteBinaryField(1, kv.key);
      if (kv.value) w_.WriteBinaryField(2, *kv.value);
      End();
    }
  }

  // ---- page headers ----

  MetadataEncoder& PageHeader(const format::PageHeader& h) {
    Begin();
    if (Keep("PageHeader.type")) w_.WriteI32Field(1, static_cast<int32_t>(h.type));
    if (Keep("PageHeader.uncompressed_page_size")) w_.WriteI32Field(2, h.uncompressed_page_size);
    if (Keep("PageHeader.compressed_page_size")) w_.WriteI32Field(3, h.compressed_page_size);
    if (h.crc) w_.WriteI32Field(4, *h.crc);
    if (h.data_page_header) {
      const format::DataPageHeader& d = *h.data_page_header;
      w_.WriteStructFieldHeader(5);
      Begin();
      if (Keep("DataPageHeader.num_values")) w_.WriteI32Field(1, d.num_values);
      if (Keep("DataPageHeader.encoding")) w_.WriteI32Field(2, static_cast<int32_t>(d.encoding));
      if (Keep("DataPageHeader.definition_level_encoding")) {
        w_.WriteI32Field(3, static_cast<int32_t>(d.definition_level_encoding));
      }
      if (Keep("DataPageHeader.repetition_level_encoding")) {
        w_.WriteI32Field(4, static_cast<int32_t>(d.repetition_level_encoding));
      }
      if (d.statistics) {
        w_.WriteStructFieldHeader(5);
        Statistics(*d.statistics);
      }
      End();
    }
    if (h.dictionary_page_header) {
      const format::DictionaryPageHeader& d = *h.dictionary_page_header;
      w_.WriteStructFieldHeader(7);
      Begin();
      if (Keep("DictionaryPageHeader.num_values")) w_.WriteI32Field(1, d.num_values);
      if (Keep("DictionaryPageHeader.encoding")) {
        w_.WriteI32Field(2, static_cast<int32_t>(d.encoding));
      }
      if (d.is_sorted) w_.WriteBoolField(3, *d.is_sorted);
      End();
    }
    if (h.data_page_header_v2) {
      const format::DataPageHeaderV2& d = *h.data_page_header_v2;
      w_.WriteStructFieldHeader(8);
      Begin();
      if (Keep("DataPageHeaderV2.num_values")) w_.WriteI32Field(1, d.num_values);
      if (Keep("DataPageHeaderV2.num_nulls")) w_.WriteI32Field(2, d.num_nulls);
      if (Keep("DataPageHeaderV2.num_rows")) w_.WriteI32Field(3, d.num_rows);
      if (Keep("DataPageHeaderV2.encoding")) w_.WriteI32Field(4, static_cast<int32_t>(d.encoding));
      if (Keep("DataPageHeaderV2.definition_levels_byte_length")) {
        w_.WriteI32Field(5, d.definition_levels_byte_length);
      }
      if (Keep("DataPageHeaderV2.repetition_levels_byte_length")) {
        w_.WriteI32Field(6, d.repetition_levels_byte_length);
      }
      w_.WriteBoolField(7, d.is_compressed);
      if (d.statistics) {
        w_.WriteStructFieldHeader(8);
        Statistics(*d.statistics);
      }
      End();
    }
    End();
    return *this;
  }

  // ---- page index ----

  MetadataEncoder& OffsetIndex(const format::OffsetIndex& oi) {
    Begin();
    if (Keep("OffsetIndex.page_locations")) {
      w_.WriteListFieldHeader(1, CType::kStruct, Size(oi.page_locations));
      for (const auto& p : oi.page_locations) {
        Begin();
        if (Keep("PageLocation.offset")) w_.WriteI64Field(1, p.offset);
        if (Keep("PageLocation.compressed_page_size")) w_.WriteI32Field(2, p.compressed_page_size);
        if (Keep("PageLocation.first_row_index")) w_.WriteI64Field(3, p.first_row_index);
        End();
      }
    }
    if (!oi.unencoded_byte_array_data_bytes.empty()) {
      I64List(2, oi.unencoded_byte_array_data_bytes);
    }
    End();
    return *this;
  }

  MetadataEncoder& ColumnIndex(const format::ColumnIndex& ci) {
    Begin();
    if (Keep("ColumnIndex.null_pages")) {
      w_.WriteListFieldHeader(1, CType::kBoolTrue, Size(ci.null_pages));
      for (bool b : ci.null_pages) w_.WriteBoolElement(b);
    }
    if (Keep("ColumnIndex.min_values")) BinaryList(2, ci.min_values);
    if (Keep("ColumnIndex.max_values")) BinaryList(3, ci.max_values);
    if (Keep("ColumnIndex.boundary_order")) {
      w_.WriteI32Field(4, static_cast<int32_t>(ci.boundary_order));
    }
    if (ci.null_counts) I64List(5, *ci.null_counts);
    if (!ci.repetition_level_histograms.empty()) I64List(6, ci.repetition_level_histograms);
    if (!ci.definition_level_histograms.empty()) I64List(7, ci.definition_level_histograms);
    if (ci.nan_counts) I64List(8, *ci.nan_counts);
    End();
    return *this;
  }

  // ---- bloom filter header ----

  MetadataEncoder& BloomFilterHeader(const format::BloomFilterHeader& h) {
    Begin();
    if (Keep("BloomFilterHeader.numBytes")) w_.WriteI32Field(1, h.num_bytes);
    int16_t members[] = {h.algorithm, h.hash, h.compression};
    const char* names[] = {"BloomFilterHeader.algorithm", "BloomFilterHeader.hash",
                           "BloomFilterHeader.compression"};
    for (int i = 0; i < 3; ++i) {
      if (!Keep(names[i])) continue;
      w_.WriteStructFieldHeader(static_cast<int16_t>(2 + i));
      EmptyStructUnion(members[i]);
    }
    End();
    return *this;
  }

  // ---- pieces ----

  // Writes fields that no decoder knows, of every wire type including nested containers.
  // `base_id` is the first id used; ids increase from there.
  void UnknownFields(int16_t base_id) {
    int16_t id = base_id;
    w_.WriteBoolField(id++, true);
    w_.WriteBoolField(id++, false);
    w_.WriteI8Field(id++, -7);
    w_.WriteI16Field(id++, -300);
    w_.WriteI32Field(id++, 1 << 30);
    w_.WriteI64Field(id++, INT64_MIN);
    w_.WriteDoubleField(id++, 2.5);
    w_.WriteBinaryField(id++, std::string("\0\xff unknown", 10));
    // list<i32>, set<binary>, list<bool> (both false encodings), list<list<i64>>, list<struct>
    w_.WriteListFieldHeader(id++, CType::kI32, 3);
    for (int v : {1, -1, 1000000}) w_.WriteVarintElement(v);
    w_.WriteFieldHeader(id++, CType::kSet);
    w_.WriteRaw(std::string(1, static_cast<char>((2 << 4) | static_cast<int>(CType::kBinary))));
    w_.WriteBinary("a");
    w_.WriteBinary("bc");
    w_.WriteListFieldHeader(id++, CType::kBoolTrue, 3);
    w_.WriteRaw(std::string("\x01\x02\x00", 3));
    w_.WriteListFieldHeader(id++, CType::kList, 2);
    w_.WriteRaw(std::string(1, static_cast<char>((1 << 4) | static_cast<int>(CType::kI64))));
    w_.WriteVarintElement(INT64_MAX);
    w_.WriteRaw(std::string(1, static_cast<char>(static_cast<int>(CType::kI64))));  // empty
    w_.WriteListFieldHeader(id++, CType::kStruct, 20);  // long list form
    for (int i = 0; i < 20; ++i) {
      w_.BeginStruct();
      w_.WriteI32Field(1, i);
      w_.WriteBinaryField(2, "x");
      w_.EndStruct();
    }
    // map<binary, struct>, map<i32, bool>, an empty map
    w_.WriteFieldHeader(id++, CType::kMap);
    w_.WriteVarint(2);
    w_.WriteRaw(std::string(1, static_cast<char>(static_cast<int>(CType::kBinary) << 4 |
                                                 static_cast<int>(CType::kStruct))));
    for (int i = 0; i < 2; ++i) {
      w_.WriteBinary("key");
      w_.BeginStruct();
      w_.WriteListFieldHeader(1, CType::kDouble, 1);
      w_.WriteRaw(std::string(8, '\0'));
      w_.EndStruct();
    }
    w_.WriteFieldHeader(id++, CType::kMap);
    w_.WriteVarint(2);
    w_.WriteRaw(std::string(1, static_cast<char>(static_cast<int>(CType::kI32) << 4 |
                                                 static_cast<int>(CType::kBoolTrue))));
    w_.WriteVarintElement(5);
    w_.WriteBoolElement(true);
    w_.WriteVarintElement(6);
    w_.WriteRaw(std::string(1, '\0'));  // false written as 0
    w_.WriteFieldHeader(id++, CType::kMap);
    w_.WriteVarint(0);
    // A nested struct holding a struct holding a list of structs.
    w_.WriteStructFieldHeader(id++);
    w_.BeginStruct();
    w_.WriteStructFieldHeader(1);
    w_.BeginStruct();
    w_.WriteListFieldHeader(1, CType::kStruct, 1);
    w_.BeginStruct();
    w_.WriteBoolField(1, true);
    w_.EndStruct();
    w_.EndStruct();
    w_.EndStruct();
  }

 private:
  bool Keep(const char* field) const { return o_.omit.empty() || o_.omit.count(field) == 0; }

  template <typename V>
  static uint32_t Size(const V& v) {
    return static_cast<uint32_t>(v.size());
  }

  // Structs with unknown fields: a negative id first (long form), large ids at the end.
  void Begin() {
    w_.BeginStruct();
    if (o_.unknown_fields) w_.WriteI32Field(-5, 12345);
  }
  void End() {
    if (o_.unknown_fields) UnknownFields(200);
    w_.EndStruct();
  }
  // Unions: unknown non-struct fields only (an unknown struct member would be a member).
  void BeginUnion() {
    w_.BeginStruct();
    if (o_.unknown_fields) w_.WriteBinaryField(-3, "not a member");
  }
  void EndUnion() {
    if (o_.unknown_fields) w_.WriteI64Field(300, 1);
    w_.EndStruct();
  }
  void EmptyStruct() {
    w_.BeginStruct();
    w_.EndStruct();
  }
  // A union whose members are empty structs: {member: {}}.
  void EmptyStructUnion(int16_t member) {
    BeginUnion();
    w_.WriteStructFieldHeader(member);
    EmptyStruct();
    EndUnion();
  }
  void I64List(int16_t id, const std::vector<int64_t>& v) {
    w_.WriteListFieldHeader(id, CType::kI64, Size(v));
    for (int64_t x : v) w_.WriteVarintElement(x);
  }
  void BinaryList(int16_t id, const std::vector<std::string_view>& v) {
    w_.WriteListFieldHeader(id, CType::kBinary, Size(v));
    for (std::string_view s : v) w_.WriteBinary(s);
  }

  EncodeOptions o_;
  thrift::CompactWriter w_;
};

// Shorthands.
inline std::string EncodeFooter(const FileMetaData& m, EncodeOptions options = {}) {
  return MetadataEncoder(std::move(options)).FileMetaData(m).Take();
}

}  // namespace pqsift::format
