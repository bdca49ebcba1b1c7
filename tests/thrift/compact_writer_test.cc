// CompactWriter: the exact bytes of the Thrift compact protocol (checked against the spec by
// hand, so the reader tests that build input with the writer rest on known encodings).
#include "thrift/compact_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pqsift::thrift {
namespace {

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

TEST(CompactWriterTest, ShortFieldHeaderHoldsTheIdDeltaAndType) {
  CompactWriter w;
  w.WriteI32Field(1, 1);   // delta 1, type i32 (5); zigzag(1) = 2
  w.WriteI64Field(3, -1);  // delta 2, type i64 (6); zigzag(-1) = 1
  w.WriteI16Field(18, 2);  // delta 15, type i16 (4)
  w.WriteBoolField(19, true);
  w.WriteBoolField(20, false);
  w.WriteI8Field(21, -2);
  EXPECT_EQ(Hex(w.bytes()), "15 02 26 01 f4 04 11 12 13 fe");
}

TEST(CompactWriterTest, LongFieldHeaderForLargeDeltasBackwardsAndNegativeIds) {
  CompactWriter w;
  w.WriteI32Field(100, 0);  // delta 100 > 15: type byte, then zigzag(100) = 200 as varint
  w.WriteI32Field(2, 0);    // backwards
  w.WriteI32Field(-1, 0);   // negative: zigzag(-1) = 1
  w.WriteI32Field(INT16_MIN, 0);
  EXPECT_EQ(Hex(w.bytes()), "05 c8 01 00 05 04 00 05 01 00 05 ff ff 03 00");
}

TEST(CompactWriterTest, VarintsAndZigZag) {
  CompactWriter w;
  w.WriteVarint(0);
  w.WriteVarint(127);
  w.WriteVarint(128);
  w.WriteVarint(300);
  EXPECT_EQ(Hex(w.Take()), "00 7f 80 01 ac 02");

  CompactWriter z;
  z.WriteVarintElement(INT64_MIN);  // zigzag: all ones, 10 bytes
  EXPECT_EQ(Hex(z.bytes()), "ff ff ff ff ff ff ff ff ff 01");
  CompactWriter m;
  m.WriteVarintElement(INT64_MAX);
  EXPECT_EQ(Hex(m.bytes()), "fe ff ff ff ff ff ff ff ff 01");
  CompactWriter n;
  n.WriteVarintElement(-64);  // zigzag(-64) = 127
  n.WriteVarintElement(64);   // 128
  EXPECT_EQ(Hex(n.bytes()), "7f 80 01");
}

TEST(CompactWriterTest, DoubleIsEightBytesLittleEndian) {
  CompactWriter w;
  w.WriteDoubleField(1, 1.0);  // 0x3ff0000000000000
  EXPECT_EQ(Hex(w.bytes()), "17 00 00 00 00 00 00 f0 3f");
}

TEST(CompactWriterTest, BinaryIsLengthThenBytes) {
  CompactWriter w;
  w.WriteBinaryField(1, "ab");
  w.WriteBinary("");
  w.WriteBinary(std::string(200, 'x'));
  std::string prefix = {'\x18', '\x02', 'a', 'b', '\x00', '\xc8', '\x01'};
  EXPECT_EQ(w.bytes().substr(0, prefix.size()), prefix);
  EXPECT_EQ(w.bytes().size(), prefix.size() + 200);
}

TEST(CompactWriterTest, ListHeaderShortAndLongForms) {
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kI32, 3);      // size 3 in the high nibble
  w.WriteListFieldHeader(2, CType::kI32, 14);     // the largest short size
  w.WriteListFieldHeader(3, CType::kStruct, 15);  // 15 and up: 0xf_ then a varint
  w.WriteListFieldHeader(4, CType::kBinary, 300);
  w.WriteListFieldHeader(5, CType::kBoolTrue, 0);
  EXPECT_EQ(Hex(w.bytes()), "19 35 19 e5 19 fc 0f 19 f8 ac 02 19 01");
}

TEST(CompactWriterTest, BoolElementsAreOneByte) {
  CompactWriter w;
  w.WriteBoolElement(true);
  w.WriteBoolElement(false);
  EXPECT_EQ(Hex(w.bytes()), "01 02");
}

TEST(CompactWriterTest, NestedStructsKeepTheirOwnLastFieldId) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(5, 0);  // delta 5
  w.WriteStructFieldHeader(6);
  w.BeginStruct();
  w.WriteI32Field(1, 0);  // delta 1 inside the nested struct
  w.EndStruct();          // stop
  w.WriteI32Field(7, 0);  // delta 1 from 6 again, not from the nested 1
  w.EndStruct();
  EXPECT_EQ(Hex(w.bytes()), "55 00 1c 15 00 00 15 00 00");
}

TEST(CompactWriterTest, TakeEmptiesTheWriter) {
  CompactWriter w;
  w.WriteRaw("xyz");
  EXPECT_EQ(w.Take(), "xyz");
  EXPECT_TRUE(w.bytes().empty());
}

}  // namespace
}  // namespace pqsift::thrift
