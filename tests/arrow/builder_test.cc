// ArrowBuffer, the bitmap helpers and the builders of src/arrow/builder.h.
#include "arrow/builder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/test_arrays.h"

namespace pqsift {
namespace {

using testing::kNull;

TEST(ArrowBufferTest, IsAlignedPaddedAndKeepsContentsWhenGrowing) {
  ArrowBuffer b;
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.data(), nullptr);
  b.Resize(3);
  std::memcpy(b.data(), "abc", 3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_EQ(b.capacity() % 64, 0u);
  EXPECT_GE(b.capacity(), 3u);
  for (int i = 0; i < 1000; ++i) b.Append("0123456789", 10);
  EXPECT_EQ(b.size(), 10003u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_EQ(std::string(b.as<char>(), 3), "abc");
  EXPECT_EQ(std::string(b.as<char>() + 9993, 10), "0123456789");
  size_t cap = b.capacity();
  b.Reserve(10);  // never shrinks
  EXPECT_EQ(b.capacity(), cap);
  EXPECT_TRUE(b.owns_memory());
}

TEST(ArrowBufferTest, ViewSharesMemoryAndKeepsItsOwnerAlive) {
  auto owner = std::make_shared<std::string>("hello");
  std::weak_ptr<std::string> weak = owner;
  auto view = ArrowBuffer::View(reinterpret_cast<const uint8_t*>(owner->data()), 5, owner);
  owner.reset();
  EXPECT_FALSE(weak.expired());
  EXPECT_FALSE(view->owns_memory());
  EXPECT_EQ(std::string(view->as<char>(), view->size()), "hello");
  view.reset();
  EXPECT_TRUE(weak.expired());

  // Growing a view copies it into owned, aligned memory and lets the owner go.
  auto text = std::make_shared<std::string>("abc");
  weak = text;
  view = ArrowBuffer::View(reinterpret_cast<const uint8_t*>(text->data()), 3, text);
  text.reset();
  view->Append("d", 1);
  EXPECT_TRUE(view->owns_memory());
  EXPECT_TRUE(weak.expired());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(view->data()) % 64, 0u);
  EXPECT_EQ(std::string(view->as<char>(), view->size()), "abcd");
}

TEST(BitUtilTest, CountSetBitsMatchesANaiveCountForEveryRange) {
  std::mt19937 rng(7);
  std::vector<uint8_t> bits(40);
  for (auto& b : bits) b = static_cast<uint8_t>(rng());
  for (int64_t offset = 0; offset < 70; offset += 3) {
    for (int64_t length = 0; offset + length <= 320; length += 7) {
      int64_t naive = 0;
      for (int64_t i = offset; i < offset + length; ++i) naive += bit_util::GetBit(bits.data(), i);
      ASSERT_EQ(bit_util::CountSetBits(bits.data(), offset, length), naive)
          << offset << " " << length;
    }
  }
}

TEST(BitUtilTest, SetBitsToAndCopyBitsTouchOnlyTheirRange) {
  for (bool value : {true, false}) {
    std::vector<uint8_t> bits(8, value ? 0x00 : 0xff);
    bit_util::SetBitsTo(bits.data(), 5, 30, value);
    for (int64_t i = 0; i < 64; ++i) {
      bool inside = i >= 5 && i < 35;
      ASSERT_EQ(bit_util::GetBit(bits.data(), i), inside ? value : !value) << i;
    }
  }
  std::vector<uint8_t> src = {0b10110010, 0b01101100, 0xff, 0x00};
  for (int64_t src_off : {0, 3, 8}) {
    for (int64_t dst_off : {0, 5, 16}) {
      std::vector<uint8_t> dst(6, 0xaa);
      std::vector<uint8_t> before = dst;
      bit_util::CopyBits(src.data(), src_off, 20, dst.data(), dst_off);
      for (int64_t i = 0; i < 48; ++i) {
        bool expected = i >= dst_off && i < dst_off + 20
                            ? bit_util::GetBit(src.data(), src_off + i - dst_off)
                            : bit_util::GetBit(before.data(), i);
        ASSERT_EQ(bit_util::GetBit(dst.data(), i), expected)
            << src_off << " " << dst_off << " " << i;
      }
    }
  }
}

TEST(BitmapBuilderTest, AppendsSinglesRunsAndBitsAndCountsZeros) {
  BitmapBuilder b;
  std::vector<bool> expected;
  auto add = [&](bool v, int n) {
    for (int i = 0; i < n; ++i) expected.push_back(v);
  };
  b.Append(true);
  add(true, 1);
  b.AppendNulls(3);
  add(false, 3);
  b.AppendValid(13);
  add(true, 13);
  b.Append(false);
  add(false, 1);
  uint8_t other[] = {0b01011010, 0b11};
  b.AppendBits(other, 1, 9);
  for (int i = 1; i < 10; ++i) expected.push_back(bit_util::GetBit(other, i));
  ASSERT_EQ(b.length(), static_cast<int64_t>(expected.size()));
  int64_t zeros = std::count(expected.begin(), expected.end(), false);
  EXPECT_EQ(b.null_count(), zeros);
  auto buffer = b.Finish();
  ASSERT_EQ(buffer->size(), (expected.size() + 7) / 8);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(bit_util::GetBit(buffer->data(), static_cast<int64_t>(i)), expected[i]) << i;
  }
  // Bits past the length are zero.
  for (size_t i = expected.size(); i < buffer->size() * 8; ++i) {
    EXPECT_FALSE(bit_util::GetBit(buffer->data(), static_cast<int64_t>(i)));
  }
  EXPECT_EQ(b.length(), 0);  // Finish resets
  EXPECT_EQ(b.null_count(), 0);
}

TEST(BitmapBuilderTest, FinishValidityOmitsAnAllValidBitmap) {
  BitmapBuilder b;
  b.AppendValid(100);
  EXPECT_EQ(b.FinishValidity(), nullptr);
  b.AppendValid(10);
  b.Append(false);
  auto bitmap = b.FinishValidity();
  ASSERT_NE(bitmap, nullptr);
  EXPECT_EQ(bit_util::CountSetBits(bitmap->data(), 0, 11), 10);
}

TEST(TypedBufferBuilderTest, AppendsValuesRunsArraysAndZeros) {
  TypedBufferBuilder<int32_t> b;
  b.Append(5);
  b.AppendN(7, 3);
  int32_t more[] = {1, 2};
  b.Append(more, 2);
  b.AppendZeros(2);
  ASSERT_EQ(b.length(), 8);
  auto buffer = b.Finish();
  ASSERT_EQ(buffer->size(), 8 * sizeof(int32_t));
  std::vector<int32_t> got(buffer->as<int32_t>(), buffer->as<int32_t>() + 8);
  EXPECT_EQ(got, (std::vector<int32_t>{5, 7, 7, 7, 1, 2, 0, 0}));
  EXPECT_EQ(b.length(), 0);
}

TEST(LargeBinaryBuilderTest, BuildsOffsetsFromZeroAndConcatenatedBytes) {
  LargeBinaryBuilder b;
  b.Append("ab");
  b.AppendEmpty();
  b.Append("cde");
  EXPECT_EQ(b.length(), 3);
  EXPECT_EQ(b.data_length(), 5);
  std::shared_ptr<ArrowBuffer> offsets, data;
  b.Finish(&offsets, &data);
  std::vector<int64_t> got(offsets->as<int64_t>(), offsets->as<int64_t>() + 4);
  EXPECT_EQ(got, (std::vector<int64_t>{0, 2, 2, 5}));
  EXPECT_EQ(std::string(data->as<char>(), data->size()), "abcde");
  EXPECT_EQ(b.length(), 0);  // reusable after Finish
  b.Append("x");
  b.Finish(&offsets, &data);
  EXPECT_EQ(offsets->as<int64_t>()[1], 1);
}

TEST(ArrayBuildersTest, LeafBuildersProduceValidArrays) {
  auto ints = testing::MakeFixed<int64_t>(Int64(), {1, kNull, 3});
  EXPECT_EQ(ints->length, 3);
  EXPECT_EQ(ints->null_count, 1);
  EXPECT_TRUE(ints->IsValid(0));
  EXPECT_FALSE(ints->IsValid(1));
  EXPECT_EQ(ints->buffers[1]->as<int64_t>()[2], 3);
  EXPECT_EQ(ints->buffers[1]->as<int64_t>()[1], 0);  // zero under the null
  EXPECT_TRUE(ValidateArray(*ints).ok());

  auto no_nulls = testing::MakeFixed<int32_t>(Int32(), {1, 2});
  EXPECT_EQ(no_nulls->buffers[0], nullptr);
  EXPECT_EQ(no_nulls->null_count, 0);

  auto bools = testing::MakeFixed<bool>(Boolean(), {true, false, kNull, true});
  EXPECT_TRUE(ValidateArray(*bools).ok());
  EXPECT_TRUE(bit_util::GetBit(bools->buffers[1]->data(), 3));
  EXPECT_FALSE(bit_util::GetBit(bools->buffers[1]->data(), 1));

  auto strings = testing::MakeStrings({"a", kNull, "bcd"});
  EXPECT_TRUE(ValidateArray(*strings).ok());
  EXPECT_EQ(strings->buffers.size(), 3u);

  auto fixed = testing::MakeFixedBinary(2, {"ab", kNull});
  EXPECT_TRUE(ValidateArray(*fixed).ok());
  EXPECT_EQ(fixed->buffers[1]->size(), 4u);

  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    Status st = ValidateArray(*c.array);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(c.array->length, 4);
    EXPECT_FALSE(c.array->IsValid(1));
  }
}

TEST(ArrayBuildersTest, NestedAssemblyRejectsPartsThatDoNotFit) {
  auto values = testing::MakeFixed<int32_t>(Int32(), {1, 2});
  // Offsets reach past the child.
  auto r = MakeLargeListArray(LargeList(Int32()), 1, nullptr, 0,
                              testing::OffsetsBuffer<int64_t>({0, 3}), values);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  // Wrong type kind.
  EXPECT_FALSE(MakeStructArray(Int32(), 0, nullptr, 0, {}).ok());
  EXPECT_FALSE(MakeMapArray(LargeList(Int32()), 0, nullptr, 0, nullptr, values).ok());
  // Struct child shorter than the struct.
  EXPECT_FALSE(MakeStructArray(Struct({Field{"a", Int32(), true}}), 3, nullptr, 0, {values}).ok());
}

TEST(ArrayBuildersTest, AllNullAndEmptyArraysOfEveryTypeAreValid) {
  for (const auto& c : testing::EveryTypeColumns()) {
    SCOPED_TRACE(c.name);
    auto nulls = MakeAllNullArray(c.array->type, 5);
    ASSERT_TRUE(nulls.ok()) << nulls.status().ToString();
    EXPECT_EQ((*nulls)->length, 5);
    EXPECT_EQ((*nulls)->null_count, 5);
    Status st = ValidateArray(**nulls);
    EXPECT_TRUE(st.ok()) << st.ToString();
    for (int64_t i = 0; i < 5; ++i) EXPECT_FALSE((*nulls)->IsValid(i));
    auto empty = MakeEmptyArray(c.array->type);
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ((*empty)->length, 0);
    EXPECT_TRUE(ValidateArray(**empty).ok());
  }
  // Non-nullable struct children under an all-null struct are fine.
  auto type = Struct({Field{"req", Int32(), false}});
  auto nulls = MakeAllNullArray(type, 3);
  ASSERT_TRUE(nulls.ok());
  EXPECT_TRUE(ValidateArray(**nulls).ok());
  EXPECT_FALSE(MakeAllNullArray(Decimal128(0, 0), 1).ok());
  EXPECT_FALSE(MakeAllNullArray(Int32(), -1).ok());
  EXPECT_FALSE(MakeAllNullArray(nullptr, 1).ok());
}

}  // namespace
}  // namespace pqsift
