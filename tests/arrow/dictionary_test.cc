// Dictionary arrays (TypeId::kDictionary): the type, validation of the indices, slicing and
// equality by value, select / sort / take across batches whose dictionaries differ, decoding, and
// the C Data Interface both ways (format "i" with the `dictionary` member).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "arrow/dictionary.h"
#include "arrow/layout.h"
#include "arrow/select.h"
#include "arrow/sort.h"
#include "arrow/test_arrays.h"
#include "pqsift/arrow_export.h"
#include "scan/constant_array.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeDictionaryOf;
using testing::MakeStrings;
using testing::Opt;

// The values of a dictionary array of strings, row by row (nullopt: NULL).
std::vector<Opt<std::string>> Values(const Array& a) {
  EXPECT_TRUE(ValidateArray(a).ok()) << ValidateArray(a).ToString();
  auto decoded = DecodeDictionary(a);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  std::vector<Opt<std::string>> out;
  const Array& v = **decoded;
  for (int64_t i = 0; i < v.length; ++i) {
    if (!v.IsValid(i)) {
      out.emplace_back(std::nullopt);
      continue;
    }
    const int64_t* o = v.buffers[1]->as<int64_t>() + v.offset;
    out.emplace_back(std::string(v.buffers[2]->as<char>() + o[i], o[i + 1] - o[i]));
  }
  return out;
}

std::vector<Opt<std::string>> Strings(std::initializer_list<Opt<std::string>> v) { return v; }

TEST(DictionaryTypeTest, NamesComparesAndValidates) {
  auto t = Dictionary(LargeUtf8());
  EXPECT_EQ(t->ToString(), "dictionary<values=large_string, indices=int32>");
  EXPECT_EQ(*t, *Dictionary(LargeUtf8()));
  EXPECT_FALSE(*t == *Dictionary(LargeBinary()));
  EXPECT_FALSE(*t == *Int32());
  EXPECT_EQ(layout::FormatString(*t), "i");
  EXPECT_EQ(layout::ValueType(*t), *LargeUtf8());
  EXPECT_TRUE(ValidateType(*t).ok());
  EXPECT_TRUE(ValidateType(*Dictionary(Decimal128(5, 2))).ok());
  EXPECT_FALSE(ValidateType(*Dictionary(nullptr)).ok());
  EXPECT_FALSE(ValidateType(*Dictionary(Dictionary(LargeUtf8()))).ok());
  EXPECT_FALSE(ValidateType(*Dictionary(Decimal128(99, 2))).ok());  // the value type is checked
}

TEST(DictionaryArrayTest, ValidationChecksEveryIndexOfAValidElement) {
  auto dict = MakeStrings({"a", "b", "c"});
  EXPECT_TRUE(ValidateArray(*MakeDictionaryOf(dict, {0, 2, kNull, 1})).ok());
  Status st = ValidateArray(*MakeDictionaryOf(dict, {0, 3}));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("element 1 has index 3 outside a dictionary of 3"), std::string::npos)
      << st.ToString();
  EXPECT_FALSE(ValidateArray(*MakeDictionaryOf(dict, {-1})).ok());
  // The layout check does not read the indices.
  EXPECT_TRUE(ValidateArrayLayout(*MakeDictionaryOf(dict, {0, 3})).ok());
  // An index under a NULL element is never followed.
  auto under_null = MakeDictionaryOf(dict, {0, 1});
  under_null->buffers[1]->as<int32_t>()[1] = 1000;
  int64_t nulls = 0;
  under_null->buffers[0] = testing::Validity({true, false}, &nulls);
  under_null->null_count = nulls;
  EXPECT_TRUE(ValidateArray(*under_null).ok());

  auto missing = MakeDictionaryOf(dict, {0});
  missing->dictionary = nullptr;
  EXPECT_FALSE(ValidateArrayLayout(*missing).ok());
  auto wrong_type = MakeDictionaryOf(MakeStrings({"a"}, LargeBinary()), {0});
  wrong_type->type = Dictionary(LargeUtf8());
  EXPECT_FALSE(ValidateArrayLayout(*wrong_type).ok());
  auto stray = MakeStrings({"a"});
  stray->dictionary = dict;
  EXPECT_FALSE(ValidateArrayLayout(*stray).ok());
  auto bad_values = MakeDictionaryOf(MakeStrings({"\xff"}), {0});  // the dictionary is checked
  EXPECT_FALSE(ValidateArray(*bad_values).ok());
}

TEST(DictionaryArrayTest, SlicesAndComparesByValue) {
  auto a = MakeDictionaryOf(MakeStrings({"x", "y"}), {0, 1, kNull, 1});
  auto b = MakeDictionaryOf(MakeStrings({"y", "z", "x"}), {2, 0, 1, 0});
  EXPECT_FALSE(ArrayEquals(*a, *b));  // NULL against "z"
  auto b2 = MakeDictionaryOf(MakeStrings({"y", "z", "x"}), {2, 0, kNull, 0});
  EXPECT_TRUE(ArrayEquals(*a, *b2));
  auto slice = *Slice(*a, 1, 3);
  EXPECT_EQ(slice->dictionary, a->dictionary);
  EXPECT_EQ(slice->null_count, 1);
  EXPECT_EQ(Values(*slice), Strings({"y", kNull, "y"}));
}

TEST(DictionaryArrayTest, SelectKeepsOneDictionaryOrConcatenatesDistinctOnes) {
  auto dict1 = MakeStrings({"f1"});
  auto dict2 = MakeStrings({"f2", "g2"});
  auto a = MakeDictionaryOf(dict1, {0, 0, 0, kNull});
  auto b = MakeDictionaryOf(dict2, {1, 0, 1});
  std::vector<ElementRange> some = {{0, 1}, {2, 4}};
  auto one = SelectRanges(*a, some);
  EXPECT_EQ(one->dictionary, dict1);  // shared, not copied
  EXPECT_EQ(Values(*one), Strings({"f1", "f1", kNull}));

  std::vector<ElementRange> all_b = {{0, 3}};
  std::vector<ElementRange> first_a = {{0, 1}};
  auto a_again = *Slice(*a, 1, 2);
  std::vector<RangesOf> sources = {{a.get(), some}, {b.get(), all_b}, {a_again.get(), first_a}};
  auto mixed = SelectRanges(sources);
  EXPECT_EQ(mixed->dictionary->length, 3);  // dict1 once, dict2 once
  EXPECT_EQ(Values(*mixed), Strings({"f1", "f1", kNull, "g2", "f2", "g2", "f1"}));
}

TEST(DictionaryArrayTest, SortsByValueAndTakesAcrossDictionaries) {
  std::vector<std::shared_ptr<Array>> chunks = {
      MakeDictionaryOf(MakeStrings({"b", "d"}), {1, 0, kNull}),
      MakeDictionaryOf(MakeStrings({"c", "a"}), {0, 1}),
  };
  std::vector<RowRef> rows = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}};
  ASSERT_TRUE(SortRows({SortKey{chunks, false, false}}, rows).ok());
  auto taken = TakeRows(chunks, rows);
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  EXPECT_EQ(Values(**taken), Strings({"a", "b", "c", "d", kNull}));
  ASSERT_TRUE(SortRows({SortKey{chunks, true, true}}, rows).ok());
  EXPECT_EQ(Values(**TakeRows(chunks, rows)), Strings({kNull, "d", "c", "b", "a"}));
}

TEST(DictionaryArrayTest, DecodesNullElementsAndNullValues) {
  auto a = MakeDictionaryOf(MakeStrings({"v", kNull}), {0, kNull, 1, 0});
  EXPECT_EQ(Values(*a), Strings({"v", kNull, kNull, "v"}));
  EXPECT_EQ(Values(**MakeAllNullArray(Dictionary(LargeUtf8()), 3)), Strings({kNull, kNull, kNull}));
  EXPECT_EQ(Values(*RepeatDictionaryIndex(MakeStrings({"p", "q"}), 1, 3)),
            Strings({"q", "q", "q"}));
  EXPECT_EQ(Values(*RepeatDictionaryIndex(MakeStrings({}), 0, 0)), Strings({}));
}

TEST(DictionaryArrayTest, AConstantColumnIsOneDictionaryValue) {
  auto a =
      scan::MakeConstantArray(Dictionary(LargeUtf8()), expr::Value::Bytes("s3://b/f.parquet"), 4);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ((*a)->dictionary->length, 1);
  EXPECT_EQ((*a)->buffers[1]->size(), 16u);  // 4 bytes a row
  EXPECT_EQ(Values(**a), std::vector<Opt<std::string>>(4, "s3://b/f.parquet"));
  auto none = scan::MakeConstantArray(Dictionary(LargeUtf8()), expr::Value::Null(), 2);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->null_count, 2);
  EXPECT_TRUE(ValidateArray(**none).ok());
}

TEST(DictionaryExportTest, ExportsTheIndicesWithTheDictionaryMember) {
  auto array = MakeDictionaryOf(MakeStrings({"x", "yy"}), {1, kNull, 0});
  ArrowSchema schema;
  ASSERT_TRUE(ExportType(Field{"f", array->type, true}, &schema).ok());
  EXPECT_STREQ(schema.format, "i");
  ASSERT_NE(schema.dictionary, nullptr);
  EXPECT_STREQ(schema.dictionary->format, "U");
  EXPECT_EQ(schema.dictionary->flags & ARROW_FLAG_DICTIONARY_ORDERED, 0);
  EXPECT_EQ(schema.n_children, 0);
  ArrowArray c;
  ASSERT_TRUE(ExportArray(array, &c).ok());
  EXPECT_EQ(c.n_buffers, 2);
  EXPECT_EQ(c.buffers[1], array->buffers[1]->data());  // shared, not copied
  ASSERT_NE(c.dictionary, nullptr);
  EXPECT_EQ(c.dictionary->length, 2);
  EXPECT_EQ(c.dictionary->n_buffers, 3);
  auto back = ImportArray(&c, &schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*(*back)->type, *array->type);
  EXPECT_TRUE(ArrayEquals(**back, *array));
  EXPECT_EQ(Values(**back), Strings({"yy", kNull, "x"}));
  schema.release(&schema);
}

TEST(DictionaryExportTest, TheDictionaryCanBeMovedOutAndReleasedAlone) {
  auto live = std::make_shared<std::atomic<int>>(0);
  auto array = testing::WithCountedBuffers(*MakeDictionaryOf(MakeStrings({"x"}), {0, 0}), live);
  ArrowArray c;
  ASSERT_TRUE(ExportArray(array, &c).ok());
  array.reset();
  ArrowArray moved = *c.dictionary;
  c.dictionary->release = nullptr;
  c.release(&c);
  EXPECT_GT(live->load(), 0);  // the dictionary's buffers
  moved.release(&moved);
  EXPECT_EQ(live->load(), 0);
}

TEST(DictionaryImportTest, ChecksWhatItIsGiven) {
  auto array = MakeDictionaryOf(MakeStrings({"x"}), {0, 0});
  // Other index widths are not pqsift's.
  ArrowSchema schema;
  ASSERT_TRUE(ExportType(Field{"f", array->type, true}, &schema).ok());
  schema.format = "l";
  auto field = ImportField(&schema);
  EXPECT_EQ(field.status().code(), StatusCode::kNotSupported) << field.status().ToString();
  schema.format = "i";
  // An index out of range is caught by the validation of the import.
  ArrowArray c;
  auto bad = MakeDictionaryOf(MakeStrings({"x"}), {0, 5});
  ASSERT_TRUE(ExportArray(bad, &c).ok());
  auto imported = ImportArray(&c, &schema);
  EXPECT_EQ(imported.status().code(), StatusCode::kInvalidArgument);
  // A dictionary type whose array has no dictionary (the parent's release still frees it).
  ASSERT_TRUE(ExportArray(array, &c).ok());
  c.dictionary = nullptr;
  imported = ImportArray(&c, &schema);
  EXPECT_EQ(imported.status().code(), StatusCode::kInvalidArgument);
  schema.release(&schema);
}

}  // namespace
}  // namespace pqsift
