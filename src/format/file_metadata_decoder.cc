// One function per Thrift struct, each a switch over field ids (parquet.thrift numbering).
// Unknown fields are skipped: files from newer writers stay readable.
#include "format/file_metadata_decoder.h"

#include "format/thrift_decoder.h"

namespace pqsift::format {
namespace {

using thrift::CType;
using thrift::FieldHeader;

void DecodeKeyValue(ThriftDecoder& d, KeyValue& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.key)) req.Set(0);
        return true;
      case 2: d.reader.ReadField(f, out.value); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "KeyValue", {"key"});
}

void DecodeKeyValueList(ThriftDecoder& d, const FieldHeader& f, std::vector<KeyValue>& out) {
  d.ReadListInto(f, CType::kStruct, out, [&](KeyValue& kv) { DecodeKeyValue(d, kv); });
}

// Decodes a union whose members are all empty structs: returns the member's field id (0 when
// the union is empty). Used for TimeUnit and ColumnOrder.
int16_t DecodeEmptyStructUnion(ThriftDecoder& d) {
  int16_t member = 0;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    if (f.type == CType::kStruct && member == 0) member = f.id;
    return false;  // skip the (empty) member struct itself
  });
  return member;
}

TimeUnit DecodeTimeUnit(ThriftDecoder& d) {
  int16_t member = DecodeEmptyStructUnion(d);
  if (member < 1 || member > 3) {
    d.reader.Fail("TimeUnit has no known member");
    return TimeUnit::kMillis;
  }
  return static_cast<TimeUnit>(member);
}

// TimestampType and TimeType share their shape: {1: isAdjustedToUTC, 2: unit}.
void DecodeTemporalType(ThriftDecoder& d, LogicalType& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.is_adjusted_to_utc)) req.Set(0);
        return true;
      case 2:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        out.unit = DecodeTimeUnit(d);
        req.Set(1);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "TimestampType/TimeType", {"isAdjustedToUTC", "unit"});
}

void DecodeDecimalType(ThriftDecoder& d, LogicalType& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.scale)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.precision)) req.Set(1);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "DecimalType", {"scale", "precision"});
}

// GeometryType {1: crs} and GeographyType {1: crs, 2: algorithm}.
void DecodeGeospatialType(ThriftDecoder& d, LogicalType& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.crs); return true;
      case 2:
        if (out.kind != LogicalType::Kind::kGeography) return false;
        d.reader.ReadField(f, out.edge_algorithm);
        return true;
      default: return false;
    }
  });
}

void DecodeIntType(ThriftDecoder& d, LogicalType& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.bit_width)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.is_signed)) req.Set(1);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "IntType", {"bitWidth", "isSigned"});
}

void DecodeSchemaElement(ThriftDecoder& d, SchemaElement& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.type); return true;
      case 2: d.reader.ReadField(f, out.type_length); return true;
      case 3: d.reader.ReadField(f, out.repetition_type); return true;
      case 4:
        if (d.reader.ReadField(f, out.name)) req.Set(0);
        return true;
      case 5: d.reader.ReadField(f, out.num_children); return true;
      case 6: d.reader.ReadField(f, out.converted_type); return true;
      case 7: d.reader.ReadField(f, out.scale); return true;
      case 8: d.reader.ReadField(f, out.precision); return true;
      case 9: d.reader.ReadField(f, out.field_id); return true;
      case 10:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeLogicalType(d, out.logical_type.emplace());
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "SchemaElement", {"name"});
}

void DecodePageEncodingStats(ThriftDecoder& d, PageEncodingStats& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.page_type)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.encoding)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.count)) req.Set(2);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "PageEncodingStats", {"page_type", "encoding", "count"});
}

void DecodeI64List(ThriftDecoder& d, const FieldHeader& f, std::vector<int64_t>& out) {
  d.ReadListInto(f, CType::kI64, out, [&](int64_t& v) { v = d.reader.ReadVarintElement(); });
}

void DecodeSizeStatistics(ThriftDecoder& d, SizeStatistics& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.unencoded_byte_array_data_bytes); return true;
      case 2: DecodeI64List(d, f, out.repetition_level_histogram); return true;
      case 3: DecodeI64List(d, f, out.definition_level_histogram); return true;
      default: return false;
    }
  });
}

void DecodeBoundingBox(ThriftDecoder& d, BoundingBox& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.xmin)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.xmax)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.ymin)) req.Set(2);
        return true;
      case 4:
        if (d.reader.ReadField(f, out.ymax)) req.Set(3);
        return true;
      case 5: d.reader.ReadField(f, out.zmin); return true;
      case 6: d.reader.ReadField(f, out.zmax); return true;
      case 7: d.reader.ReadField(f, out.mmin); return true;
      case 8: d.reader.ReadField(f, out.mmax); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "BoundingBox", {"xmin", "xmax", "ymin", "ymax"});
}

void DecodeGeospatialStatistics(ThriftDecoder& d, GeospatialStatistics& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeBoundingBox(d, out.bbox.emplace());
        return true;
      case 2:
        d.ReadListInto(f, CType::kI32, out.geospatial_types,
                       [&](int32_t& v) { v = static_cast<int32_t>(d.reader.ReadVarintElement()); });
        return true;
      default: return false;
    }
  });
}

void DecodeColumnMetaData(ThriftDecoder& d, ColumnMetaData& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.type)) req.Set(0);
        return true;
      case 2:
        if (d.ReadListInto(f, CType::kI32, out.encodings, [&](Encoding& e) {
              e = static_cast<Encoding>(d.reader.ReadVarintElement());
            })) {
          req.Set(1);
        }
        return true;
      case 3:
        if (d.ReadListInto(f, CType::kBinary, out.path_in_schema,
                           [&](std::string_view& s) { s = d.reader.ReadBinaryElement(); })) {
          req.Set(2);
        }
        return true;
      case 4:
        if (d.reader.ReadField(f, out.codec)) req.Set(3);
        return true;
      case 5:
        if (d.reader.ReadField(f, out.num_values)) req.Set(4);
        return true;
      case 6:
        if (d.reader.ReadField(f, out.total_uncompressed_size)) req.Set(5);
        return true;
      case 7:
        if (d.reader.ReadField(f, out.total_compressed_size)) req.Set(6);
        return true;
      case 8: DecodeKeyValueList(d, f, out.key_value_metadata); return true;
      case 9:
        if (d.reader.ReadField(f, out.data_page_offset)) req.Set(7);
        return true;
      case 10: d.reader.ReadField(f, out.index_page_offset); return true;
      case 11: d.reader.ReadField(f, out.dictionary_page_offset); return true;
      case 12:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeStatistics(d, out.statistics.emplace());
        return true;
      case 13:
        d.ReadListInto(f, CType::kStruct, out.encoding_stats,
                       [&](PageEncodingStats& s) { DecodePageEncodingStats(d, s); });
        return true;
      case 14: d.reader.ReadField(f, out.bloom_filter_offset); return true;
      case 15: d.reader.ReadField(f, out.bloom_filter_length); return true;
      case 16:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeSizeStatistics(d, out.size_statistics.emplace());
        return true;
      case 17:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeGeospatialStatistics(d, out.geospatial_statistics.emplace());
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "ColumnMetaData",
              {"type", "encodings", "path_in_schema", "codec", "num_values",
               "total_uncompressed_size", "total_compressed_size", "data_page_offset"});
  }
}

void DecodeEncryptionWithColumnKey(ThriftDecoder& d, ColumnCryptoMetaData& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.ReadListInto(f, CType::kBinary, out.path_in_schema,
                           [&](std::string_view& s) { s = d.reader.ReadBinaryElement(); })) {
          req.Set(0);
        }
        return true;
      case 2: d.reader.ReadField(f, out.key_metadata); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "EncryptionWithColumnKey", {"path_in_schema"});
}

// ColumnCryptoMetaData union: 1 ENCRYPTION_WITH_FOOTER_KEY (empty), 2 ENCRYPTION_WITH_COLUMN_KEY.
void DecodeColumnCryptoMetaData(ThriftDecoder& d, ColumnCryptoMetaData& out) {
  bool seen = false;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    if (f.type != CType::kStruct || seen) return false;
    if (f.id == 1) {
      seen = true;
      out.with_footer_key = true;
      return false;  // the empty struct, skipped
    }
    if (f.id == 2) {
      seen = true;
      out.with_footer_key = false;
      DecodeEncryptionWithColumnKey(d, out);
      return true;
    }
    return false;
  });
  if (d.reader.ok() && !seen) d.reader.Fail("ColumnCryptoMetaData has no known member");
}

void DecodeAesGcm(ThriftDecoder& d, EncryptionAlgorithm& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.aad_prefix); return true;
      case 2: d.reader.ReadField(f, out.aad_file_unique); return true;
      case 3: d.reader.ReadField(f, out.supply_aad_prefix); return true;
      default: return false;
    }
  });
}

// EncryptionAlgorithm union: 1 AES_GCM_V1, 2 AES_GCM_CTR_V1 (same fields); another member is
// kept as kUnknown (the file cannot be decrypted, which the opener reports).
void DecodeEncryptionAlgorithm(ThriftDecoder& d, EncryptionAlgorithm& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    if (f.type != CType::kStruct || out.kind != EncryptionAlgorithm::Kind::kUnknown) return false;
    if (f.id != 1 && f.id != 2) return false;
    out.kind =
        f.id == 1 ? EncryptionAlgorithm::Kind::kAesGcmV1 : EncryptionAlgorithm::Kind::kAesGcmCtrV1;
    DecodeAesGcm(d, out);
    return true;
  });
}

void DecodeColumnChunk(ThriftDecoder& d, ColumnChunk& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.file_path); return true;
      // file_offset is required by the IDL but deprecated and left out by some writers.
      case 2: d.reader.ReadField(f, out.file_offset); return true;
      case 3:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeColumnMetaData(d, out.meta_data.emplace());
        return true;
      case 4: d.reader.ReadField(f, out.offset_index_offset); return true;
      case 5: d.reader.ReadField(f, out.offset_index_length); return true;
      case 6: d.reader.ReadField(f, out.column_index_offset); return true;
      case 7: d.reader.ReadField(f, out.column_index_length); return true;
      // Parquet modular encryption: the chunk's key (ColumnCryptoMetaData) and its metadata
      // encrypted with it. Either marks the chunk's pages as encrypted. Mistyped, AcceptField
      // skips them (true) and they read as absent.
      case 8:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        out.is_encrypted = true;
        DecodeColumnCryptoMetaData(d, out.crypto_metadata.emplace());
        return true;
      case 9:
        if (d.reader.ReadField(f, out.encrypted_column_metadata)) out.is_encrypted = true;
        return true;
      default: return false;
    }
  });
}

void DecodeSortingColumn(ThriftDecoder& d, SortingColumn& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.column_idx)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.descending)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.nulls_first)) req.Set(2);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "SortingColumn", {"column_idx", "descending", "nulls_first"});
}

void DecodeRowGroup(ThriftDecoder& d, RowGroup& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.ReadListInto(f, CType::kStruct, out.columns,
                           [&](ColumnChunk& c) { DecodeColumnChunk(d, c); })) {
          req.Set(0);
        }
        return true;
      case 2:
        if (d.reader.ReadField(f, out.total_byte_size)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.num_rows)) req.Set(2);
        return true;
      case 4:
        d.ReadListInto(f, CType::kStruct, out.sorting_columns,
                       [&](SortingColumn& s) { DecodeSortingColumn(d, s); });
        return true;
      case 5: d.reader.ReadField(f, out.file_offset); return true;
      case 6: d.reader.ReadField(f, out.total_compressed_size); return true;
      case 7: d.reader.ReadField(f, out.ordinal); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "RowGroup", {"columns", "total_byte_size", "num_rows"});
}

ColumnOrder DecodeColumnOrder(ThriftDecoder& d) {
  int16_t member = DecodeEmptyStructUnion(d);
  return member >= 1 && member <= 3 ? static_cast<ColumnOrder>(member) : ColumnOrder::kUnknown;
}

}  // namespace

void DecodeLogicalType(ThriftDecoder& d, LogicalType& out) {
  using Kind = LogicalType::Kind;
  out = LogicalType{};
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    if (f.type != CType::kStruct) return false;
    switch (f.id) {
      case 5:
        out.kind = Kind::kDecimal;
        DecodeDecimalType(d, out);
        return true;
      case 7:
        out.kind = Kind::kTime;
        DecodeTemporalType(d, out);
        return true;
      case 8:
        out.kind = Kind::kTimestamp;
        DecodeTemporalType(d, out);
        return true;
      case 10:
        out.kind = Kind::kInteger;
        DecodeIntType(d, out);
        return true;
      case 1:
      case 2:
      case 3:
      case 4:
      case 6:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
      case 17:
      case 18:
        out.kind = static_cast<Kind>(f.id);
        DecodeGeospatialType(d, out);
        return true;
      case 16:
      case 19:
        out.kind = static_cast<Kind>(f.id);
        return false;  // parameterless for our purposes: skip the member struct
      default:
        out.kind = Kind::kUnrecognized;
        out.unrecognized_id = f.id;
        return false;
    }
  });
}

void DecodeStatistics(ThriftDecoder& d, Statistics& out) {
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: d.reader.ReadField(f, out.max); return true;
      case 2: d.reader.ReadField(f, out.min); return true;
      case 3: d.reader.ReadField(f, out.null_count); return true;
      case 4: d.reader.ReadField(f, out.distinct_count); return true;
      case 5: d.reader.ReadField(f, out.max_value); return true;
      case 6: d.reader.ReadField(f, out.min_value); return true;
      case 7: d.reader.ReadField(f, out.is_max_value_exact); return true;
      case 8: d.reader.ReadField(f, out.is_min_value_exact); return true;
      case 9: d.reader.ReadField(f, out.nan_count); return true;
      default: return false;
    }
  });
}

Status DecodeFileMetaData(std::span<const uint8_t> bytes, FileMetaData& out) {
  // Decoded structs are at most ~60x their encoded size in practice (a ColumnChunk of ~40
  // bytes becomes ~400); 64x plus slack is generous for real files and still bounded.
  ThriftDecoder d(bytes, bytes.size() * 64 + (1u << 20));
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.version)) req.Set(0);
        return true;
      case 2:
        if (d.ReadListInto(f, CType::kStruct, out.schema,
                           [&](SchemaElement& e) { DecodeSchemaElement(d, e); })) {
          req.Set(1);
        }
        return true;
      case 3:
        if (d.reader.ReadField(f, out.num_rows)) req.Set(2);
        return true;
      case 4:
        if (d.ReadListInto(f, CType::kStruct, out.row_groups,
                           [&](RowGroup& rg) { DecodeRowGroup(d, rg); })) {
          req.Set(3);
        }
        return true;
      case 5: DecodeKeyValueList(d, f, out.key_value_metadata); return true;
      case 6: d.reader.ReadField(f, out.created_by); return true;
      case 7:
        d.ReadListInto(f, CType::kStruct, out.column_orders,
                       [&](ColumnOrder& o) { o = DecodeColumnOrder(d); });
        return true;
      case 8:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        out.has_encryption_algorithm = true;
        DecodeEncryptionAlgorithm(d, out.encryption_algorithm.emplace());
        return true;
      case 9: d.reader.ReadField(f, out.footer_signing_key_metadata); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "FileMetaData", {"version", "schema", "num_rows", "row_groups"});
  if (!d.reader.ok()) return Status::Corruption("malformed footer: " + d.reader.error());
  return Status::OK();
}

Status DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, FileCryptoMetaData& out,
                                size_t* consumed) {
  ThriftDecoder d(bytes, bytes.size() * 64 + (1u << 16));
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (!d.reader.AcceptField(f, CType::kStruct)) return true;
        DecodeEncryptionAlgorithm(d, out.encryption_algorithm);
        req.Set(0);
        return true;
      case 2: d.reader.ReadField(f, out.key_metadata); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "FileCryptoMetaData", {"encryption_algorithm"});
  if (!d.reader.ok())
    return Status::Corruption("malformed FileCryptoMetaData: " + d.reader.error());
  if (consumed != nullptr) *consumed = d.reader.position();
  return Status::OK();
}

Status DecodeColumnMetaData(std::span<const uint8_t> bytes, ColumnMetaData& out) {
  ThriftDecoder d(bytes, bytes.size() * 64 + (1u << 16));
  DecodeColumnMetaData(d, out);
  if (!d.reader.ok()) return Status::Corruption("malformed ColumnMetaData: " + d.reader.error());
  return Status::OK();
}

}  // namespace pqsift::format
