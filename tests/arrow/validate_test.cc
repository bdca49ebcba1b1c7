// ValidateArray / ValidateArrayLayout / ValidateRecordBatch catch deliberately broken arrays.
#include <gtest/gtest.h>

#include "arrow/test_arrays.h"
#include "pqsift/array.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

// A deep-enough copy to break: the Array struct and its buffers are new; buffer bytes copied.
std::shared_ptr<Array> Copy(const Array& a) {
  auto out = std::make_shared<Array>(a);
  for (auto& b : out->buffers) {
    if (b == nullptr) continue;
    auto copy = std::make_shared<ArrowBuffer>();
    copy->Append(b->data(), b->size());
    b = copy;
  }
  for (auto& c : out->children) c = Copy(*c);
  return out;
}

// Expects ValidateArray to fail with a message containing `needle`.
void ExpectInvalid(const Array& a, const std::string& needle) {
  Status st = ValidateArray(a);
  ASSERT_FALSE(st.ok()) << "expected an error about: " << needle;
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message();
}

TEST(ValidateArrayTest, AcceptsEveryWellFormedType) {
  for (const auto& c : testing::EveryTypeColumns()) {
    Status st = ValidateArray(*c.array);
    EXPECT_TRUE(st.ok()) << c.name << ": " << st.ToString();
    EXPECT_TRUE(ValidateArrayLayout(*c.array).ok()) << c.name;
  }
}

TEST(ValidateArrayTest, CatchesBasicFieldErrors) {
  auto a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->type = nullptr;
  ExpectInvalid(*a, "no type");
  a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->length = -1;
  ExpectInvalid(*a, "length -1");
  a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->null_count = 4;
  ExpectInvalid(*a, "null_count 4");
  a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->buffers.pop_back();
  ExpectInvalid(*a, "has 1 buffers");
  a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->type = Decimal128(50, 0);
  ExpectInvalid(*a, "precision");
}

TEST(ValidateArrayTest, CatchesNullCountsThatDisagreeWithTheBitmap) {
  auto a = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull, 3}));
  a->null_count = 0;
  ExpectInvalid(*a, "bitmap has 1 nulls");
  EXPECT_TRUE(ValidateArrayLayout(*a).ok());  // the cheap check does not count
  auto b = Copy(*MakeFixed<int32_t>(Int32(), {1, 2}));
  b->null_count = 1;  // nulls without a bitmap
  ExpectInvalid(*b, "without a validity bitmap");
  auto n = Copy(**MakeAllNullArray(NullType(), 3));
  n->null_count = 0;
  ExpectInvalid(*n, "null_count == length");
}

TEST(ValidateArrayTest, CatchesBuffersTooShortForLengthPlusOffset) {
  auto a = Copy(*MakeFixed<int64_t>(Int64(), {1, 2, 3}));
  a->offset = 1;  // now needs 4 values
  ExpectInvalid(*a, "buffer 1 has 24 bytes, needs 32");
  EXPECT_FALSE(ValidateArrayLayout(*a).ok());
  auto bits = Copy(*MakeFixed<int32_t>(Int32(), std::vector<testing::Opt<int32_t>>(9, kNull)));
  bits->buffers[0]->Resize(1);  // 9 bits need 2 bytes
  ExpectInvalid(*bits, "buffer 0 has 1 bytes, needs 2");
  auto values = Copy(*MakeFixed<int32_t>(Int32(), {1, 2}));
  values->buffers[1] = nullptr;
  ExpectInvalid(*values, "no values buffer");
  auto fixed = Copy(*testing::MakeFixedBinary(4, {"abcd", "efgh"}));
  fixed->buffers[1]->Resize(7);
  ExpectInvalid(*fixed, "needs 8");
  auto bools = Copy(*MakeFixed<bool>(Boolean(), std::vector<testing::Opt<bool>>(17, true)));
  bools->buffers[1]->Resize(2);
  ExpectInvalid(*bools, "needs 3");
}

TEST(ValidateArrayTest, CatchesBadOffsets) {
  auto s = Copy(*MakeStrings({"ab", "c", "def"}));
  s->buffers[1]->as<int64_t>()[2] = 1;  // 0, 2, 1, 6: decreasing
  ExpectInvalid(*s, "offsets decrease at element 1");
  EXPECT_TRUE(ValidateArrayLayout(*s).ok());  // first and last are fine
  s = Copy(*MakeStrings({"ab", "c", "def"}));
  s->buffers[1]->as<int64_t>()[3] = 7;  // beyond the 6 data bytes
  ExpectInvalid(*s, "buffer 2 has 6 bytes, needs 7");
  s = Copy(*MakeStrings({"ab", "c"}));
  s->buffers[1]->as<int64_t>()[0] = -1;
  ExpectInvalid(*s, "offsets start at -1");
  s = Copy(*MakeStrings({"ab", "c"}));
  s->buffers[1]->Resize(16);  // needs 3 offsets
  ExpectInvalid(*s, "needs 24");

  auto list = Copy(*testing::MakeList(MakeFixed<int32_t>(Int32(), {1, 2, 3}), {0, 2, 3}));
  list->buffers[1]->as<int64_t>()[2] = 4;
  ExpectInvalid(*list, "offsets reach 4 but the child has 3 elements");
  list = Copy(*testing::MakeList(MakeFixed<int32_t>(Int32(), {1, 2, 3}), {0, 2, 3}));
  list->buffers[1]->as<int64_t>()[1] = 5;
  ExpectInvalid(*list, "offsets decrease");
}

TEST(ValidateArrayTest, CatchesInvalidUtf8OnlyInValidStrings) {
  ExpectInvalid(*MakeStrings({"ok", std::string("\xc3\x28", 2)}), "element 1 is not valid UTF-8");
  ExpectInvalid(*MakeStrings({std::string("\xed\xa0\x80", 3)}), "not valid UTF-8");  // surrogate
  ExpectInvalid(*MakeStrings({std::string("\xc0\xaf", 2)}), "not valid UTF-8");      // overlong
  EXPECT_TRUE(ValidateArray(*MakeStrings({"\xf0\x9f\x98\x80 caf\xc3\xa9"})).ok());
  // Invalid bytes are fine in binary, and under a null.
  EXPECT_TRUE(ValidateArray(*MakeStrings({std::string("\xff", 1)}, LargeBinary())).ok());
  auto s = Copy(*MakeStrings({"a", std::string("\xff", 1)}));
  s->buffers[0] = Copy(*MakeFixed<int32_t>(Int32(), {1, kNull}))->buffers[0];
  s->null_count = 1;
  EXPECT_TRUE(ValidateArray(*s).ok());
}

TEST(ValidateArrayTest, CatchesChildProblems) {
  auto child = MakeFixed<int32_t>(Int32(), {1, 2, 3});
  auto st = testing::MakeStructOf({{"a", child}, {"b", MakeStrings({"x", "y", "z"})}}, 3);
  auto broken = Copy(*st);
  broken->children[1] = MakeStrings({"x", "y"});
  ExpectInvalid(*broken, "array.b: length 2 is less than the struct's 3");
  broken = Copy(*st);
  broken->offset = 1;  // offset + length = 4 > 3
  broken->length = 3;
  ExpectInvalid(*broken, "less than the struct's 4");
  broken = Copy(*st);
  broken->children[0] = MakeFixed<int64_t>(Int64(), {1, 2, 3});
  ExpectInvalid(*broken, "array.a: type int64 instead of int32");
  broken = Copy(*st);
  broken->children.pop_back();
  ExpectInvalid(*broken, "has 1 children, expected 2");
  broken = Copy(*st);
  broken->children[0] = nullptr;
  ExpectInvalid(*broken, "array.a: missing");
  broken = Copy(*st);
  broken->children[0]->null_count = 2;  // a child's own error, found by recursion
  ExpectInvalid(*broken, "array.a: null_count 2 without a validity bitmap");
}

TEST(ValidateArrayTest, NonNullableFieldsMayHoldNullsOnlyWhereNoValidParentReaches) {
  auto child = MakeFixed<int32_t>(Int32(), {1, kNull, 3});
  // The null is under a valid struct element: invalid.
  auto st = testing::MakeStructOf({{"req", child, false}}, 3);
  ExpectInvalid(*st, "non-nullable field is null at element 1");
  // The null is under a null struct element: fine.
  auto ok = testing::MakeStructOf({{"req", child, false}}, 3, {true, false, true});
  EXPECT_TRUE(ValidateArray(*ok).ok()) << ValidateArray(*ok).ToString();

  auto list = testing::MakeList(child, {0, 2, 3}, {}, /*item_nullable=*/false);
  ExpectInvalid(*list, "non-nullable item is null");
  auto reaching = testing::MakeList(child, {0, 1, 1, 3}, {true, true, true}, false);
  ExpectInvalid(*reaching, "non-nullable item is null");  // element 2 spans children 1..3
  auto under_null = testing::MakeList(child, {0, 1, 1, 3}, {true, true, false}, false);
  EXPECT_TRUE(ValidateArray(*under_null).ok()) << ValidateArray(*under_null).ToString();
}

TEST(ValidateArrayTest, CatchesNullMapKeys) {
  auto keys = MakeStrings({"a", kNull});
  auto map = testing::MakeMapOf(keys, MakeFixed<int32_t>(Int32(), {1, 2}), {0, 2});
  ExpectInvalid(*map, "array.entries.key: non-nullable field is null at element 1");
  auto ok = testing::MakeMapOf(MakeStrings({"a", "b"}), MakeFixed<int32_t>(Int32(), {1, kNull}),
                               {0, 1, 2});
  EXPECT_TRUE(ValidateArray(*ok).ok());
  auto broken = Copy(*ok);
  broken->buffers[1]->as<int32_t>()[2] = 3;
  ExpectInvalid(*broken, "offsets reach 3 but the child has 2 elements");
}

TEST(ValidateRecordBatchTest, ChecksColumnsAgainstTheSchema) {
  auto batch = testing::MakeBatch(
      {{"a", MakeFixed<int32_t>(Int32(), {1, 2})}, {"b", MakeStrings({"x", kNull})}});
  EXPECT_TRUE(ValidateRecordBatch(*batch).ok());
  auto b = std::make_shared<RecordBatch>(*batch);
  b->num_rows = 3;
  EXPECT_NE(ValidateRecordBatch(*b).message().find("has 2 rows, the batch 3"), std::string::npos);
  b = std::make_shared<RecordBatch>(*batch);
  b->columns.pop_back();
  EXPECT_FALSE(ValidateRecordBatch(*b).ok());
  b = std::make_shared<RecordBatch>(*batch);
  std::swap(b->columns[0], b->columns[1]);
  EXPECT_NE(ValidateRecordBatch(*b).message().find("the schema says int32"), std::string::npos);
  b = std::make_shared<RecordBatch>(*batch);
  auto schema = std::make_shared<BatchSchema>(*batch->schema);
  schema->fields[1].nullable = false;
  b->schema = schema;
  EXPECT_NE(ValidateRecordBatch(*b).message().find("non-nullable but has 1 nulls"),
            std::string::npos);
  b = std::make_shared<RecordBatch>(*batch);
  auto bad = Copy(*b->columns[0]);
  bad->null_count = 1;
  b->columns[0] = bad;
  EXPECT_NE(ValidateRecordBatch(*b).message().find("column 0 'a'"), std::string::npos);
}

}  // namespace
}  // namespace pqsift
