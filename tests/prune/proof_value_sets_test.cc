// Value sets in the proof (ColumnBounds::values, e.g. a dictionary): the column's own conditions
// evaluated exactly on the values, other columns by their bounds, NULL when the column may hold
// it; and CouldDecide, which tells the dictionary stage whether fetching can help.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "arrow/builder.h"
#include "prune/expr_builders.h"
#include "prune/proof.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders

constexpr Outcomes T = kCanBeTrue;
constexpr Outcomes F = kCanBeFalse;
constexpr Outcomes N = kCanBeNull;

std::shared_ptr<const Array> IntValues(std::vector<int64_t> values) {
  FixedWidthArrayBuilder<int64_t> b(Int64());
  for (int64_t v : values) b.Append(v);
  return b.Finish();
}

// Column 0: INT64 with min/max [lo, hi] and optionally a value set; column 1: INT64 [0, 100].
ColumnBounds WithValues(int64_t lo, int64_t hi, std::shared_ptr<const Array> values,
                        std::optional<int64_t> nulls = 0) {
  ColumnBounds b;
  b.min = Value::Int(lo);
  b.max = Value::Int(hi);
  b.null_count = nulls;
  b.num_rows = 10;
  b.values = std::move(values);
  return b;
}
ColumnBounds Other() { return WithValues(0, 100, nullptr); }

Outcomes ProveTwo(const ExprPtr& root, ColumnBounds a) {
  expr::BoundFilter filter = Filter(root, {Int64(), Int64()});
  StatisticsTable table;
  table.containers = 1;
  table.bounds = {{std::move(a)}, {Other()}};
  return Prove(filter, table)[0];
}

const ExprPtr x = Col(0, Int64());
const ExprPtr y = Col(1, Int64());

TEST(ProofValueSets, EqualityBetweenTheBoundsIsDecidedByTheValues) {
  auto values = IntValues({1, 5, 9});
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, x, IntLit(4)), WithValues(1, 9, nullptr)), T | F);
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, x, IntLit(4)), WithValues(1, 9, values)), F);
  EXPECT_EQ(ProveTwo(Cmp(Op::kNe, x, IntLit(4)), WithValues(1, 9, values)), T);
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, x, IntLit(5)), WithValues(1, 9, values)), T | F);
}

TEST(ProofValueSets, NullsAddTheOutcomeOnNull) {
  auto values = IntValues({1, 5, 9});
  ExprPtr ne = Cmp(Op::kNe, x, IntLit(4));
  EXPECT_EQ(ProveTwo(ne, WithValues(1, 9, values, 2)), T | N);
  EXPECT_EQ(ProveTwo(ne, WithValues(1, 9, values, std::nullopt)), T | N);  // unknown count
  EXPECT_EQ(ProveTwo(Or({IsNull(x), ne}), WithValues(1, 9, values, 2)), T);
  // Every row NULL: the values do not count.
  EXPECT_EQ(ProveTwo(ne, WithValues(1, 9, values, 10)), N);
}

TEST(ProofValueSets, ArithmeticOnTheColumnIsEvaluated) {
  auto values = IntValues({1, 5, 9});
  // x * 2 = 10 only for 5; the bounds alone know nothing of arithmetic.
  ExprPtr doubled = Node(Op::kMul, Int64(), {x, IntLit(2)});
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, doubled, IntLit(10)), WithValues(1, 9, values)), T | F);
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, doubled, IntLit(4)), WithValues(1, 9, values)), F);
}

TEST(ProofValueSets, OtherColumnsKeepTheirBounds) {
  auto values = IntValues({1, 5, 9});
  ExprPtr x_is_4 = Cmp(Op::kEq, x, IntLit(4));
  // AND: x alone decides. OR with y's bounds allowing y > 50: undecided; y > 500 impossible.
  EXPECT_EQ(ProveTwo(And({x_is_4, Cmp(Op::kGt, y, IntLit(50))}), WithValues(1, 9, values)), F);
  EXPECT_EQ(ProveTwo(Or({x_is_4, Cmp(Op::kGt, y, IntLit(50))}), WithValues(1, 9, values)), T | F);
  EXPECT_EQ(ProveTwo(Or({x_is_4, Cmp(Op::kGt, y, IntLit(500))}), WithValues(1, 9, values)), F);
  // A condition over both columns is not a single-column subtree: bounds only.
  EXPECT_EQ(ProveTwo(Cmp(Op::kEq, x, y), WithValues(1, 9, values)), T | F);
}

TEST(ProofValueSets, AnEvaluationErrorFallsBackToTheBounds) {
  auto values = IntValues({std::numeric_limits<int64_t>::max()});
  ExprPtr overflow = Cmp(Op::kGt, Node(Op::kAdd, Int64(), {x, IntLit(1)}), IntLit(0));
  EXPECT_EQ(ProveTwo(overflow, WithValues(0, std::numeric_limits<int64_t>::max(), values)),
            T | F | N);
}

TEST(ProofValueSets, CouldDecideOnlyWhereSomeValueSetDecides) {
  expr::BoundFilter filter =
      Filter(Or({Cmp(Op::kEq, x, IntLit(4)), Cmp(Op::kGt, y, IntLit(50))}), {Int64(), Int64()});
  StatisticsTable table;
  table.containers = 2;
  auto marker = IntValues({});
  // Container 0: x without NULLs (all x = 4 would fully match); container 1: x may be NULL, so
  // the OR rests on y whatever x's values are.
  table.bounds = {{WithValues(1, 9, marker), WithValues(1, 9, marker, 3)}, {Other(), Other()}};
  EXPECT_EQ(CouldDecide(filter, table), (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace pqsift::prune
