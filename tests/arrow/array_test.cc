// Types (names, equality, validation), slicing and logical equality of arrays.
#include "pqsift/array.h"

#include <gtest/gtest.h>

#include "arrow/test_arrays.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

TEST(DataTypeTest, ToStringNamesEveryType) {
  EXPECT_EQ(NullType()->ToString(), "null");
  EXPECT_EQ(Boolean()->ToString(), "bool");
  EXPECT_EQ(Int8()->ToString(), "int8");
  EXPECT_EQ(UInt64()->ToString(), "uint64");
  EXPECT_EQ(Float16()->ToString(), "halffloat");
  EXPECT_EQ(Float32()->ToString(), "float");
  EXPECT_EQ(Float64()->ToString(), "double");
  EXPECT_EQ(LargeUtf8()->ToString(), "large_string");
  EXPECT_EQ(LargeBinary()->ToString(), "large_binary");
  EXPECT_EQ(FixedSizeBinary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(Decimal128(10, 2)->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(Date32()->ToString(), "date32[day]");
  EXPECT_EQ(Time32(TimeUnit::kMillis)->ToString(), "time32[ms]");
  EXPECT_EQ(Time64(TimeUnit::kNanos)->ToString(), "time64[ns]");
  EXPECT_EQ(Timestamp(TimeUnit::kMicros, "UTC")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(Timestamp(TimeUnit::kMillis, "")->ToString(), "timestamp[ms]");
  EXPECT_EQ(LargeList(Int32())->ToString(), "large_list<item: int32>");
  EXPECT_EQ(LargeList(Field{"e", Int32(), false})->ToString(), "large_list<e: int32 not null>");
  EXPECT_EQ(Struct({Field{"a", Int32(), true}, Field{"b", LargeUtf8(), false}})->ToString(),
            "struct<a: int32, b: large_string not null>");
  EXPECT_EQ(Map(LargeUtf8(), Int64())->ToString(), "map<large_string, int64>");
}

TEST(DataTypeTest, EqualityIsDeepAndCoversEveryParameter) {
  EXPECT_EQ(*Int32(), *Int32());
  EXPECT_FALSE(*Int32() == *Int64());
  EXPECT_EQ(*Decimal128(10, 2), *Decimal128(10, 2));
  EXPECT_FALSE(*Decimal128(10, 2) == *Decimal128(10, 3));
  EXPECT_FALSE(*Decimal128(10, 2) == *Decimal128(11, 2));
  EXPECT_FALSE(*FixedSizeBinary(2) == *FixedSizeBinary(3));
  EXPECT_FALSE(*Time64(TimeUnit::kMicros) == *Time64(TimeUnit::kNanos));
  EXPECT_FALSE(*Timestamp(TimeUnit::kMicros, "UTC") == *Timestamp(TimeUnit::kMicros, ""));
  EXPECT_EQ(*LargeList(Int32()), *LargeList(Int32()));  // different objects, same structure
  EXPECT_FALSE(*LargeList(Int32()) == *LargeList(Field{"item", Int32(), false}));
  EXPECT_FALSE(*LargeList(Int32()) == *LargeList(Field{"x", Int32(), true}));
  EXPECT_FALSE(*Struct({Field{"a", Int32(), true}}) == *Struct({Field{"a", Int64(), true}}));
  EXPECT_EQ(*Map(Int32(), LargeUtf8()), *Map(Int32(), LargeUtf8()));
  EXPECT_FALSE(*Map(Int32(), LargeUtf8()) == *Map(Int64(), LargeUtf8()));
  EXPECT_EQ(Int32(), Int32());  // parameterless factories share one instance
}

TEST(DataTypeTest, ValidateTypeChecksParametersAndShapes) {
  EXPECT_TRUE(ValidateType(*Decimal128(38, 10)).ok());
  EXPECT_FALSE(ValidateType(*Decimal128(0, 0)).ok());
  EXPECT_FALSE(ValidateType(*Decimal128(39, 0)).ok());
  EXPECT_FALSE(ValidateType(*Time32(TimeUnit::kMicros)).ok());
  EXPECT_FALSE(ValidateType(*Time64(TimeUnit::kMillis)).ok());
  EXPECT_FALSE(ValidateType(*FixedSizeBinary(-1)).ok());
  EXPECT_TRUE(ValidateType(*Map(Int32(), Int32())).ok());
  DataType bad_map = *Map(Int32(), Int32());
  DataType entries = *bad_map.children[0].type;
  entries.children[0].nullable = true;  // a nullable key
  bad_map.children[0].type = std::make_shared<DataType>(entries);
  EXPECT_EQ(ValidateType(bad_map).code(), StatusCode::kInvalidArgument);
  DataType list = *LargeList(Int32());
  list.children.clear();
  EXPECT_FALSE(ValidateType(list).ok());
  DataType no_type = *Struct({Field{"a", nullptr, true}});
  EXPECT_FALSE(ValidateType(no_type).ok());
}

TEST(ArrayTest, IsValidUsesTheBitmapAndTheOffset) {
  auto a = MakeFixed<int32_t>(Int32(), {1, kNull, 3, kNull});
  EXPECT_TRUE(a->IsValid(0));
  EXPECT_FALSE(a->IsValid(1));
  auto s = Slice(*a, 1, 3);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE((*s)->IsValid(0));
  EXPECT_TRUE((*s)->IsValid(1));
  auto null_array = MakeAllNullArray(NullType(), 2);
  EXPECT_FALSE((*null_array)->IsValid(0));
}

TEST(ArrayTest, SliceSharesBuffersAndRecomputesNullCount) {
  auto a = MakeFixed<int32_t>(Int32(), {1, kNull, 3, kNull, 5});
  auto s = Slice(*a, 2, 2);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->offset, 2);
  EXPECT_EQ((*s)->length, 2);
  EXPECT_EQ((*s)->null_count, 1);
  EXPECT_EQ((*s)->buffers[1], a->buffers[1]);  // shared, not copied
  EXPECT_TRUE(ValidateArray(**s).ok());
  auto s2 = Slice(**s, 0, 1);  // a slice of a slice
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ((*s2)->offset, 2);
  EXPECT_EQ((*s2)->null_count, 0);
  EXPECT_TRUE(ArrayEquals(**s2, *MakeFixed<int32_t>(Int32(), {3})));
  EXPECT_EQ(Slice(*a, 4, 2).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(Slice(*a, -1, 1).status().code(), StatusCode::kOutOfRange);
  EXPECT_TRUE(Slice(*a, 5, 0).ok());
}

TEST(ArrayTest, SlicesOfEveryTypeAreValidAndEqualToTheirElements) {
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    auto tail = Slice(*c.array, 1, 3);
    ASSERT_TRUE(tail.ok());
    EXPECT_TRUE(ValidateArray(**tail).ok()) << ValidateArray(**tail).ToString();
    auto one = Slice(*c.array, 2, 1);
    auto one_of_tail = Slice(**tail, 1, 1);
    EXPECT_TRUE(ArrayEquals(**one, **one_of_tail));
    if (c.name != "null") {
      EXPECT_FALSE(ArrayEquals(**tail, **Slice(*c.array, 0, 3)));
    }
  }
}

TEST(ArrayEqualsTest, DetectsValueValidityLengthAndTypeDifferences) {
  auto a = MakeFixed<int32_t>(Int32(), {1, kNull, 3});
  EXPECT_TRUE(ArrayEquals(*a, *MakeFixed<int32_t>(Int32(), {1, kNull, 3})));
  EXPECT_FALSE(ArrayEquals(*a, *MakeFixed<int32_t>(Int32(), {1, kNull, 4})));
  EXPECT_FALSE(ArrayEquals(*a, *MakeFixed<int32_t>(Int32(), {1, 0, 3})));
  EXPECT_FALSE(ArrayEquals(*a, *MakeFixed<int32_t>(Int32(), {1, kNull})));
  EXPECT_FALSE(ArrayEquals(*a, *MakeFixed<uint32_t>(UInt32(), {1, kNull, 3})));
  // Bytes under a null do not matter.
  auto b = MakeFixed<int32_t>(Int32(), {1, 9, 3});
  auto b_with_null = std::make_shared<Array>(*b);
  b_with_null->buffers[0] = a->buffers[0];
  b_with_null->null_count = 1;
  EXPECT_TRUE(ArrayEquals(*a, *b_with_null));

  EXPECT_TRUE(ArrayEquals(*MakeStrings({"a", kNull, "bc"}), *MakeStrings({"a", kNull, "bc"})));
  EXPECT_FALSE(ArrayEquals(*MakeStrings({"a", "b"}), *MakeStrings({"a", "c"})));
  EXPECT_FALSE(ArrayEquals(*MakeStrings({"ab", ""}), *MakeStrings({"a", "b"})));

  auto list = [](std::vector<testing::Opt<int32_t>> values, std::vector<int64_t> offsets) {
    return testing::MakeList(MakeFixed<int32_t>(Int32(), values), offsets);
  };
  EXPECT_TRUE(ArrayEquals(*list({1, 2, 3}, {0, 1, 3}), *list({1, 2, 3}, {0, 1, 3})));
  EXPECT_FALSE(ArrayEquals(*list({1, 2, 3}, {0, 1, 3}), *list({1, 2, 3}, {0, 2, 3})));
  EXPECT_FALSE(ArrayEquals(*list({1, 2, 3}, {0, 1, 3}), *list({1, 2, kNull}, {0, 1, 3})));
  // Same logical lists from differently laid out children.
  EXPECT_TRUE(ArrayEquals(*list({1, 2, 3}, {0, 1, 3}), *list({7, 1, 2, 3}, {1, 2, 4})));

  auto s1 = testing::MakeStructOf({{"a", MakeFixed<int32_t>(Int32(), {1, 2})}}, 2);
  auto s2 = testing::MakeStructOf({{"a", MakeFixed<int32_t>(Int32(), {1, 3})}}, 2);
  auto s3 = testing::MakeStructOf({{"a", MakeFixed<int32_t>(Int32(), {1, 3})}}, 2, {true, false});
  auto s4 = testing::MakeStructOf({{"a", MakeFixed<int32_t>(Int32(), {1, 2})}}, 2, {true, false});
  EXPECT_FALSE(ArrayEquals(*s1, *s2));
  EXPECT_TRUE(ArrayEquals(*s3, *s4));  // the difference is under a null struct
}

}  // namespace
}  // namespace pqsift
