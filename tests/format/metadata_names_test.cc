// Spec names of the footer's enums and logical types, and UNKNOWN(n) for values from newer
// writers.
#include <gtest/gtest.h>

#include <string>

#include "pqsift/metadata.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using Kind = LogicalType::Kind;

TEST(MetadataNamesTest, PhysicalTypes) {
  const char* names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                         "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(i)), names[i]);
  EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(8)), "UNKNOWN(8)");
  EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(-1)), "UNKNOWN(-1)");
}

TEST(MetadataNamesTest, ConvertedTypes) {
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kUtf8), "UTF8");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kMapKeyValue), "MAP_KEY_VALUE");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kTimestampMicros), "TIMESTAMP_MICROS");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kUint64), "UINT_64");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kInt8), "INT_8");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kInterval), "INTERVAL");
  EXPECT_EQ(ConvertedTypeName(static_cast<ConvertedType>(22)), "UNKNOWN(22)");
}

TEST(MetadataNamesTest, RepetitionsEncodingsCodecsPageTypes) {
  EXPECT_EQ(RepetitionName(Repetition::kRequired), "REQUIRED");
  EXPECT_EQ(RepetitionName(Repetition::kRepeated), "REPEATED");
  EXPECT_EQ(RepetitionName(static_cast<Repetition>(4)), "UNKNOWN(4)");
  EXPECT_EQ(EncodingName(Encoding::kPlain), "PLAIN");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(1)), "GROUP_VAR_INT");
  EXPECT_EQ(EncodingName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_EQ(EncodingName(Encoding::kByteStreamSplit), "BYTE_STREAM_SPLIT");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(10)), "UNKNOWN(10)");
  EXPECT_EQ(CodecName(CompressionCodec::kUncompressed), "UNCOMPRESSED");
  EXPECT_EQ(CodecName(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(CodecName(static_cast<CompressionCodec>(8)), "UNKNOWN(8)");
  EXPECT_EQ(PageTypeName(PageType::kDictionaryPage), "DICTIONARY_PAGE");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kAscending), "ASCENDING");
  EXPECT_EQ(BoundaryOrderName(static_cast<BoundaryOrder>(-7)), "UNKNOWN(-7)");
}

TEST(MetadataNamesTest, LogicalTypes) {
  EXPECT_EQ(LogicalTypeName(LogicalType{}), "NONE");
  EXPECT_EQ(LogicalTypeName(testing::DecimalLogical(38, 10)), "DECIMAL(38,10)");
  EXPECT_EQ(LogicalTypeName(testing::TemporalLogical(Kind::kTime, TimeUnit::kMicros, false)),
            "TIME(MICROS,LOCAL)");
  EXPECT_EQ(LogicalTypeName(testing::TemporalLogical(Kind::kTimestamp, TimeUnit::kNanos, true)),
            "TIMESTAMP(NANOS,UTC)");
  EXPECT_EQ(LogicalTypeName(testing::IntLogical(8, false)), "INT(8,unsigned)");
  EXPECT_EQ(LogicalTypeName(testing::IntLogical(64, true)), "INT(64,signed)");
  const std::pair<Kind, const char*> simple[] = {
      {Kind::kString, "STRING"},
      {Kind::kMap, "MAP"},
      {Kind::kList, "LIST"},
      {Kind::kEnum, "ENUM"},
      {Kind::kDate, "DATE"},
      {Kind::kUnknown, "UNKNOWN"},
      {Kind::kJson, "JSON"},
      {Kind::kBson, "BSON"},
      {Kind::kUuid, "UUID"},
      {Kind::kFloat16, "FLOAT16"},
      {Kind::kVariant, "VARIANT"},
      {Kind::kGeometry, "GEOMETRY(OGC:CRS84)"},
      {Kind::kGeography, "GEOGRAPHY(OGC:CRS84,SPHERICAL)"},
      {Kind::kVector, "VECTOR"},
      {Kind::kInterval, "INTERVAL"},
      {Kind::kMapKeyValue, "MAP_KEY_VALUE"},
  };
  for (const auto& [kind, name] : simple)
    EXPECT_EQ(LogicalTypeName(testing::MakeLogical(kind)), name);
  LogicalType u;
  u.kind = Kind::kUnrecognized;
  u.unrecognized_id = 33;
  EXPECT_EQ(LogicalTypeName(u), "UNRECOGNIZED(33)");
}

}  // namespace
}  // namespace pqsift
