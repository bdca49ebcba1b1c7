// CompactReader: round trips with CompactWriter, forward compatibility (unknown fields of every
// shape are skipped), integer width interchange with range checks, and hostile inputs
// (truncation, oversized lengths, deep nesting) that must end in a sticky error, not a crash.
#include "thrift/compact_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "thrift/compact_writer.h"

namespace pqsift::thrift {
namespace {

std::span<const uint8_t> Span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string Byte(int b) { return std::string(1, static_cast<char>(b)); }

// Reads one top-level struct, giving each field to `on_field`; returns the reader's error.
std::string ReadAll(const std::string& bytes,
                    const std::function<bool(CompactReader&, const FieldHeader&)>& on_field) {
  CompactReader r(Span(bytes));
  ReadStruct(r, [&](const FieldHeader& f) { return on_field(r, f); });
  return r.error();
}

TEST(CompactReaderTest, RoundTripsEveryScalarWireType) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.WriteI8Field(3, -128);
  w.WriteI16Field(4, INT16_MIN);
  w.WriteI32Field(5, INT32_MAX);
  w.WriteI64Field(6, INT64_MIN);
  w.WriteDoubleField(7, -0.0);
  w.WriteDoubleField(8, std::numeric_limits<double>::infinity());
  w.WriteDoubleField(9, 3.141592653589793);
  w.WriteBinaryField(10, std::string("a\0b", 3));
  w.WriteBinaryField(11, "");
  w.WriteBinaryField(12, std::string(1000, 'z'));  // two-byte length varint
  w.WriteI64Field(13, INT64_MAX);
  w.WriteI8Field(14, 127);
  w.EndStruct();
  std::string bytes = w.Take();

  CompactReader r(Span(bytes));
  int seen = 0;
  ReadStruct(r, [&](const FieldHeader& f) {
    ++seen;
    switch (f.id) {
      case 1: EXPECT_TRUE(r.ReadBool(f)); return true;
      case 2: EXPECT_FALSE(r.ReadBool(f)); return true;
      case 3: EXPECT_EQ(r.ReadI8(f), -128); return true;
      case 4: EXPECT_EQ(r.ReadI16(f), INT16_MIN); return true;
      case 5: EXPECT_EQ(r.ReadI32(f), INT32_MAX); return true;
      case 6: EXPECT_EQ(r.ReadI64(f), INT64_MIN); return true;
      case 7: {
        double d = r.ReadDouble(f);
        EXPECT_EQ(d, 0.0);
        EXPECT_TRUE(std::signbit(d));
        return true;
      }
      case 8: EXPECT_EQ(r.ReadDouble(f), std::numeric_limits<double>::infinity()); return true;
      case 9: EXPECT_EQ(r.ReadDouble(f), 3.141592653589793); return true;
      case 10: EXPECT_EQ(r.ReadBinary(f), std::string_view("a\0b", 3)); return true;
      case 11: EXPECT_EQ(r.ReadBinary(f), ""); return true;
      case 12: EXPECT_EQ(r.ReadBinary(f), std::string(1000, 'z')); return true;
      case 13: EXPECT_EQ(r.ReadI64(f), INT64_MAX); return true;
      case 14: EXPECT_EQ(r.ReadI8(f), 127); return true;
      default: ADD_FAILURE() << "unexpected field " << f.id; return false;
    }
  });
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(seen, 14);
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.position(), bytes.size());
}

TEST(CompactReaderTest, NanDoubleRoundTrips) {
  CompactWriter w;
  w.WriteDoubleField(1, std::nan(""));
  w.WriteRaw(Byte(0));
  std::string err = ReadAll(w.bytes(), [](CompactReader& r, const FieldHeader& f) {
    EXPECT_TRUE(std::isnan(r.ReadDouble(f)));
    return true;
  });
  EXPECT_EQ(err, "");
}

TEST(CompactReaderTest, BinaryViewsPointIntoTheInput) {
  CompactWriter w;
  w.WriteBinaryField(1, "hello");
  w.WriteRaw(Byte(0));
  std::string bytes = w.Take();
  CompactReader r(Span(bytes));
  int16_t last = 0;
  FieldHeader f = r.ReadFieldHeader(last);
  std::string_view v = r.ReadBinary(f);
  EXPECT_EQ(v, "hello");
  EXPECT_EQ(v.data(), bytes.data() + 2);
}

TEST(CompactReaderTest, RoundTripsListsOfEveryElementType) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kI32, 3);
  for (int v : {-1, 0, INT32_MAX}) w.WriteVarintElement(v);
  w.WriteListFieldHeader(2, CType::kI64, 20);  // long size form
  for (int i = 0; i < 20; ++i) w.WriteVarintElement(int64_t{1} << (i * 3));
  w.WriteListFieldHeader(3, CType::kBinary, 2);
  w.WriteBinary("x");
  w.WriteBinary("");
  w.WriteListFieldHeader(4, CType::kDouble, 2);
  for (double d : {0.5, -2.0}) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    for (int i = 0; i < 8; ++i) w.WriteRaw(Byte(static_cast<int>((bits >> (8 * i)) & 0xff)));
  }
  w.WriteListFieldHeader(5, CType::kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteI32Field(1, i * 10);
    w.EndStruct();
  }
  w.WriteListFieldHeader(6, CType::kI32, 0);
  w.EndStruct();

  std::vector<int64_t> i32s, i64s, structs;
  std::vector<std::string> bins;
  std::vector<double> doubles;
  bool empty_seen = false;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    switch (f.id) {
      case 1:
        ReadList(r, f, CType::kI32, [&](uint32_t) { i32s.push_back(r.ReadVarintElement()); });
        return true;
      case 2:
        EXPECT_EQ(
            ReadList(r, f, CType::kI64, [&](uint32_t) { i64s.push_back(r.ReadVarintElement()); }),
            20u);
        return true;
      case 3:
        ReadList(r, f, CType::kBinary, [&](uint32_t) { bins.emplace_back(r.ReadBinaryElement()); });
        return true;
      case 4:
        ReadList(r, f, CType::kDouble, [&](uint32_t) { doubles.push_back(r.ReadDoubleElement()); });
        return true;
      case 5:
        ReadList(r, f, CType::kStruct, [&](uint32_t) {
          ReadStruct(r, [&](const FieldHeader& g) {
            structs.push_back(r.ReadI32(g));
            return true;
          });
        });
        return true;
      case 6:
        empty_seen = ReadList(r, f, CType::kI32, [&](uint32_t) { ADD_FAILURE(); }) == 0;
        return true;
      default: return false;
    }
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(i32s, (std::vector<int64_t>{-1, 0, INT32_MAX}));
  ASSERT_EQ(i64s.size(), 20u);
  EXPECT_EQ(i64s[19], int64_t{1} << 57);
  EXPECT_EQ(bins, (std::vector<std::string>{"x", ""}));
  EXPECT_EQ(doubles, (std::vector<double>{0.5, -2.0}));
  EXPECT_EQ(structs, (std::vector<int64_t>{0, 10}));
  EXPECT_TRUE(empty_seen);
}

TEST(CompactReaderTest, ShortAndLongFieldIdForms) {
  const std::vector<int16_t> ids = {1, 16, 17, 32, 5, 5, -1, -200, INT16_MIN, INT16_MAX, 0};
  CompactWriter w;
  w.BeginStruct();
  for (int16_t id : ids) w.WriteI32Field(id, id);
  w.EndStruct();
  std::vector<int16_t> read;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    read.push_back(f.id);
    EXPECT_EQ(r.ReadI32(f), f.id);
    return true;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(read, ids);
}

TEST(CompactReaderTest, ShortFormDeltaIsRelativeToThePreviousFieldOfTheSameStruct) {
  // Field 3, then a struct field 4 whose inner field uses delta 1 (id 1), then delta 1 -> 5.
  std::string bytes = Byte(0x35) + Byte(0x00) + Byte(0x1c) + Byte(0x15) + Byte(0x02) + Byte(0x00) +
                      Byte(0x15) + Byte(0x04) + Byte(0x00);
  std::vector<int16_t> outer;
  std::string err = ReadAll(bytes, [&](CompactReader& r, const FieldHeader& f) {
    outer.push_back(f.id);
    if (f.id == 4) {
      ReadStruct(r, [&](const FieldHeader& g) {
        EXPECT_EQ(g.id, 1);
        EXPECT_EQ(r.ReadI32(g), 1);
        return true;
      });
      return true;
    }
    return false;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(outer, (std::vector<int16_t>{3, 4, 5}));
}

TEST(CompactReaderTest, FieldIdBeyondInt16IsAnError) {
  // Long form: type i32, then zigzag(40000) as a varint.
  CompactWriter w;
  w.WriteRaw(Byte(0x05));
  w.WriteVarint(80000);
  w.WriteRaw(Byte(0x00));
  std::string err = ReadAll(w.Take(), [](CompactReader&, const FieldHeader&) { return false; });
  EXPECT_EQ(err, "field id out of range at byte 4");
}

TEST(CompactReaderTest, FieldIdThatOnlyFitsAfterTruncationTo32BitsIsAnError) {
  // zigzag(2^32 + 5): a 64-bit id whose low 32 bits are the valid id 5. It must not be read
  // as field 5.
  CompactWriter w;
  w.WriteRaw(Byte(0x05));
  w.WriteVarint((uint64_t{1} << 33) + 10);
  w.WriteVarint(2);
  w.WriteRaw(Byte(0x00));
  bool got_field = false;
  std::string err = ReadAll(w.Take(), [&](CompactReader&, const FieldHeader&) {
    got_field = true;
    return false;
  });
  EXPECT_FALSE(got_field);
  EXPECT_NE(err.find("field id out of range"), std::string::npos) << err;
}

TEST(CompactReaderTest, ShortDeltaPastInt16MaxIsAnError) {
  CompactWriter w;
  w.WriteI32Field(INT16_MAX, 0);
  w.WriteRaw(Byte(0x15));  // delta 1 from 32767
  w.WriteRaw(Byte(0x00));
  w.WriteRaw(Byte(0x00));
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    r.ReadI32(f);
    return true;
  });
  EXPECT_NE(err.find("field id out of range"), std::string::npos) << err;
}

TEST(CompactReaderTest, InvalidFieldTypeIsAnError) {
  for (int type : {13, 14, 15}) {
    std::string err = ReadAll(Byte(0x10 | type) + Byte(0),
                              [](CompactReader&, const FieldHeader&) { return false; });
    EXPECT_EQ(err, "invalid field type " + std::to_string(type) + " at byte 1");
  }
}

TEST(CompactReaderTest, StructWithoutStopIsTruncated) {
  CompactWriter w;
  w.WriteI32Field(1, 7);
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    r.ReadI32(f);
    return true;
  });
  EXPECT_EQ(err, "truncated struct (no stop field) at byte 2");
  EXPECT_EQ(ReadAll("", [](CompactReader&, const FieldHeader&) { return false; }),
            "truncated struct (no stop field) at byte 0");
}

// ---- unknown fields ----

// Writes one unknown field of each shape, ids from `id` up, using the writer's raw forms.
void WriteUnknownFields(CompactWriter& w, int16_t id) {
  w.WriteBoolField(id++, true);
  w.WriteBoolField(id++, false);
  w.WriteI8Field(id++, 1);
  w.WriteI16Field(id++, -2);
  w.WriteI32Field(id++, 3);
  w.WriteI64Field(id++, INT64_MIN);
  w.WriteDoubleField(id++, 1.5);
  w.WriteBinaryField(id++, "skip me");
  // struct { struct { list<struct{binary}> } }
  w.WriteStructFieldHeader(id++);
  w.BeginStruct();
  w.WriteStructFieldHeader(1);
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteBinaryField(7, "deep");
    w.EndStruct();
  }
  w.EndStruct();
  w.EndStruct();
  // list<bool> with false written both as 2 and as 0
  w.WriteListFieldHeader(id++, CType::kBoolTrue, 3);
  w.WriteRaw(Byte(1) + Byte(2) + Byte(0));
  // set<i64>
  w.WriteFieldHeader(id++, CType::kSet);
  w.WriteRaw(Byte(0x26));
  w.WriteVarintElement(-5);
  w.WriteVarintElement(5);
  // list<list<binary>>
  w.WriteListFieldHeader(id++, CType::kList, 2);
  w.WriteRaw(Byte(0x18));
  w.WriteBinary("in");
  w.WriteRaw(Byte(0x08));
  // list<double> in the long form
  w.WriteListFieldHeader(id++, CType::kDouble, 16);
  w.WriteRaw(std::string(16 * 8, '\x11'));
  // map<binary, list<i32>>
  w.WriteFieldHeader(id++, CType::kMap);
  w.WriteVarint(2);
  w.WriteRaw(Byte(0x89));
  for (int i = 0; i < 2; ++i) {
    w.WriteBinary("k");
    w.WriteRaw(Byte(0x15));
    w.WriteVarintElement(i);
  }
  // map<i32, bool>: values 1, 2, 0
  w.WriteFieldHeader(id++, CType::kMap);
  w.WriteVarint(3);
  w.WriteRaw(Byte(0x51));
  for (int i = 0; i < 3; ++i) {
    w.WriteVarintElement(i);
    w.WriteRaw(Byte(i == 0 ? 1 : i == 1 ? 2 : 0));
  }
  // map<struct, byte>
  w.WriteFieldHeader(id++, CType::kMap);
  w.WriteVarint(1);
  w.WriteRaw(Byte(0xc3));
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.EndStruct();
  w.WriteRaw(Byte(0x7f));
  // empty map
  w.WriteFieldHeader(id++, CType::kMap);
  w.WriteVarint(0);
}

TEST(CompactReaderTest, UnknownFieldsOfEveryShapeAreSkipped) {
  CompactWriter w;
  w.BeginStruct();
  WriteUnknownFields(w, 100);  // before the known ones, long-form ids
  w.WriteI32Field(1, 11);
  WriteUnknownFields(w, 2);  // between, short-form ids 2..18
  w.WriteBinaryField(20, "known");
  WriteUnknownFields(w, -40);  // negative ids
  w.WriteI32Field(21, 22);
  w.EndStruct();
  w.WriteRaw("trailing");  // after the struct: not read
  std::string bytes = w.Take();

  CompactReader r(Span(bytes));
  int32_t a = 0, c = 0;
  std::string_view b;
  int unknown = 0;
  ReadStruct(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: a = r.ReadI32(f); return true;
      case 20: b = r.ReadBinary(f); return true;
      case 21: c = r.ReadI32(f); return true;
      default: ++unknown; return false;
    }
  });
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(a, 11);
  EXPECT_EQ(b, "known");
  EXPECT_EQ(c, 22);
  EXPECT_EQ(unknown, 3 * 17);
  EXPECT_EQ(r.remaining(), std::string("trailing").size());
}

TEST(CompactReaderTest, SkipHandlesEveryTruncationOfUnknownFieldsCleanly) {
  CompactWriter w;
  w.BeginStruct();
  WriteUnknownFields(w, 1);
  w.EndStruct();
  std::string bytes = w.Take();
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string err =
        ReadAll(bytes.substr(0, len), [](CompactReader&, const FieldHeader&) { return false; });
    EXPECT_FALSE(err.empty()) << "prefix of " << len << " bytes was accepted";
  }
  EXPECT_EQ(ReadAll(bytes, [](CompactReader&, const FieldHeader&) { return false; }), "");
}

// ---- bools ----

TEST(CompactReaderTest, BoolListElementsTreatBothZeroAndTwoAsFalse) {
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kBoolTrue, 4);
  w.WriteRaw(Byte(1) + Byte(2) + Byte(0) + Byte(1));
  w.WriteRaw(Byte(0));
  std::vector<bool> got;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    ReadList(r, f, CType::kBoolTrue, [&](uint32_t) { got.push_back(r.ReadBoolElement()); });
    return true;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(got, (std::vector<bool>{true, false, false, true}));
}

TEST(CompactReaderTest, BoolListWithFalseElementTypeIsAccepted) {
  // Some writers put type 2 (BOOLEAN_FALSE) in the list header.
  std::string bytes = Byte(0x19) + Byte(0x22) + Byte(1) + Byte(2) + Byte(0);
  std::vector<bool> got;
  std::string err = ReadAll(bytes, [&](CompactReader& r, const FieldHeader& f) {
    ReadList(r, f, CType::kBoolTrue, [&](uint32_t) { got.push_back(r.ReadBoolElement()); });
    return true;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(got, (std::vector<bool>{true, false}));
}

TEST(CompactReaderTest, TruncatedBoolElement) {
  CompactReader r(std::span<const uint8_t>{});
  EXPECT_FALSE(r.ReadBoolElement());
  EXPECT_EQ(r.error(), "truncated bool at byte 0");
}

// ---- integer widths ----

TEST(CompactReaderTest, IntegerWireTypesAreInterchangeableWithinRange) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI64Field(1, 5);          // read as i16
  w.WriteI16Field(2, -7);         // read as i64
  w.WriteI64Field(3, INT32_MIN);  // read as i32: fits
  w.WriteI32Field(4, INT16_MAX);  // read as i16: fits
  w.WriteI16Field(5, INT16_MIN);  // read as i32
  w.EndStruct();
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    switch (f.id) {
      case 1: EXPECT_EQ(r.ReadI16(f), 5); break;
      case 2: EXPECT_EQ(r.ReadI64(f), -7); break;
      case 3: EXPECT_EQ(r.ReadI32(f), INT32_MIN); break;
      case 4: EXPECT_EQ(r.ReadI16(f), INT16_MAX); break;
      case 5: EXPECT_EQ(r.ReadI32(f), INT16_MIN); break;
    }
    return true;
  });
  EXPECT_EQ(err, "");
}

struct RangeCase {
  int64_t value;
  CType read_as;
  const char* error;  // nullptr: fits
};

TEST(CompactReaderTest, NarrowingReadsAreRangeChecked) {
  const RangeCase cases[] = {
      {int64_t{INT32_MAX} + 1, CType::kI32, "i32 out of range"},
      {int64_t{INT32_MIN} - 1, CType::kI32, "i32 out of range"},
      {INT64_MAX, CType::kI32, "i32 out of range"},
      {INT32_MAX, CType::kI32, nullptr},
      {INT16_MAX + 1, CType::kI16, "i16 out of range"},
      {INT16_MIN - 1, CType::kI16, "i16 out of range"},
      {int64_t{1} << 40, CType::kI16, "i16 out of range"},
      {INT16_MIN, CType::kI16, nullptr},
  };
  for (const RangeCase& c : cases) {
    SCOPED_TRACE(c.value);
    CompactWriter w;
    w.WriteI64Field(1, c.value);
    w.WriteRaw(Byte(0));
    int64_t got = -1;
    std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
      got = c.read_as == CType::kI32 ? r.ReadI32(f) : r.ReadI16(f);
      return true;
    });
    if (c.error) {
      EXPECT_NE(err.find(c.error), std::string::npos) << err;
      EXPECT_EQ(got, 0);  // errors read as zero, not a truncated value
    } else {
      EXPECT_EQ(err, "");
      EXPECT_EQ(got, c.value);
    }
  }
}

// ---- type mismatches ----

TEST(CompactReaderTest, WireTypeMismatchNamesTheFieldAndBothTypes) {
  CompactWriter w;
  w.WriteBinaryField(4, "text");
  w.WriteRaw(Byte(0));
  int32_t got = -1;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    got = r.ReadI32(f);
    return true;
  });
  EXPECT_EQ(err, "field 4 has wire type binary, expected i32 at byte 1");
  EXPECT_EQ(got, 0);
}

TEST(CompactReaderTest, ReadFieldSkipsAValueOfAnotherWireType) {
  // Fields 1..7 each hold a type other than the one read; field 8 is read as written.
  CompactWriter w;
  w.BeginStruct();
  w.WriteBinaryField(1, "not a bool");
  w.WriteI32Field(2, 5);  // read as binary
  w.WriteListFieldHeader(3, CType::kI64, 2);
  w.WriteVarintElement(1);
  w.WriteVarintElement(2);
  w.WriteStructFieldHeader(4);
  w.BeginStruct();
  w.WriteI32Field(1, 1);
  w.EndStruct();
  w.WriteDoubleField(5, 1.5);
  w.WriteBoolField(6, true);
  w.WriteI8Field(7, 3);
  w.WriteI64Field(8, -9);
  w.EndStruct();
  bool b = false;
  std::string_view bin = "kept";
  int64_t i64 = 42;
  std::optional<int32_t> opt;
  int8_t i8 = 7;
  double dbl = 2.5;
  int16_t i16 = 11;
  int64_t last = 0;
  std::vector<bool> read;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    switch (f.id) {
      case 1: read.push_back(r.ReadField(f, b)); return true;
      case 2: read.push_back(r.ReadField(f, bin)); return true;
      case 3: read.push_back(r.ReadField(f, i64)); return true;
      case 4: read.push_back(r.ReadField(f, opt)); return true;
      case 5: read.push_back(r.ReadField(f, i8)); return true;
      case 6: read.push_back(r.ReadField(f, dbl)); return true;
      case 7: read.push_back(r.ReadField(f, i16)); return true;
      case 8: read.push_back(r.ReadField(f, last)); return true;
      default: return false;
    }
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(read, (std::vector<bool>{false, false, false, false, false, false, false, true}));
  EXPECT_FALSE(b);
  EXPECT_EQ(bin, "kept");
  EXPECT_EQ(i64, 42);
  EXPECT_FALSE(opt.has_value());
  EXPECT_EQ(i8, 7);
  EXPECT_EQ(dbl, 2.5);
  EXPECT_EQ(i16, 11);
  EXPECT_EQ(last, -9);
}

TEST(CompactReaderTest, ReadFieldReadsSharedVarintFormsAndChecksTheirRange) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI64Field(1, 7);          // an i64 read as i32: the same wire form
  w.WriteI64Field(2, 1LL << 40);  // out of i32 range: an error, not a skip
  w.EndStruct();
  int32_t a = 0, b = 0;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadField(f, f.id == 1 ? a : b), f.id == 1);
    return true;
  });
  EXPECT_EQ(a, 7);
  EXPECT_EQ(b, 0);
  EXPECT_NE(err.find("i32 out of range"), std::string::npos) << err;
}

TEST(CompactReaderTest, AMistypedValueIsStillBoundsChecked) {
  // Field 1, a binary claiming 100 bytes of 2, read as an i32: the skip fails.
  std::string bytes = Byte(0x18) + Byte(100) + "ab";
  int32_t v = 3;
  std::string err = ReadAll(bytes, [&](CompactReader& r, const FieldHeader& f) {
    EXPECT_FALSE(r.ReadField(f, v));
    return true;
  });
  EXPECT_EQ(v, 3);
  EXPECT_NE(err.find("binary length 100 exceeds the 2 bytes left"), std::string::npos) << err;
}

TEST(CompactReaderTest, EachTypedReadRejectsOtherWireTypes) {
  struct Case {
    std::function<void(CompactReader&, const FieldHeader&)> read;
    const char* expected;
  };
  const Case cases[] = {
      {[](CompactReader& r, const FieldHeader& f) { EXPECT_FALSE(r.ReadBool(f)); }, "bool"},
      {[](CompactReader& r, const FieldHeader& f) { EXPECT_EQ(r.ReadI8(f), 0); }, "byte"},
      {[](CompactReader& r, const FieldHeader& f) { EXPECT_EQ(r.ReadI64(f), 0); }, "i64"},
      {[](CompactReader& r, const FieldHeader& f) { EXPECT_EQ(r.ReadDouble(f), 0); }, "double"},
      {[](CompactReader& r, const FieldHeader& f) { EXPECT_EQ(r.ReadBinary(f), ""); }, "binary"},
      {[](CompactReader& r, const FieldHeader& f) {
         EXPECT_EQ(r.ReadListHeader(f, CType::kI32).size, 0u);
       },
       "list"},
      {[](CompactReader& r, const FieldHeader& f) {
         EXPECT_FALSE(r.ExpectType(f, CType::kStruct));
       },
       "struct"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expected);
    // A struct field (empty struct) read as something else.
    std::string bytes = Byte(0x3c) + Byte(0) + Byte(0);
    if (std::string(c.expected) == "struct") bytes = Byte(0x38) + Byte(0) + Byte(0);  // binary
    std::string err = ReadAll(bytes, [&](CompactReader& r, const FieldHeader& f) {
      c.read(r, f);
      return true;
    });
    std::string found = std::string(c.expected) == "struct" ? "binary" : "struct";
    EXPECT_EQ(err, "field 3 has wire type " + found + ", expected " + c.expected + " at byte 1");
  }
}

TEST(CompactReaderTest, SetIsReadAsList) {
  std::string bytes = Byte(0x1a) + Byte(0x25) + Byte(0x02) + Byte(0x04) + Byte(0);
  std::vector<int64_t> got;
  std::string err = ReadAll(bytes, [&](CompactReader& r, const FieldHeader& f) {
    ReadList(r, f, CType::kI32, [&](uint32_t) { got.push_back(r.ReadVarintElement()); });
    return true;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(got, (std::vector<int64_t>{1, 2}));
}

TEST(CompactReaderTest, ListElementTypeMismatchIsAnError) {
  CompactWriter w;
  w.WriteListFieldHeader(2, CType::kBinary, 1);
  w.WriteBinary("x");
  w.WriteRaw(Byte(0));
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(ReadList(r, f, CType::kI32, [&](uint32_t) { ADD_FAILURE(); }), 0u);
    return true;
  });
  EXPECT_EQ(err, "list field 2 has elements of type binary, expected i32 at byte 2");
}

TEST(CompactReaderTest, ListOfI32IsReadAsListOfI64) {
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kI32, 2);
  w.WriteVarintElement(-3);
  w.WriteVarintElement(3);
  w.WriteRaw(Byte(0));
  std::vector<int64_t> got;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    ReadList(r, f, CType::kI64, [&](uint32_t) { got.push_back(r.ReadVarintElement()); });
    return true;
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(got, (std::vector<int64_t>{-3, 3}));
}

// ---- truncation and oversized lengths ----

TEST(CompactReaderTest, TruncatedVarint) {
  std::string bytes = Byte(0x15) + Byte(0x80) + Byte(0x80);
  std::string err = ReadAll(bytes, [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadI32(f), 0);
    return true;
  });
  EXPECT_EQ(err, "truncated varint at byte 3");
}

TEST(CompactReaderTest, VarintLongerThanTenBytes) {
  std::string bytes = Byte(0x16) + std::string(10, '\x80') + Byte(0x01) + Byte(0);
  std::string err = ReadAll(bytes, [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadI64(f), 0);
    return true;
  });
  EXPECT_EQ(err, "varint longer than 10 bytes at byte 11");
}

TEST(CompactReaderTest, TruncatedLongFormFieldId) {
  std::string err = ReadAll(Byte(0x05) + Byte(0x80), [](CompactReader&, const FieldHeader&) {
    ADD_FAILURE() << "no field should be delivered";
    return false;
  });
  EXPECT_EQ(err, "truncated varint at byte 2");
}

TEST(CompactReaderTest, TruncatedBinary) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kBinary);
  w.WriteVarint(10);
  w.WriteRaw("abc");
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadBinary(f), "");
    return true;
  });
  EXPECT_EQ(err, "binary length 10 exceeds the 3 bytes left at byte 2");
}

TEST(CompactReaderTest, HugeBinaryLengthDoesNotOverflow) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kBinary);
  w.WriteVarint(UINT64_MAX);
  w.WriteRaw("abc");
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadBinary(f), "");
    return true;
  });
  EXPECT_NE(err.find("exceeds the 3 bytes left"), std::string::npos) << err;
}

TEST(CompactReaderTest, TruncatedDoubleAndByte) {
  std::string err =
      ReadAll(Byte(0x17) + std::string(7, '\0'), [](CompactReader& r, const FieldHeader& f) {
        EXPECT_EQ(r.ReadDouble(f), 0);
        return true;
      });
  EXPECT_EQ(err, "truncated double at byte 1");
  err = ReadAll(Byte(0x13), [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadI8(f), 0);
    return true;
  });
  EXPECT_EQ(err, "truncated byte at byte 1");
}

TEST(CompactReaderTest, TruncatedListElements) {
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kI32, 5);
  w.WriteVarintElement(1);
  w.WriteRaw(Byte(0x80));  // the second element's varint never ends
  w.WriteRaw(Byte(0x80));
  w.WriteRaw(Byte(0x80));
  w.WriteRaw(Byte(0x80));
  int calls = 0;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(ReadList(r, f, CType::kI32,
                       [&](uint32_t) {
                         ++calls;
                         r.ReadVarintElement();
                       }),
              0u);
    return true;
  });
  EXPECT_EQ(err, "truncated varint at byte 7");
  EXPECT_EQ(calls, 2);  // stops at the first error
}

TEST(CompactReaderTest, TruncatedListHeader) {
  std::string err = ReadAll(Byte(0x19), [](CompactReader& r, const FieldHeader& f) {
    EXPECT_EQ(r.ReadListHeader(f, CType::kI32).size, 0u);
    return true;
  });
  EXPECT_EQ(err, "truncated list header at byte 1");
}

TEST(CompactReaderTest, ListLargerThanTheBytesLeftIsRefusedBeforeReading) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kList);
  w.WriteRaw(Byte(0xfc));            // long form, struct elements
  w.WriteVarint(uint64_t{1} << 40);  // a trillion elements
  w.WriteRaw(std::string(3, '\0'));
  std::string bytes = w.Take();
  CompactReader r(Span(bytes));
  int16_t last = 0;
  FieldHeader f = r.ReadFieldHeader(last);
  ListHeader h = r.ReadListHeader(f, CType::kStruct);
  EXPECT_EQ(h.size, 0u);
  EXPECT_EQ(r.error(), "list of 1099511627776 elements exceeds the 3 bytes left at byte 8");
}

TEST(CompactReaderTest, ListExactlyAsLargeAsTheBytesLeftIsAccepted) {
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kStruct, 20);
  w.WriteRaw(std::string(20, '\0'));  // twenty empty structs
  std::string bytes = w.Take();
  CompactReader r(Span(bytes));
  int16_t last = 0;
  FieldHeader f = r.ReadFieldHeader(last);
  uint32_t n = ReadList(r, f, CType::kStruct,
                        [&](uint32_t) { ReadStruct(r, [](const FieldHeader&) { return false; }); });
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(n, 20u);
}

TEST(CompactReaderTest, SkippedListAndMapLargerThanTheBytesLeft) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kList);
  w.WriteRaw(Byte(0xf5));
  w.WriteVarint(1000);
  w.WriteRaw(Byte(0));
  EXPECT_NE(ReadAll(w.Take(), [](CompactReader&, const FieldHeader&) { return false; })
                .find("list of 1000 elements exceeds"),
            std::string::npos);

  CompactWriter m;
  m.WriteFieldHeader(1, CType::kMap);
  m.WriteVarint(1000);
  m.WriteRaw(Byte(0x55));
  m.WriteRaw(Byte(0));
  EXPECT_NE(ReadAll(m.Take(), [](CompactReader&, const FieldHeader&) { return false; })
                .find("map of 1000 entries exceeds"),
            std::string::npos);
}

TEST(CompactReaderTest, MapWithInvalidKeyTypeCannotBeSkipped) {
  CompactWriter m;
  m.WriteFieldHeader(1, CType::kMap);
  m.WriteVarint(1);
  m.WriteRaw(Byte(0xd5));  // key type 13
  m.WriteRaw(std::string(4, '\0'));
  std::string err = ReadAll(m.Take(), [](CompactReader&, const FieldHeader&) { return false; });
  EXPECT_NE(err.find("cannot skip a value of wire type 13"), std::string::npos) << err;
}

TEST(CompactReaderTest, ListOfStopElementsCannotBeSkipped) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kList);
  w.WriteRaw(Byte(0x10));  // one element of type 0 (stop)
  w.WriteRaw(std::string(2, '\0'));
  std::string err = ReadAll(w.Take(), [](CompactReader&, const FieldHeader&) { return false; });
  EXPECT_NE(err.find("cannot skip a value of wire type 0"), std::string::npos) << err;
}

// ---- nesting ----

// `depth` structs nested through field 1, innermost empty.
std::string NestedStructs(int depth) {
  CompactWriter w;
  for (int i = 0; i < depth - 1; ++i) {
    w.BeginStruct();
    w.WriteStructFieldHeader(1);
  }
  w.BeginStruct();
  for (int i = 0; i < depth; ++i) w.EndStruct();
  return w.Take();
}

// `depth` lists nested inside each other (list<list<...<i32>>>) as the value of field 1 of a
// struct: the struct counts one level, each list one more.
std::string NestedLists(int lists) {
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kList);
  for (int i = 0; i < lists - 1; ++i) w.WriteRaw(Byte(0x19));  // one element: a list
  w.WriteRaw(Byte(0x15));                                      // one i32
  w.WriteVarintElement(1);
  w.WriteRaw(Byte(0));
  return w.Take();
}

int Depth(CompactReader& r, int level) {
  int deepest = level;
  ReadStruct(r, [&](const FieldHeader& f) {
    if (f.type != CType::kStruct) return false;
    deepest = std::max(deepest, Depth(r, level + 1));
    return true;
  });
  return deepest;
}

TEST(CompactReaderTest, SkipAcceptsNestingUpToTheLimit) {
  std::string bytes = NestedStructs(CompactReader::kMaxDepth);
  CompactReader r(Span(bytes));
  ReadStruct(r, [](const FieldHeader&) { return false; });  // skips 63 nested levels
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactReaderTest, SkipRejectsNestingDeeperThanTheLimit) {
  std::string bytes = NestedStructs(CompactReader::kMaxDepth + 1);
  CompactReader r(Span(bytes));
  ReadStruct(r, [](const FieldHeader&) { return false; });
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error().find("nesting deeper than 64"), std::string::npos) << r.error();
}

TEST(CompactReaderTest, SkipRejectsDeeplyNestedLists) {
  std::string ok_bytes = NestedLists(CompactReader::kMaxDepth - 1);
  CompactReader ok(Span(ok_bytes));
  ReadStruct(ok, [](const FieldHeader&) { return false; });
  EXPECT_TRUE(ok.ok()) << ok.error();

  std::string bytes = NestedLists(CompactReader::kMaxDepth);
  CompactReader r(Span(bytes));
  ReadStruct(r, [](const FieldHeader&) { return false; });
  EXPECT_NE(r.error().find("nesting deeper than 64"), std::string::npos) << r.error();
}

TEST(CompactReaderTest, MillionsOfNestingLevelsEndInAnErrorNotAStackOverflow) {
  std::string bytes(2'000'000, '\x1c');  // struct field 1, struct field 1, ...
  CompactReader r(Span(bytes));
  ReadStruct(r, [](const FieldHeader&) { return false; });
  EXPECT_NE(r.error().find("nesting deeper than 64"), std::string::npos) << r.error();

  std::string lists(2'000'000, '\x19');  // list of one list of one list ...
  CompactReader l(Span(lists));
  ReadStruct(l, [](const FieldHeader&) { return false; });
  EXPECT_NE(l.error().find("nesting deeper than 64"), std::string::npos) << l.error();
}

TEST(CompactReaderTest, ReadStructRecursionIsDepthLimited) {
  std::string bytes = NestedStructs(CompactReader::kMaxDepth + 1);
  CompactReader r(Span(bytes));
  int deepest = Depth(r, 1);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error().find("nesting deeper than 64"), std::string::npos) << r.error();
  EXPECT_LE(deepest, CompactReader::kMaxDepth + 1);

  std::string fine = NestedStructs(CompactReader::kMaxDepth);
  CompactReader f(Span(fine));
  EXPECT_EQ(Depth(f, 1), CompactReader::kMaxDepth);
  EXPECT_TRUE(f.ok()) << f.error();
}

TEST(CompactReaderTest, DepthIsReleasedWhenStructsEnd) {
  // Two sibling 64-deep structs in a row: the second is fine only if the first gave its depth back.
  std::string one = NestedStructs(CompactReader::kMaxDepth);
  std::string bytes = one + one + one;
  CompactReader r(Span(bytes));
  for (int i = 0; i < 3; ++i) {
    ReadStruct(r, [](const FieldHeader&) { return false; });
    ASSERT_TRUE(r.ok()) << "struct " << i << ": " << r.error();
  }
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_TRUE(r.EnterNested());
  r.LeaveNested();
}

// ---- sticky errors ----

TEST(CompactReaderTest, ErrorsAreStickyAndTheFirstOneWins) {
  CompactWriter w;
  w.WriteBinaryField(1, "abc");
  w.WriteI32Field(2, 5);
  w.WriteI64Field(3, 6);
  w.WriteRaw(Byte(0));
  std::string bytes = w.Take();
  CompactReader r(Span(bytes));
  int16_t last = 0;
  FieldHeader f1 = r.ReadFieldHeader(last);
  EXPECT_EQ(r.ReadI32(f1), 0);  // binary read as i32: error at byte 1
  ASSERT_FALSE(r.ok());
  const std::string first = r.error();
  EXPECT_EQ(first, "field 1 has wire type binary, expected i32 at byte 1");
  EXPECT_EQ(r.position(), bytes.size());  // reading stops: the position jumps to the end
  EXPECT_EQ(r.remaining(), 0u);

  // Everything after reads as zero / stop, and the first error stays.
  FieldHeader next = r.ReadFieldHeader(last);
  EXPECT_EQ(next.type, CType::kStop);
  FieldHeader i32{2, CType::kI32};
  EXPECT_EQ(r.ReadI32(i32), 0);
  EXPECT_EQ(r.ReadI64(FieldHeader{3, CType::kI64}), 0);
  EXPECT_EQ(r.ReadBinary(FieldHeader{1, CType::kBinary}), "");
  EXPECT_FALSE(r.ReadBool(FieldHeader{1, CType::kBoolTrue}));
  EXPECT_EQ(r.ReadVarintElement(), 0);
  EXPECT_EQ(r.ReadBinaryElement(), "");
  EXPECT_EQ(r.ReadDoubleElement(), 0);
  EXPECT_FALSE(r.ReadBoolElement());
  EXPECT_EQ(r.ReadListHeader(FieldHeader{1, CType::kList}, CType::kI32).size, 0u);
  r.Skip(CType::kStruct);
  r.Fail("a later error");
  EXPECT_EQ(r.error(), first);
}

TEST(CompactReaderTest, ErrorPositionIsWhereTheBadItemWasFound) {
  CompactWriter w;
  w.WriteI32Field(1, 1);
  w.WriteI32Field(2, 2);
  w.WriteFieldHeader(3, CType::kBinary);
  w.WriteVarint(50);  // at byte 4..5: the length, then too few bytes
  w.WriteRaw("xy");
  std::string err = ReadAll(w.Take(), [](CompactReader& r, const FieldHeader& f) {
    if (f.id == 3) {
      r.ReadBinary(f);
    } else {
      r.ReadI32(f);
    }
    return true;
  });
  EXPECT_EQ(err, "binary length 50 exceeds the 2 bytes left at byte 6");
}

TEST(CompactReaderTest, StructLoopEndsAfterAnErrorInsideACallback) {
  CompactWriter w;
  for (int16_t id = 1; id <= 10; ++id) w.WriteI32Field(id, id);
  w.WriteRaw(Byte(0));
  int calls = 0;
  std::string err = ReadAll(w.Take(), [&](CompactReader& r, const FieldHeader& f) {
    ++calls;
    r.Fail("stop here");
    (void)f;
    return true;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(err, "stop here at byte 1");
}

TEST(CompactReaderTest, SkipOfStopIsAnError) {
  CompactReader r(std::span<const uint8_t>{});
  r.Skip(CType::kStop);
  EXPECT_EQ(r.error(), "cannot skip a value of wire type 0 at byte 0");
}

TEST(CompactReaderTest, CTypeNames) {
  EXPECT_STREQ(CTypeName(CType::kBoolTrue), "bool");
  EXPECT_STREQ(CTypeName(CType::kBoolFalse), "bool");
  EXPECT_STREQ(CTypeName(CType::kMap), "map");
  EXPECT_STREQ(CTypeName(CType::kSet), "set");
  EXPECT_STREQ(CTypeName(static_cast<CType>(14)), "invalid");
}

}  // namespace
}  // namespace pqsift::thrift
