// The pruning rewrite of shredded variant paths (scan/variant_proof.h): a path shredded to a
// primitive is proved by its typed_value column, but only where every `value` column it could
// fall back to is all NULL.
#include "scan/variant_proof.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arrow/test_arrays.h"
#include "expr/binder.h"
#include "prune/proof.h"
#include "testing/sample_metadata.h"

namespace pqsift::scan {
namespace {

using pqsift::testing::Group;
using pqsift::testing::Leaf;
using pqsift::testing::MakeLogical;
using pqsift::testing::Root;

// v VARIANT { metadata; value; typed_value { user_id { value; typed_value int64 };
//   name { value; typed_value string }; tags { value; typed_value LIST<...> } } }
Schema ShreddedSchema() {
  using P = PhysicalType;
  std::vector<SchemaElement> e = {
      Root(1),
      Group("v", 3, Repetition::kOptional),
      Leaf("metadata", P::kByteArray),
      Leaf("value", P::kByteArray, Repetition::kOptional),
      Group("typed_value", 3, Repetition::kOptional),
      Group("user_id", 2),
      Leaf("value", P::kByteArray, Repetition::kOptional),
      Leaf("typed_value", P::kInt64, Repetition::kOptional),
      Group("name", 2),
      Leaf("value", P::kByteArray, Repetition::kOptional),
      Leaf("typed_value", P::kByteArray, Repetition::kOptional),
      Group("tags", 2),
      Leaf("value", P::kByteArray, Repetition::kOptional),
      Group("typed_value", 1, Repetition::kOptional),
      Group("list", 1, Repetition::kRepeated),
      Group("element", 2),
      Leaf("value", P::kByteArray, Repetition::kOptional),
      Leaf("typed_value", P::kInt64, Repetition::kOptional),
  };
  e[1].logical_type = MakeLogical(LogicalType::Kind::kVariant);
  e[10].logical_type = MakeLogical(LogicalType::Kind::kString);
  e[13].logical_type = MakeLogical(LogicalType::Kind::kList);
  Result<Schema> s = Schema::Build(e, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

class VariantProofTest : public ::testing::Test {
 protected:
  std::string Rewritten(const std::string& where) {
    Result<expr::BoundFilter> f = expr::BindFilter(where, schema_);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    if (!f.ok()) return "?";
    filter_ = RewriteShreddedPaths(*f, schema_);
    return expr::ToString(*filter_.root, filter_);
  }

  // One container: the typed column's bounds [lo, hi] (no NULL), every other column all NULL
  // unless `fallback_rows` of them hold values.
  prune::Outcomes Prove(int64_t lo, int64_t hi, int64_t fallback_rows,
                        std::shared_ptr<const Array> values = nullptr) {
    prune::StatisticsTable table;
    table.containers = 1;
    for (const expr::ColumnRef& ref : filter_.columns) {
      prune::ColumnBounds b;
      b.num_rows = 100;
      if (ref.path == "v.typed_value.user_id.typed_value") {
        b.min = expr::Value::Int(lo);
        b.max = expr::Value::Int(hi);
        b.null_count = 0;
        b.values = values;
      } else if (ref.leaf >= 0) {
        b.null_count = 100 - fallback_rows;
      }
      table.bounds.push_back({b});
    }
    return prune::Prove(filter_, table)[0];
  }

  Schema schema_ = ShreddedSchema();
  expr::BoundFilter filter_;
};

TEST_F(VariantProofTest, ShreddedPathBecomesGuardedTypedColumn) {
  EXPECT_EQ(Rewritten("variant_get(v, '$.user_id', 'BIGINT') = 42"),
            "shredded(v.typed_value.user_id.typed_value unless v.value, "
            "v.typed_value.user_id.value) = 42");
  EXPECT_EQ(Rewritten("v.user_id > 5"),
            "shredded(CAST(v.typed_value.user_id.typed_value AS double) unless v.value, "
            "v.typed_value.user_id.value) > 5e0");
  EXPECT_EQ(Rewritten("v.name = 'x'"),
            "shredded(v.typed_value.name.typed_value unless v.value, "
            "v.typed_value.name.value) = 'x'");
}

TEST_F(VariantProofTest, OtherPathsStayUnknown) {
  // Not shredded, a conversion the prover cannot follow, a path through a list.
  EXPECT_EQ(Rewritten("v.other = 1"), "variant_get(v, '$.other', 'DOUBLE') = 1e0");
  EXPECT_EQ(Rewritten("CAST(v.name AS BIGINT) = 1"), "variant_get(v, '$.name', 'BIGINT') = 1");
  EXPECT_EQ(Rewritten("v.tags[1] = 1"), "variant_get(v, '$.tags[0]', 'DOUBLE') = 1e0");
  EXPECT_EQ(Rewritten("v.user_id.x = 1"), "variant_get(v, '$.user_id.x', 'DOUBLE') = 1e0");
}

TEST_F(VariantProofTest, FallbackValuesBlockTheProof) {
  Rewritten("variant_get(v, '$.user_id', 'BIGINT') = 42");
  EXPECT_TRUE(prune::CannotMatch(Prove(100, 200, 0)));
  EXPECT_FALSE(prune::CannotMatch(Prove(100, 200, 1)));  // a row may hold user_id in `value`
  EXPECT_FALSE(prune::CannotMatch(Prove(0, 200, 0)));
  Rewritten("variant_get(v, '$.user_id', 'BIGINT') IS NULL");
  EXPECT_TRUE(prune::CannotMatch(Prove(1, 2, 0)));  // null_count 0: every row has a value
  EXPECT_FALSE(prune::CannotMatch(Prove(1, 2, 5)));
  Rewritten("variant_get(v, '$.user_id', 'BIGINT') > 0");
  EXPECT_TRUE(prune::FullyMatches(Prove(1, 2, 0)));
  EXPECT_FALSE(prune::FullyMatches(Prove(1, 2, 5)));
}

TEST_F(VariantProofTest, DictionaryValuesProveOnlyWhereTheFallbacksAreNull) {
  Rewritten("variant_get(v, '$.user_id', 'BIGINT') = 4");
  std::shared_ptr<const Array> dictionary = pqsift::testing::MakeFixed<int64_t>(Int64(), {1, 5, 9});
  EXPECT_FALSE(prune::CannotMatch(Prove(1, 9, 0)));  // the bounds alone cannot tell
  EXPECT_TRUE(prune::CannotMatch(Prove(1, 9, 0, dictionary)));
  EXPECT_FALSE(prune::CannotMatch(Prove(1, 9, 3, dictionary)));
  Rewritten("variant_get(v, '$.user_id', 'BIGINT') IN (5, 9)");
  EXPECT_FALSE(prune::CannotMatch(Prove(1, 9, 0, dictionary)));
}

}  // namespace
}  // namespace pqsift::scan
