// DecodeFileMetaData: hand-built footers decode to exactly the structs they encode; required
// fields, unknown fields, mistyped fields (skipped), union members, the memory budget; and real
// footers (ours and parquet-testing's) truncated at every point and with bytes flipped end in OK
// or a clean Status, never a crash.
#include "format/file_metadata_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "format/thrift_decoder.h"
#include "pqsift/parquet_file.h"
#include "pqsift/schema.h"
#include "testing/files.h"
#include "testing/metadata_dump.h"
#include "testing/metadata_encoder.h"
#include "testing/sample_metadata.h"
#include "thrift/compact_writer.h"

namespace pqsift {
namespace {

using testing::AsBytes;
using testing::DumpToString;
using testing::EncodeFooter;
using testing::EncodeOptions;
using testing::MetadataEncoder;
using thrift::CompactWriter;
using thrift::CType;
using Kind = LogicalType::Kind;

Status Decode(const std::string& bytes, FileMetaData& out) {
  return format::DecodeFileMetaData(AsBytes(bytes), out);
}

TEST(FileMetadataDecoderTest, HandWrittenMinimalFooter) {
  // Written field by field with the raw writer (not MetadataEncoder), ids per parquet.thrift.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);  // version
  w.WriteListFieldHeader(2, CType::kStruct, 2);
  w.BeginStruct();  // root
  w.WriteBinaryField(4, "root");
  w.WriteI32Field(5, 1);
  w.EndStruct();
  w.BeginStruct();        // leaf
  w.WriteI32Field(1, 2);  // INT64
  w.WriteI32Field(3, 1);  // OPTIONAL
  w.WriteBinaryField(4, "v");
  w.WriteI32Field(6, 9);  // TIMESTAMP_MILLIS
  w.EndStruct();
  w.WriteI64Field(3, 12345678901);  // num_rows
  w.WriteListFieldHeader(4, CType::kStruct, 0);
  w.WriteBinaryField(6, "hand");
  w.EndStruct();

  std::string bytes = w.Take();  // outlives `m`, whose views point into it
  FileMetaData m;
  Status st = Decode(bytes, m);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(m.version, 1);
  ASSERT_EQ(m.schema.size(), 2u);
  EXPECT_EQ(m.schema[0].name, "root");
  EXPECT_EQ(m.schema[0].num_children, 1);
  EXPECT_FALSE(m.schema[0].type.has_value());
  EXPECT_EQ(m.schema[1].type, PhysicalType::kInt64);
  EXPECT_EQ(m.schema[1].repetition_type, Repetition::kOptional);
  EXPECT_EQ(m.schema[1].name, "v");
  EXPECT_EQ(m.schema[1].converted_type, ConvertedType::kTimestampMillis);
  EXPECT_FALSE(m.schema[1].logical_type.has_value());
  EXPECT_EQ(m.num_rows, 12345678901);
  EXPECT_TRUE(m.row_groups.empty());
  EXPECT_EQ(m.created_by, "hand");
  EXPECT_FALSE(m.column_orders.has_value());
  EXPECT_FALSE(m.has_encryption_algorithm);
}

TEST(FileMetadataDecoderTest, SampleRoundTripsExactly) {
  FileMetaData in = testing::SampleFileMetaData();
  std::string bytes = EncodeFooter(in);
  FileMetaData out;
  Status st = Decode(bytes, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(DumpToString(out), DumpToString(in));
  // Spot checks, so a bug shared by the encoder and the dump cannot hide.
  ASSERT_EQ(out.row_groups.size(), 2u);
  const ColumnMetaData& md = *out.row_groups[0].columns[3].meta_data;
  EXPECT_EQ(md.path_in_schema, (std::vector<std::string_view>{"point", "ts"}));
  EXPECT_EQ(md.statistics->min_value, std::string_view("\x00\x01", 2));
  EXPECT_EQ(md.bloom_filter_length, 40);
  EXPECT_EQ(md.size_statistics->definition_level_histogram, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(out.schema[3].logical_type, testing::DecimalLogical(38, 4));
  EXPECT_EQ(out.schema[6].logical_type->unit, TimeUnit::kNanos);
  EXPECT_EQ(out.row_groups[1].columns[0].file_path, "other.parquet");
  EXPECT_EQ((*out.row_groups[0].sorting_columns)[1].descending, true);
  // Views point into the input bytes.
  const char* lo = bytes.data();
  const char* hi = bytes.data() + bytes.size();
  EXPECT_GE(out.created_by->data(), lo);
  EXPECT_LT(out.created_by->data(), hi);
}

TEST(FileMetadataDecoderTest, UnknownFieldsEverywhereAreSkipped) {
  FileMetaData in = testing::SampleFileMetaData();
  std::string plain = EncodeFooter(in);
  std::string noisy = EncodeFooter(in, EncodeOptions::WithUnknownFields());
  ASSERT_GT(noisy.size(), plain.size() * 3);  // the noise really is there
  FileMetaData out;
  Status st = Decode(noisy, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(DumpToString(out), DumpToString(in));
}

TEST(FileMetadataDecoderTest, EncryptionMarkersAreRecorded) {
  FileMetaData in = testing::OneColumnFileMetaData();
  in.has_encryption_algorithm = true;
  in.row_groups[0].columns[0].is_encrypted = true;
  FileMetaData out;
  ASSERT_TRUE(Decode(EncodeFooter(in), out).ok());
  EXPECT_TRUE(out.has_encryption_algorithm);
  EXPECT_TRUE(out.row_groups[0].columns[0].is_encrypted);
  // encrypted_column_metadata (field 9) marks it too.
  MetadataEncoder e;
  auto& w = e.writer();
  w.BeginStruct();
  w.WriteI32Field(1, 2);
  w.WriteListFieldHeader(2, CType::kStruct, 0);
  w.WriteI64Field(3, 0);
  w.WriteListFieldHeader(4, CType::kStruct, 1);
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kStruct, 1);
  w.BeginStruct();
  w.WriteBinaryField(9, "opaque");
  w.EndStruct();
  w.WriteI64Field(2, 0);
  w.WriteI64Field(3, 0);
  w.EndStruct();
  w.EndStruct();
  FileMetaData enc;
  Status st = Decode(e.Take(), enc);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(enc.row_groups[0].columns[0].is_encrypted);
  EXPECT_FALSE(enc.row_groups[0].columns[0].meta_data.has_value());
}

// Every required field the decoder checks, spelled as in its error messages.
const char* const kRequiredFields[] = {
    "FileMetaData.version",
    "FileMetaData.schema",
    "FileMetaData.num_rows",
    "FileMetaData.row_groups",
    "SchemaElement.name",
    "KeyValue.key",
    "RowGroup.columns",
    "RowGroup.total_byte_size",
    "RowGroup.num_rows",
    "SortingColumn.column_idx",
    "SortingColumn.descending",
    "SortingColumn.nulls_first",
    "ColumnMetaData.type",
    "ColumnMetaData.encodings",
    "ColumnMetaData.path_in_schema",
    "ColumnMetaData.codec",
    "ColumnMetaData.num_values",
    "ColumnMetaData.total_uncompressed_size",
    "ColumnMetaData.total_compressed_size",
    "ColumnMetaData.data_page_offset",
    "PageEncodingStats.page_type",
    "PageEncodingStats.encoding",
    "PageEncodingStats.count",
    "DecimalType.scale",
    "DecimalType.precision",
    "TimestampType/TimeType.isAdjustedToUTC",
    "TimestampType/TimeType.unit",
    "IntType.bitWidth",
    "IntType.isSigned",
};

class MissingRequiredFieldTest : public ::testing::TestWithParam<const char*> {};

TEST_P(MissingRequiredFieldTest, IsCorruptionNamingTheField) {
  std::string field = GetParam();
  std::string bytes = EncodeFooter(testing::SampleFileMetaData(), EncodeOptions::Omit(field));
  FileMetaData out;
  Status st = Decode(bytes, out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message().rfind("malformed footer: " + field + " (required) is missing at byte ", 0),
            0u)
      << st.message();
}

INSTANTIATE_TEST_SUITE_P(AllRequired, MissingRequiredFieldTest,
                         ::testing::ValuesIn(kRequiredFields),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return testing::SafeTestName(info.param);
                         });

TEST(FileMetadataDecoderTest, KeyValueWithoutValueIsFine) {
  FileMetaData in = testing::OneColumnFileMetaData();
  in.key_value_metadata = {{"only-key", std::nullopt}};
  std::string bytes = EncodeFooter(in);
  FileMetaData out;
  ASSERT_TRUE(Decode(bytes, out).ok());
  ASSERT_EQ(out.key_value_metadata.size(), 1u);
  EXPECT_EQ(out.key_value_metadata[0].key, "only-key");
  EXPECT_FALSE(out.key_value_metadata[0].value.has_value());
}

TEST(FileMetadataDecoderTest, ColumnChunkWithoutFileOffsetIsAccepted) {
  // file_offset is required by the IDL but deprecated; some writers leave it out.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteListFieldHeader(2, CType::kStruct, 0);
  w.WriteI64Field(3, 0);
  w.WriteListFieldHeader(4, CType::kStruct, 1);
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kStruct, 1);
  w.BeginStruct();
  w.EndStruct();  // an empty ColumnChunk
  w.WriteI64Field(2, 0);
  w.WriteI64Field(3, 0);
  w.EndStruct();
  w.EndStruct();
  FileMetaData out;
  Status st = Decode(w.Take(), out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out.row_groups[0].columns[0].file_offset, 0);
  EXPECT_FALSE(out.row_groups[0].columns[0].meta_data.has_value());
}

// A footer with one leaf and one row group holding its chunk, written by hand. With
// `mistyped`, known fields of several structs are written with another wire type, among them
// ColumnMetaData.bloom_filter_length (15) as a list, as a real writer did.
std::string FooterWithMistypedFields(bool mistyped) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 2);  // version
  w.WriteListFieldHeader(2, CType::kStruct, 2);
  w.BeginStruct();                                  // root
  if (mistyped) w.WriteBinaryField(3, "required");  // repetition_type as binary
  w.WriteBinaryField(4, "root");
  w.WriteI32Field(5, 1);
  w.EndStruct();
  w.BeginStruct();        // leaf
  w.WriteI32Field(1, 2);  // INT64
  w.WriteBinaryField(4, "v");
  if (mistyped) {
    w.WriteI64Field(6, 9);   // converted_type as i64: read, i64 is i32's wire form
    w.WriteI32Field(10, 8);  // logical_type as i32
  } else {
    w.WriteI32Field(6, 9);
  }
  w.EndStruct();
  w.WriteI64Field(3, 3);  // num_rows
  w.WriteListFieldHeader(4, CType::kStruct, 1);
  w.BeginStruct();  // row group
  w.WriteListFieldHeader(1, CType::kStruct, 1);
  w.BeginStruct();  // column chunk
  w.WriteI64Field(2, 4);
  w.WriteStructFieldHeader(3);
  w.BeginStruct();  // column metadata
  w.WriteI32Field(1, 2);
  w.WriteListFieldHeader(2, CType::kI32, 1);
  w.WriteVarintElement(0);
  w.WriteListFieldHeader(3, CType::kBinary, 1);
  w.WriteBinary("v");
  w.WriteI32Field(4, 0);
  w.WriteI64Field(5, 3);
  w.WriteI64Field(6, 40);
  w.WriteI64Field(7, 40);
  w.WriteI64Field(9, 4);
  w.WriteStructFieldHeader(12);
  w.BeginStruct();  // statistics
  w.WriteI64Field(3, 0);
  if (mistyped) {
    w.WriteBoolField(5, true);                     // max_value as bool
    w.WriteListFieldHeader(6, CType::kBinary, 1);  // min_value as list<binary>
    w.WriteBinary("12345678");
  }
  w.EndStruct();
  if (mistyped) {
    w.WriteBinaryField(13, "not a list");  // encoding_stats as binary
    w.WriteI64Field(14, 100);
    w.WriteListFieldHeader(15, CType::kI32, 2);  // bloom_filter_length as list<i32>
    w.WriteVarintElement(1);
    w.WriteVarintElement(2);
    w.WriteDoubleField(16, 1.5);  // size_statistics as double
  }
  w.EndStruct();
  if (mistyped) {
    w.WriteStructFieldHeader(5);  // offset_index_length as struct
    w.BeginStruct();
    w.WriteI32Field(1, 7);
    w.EndStruct();
    w.WriteBinaryField(8, "x");  // crypto_metadata as binary: not a marker of encryption
  }
  w.EndStruct();
  w.WriteI64Field(2, 40);
  w.WriteI64Field(3, 3);
  if (mistyped) w.WriteI32Field(4, 1);  // sorting_columns as i32
  w.EndStruct();
  if (mistyped) {
    w.WriteListFieldHeader(6, CType::kBinary, 0);  // created_by as an empty list
    w.WriteI32Field(7, 1);                         // column_orders as i32
    w.WriteI32Field(8, 1);                         // encryption_algorithm as i32
  }
  w.WriteBinaryField(9, "key");  // footer_signing_key_metadata: read after the skipped ones
  w.EndStruct();
  return w.Take();
}

TEST(FileMetadataDecoderTest, MistypedKnownFieldsAreSkippedAsAbsent) {
  std::string plain_bytes = FooterWithMistypedFields(false);
  std::string mistyped_bytes = FooterWithMistypedFields(true);
  FileMetaData plain, mistyped;
  ASSERT_TRUE(Decode(plain_bytes, plain).ok());
  Status st = Decode(mistyped_bytes, mistyped);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // The mistyped fields read as absent; the i64 converted_type is read (shared wire form);
  // bloom_filter_offset (14) is the only field the plain footer lacks.
  EXPECT_FALSE(mistyped.row_groups[0].columns[0].meta_data->bloom_filter_length);
  EXPECT_EQ(mistyped.row_groups[0].columns[0].meta_data->bloom_filter_offset, 100);
  mistyped.row_groups[0].columns[0].meta_data->bloom_filter_offset.reset();
  EXPECT_EQ(DumpToString(mistyped), DumpToString(plain));
  EXPECT_FALSE(mistyped.row_groups[0].columns[0].is_encrypted);
  EXPECT_FALSE(mistyped.has_encryption_algorithm);
  EXPECT_FALSE(mistyped.created_by);
}

TEST(FileMetadataDecoderTest, MistypedRequiredFieldIsMissing) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteBinaryField(3, "seven");  // num_rows as binary: skipped, so missing
  w.EndStruct();
  FileMetaData out;
  Status st = Decode(w.Take(), out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "malformed footer: FileMetaData.schema (required) is missing at byte 10");
}

TEST(FileMetadataDecoderTest, MistypedFieldIsStillBoundsChecked) {
  // created_by (binary) written as a list claiming more elements than bytes left: the skip
  // fails like any read.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteListFieldHeader(6, CType::kI64, 100);
  w.WriteVarintElement(1);
  FileMetaData out;
  Status st = Decode(w.Take(), out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("list of 100 elements exceeds the 1 bytes left"), std::string::npos)
      << st.message();
  // A truncated mistyped struct.
  CompactWriter t;
  t.BeginStruct();
  t.WriteStructFieldHeader(3);  // num_rows as an unterminated struct
  t.WriteI32Field(1, 5);
  st = Decode(t.Take(), out);
  EXPECT_NE(st.message().find("truncated struct (no stop field)"), std::string::npos)
      << st.message();
}

TEST(FileMetadataDecoderTest, EmptyAndTrivialInputs) {
  FileMetaData out;
  EXPECT_EQ(Decode("", out).message(),
            "malformed footer: truncated struct (no stop field) at byte 0");
  Status st = Decode(std::string(1, '\0'), out);  // an empty struct: everything required missing
  EXPECT_EQ(st.message(), "malformed footer: FileMetaData.version (required) is missing at byte 1");
}

// ---- LogicalType ----

// Decodes a LogicalType union from `bytes` with the footer decoder's helper.
Status DecodeLogical(const std::string& bytes, LogicalType& out) {
  format::ThriftDecoder d(AsBytes(bytes), 1 << 20);
  format::DecodeLogicalType(d, out);
  return d.reader.ok() ? Status::OK() : Status::Corruption(d.reader.error());
}

TEST(LogicalTypeDecodeTest, EveryKnownKindRoundTrips) {
  std::vector<LogicalType> kinds = {
      testing::MakeLogical(Kind::kString),
      testing::MakeLogical(Kind::kMap),
      testing::MakeLogical(Kind::kList),
      testing::MakeLogical(Kind::kEnum),
      testing::DecimalLogical(18, 3),
      testing::MakeLogical(Kind::kDate),
      testing::TemporalLogical(Kind::kTime, TimeUnit::kMillis, true),
      testing::TemporalLogical(Kind::kTime, TimeUnit::kMicros, false),
      testing::TemporalLogical(Kind::kTimestamp, TimeUnit::kNanos, true),
      testing::IntLogical(8, false),
      testing::IntLogical(32, true),
      testing::MakeLogical(Kind::kUnknown),
      testing::MakeLogical(Kind::kJson),
      testing::MakeLogical(Kind::kBson),
      testing::MakeLogical(Kind::kUuid),
      testing::MakeLogical(Kind::kFloat16),
      testing::MakeLogical(Kind::kVariant),
      testing::MakeLogical(Kind::kGeometry),
      testing::MakeLogical(Kind::kGeography),
  };
  for (const LogicalType& t : kinds) {
    SCOPED_TRACE(LogicalTypeName(t));
    MetadataEncoder e;
    e.LogicalType(t);
    LogicalType out;
    Status st = DecodeLogical(e.Take(), out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(out, t);
  }
}

TEST(LogicalTypeDecodeTest, UnknownUnionMembersAreUnrecognized) {
  for (int16_t id : {9, 20, 99, 1000}) {
    SCOPED_TRACE(id);
    CompactWriter w;
    w.BeginStruct();
    w.WriteStructFieldHeader(id);
    w.BeginStruct();
    w.WriteI32Field(1, 5);  // members from the future may have fields of their own
    w.EndStruct();
    w.EndStruct();
    LogicalType out;
    ASSERT_TRUE(DecodeLogical(w.Take(), out).ok());
    EXPECT_EQ(out.kind, Kind::kUnrecognized);
    EXPECT_EQ(out.unrecognized_id, id);
    EXPECT_EQ(LogicalTypeName(out), "UNRECOGNIZED(" + std::to_string(id) + ")");
  }
}

TEST(LogicalTypeDecodeTest, EmptyUnionAndNonStructMembersGiveNone) {
  LogicalType out;
  ASSERT_TRUE(DecodeLogical(std::string(1, '\0'), out).ok());
  EXPECT_EQ(out.kind, Kind::kNone);

  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 7);  // STRING's id, but not a struct: not a member
  w.EndStruct();
  ASSERT_TRUE(DecodeLogical(w.Take(), out).ok());
  EXPECT_EQ(out.kind, Kind::kNone);
}

TEST(LogicalTypeDecodeTest, UnknownTimeUnitIsCorruption) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteStructFieldHeader(8);  // TIMESTAMP
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteStructFieldHeader(2);
  w.BeginStruct();
  w.WriteStructFieldHeader(4);  // a unit from the future
  w.BeginStruct();
  w.EndStruct();
  w.EndStruct();
  w.EndStruct();
  w.EndStruct();
  LogicalType out;
  Status st = DecodeLogical(w.Take(), out);
  EXPECT_NE(st.message().find("TimeUnit has no known member"), std::string::npos) << st.message();
}

TEST(LogicalTypeDecodeTest, UnrecognizedLogicalTypeFallsBackToTheConvertedType) {
  FileMetaData in = testing::OneColumnFileMetaData();
  in.schema[1].type = PhysicalType::kByteArray;
  in.schema[1].converted_type = ConvertedType::kUtf8;
  LogicalType future;
  future.kind = Kind::kUnrecognized;
  future.unrecognized_id = 42;
  in.schema[1].logical_type = future;
  in.row_groups[0].columns[0].meta_data->type = PhysicalType::kByteArray;
  FileMetaData out;
  ASSERT_TRUE(Decode(EncodeFooter(in), out).ok());
  ASSERT_TRUE(out.schema[1].logical_type.has_value());
  EXPECT_EQ(out.schema[1].logical_type->kind, Kind::kUnrecognized);
  EXPECT_EQ(ResolveLogicalType(out.schema[1]).kind, Kind::kString);

  // Without a converted type the annotation stays unrecognized (the physical type rules).
  out.schema[1].converted_type.reset();
  EXPECT_EQ(ResolveLogicalType(out.schema[1]).kind, Kind::kUnrecognized);

  // The whole file opens, and the column reports the fallback.
  auto md = DecodeParquetMetadata("f.parquet", 1000, Buffer::CopyOf(AsBytes(EncodeFooter(in))));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ((*md)->schema().columns()[0].logical_type.kind, Kind::kString);
}

// ---- ColumnOrder ----

TEST(FileMetadataDecoderTest, ColumnOrdersKnownAndUnknown) {
  FileMetaData in = testing::OneColumnFileMetaData();
  in.column_orders =
      std::vector<ColumnOrder>{ColumnOrder::kTypeDefined, ColumnOrder::kIeee754TotalOrder,
                               ColumnOrder::kUnknown, ColumnOrder::kInt96Timestamp};
  FileMetaData out;
  ASSERT_TRUE(Decode(EncodeFooter(in), out).ok());
  EXPECT_EQ(*out.column_orders, *in.column_orders);

  // An empty union (no member at all) is unknown too.
  CompactWriter w;
  w.BeginStruct();
  w.WriteListFieldHeader(7, CType::kStruct, 2);
  w.WriteRaw(std::string(1, '\0'));
  w.WriteRaw(std::string("\x1c\x00\x00", 3));  // {1: {}} = TYPE_ORDER
  w.EndStruct();
  FileMetaData orders;
  Status st = Decode(w.Take(), orders);  // fails later for missing fields, after the orders
  ASSERT_TRUE(orders.column_orders.has_value());
  EXPECT_EQ(*orders.column_orders,
            (std::vector<ColumnOrder>{ColumnOrder::kUnknown, ColumnOrder::kTypeDefined}));
  EXPECT_NE(st.message().find("FileMetaData.version"), std::string::npos);
}

// ---- the memory budget ----

// A footer whose only row group has `n` empty ColumnChunks: n + ~20 bytes on the wire.
std::string ManyEmptyColumnChunks(uint32_t n) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteListFieldHeader(2, CType::kStruct, 0);
  w.WriteI64Field(3, 0);
  w.WriteListFieldHeader(4, CType::kStruct, 1);
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kStruct, n);
  w.WriteRaw(std::string(n, '\0'));
  w.WriteI64Field(2, 0);
  w.WriteI64Field(3, 0);
  w.EndStruct();
  w.EndStruct();
  return w.Take();
}

TEST(FileMetadataDecoderTest, BudgetRefusesManyTinyStructsThatDecodeHuge) {
  constexpr uint32_t kN = 200'000;
  std::string bytes = ManyEmptyColumnChunks(kN);
  // The decoded size would be far beyond 64 bytes per encoded byte.
  ASSERT_GT(uint64_t{kN} * sizeof(ColumnChunk), bytes.size() * 64 + (1u << 20));
  FileMetaData out;
  Status st = Decode(bytes, out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("memory budget"), std::string::npos) << st.message();
  ASSERT_EQ(out.row_groups.size(), 1u);
  EXPECT_LT(out.row_groups[0].columns.capacity(), size_t{kN});  // refused before reserving
}

TEST(FileMetadataDecoderTest, BudgetCountsAcrossLists) {
  // Many row groups, each with a handful of empty chunks: no one list is large, the total is.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteListFieldHeader(2, CType::kStruct, 0);
  w.WriteI64Field(3, 0);
  constexpr uint32_t kGroups = 50'000;
  constexpr uint32_t kChunks = 14;
  w.WriteListFieldHeader(4, CType::kStruct, kGroups);
  for (uint32_t g = 0; g < kGroups; ++g) {
    w.BeginStruct();
    w.WriteListFieldHeader(1, CType::kStruct, kChunks);
    w.WriteRaw(std::string(kChunks, '\0'));
    w.WriteI64Field(2, 0);
    w.WriteI64Field(3, 0);
    w.EndStruct();
  }
  w.EndStruct();
  std::string bytes = w.Take();
  ASSERT_GT(uint64_t{kGroups} * kChunks * sizeof(ColumnChunk), bytes.size() * 64 + (1u << 20));
  FileMetaData out;
  Status st = Decode(bytes, out);
  EXPECT_NE(st.message().find("memory budget"), std::string::npos) << st.message();
}

TEST(FileMetadataDecoderTest, BudgetAllowsLargeListsOfSmallElements) {
  // The same element count in a list whose elements stay small decodes fine.
  constexpr uint32_t kN = 200'000;
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteListFieldHeader(2, CType::kStruct, 0);
  w.WriteI64Field(3, 0);
  w.WriteListFieldHeader(4, CType::kStruct, 0);
  w.WriteListFieldHeader(7, CType::kStruct, kN);
  w.WriteRaw(std::string(kN, '\0'));  // empty ColumnOrder unions
  w.EndStruct();
  FileMetaData out;
  Status st = Decode(w.Take(), out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out.column_orders->size(), kN);
}

TEST(FileMetadataDecoderTest, HugeListCountsFailWithoutAllocating) {
  // A schema list claiming 2^31 elements in a 30-byte footer.
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.WriteFieldHeader(2, CType::kList);
  w.WriteRaw(std::string(1, '\xfc'));
  w.WriteVarint(uint64_t{1} << 31);
  w.WriteRaw(std::string(20, '\0'));
  FileMetaData out;
  Status st = Decode(w.Take(), out);
  EXPECT_NE(st.message().find("list of 2147483648 elements exceeds the 20 bytes left"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(out.schema.capacity(), 0u);
}

// ---- real footers: truncation, flips, and a re-encode ----

std::vector<std::string> RealFiles() {
  std::vector<std::string> files = {testing::TestDataPath("tiny.parquet"),
                                    testing::ExamplePath("events.parquet")};
  for (const char* sub : {"data", "bad_data"}) {
    for (std::string& f : testing::ParquetTestingFiles(sub)) files.push_back(std::move(f));
  }
  return files;
}

class RealFooterTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    file_ = testing::ReadFileBytes(GetParam());
    ASSERT_FALSE(file_.empty()) << "cannot read " << GetParam();
    footer_ = testing::FooterOf(file_);
    ASSERT_FALSE(footer_.empty()) << GetParam() << " has no footer";
  }
  std::vector<uint8_t> file_;
  std::vector<uint8_t> footer_;
};

TEST_P(RealFooterTest, EveryTruncationIsACleanError) {
  const size_t n = footer_.size();
  // Every prefix for footers up to 4 KiB; larger ones: every prefix near both ends and about
  // 1000 evenly spaced in between (each decode is linear: this keeps the sanitizer build fast).
  std::vector<size_t> cuts;
  size_t stride = n <= 4096 ? 1 : n / 1024;
  for (size_t len = 0; len < n; ++len) {
    if (stride == 1 || len < 256 || len + 256 > n || len % stride == 0) cuts.push_back(len);
  }
  for (size_t len : cuts) {
    FileMetaData out;
    Status st = format::DecodeFileMetaData(std::span(footer_.data(), len), out);
    // The last byte of a footer is its closing stop: no proper prefix is a whole footer.
    ASSERT_FALSE(st.ok()) << "prefix of " << len << " of " << n << " bytes decoded";
    ASSERT_EQ(st.code(), StatusCode::kCorruption);
    ASSERT_EQ(st.message().rfind("malformed footer: ", 0), 0u) << st.message();
  }
}

TEST_P(RealFooterTest, SingleByteFlipsGiveOkOrACleanError) {
  std::mt19937 rng(12345);
  std::string name = testing::SafeTestName(GetParam());
  int ok = 0;
  for (int i = 0; i < 200; ++i) {
    std::vector<uint8_t> bytes = footer_;
    size_t pos = std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng);
    bytes[pos] ^= static_cast<uint8_t>(std::uniform_int_distribution<int>(1, 255)(rng));
    auto md = DecodeParquetMetadata(name, file_.size(), Buffer::CopyOf(bytes));
    if (md.ok()) {
      ++ok;
      continue;
    }
    ASSERT_EQ(md.status().message().rfind(name + ": ", 0), 0u) << md.status().message();
    ASSERT_TRUE(md.status().code() == StatusCode::kCorruption ||
                md.status().code() == StatusCode::kNotSupported)
        << md.status().ToString();
  }
  RecordProperty("flips_ok", ok);
}

TEST_P(RealFooterTest, ReencodedWithUnknownFieldsDecodesTheSame) {
  FileMetaData first;
  Status st = format::DecodeFileMetaData(footer_, first);
  if (!st.ok()) GTEST_SKIP() << "footer does not decode: " << st.ToString();
  std::string plain = EncodeFooter(first);
  std::string noisy = EncodeFooter(first, EncodeOptions::WithUnknownFields());
  FileMetaData again, noisy_again;
  ASSERT_TRUE(Decode(plain, again).ok());
  Status noisy_st = Decode(noisy, noisy_again);
  ASSERT_TRUE(noisy_st.ok()) << noisy_st.ToString();
  std::string expected = DumpToString(first);
  EXPECT_EQ(DumpToString(again), expected);
  EXPECT_EQ(DumpToString(noisy_again), expected);
}

INSTANTIATE_TEST_SUITE_P(Files, RealFooterTest, ::testing::ValuesIn(RealFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::SafeTestName(info.param);
                         });

}  // namespace
}  // namespace pqsift
