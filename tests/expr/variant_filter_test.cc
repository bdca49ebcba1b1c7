// VARIANT paths in filters: parsing (v.a.b, v['a'][1]), binding (variant_get, CAST, a bare path
// typed by what it meets) and row-by-row evaluation with NULL for missing paths and values
// that do not convert (docs/filter-language.md, "VARIANT paths").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/input/jsonl_variant.h"
#include "expr/binder.h"
#include "expr/evaluate.h"
#include "testing/sample_metadata.h"

namespace pqsift::expr {
namespace {

using pqsift::testing::Group;
using pqsift::testing::Leaf;
using pqsift::testing::MakeLogical;
using pqsift::testing::Root;

// id int64, v VARIANT (unshredded: metadata, value).
Schema VariantSchema() {
  std::vector<SchemaElement> e = {
      Root(2),
      Leaf("id", PhysicalType::kInt64, Repetition::kOptional),
      Group("v", 2, Repetition::kOptional),
      Leaf("metadata", PhysicalType::kByteArray),
      Leaf("value", PhysicalType::kByteArray),
  };
  e[2].logical_type = MakeLogical(LogicalType::Kind::kVariant);
  Result<Schema> s = Schema::Build(e, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

// One variant per JSON text ("null": a NULL row), unshredded.
std::shared_ptr<Array> Variants(const std::vector<std::string>& rows) {
  cli::JsonVariantColumn column({});
  for (const std::string& r : rows) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(r);
    EXPECT_TRUE(column.Append(&j).ok());
  }
  return column.Finish();
}

const std::vector<std::string> kRows = {
    R"({"a":42,"s":"x","arr":[5,6],"o":{"b":1.5}})",  // 0
    R"({"a":42.5})",                                  // 1
    R"({"a":"42"})",                                  // 2
    R"({"a":null})",                                  // 3
    R"({})",                                          // 4
    R"(null)",                                        // 5
    R"(7)",                                           // 6
    R"({"a":true})",                                  // 7
};

class VariantFilterTest : public ::testing::Test {
 protected:
  std::vector<int> Matches(const std::string& where) {
    Result<BoundFilter> f = BindFilter(where, schema_);
    EXPECT_TRUE(f.ok()) << where << ": " << f.status().ToString();
    if (!f.ok()) return {-1};
    std::vector<const Array*> columns;
    for (const ColumnRef& ref : f->columns) {
      EXPECT_EQ(ref.path, "v");
      columns.push_back(variants_.get());
    }
    auto keep = EvaluateFilter(*f, columns, variants_->length);
    EXPECT_TRUE(keep.ok()) << where << ": " << keep.status().ToString();
    if (!keep.ok()) return {-2};
    std::vector<int> out;
    for (size_t i = 0; i < keep->size(); ++i) {
      if ((*keep)[i]) out.push_back(static_cast<int>(i));
    }
    return out;
  }

  std::string BindError(const std::string& where) {
    Result<BoundFilter> f = BindFilter(where, schema_);
    return f.ok() ? "bound" : f.status().message();
  }

  Schema schema_ = VariantSchema();
  std::shared_ptr<Array> variants_ = Variants(kRows);
};

using Rows = std::vector<int>;

TEST_F(VariantFilterTest, VariantGetConvertsOrGivesNull) {
  // 42.5 is a DOUBLE (as in DuckDB's JSON to VARIANT): ties to even, 42, as DuckDB's
  // CAST('{"a":42.5}'::JSON::VARIANT['a'] AS BIGINT).
  EXPECT_EQ(Matches("variant_get(v, '$.a', 'BIGINT') = 42"), (Rows{0, 1, 2}));
  EXPECT_EQ(Matches("variant_get(v, '$.a', 'BIGINT') = 43"), (Rows{}));
  EXPECT_EQ(Matches("variant_get(v, '$.a', 'BIGINT') IS NULL"), (Rows{3, 4, 5, 6}));
  EXPECT_EQ(Matches("variant_get(v, 'o.b', 'DOUBLE') > 1"), (Rows{0}));
  EXPECT_EQ(Matches("variant_get(v, '$.arr[1]', 'BIGINT') = 6"), (Rows{0}));
  EXPECT_EQ(Matches("variant_get(v.o, '$.b', 'DOUBLE') = 1.5"), (Rows{0}));
  EXPECT_EQ(Matches("NOT variant_get(v, '$.a', 'BIGINT') = 42"), (Rows{7}));
}

TEST_F(VariantFilterTest, BarePathsTakeTheTypeTheyMeet) {
  EXPECT_EQ(Matches("v.a = 42"), (Rows{0, 2}));  // as DOUBLE: 42.5 is not 42
  EXPECT_EQ(Matches("v.a < 43"), (Rows{0, 1, 2, 7}));
  EXPECT_EQ(Matches("v.a IN (42, 7)"), (Rows{0, 2}));
  EXPECT_EQ(Matches("v.a BETWEEN 42 AND 42.5"), (Rows{0, 1, 2}));
  EXPECT_EQ(Matches("v.s = 'x'"), (Rows{0}));
  EXPECT_EQ(Matches("v.s LIKE 'x%'"), (Rows{0}));
  EXPECT_EQ(Matches("starts_with(v.s, 'x')"), (Rows{0}));
  EXPECT_EQ(Matches("v.a IS NULL"), (Rows{3, 4, 5, 6}));
  EXPECT_EQ(Matches("v IS NULL"), (Rows{5}));
  EXPECT_EQ(Matches("v.a"), (Rows{0, 7}));  // BOOLEAN: non-zero integers and true
  EXPECT_EQ(Matches("v.a = TRUE"), (Rows{0, 7}));
  EXPECT_EQ(Matches("v.a + 1 > 43"), (Rows{1}));
  EXPECT_EQ(Matches("v.o.b = 1.5"), (Rows{0}));
}

TEST_F(VariantFilterTest, SubscriptsAreOneBasedAsDuckDB) {
  EXPECT_EQ(Matches("v.arr[1] = 5"), (Rows{0}));
  EXPECT_EQ(Matches("v['arr'][2] = 6"), (Rows{0}));
  EXPECT_EQ(Matches("v['o'].b = 1.5"), (Rows{0}));
  EXPECT_EQ(Matches("v.arr[3] IS NULL"), (Rows{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_NE(BindError("v.arr[0] = 5").find("1-based"), std::string::npos);
}

TEST_F(VariantFilterTest, CastIsVariantGet) {
  EXPECT_EQ(Matches("CAST(v.a AS BIGINT) = 42"), (Rows{0, 1, 2}));
  EXPECT_EQ(Matches("CAST(v.a AS VARCHAR) = '42'"), (Rows{0, 2}));
  EXPECT_EQ(Matches("CAST(v.a AS BOOLEAN)"), (Rows{0, 7}));
  EXPECT_EQ(Matches("CAST(v.s AS BIGINT) IS NULL"), (Rows{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(VariantFilterTest, ErrorsNameTheProblem) {
  EXPECT_NE(BindError("v.a = v.s").find("cannot compare"), std::string::npos);
  EXPECT_NE(BindError("variant_get(v, '$.a', 'HUGEINT') = 1").find("HUGEINT"), std::string::npos);
  EXPECT_NE(BindError("variant_get(id, '$.a', 'BIGINT') = 1").find("VARIANT"), std::string::npos);
  EXPECT_NE(BindError("variant_get(v, 'a[', 'BIGINT') = 1").find("variant path"),
            std::string::npos);
  EXPECT_NE(BindError("id[1] = 1").find("VARIANT"), std::string::npos);
  EXPECT_NE(BindError("v.a = X'00'").find("cannot compare"), std::string::npos);
}

TEST_F(VariantFilterTest, ExplainTextReadsBack) {
  Result<BoundFilter> f = BindFilter("v['a b'][1] = 42 AND CAST(v.c AS BIGINT) > 1", schema_);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  std::string text = ToString(*f->root, *f);
  EXPECT_EQ(text,
            "(variant_get(v, '$[''a b''][0]', 'DOUBLE') = 42e0) AND "
            "(variant_get(v, '$.c', 'BIGINT') > 1)");
  Result<BoundFilter> again = BindFilter(text, schema_);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(ToString(*again->root, *again), text);
}

}  // namespace
}  // namespace pqsift::expr
