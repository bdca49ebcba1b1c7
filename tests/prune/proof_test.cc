// The proof evaluator, operator by operator, on hand-built bounds.
#include "prune/proof.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "prune/expr_builders.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders

constexpr Outcomes T = kCanBeTrue;
constexpr Outcomes F = kCanBeFalse;
constexpr Outcomes N = kCanBeNull;

ColumnBounds Bounds(std::optional<Value> min, std::optional<Value> max,
                    std::optional<int64_t> nulls = 0, int64_t rows = 10) {
  ColumnBounds b;
  b.min = std::move(min);
  b.max = std::move(max);
  b.null_count = nulls;
  b.num_rows = rows;
  b.may_contain_nan = false;
  return b;
}
ColumnBounds Ints(int64_t lo, int64_t hi, std::optional<int64_t> nulls = 0) {
  return Bounds(Value::Int(lo), Value::Int(hi), nulls);
}
ColumnBounds Strs(std::string lo, std::string hi, std::optional<int64_t> nulls = 0) {
  return Bounds(Value::Bytes(std::move(lo)), Value::Bytes(std::move(hi)), nulls);
}
ColumnBounds Doubles(double lo, double hi, bool may_nan, std::optional<int64_t> nulls = 0) {
  ColumnBounds b = Bounds(Value::Float(lo), Value::Float(hi), nulls);
  b.may_contain_nan = may_nan;
  return b;
}
ColumnBounds Unknown(int64_t rows = 10) {
  ColumnBounds b;
  b.num_rows = rows;
  return b;
}

// The outcomes for one container whose columns have `bounds`.
Outcomes ProveOne(const ExprPtr& root, std::vector<std::shared_ptr<const DataType>> types,
                  std::vector<ColumnBounds> bounds) {
  expr::BoundFilter filter = Filter(root, std::move(types));
  StatisticsTable table;
  table.containers = 1;
  for (ColumnBounds& b : bounds) table.bounds.push_back({std::move(b)});
  std::vector<Outcomes> out = Prove(filter, table);
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? 0 : out[0];
}

Outcomes ProveInt(const ExprPtr& root, ColumnBounds b) { return ProveOne(root, {Int64()}, {b}); }

#define EXPECT_OUTCOMES(actual, expected) \
  EXPECT_EQ(OutcomesToString(actual), OutcomesToString(expected))

ExprPtr X() { return Col(0, Int64()); }

TEST(Proof, ComparisonsAgainstALiteral) {
  struct Case {
    Op op;
    int64_t literal;
    Outcomes expected;  // for x in [10, 20], no NULLs
  };
  const Case cases[] = {
      {Op::kEq, 5, F},      {Op::kEq, 10, T | F}, {Op::kEq, 25, F},     {Op::kNe, 5, T},
      {Op::kNe, 15, T | F}, {Op::kLt, 10, F},     {Op::kLt, 11, T | F}, {Op::kLt, 21, T},
      {Op::kLe, 9, F},      {Op::kLe, 10, T | F}, {Op::kLe, 20, T},     {Op::kGt, 20, F},
      {Op::kGt, 19, T | F}, {Op::kGt, 9, T},      {Op::kGe, 21, F},     {Op::kGe, 20, T | F},
      {Op::kGe, 10, T},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(static_cast<int>(c.op));
    SCOPED_TRACE(c.literal);
    EXPECT_OUTCOMES(ProveInt(Cmp(c.op, X(), IntLit(c.literal)), Ints(10, 20)), c.expected);
    // The literal on the left mirrors the operator.
    Op mirrored = c.op == Op::kLt   ? Op::kGt
                  : c.op == Op::kGt ? Op::kLt
                  : c.op == Op::kLe ? Op::kGe
                  : c.op == Op::kGe ? Op::kLe
                                    : c.op;
    EXPECT_OUTCOMES(ProveInt(Cmp(mirrored, IntLit(c.literal), X()), Ints(10, 20)), c.expected);
  }
}

TEST(Proof, PointRangeDecidesEquality) {
  EXPECT_OUTCOMES(ProveInt(Cmp(Op::kEq, X(), IntLit(7)), Ints(7, 7)), T);
  EXPECT_OUTCOMES(ProveInt(Cmp(Op::kNe, X(), IntLit(7)), Ints(7, 7)), F);
}

TEST(Proof, NullCountsDecideNullOutcomes) {
  ExprPtr gt = Cmp(Op::kGt, X(), IntLit(0));
  EXPECT_OUTCOMES(ProveInt(gt, Ints(10, 20, 0)), T);
  EXPECT_OUTCOMES(ProveInt(gt, Ints(10, 20, 3)), T | N);
  EXPECT_OUTCOMES(ProveInt(gt, Ints(10, 20, std::nullopt)), T | N);          // unknown: maybe NULL
  EXPECT_OUTCOMES(ProveInt(gt, Bounds(std::nullopt, std::nullopt, 10)), N);  // all NULL
  EXPECT_OUTCOMES(ProveInt(gt, Unknown()), T | F | N);
}

TEST(Proof, EmptyContainerHasNoOutcome) {
  EXPECT_OUTCOMES(ProveInt(Cmp(Op::kGt, X(), IntLit(0)), Unknown(0)), 0);
  EXPECT_TRUE(CannotMatch(ProveInt(IsNull(X()), Unknown(0))));
}

TEST(Proof, IsNullAndIsNotNull) {
  EXPECT_OUTCOMES(ProveInt(IsNull(X()), Ints(1, 2, 0)), F);
  EXPECT_OUTCOMES(ProveInt(IsNull(X()), Ints(1, 2, 4)), T | F);
  EXPECT_OUTCOMES(ProveInt(IsNull(X()), Bounds(std::nullopt, std::nullopt, 10)), T);
  EXPECT_OUTCOMES(ProveInt(IsNotNull(X()), Ints(1, 2, 0)), T);
  EXPECT_OUTCOMES(ProveInt(IsNotNull(X()), Ints(1, 2, std::nullopt)), T | F);
}

TEST(Proof, DistinctFromTreatsNullAsAValue) {
  ExprPtr distinct = Cmp(Op::kIsDistinctFrom, X(), IntLit(5));
  ExprPtr same = Cmp(Op::kIsNotDistinctFrom, X(), IntLit(5));
  EXPECT_OUTCOMES(ProveInt(distinct, Ints(10, 20, 2)), T);
  EXPECT_OUTCOMES(ProveInt(same, Ints(10, 20, 2)), F);
  EXPECT_OUTCOMES(ProveInt(same, Ints(5, 5, 0)), T);
  EXPECT_OUTCOMES(ProveInt(same, Ints(5, 5, 1)), T | F);
  ExprPtr null_same = Cmp(Op::kIsNotDistinctFrom, X(), Lit(Value::Null(), Int64()));
  EXPECT_OUTCOMES(ProveInt(null_same, Bounds(std::nullopt, std::nullopt, 10)), T);
  EXPECT_OUTCOMES(ProveInt(null_same, Ints(1, 2, 0)), F);
}

TEST(Proof, ColumnAgainstColumn) {
  ExprPtr lt = Cmp(Op::kLt, Col(0, Int64()), Col(1, Int64()));
  EXPECT_OUTCOMES(ProveOne(lt, {Int64(), Int64()}, {Ints(1, 5), Ints(6, 9)}), T);
  EXPECT_OUTCOMES(ProveOne(lt, {Int64(), Int64()}, {Ints(1, 6), Ints(6, 9)}), T | F);
  EXPECT_OUTCOMES(ProveOne(lt, {Int64(), Int64()}, {Ints(7, 9), Ints(1, 7)}), F);
  ExprPtr eq = Cmp(Op::kEq, Col(0, Int64()), Col(1, Int64()));
  EXPECT_OUTCOMES(ProveOne(eq, {Int64(), Int64()}, {Ints(1, 5), Ints(6, 9, 1)}), F | N);
  EXPECT_OUTCOMES(ProveOne(eq, {Int64(), Int64()}, {Ints(3, 3), Ints(3, 3)}), T);
}

TEST(Proof, InListValuesOutsideTheRangeCannotMatch) {
  std::vector<Value> outside = {Value::Int(1), Value::Int(30), Value::Int(-4)};
  EXPECT_OUTCOMES(ProveInt(In(X(), outside), Ints(10, 20)), F);
  std::vector<Value> inside = {Value::Int(30), Value::Int(15)};
  EXPECT_OUTCOMES(ProveInt(In(X(), inside), Ints(10, 20)), T | F);
  EXPECT_OUTCOMES(ProveInt(In(X(), {Value::Int(20)}), Ints(10, 20)), T | F);  // edge is inside
  EXPECT_OUTCOMES(ProveInt(In(X(), inside), Ints(15, 15)), T);
  EXPECT_OUTCOMES(ProveInt(In(X(), inside), Ints(15, 15, 2)), T | N);
  // A NULL in the list turns a non-match into NULL.
  EXPECT_OUTCOMES(ProveInt(In(X(), outside, true), Ints(10, 20)), N);
  EXPECT_OUTCOMES(ProveInt(Not(In(X(), outside, true)), Ints(10, 20)), N);
  EXPECT_OUTCOMES(ProveInt(Not(In(X(), outside)), Ints(10, 20)), T);
}

TEST(Proof, NotSwapsTrueAndFalseKeepsNull) {
  ExprPtr gt = Cmp(Op::kGt, X(), IntLit(100));
  EXPECT_OUTCOMES(ProveInt(Not(gt), Ints(10, 20, 0)), T);
  // NOT over a nullable column: NULL stays NULL, so NOT (x > 100) is not "all rows".
  Outcomes o = ProveInt(Not(gt), Ints(10, 20, 1));
  EXPECT_OUTCOMES(o, T | N);
  EXPECT_FALSE(FullyMatches(o));
  EXPECT_TRUE(CannotMatch(ProveInt(Not(Cmp(Op::kLt, X(), IntLit(100))), Ints(10, 20, 5))));
}

TEST(Proof, AndOrFollowThreeValuedLogic) {
  ExprPtr yes = Cmp(Op::kGt, X(), IntLit(0));     // TRUE on [10, 20]
  ExprPtr no = Cmp(Op::kGt, X(), IntLit(100));    // FALSE
  ExprPtr maybe = Cmp(Op::kGt, X(), IntLit(15));  // TRUE or FALSE
  ColumnBounds b = Ints(10, 20);
  EXPECT_OUTCOMES(ProveInt(And({yes, no}), b), F);
  EXPECT_OUTCOMES(ProveInt(And({yes, maybe}), b), T | F);
  EXPECT_OUTCOMES(ProveInt(And({yes, yes, yes}), b), T);
  EXPECT_OUTCOMES(ProveInt(Or({no, maybe}), b), T | F);
  EXPECT_OUTCOMES(ProveInt(Or({no, no}), b), F);
  EXPECT_OUTCOMES(ProveInt(Or({yes, no}), b), T);
  // With NULL: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, TRUE AND NULL is NULL.
  EXPECT_OUTCOMES(ProveInt(And({no, NullLit()}), b), F);
  EXPECT_OUTCOMES(ProveInt(Or({yes, NullLit()}), b), T);
  EXPECT_OUTCOMES(ProveInt(And({yes, NullLit()}), b), N);
  EXPECT_OUTCOMES(ProveInt(Or({no, NullLit()}), b), N);
}

TEST(Proof, OrAcrossColumns) {
  // a > 100 OR s = 'zz': both impossible -> skip; one possible -> read.
  ExprPtr e = Or({Cmp(Op::kGt, Col(0, Int64()), IntLit(100)),
                  Cmp(Op::kEq, Col(1, LargeUtf8()), StrLit("zz"))});
  EXPECT_TRUE(CannotMatch(ProveOne(e, {Int64(), LargeUtf8()}, {Ints(1, 50), Strs("a", "m")})));
  EXPECT_FALSE(CannotMatch(ProveOne(e, {Int64(), LargeUtf8()}, {Ints(1, 50), Strs("a", "zz")})));
  EXPECT_FALSE(CannotMatch(ProveOne(e, {Int64(), LargeUtf8()}, {Ints(1, 500), Strs("a", "m")})));
  // One side unknown: anything.
  EXPECT_FALSE(CannotMatch(ProveOne(e, {Int64(), LargeUtf8()}, {Ints(1, 50), Unknown()})));
}

TEST(Proof, LiteralPredicates) {
  EXPECT_OUTCOMES(ProveInt(BoolLit(true), Ints(1, 2)), T);
  EXPECT_OUTCOMES(ProveInt(BoolLit(false), Ints(1, 2)), F);
  EXPECT_OUTCOMES(ProveInt(NullLit(), Ints(1, 2)), N);
  EXPECT_OUTCOMES(ProveInt(Cmp(Op::kEq, X(), Lit(Value::Null(), Int64())), Ints(1, 2)), N);
}

TEST(Proof, BooleanColumnAsPredicate) {
  ExprPtr flag = Col(0, Boolean());
  auto bools = [](bool lo, bool hi, int64_t nulls) {
    return Bounds(Value::Bool(lo), Value::Bool(hi), nulls);
  };
  EXPECT_OUTCOMES(ProveOne(flag, {Boolean()}, {bools(true, true, 0)}), T);
  EXPECT_OUTCOMES(ProveOne(flag, {Boolean()}, {bools(false, false, 1)}), F | N);
  EXPECT_OUTCOMES(ProveOne(Not(flag), {Boolean()}, {bools(false, true, 0)}), T | F);
  // A predicate compared as a boolean value: (x > 5) = FALSE.
  ExprPtr e = Cmp(Op::kEq, Cmp(Op::kGt, X(), IntLit(5)), BoolLit(false));
  EXPECT_OUTCOMES(ProveInt(e, Ints(10, 20)), F);
  EXPECT_OUTCOMES(ProveInt(IsNull(Cmp(Op::kGt, X(), IntLit(5))), Ints(10, 20, 0)), F);
}

TEST(Proof, ArithmeticIsAnyOutcome) {
  ExprPtr e = Cmp(Op::kGt, Arith(Op::kAdd, X(), IntLit(1)), IntLit(1000));
  EXPECT_OUTCOMES(ProveInt(e, Ints(1, 2)), T | F | N);
}

TEST(Proof, StartsWithAndLikePrefix) {
  ExprPtr s = Col(0, LargeUtf8());
  auto prove = [&](const ExprPtr& e, ColumnBounds b) { return ProveOne(e, {LargeUtf8()}, {b}); };
  ExprPtr like = Pattern(Op::kLike, s, "abc%");
  EXPECT_OUTCOMES(prove(like, Strs("a", "abb")), F);     // max < "abc"
  EXPECT_OUTCOMES(prove(like, Strs("abd", "b")), F);     // min >= "abd"
  EXPECT_OUTCOMES(prove(like, Strs("abc", "abcz")), T);  // inside [abc, abd)
  EXPECT_OUTCOMES(prove(like, Strs("ab", "abcz")), T | F);
  EXPECT_OUTCOMES(prove(like, Strs("abc", "abd")), T | F);  // "abd" itself does not match
  EXPECT_OUTCOMES(prove(Pattern(Op::kStartsWith, s, "abc"), Strs("abca", "abcb", 1)), T | N);
  // Other wildcards after the prefix: the prefix still excludes, never includes everything.
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "abc_"), Strs("abc", "abcz")), T | F);
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "abc_"), Strs("b", "c")), F);
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "%abc"), Strs("b", "c")), T | F);
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "%"), Strs("b", "c", 2)), T | N);
  // LIKE 'a\%%' (no escape character, as in DuckDB) is a prefix test for "a\".
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "a\\%%"), Strs("b", "c")), F);
  // No escape character (as in DuckDB): the prefix is "a\\", which "a%" does not start with.
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "a\\%%"), Strs("a%", "a%z")), F);
  EXPECT_OUTCOMES(prove(Pattern(Op::kLike, s, "a\\%%"), Strs("a\\x", "a\\z")), T);
  // ILIKE: any outcome the column's nulls allow.
  EXPECT_OUTCOMES(prove(Pattern(Op::kILike, s, "ABC%"), Strs("x", "y")), T | F);
}

TEST(Proof, PrefixWithFfBytes) {
  ExprPtr s = Col(0, LargeBinary());
  auto prove = [&](const std::string& prefix, ColumnBounds b) {
    return ProveOne(Pattern(Op::kStartsWith, s, prefix), {LargeBinary()}, {b});
  };
  // "a\xff" -> next prefix "b": everything in ["a\xff", "b") starts with it.
  EXPECT_OUTCOMES(prove("a\xff", Strs("a\xff", "a\xff\xff\xff")), T);
  EXPECT_OUTCOMES(prove("a\xff", Strs("a\xff", "b")), T | F);
  EXPECT_OUTCOMES(prove("a\xff", Strs("b", "c")), F);
  // All 0xff: no upper limit.
  EXPECT_OUTCOMES(prove("\xff\xff", Strs("\xff\xff", "\xff\xff\xff")), T | F);
  EXPECT_OUTCOMES(prove("\xff\xff", Strs("a", "\xff")), F);
}

TEST(Proof, CastIntToDoublePushesBounds) {
  ExprPtr e = Cmp(Op::kGt, Cast(X(), Float64()), FloatLit(20.5));
  EXPECT_OUTCOMES(ProveInt(e, Ints(10, 20)), F);
  EXPECT_OUTCOMES(ProveInt(e, Ints(10, 21)), T | F);
  ExprPtr ge = Cmp(Op::kGe, Cast(X(), Float64()), FloatLit(10.0));
  EXPECT_OUTCOMES(ProveInt(ge, Ints(10, 20)), T);  // exact below 2^53: no widening
  // Beyond 2^53 the bound is widened: a value near the bound is not claimed impossible.
  int64_t big = (int64_t{1} << 60) + 1;
  ExprPtr at_big = Cmp(Op::kGe, Cast(X(), Float64()), FloatLit(static_cast<double>(big)));
  EXPECT_OUTCOMES(ProveInt(at_big, Ints(big - 10, big)), T | F);
}

TEST(Proof, CastScalesDecimalsAndTimestamps) {
  // int -> decimal(20, 2): 5 becomes 500.
  ExprPtr dec = Cmp(Op::kLt, Cast(X(), Decimal128(20, 2)), Lit(Value::Int(550), Decimal128(20, 2)));
  EXPECT_OUTCOMES(ProveInt(dec, Ints(1, 5)), T);
  EXPECT_OUTCOMES(ProveInt(dec, Ints(1, 6)), T | F);
  // date -> timestamp[ms]: day 1 is 86400000 ms.
  ExprPtr d = Col(0, Date32());
  ExprPtr ts = Cmp(Op::kGe, Cast(d, Timestamp(TimeUnit::kMillis, "")),
                   Lit(Value::Int(86400000), Timestamp(TimeUnit::kMillis, "")));
  EXPECT_OUTCOMES(ProveOne(ts, {Date32()}, {Ints(1, 3)}), T);
  EXPECT_OUTCOMES(ProveOne(ts, {Date32()}, {Ints(0, 3)}), T | F);
  // timestamp[ms] -> timestamp[us].
  ExprPtr m = Col(0, Timestamp(TimeUnit::kMillis, ""));
  ExprPtr us = Cmp(Op::kLt, Cast(m, Timestamp(TimeUnit::kMicros, "")),
                   Lit(Value::Int(1500), Timestamp(TimeUnit::kMicros, "")));
  EXPECT_OUTCOMES(ProveOne(us, {Timestamp(TimeUnit::kMillis, "")}, {Ints(2, 3)}), F);
  // A change of zone is not a scaling: nothing is claimed.
  ExprPtr zoned = Cmp(Op::kLt, Cast(m, Timestamp(TimeUnit::kMicros, "Europe/Paris")),
                      Lit(Value::Int(1500), Timestamp(TimeUnit::kMicros, "Europe/Paris")));
  EXPECT_OUTCOMES(ProveOne(zoned, {Timestamp(TimeUnit::kMillis, "")}, {Ints(2, 3)}), T | F | N);
}

// x + INTERVAL never decreases in x: the bounds of dates 2024-01-28..2024-01-31 plus one month
// are 2024-02-28..2024-02-29 (clamped), in microseconds; date + n days shifts a date's bounds.
TEST(Proof, IntervalsShiftBounds) {
  auto shifted = [](const expr::Interval& interval, int sign, std::shared_ptr<const DataType> to) {
    auto e = std::make_shared<expr::Expr>();
    e->op = Op::kAddInterval;
    e->type = std::move(to);
    e->interval = interval;
    e->interval_sign = sign;
    e->children = {Col(0, Date32())};
    return ExprPtr(e);
  };
  const ColumnBounds late_january = Ints(19750, 19753);
  constexpr int64_t kDayMicros = int64_t{86400} * 1000000;
  ExprPtr month = shifted({1, 0, 0}, 1, Timestamp(TimeUnit::kMicros, ""));
  auto at = [&](int64_t day) {
    return Lit(Value::Int(expr::int128{day} * kDayMicros), month->type);
  };
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLe, month, at(19782)), {Date32()}, {late_january}), T);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLt, month, at(19781)), {Date32()}, {late_january}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kGt, month, at(19782)), {Date32()}, {late_january}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, month, at(19782)), {Date32()}, {late_january}), T | F);
  ExprPtr minus_three = shifted({0, 3, 0}, -1, Date32());
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLt, minus_three, Lit(Value::Int(19747), Date32())), {Date32()},
                           {late_january}),
                  F);
}

TEST(Proof, UnknownCastIsAnyOutcome) {
  ExprPtr e = Cmp(Op::kGt, Cast(Col(0, Float64()), Int64()), IntLit(5));
  EXPECT_OUTCOMES(ProveOne(e, {Float64()}, {Doubles(1, 2, false)}), T | F | N);
}

TEST(Proof, NaNIsAboveEveryNumber) {
  ExprPtr x = Col(0, Float64());
  ExprPtr gt = Cmp(Op::kGt, x, FloatLit(5));
  EXPECT_OUTCOMES(ProveOne(gt, {Float64()}, {Doubles(1, 3, true)}), T | F);  // NaN > 5
  EXPECT_OUTCOMES(ProveOne(gt, {Float64()}, {Doubles(1, 3, false)}), F);
  ExprPtr eq_nan = Cmp(Op::kEq, x, FloatLit(std::nan("")));
  EXPECT_OUTCOMES(ProveOne(eq_nan, {Float64()}, {Doubles(1, 3, true)}), T | F);
  EXPECT_OUTCOMES(ProveOne(eq_nan, {Float64()}, {Doubles(1, 3, false)}), F);
  // All NaN: the NaN point.
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_OUTCOMES(ProveOne(eq_nan, {Float64()}, {Doubles(nan, nan, true)}), T);
  EXPECT_OUTCOMES(
      ProveOne(Cmp(Op::kLt, x, FloatLit(1e300)), {Float64()}, {Doubles(nan, nan, true)}), F);
}

// A NaN the statistics leave out is one more value above the bounds, not a bound of infinity:
// what no number in [1, 3] and no NaN can satisfy is still proven false (before, the range
// [1, NaN] kept x = 5, x <= 0.5, x IN (7, 8) and x BETWEEN 4 AND 6 open).
TEST(Proof, NaNBesideTheBoundsIsOneMoreValue) {
  ExprPtr x = Col(0, Float64());
  const ColumnBounds may_nan = Doubles(1, 3, true);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, x, FloatLit(5)), {Float64()}, {may_nan}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLe, x, FloatLit(0.5)), {Float64()}, {may_nan}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kGe, x, FloatLit(0.5)), {Float64()}, {may_nan}), T);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kNe, x, FloatLit(5)), {Float64()}, {may_nan}), T);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kGt, x, FloatLit(5)), {Float64()}, {may_nan}), T | F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLt, x, FloatLit(2)), {Float64()}, {may_nan}), T | F);
  EXPECT_OUTCOMES(ProveOne(In(x, {Value::Float(7), Value::Float(8)}), {Float64()}, {may_nan}), F);
  EXPECT_OUTCOMES(
      ProveOne(In(x, {Value::Float(7), Value::Float(std::nan(""))}), {Float64()}, {may_nan}),
      T | F);
  ExprPtr between = And({Cmp(Op::kGe, x, FloatLit(4)), Cmp(Op::kLe, x, FloatLit(6))});
  EXPECT_OUTCOMES(ProveOne(between, {Float64()}, {may_nan}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kIsDistinctFrom, x, FloatLit(5)), {Float64()}, {may_nan}), T);
  // Through a float32 column widened to a double.
  ExprPtr f32 = Cast(Col(0, Float32()), Float64());
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, f32, FloatLit(5)), {Float32()}, {may_nan}), F);
}

// round(x, digits) of a double: bounds map through it where its steps are exact; where a bound
// lies beyond (DuckDB's round returns x or 0 there, not monotonic), nothing is proven.
TEST(Proof, RoundToDigitsMapsBoundsWhereItIsMonotonic) {
  auto round_to = [](int32_t digits) {
    auto e = std::make_shared<expr::Expr>(*Node(Op::kRound, Float64(), {Col(0, Float64())}));
    e->pattern = "round";
    e->digits = digits;
    return ExprPtr(e);
  };
  const ColumnBounds narrow = Doubles(1.234, 1.236, false);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, round_to(2), FloatLit(5)), {Float64()}, {narrow}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kGe, round_to(2), FloatLit(1.23)), {Float64()}, {narrow}), T);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, round_to(2), FloatLit(1.24)), {Float64()}, {narrow}),
                  T | F);
  EXPECT_OUTCOMES(
      ProveOne(Cmp(Op::kGt, round_to(-1), FloatLit(0)), {Float64()}, {Doubles(12, 30, false)}), T);
  // NaN rounds to NaN: it is not 5 either.
  EXPECT_OUTCOMES(
      ProveOne(Cmp(Op::kEq, round_to(1), FloatLit(5)), {Float64()}, {Doubles(1, 3, true)}), F);
  // Near the largest double, round(x, -1) may be 0 (its product overflows): no proof.
  const ColumnBounds huge = Doubles(-1.7976931348623157e308, -5, false);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, round_to(-1), FloatLit(0)), {Float64()}, {huge}), T | F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, round_to(400), FloatLit(7)), {Float64()}, {narrow}), T | F);
}

TEST(Proof, SignedZerosAreEqual) {
  ExprPtr eq = Cmp(Op::kEq, Col(0, Float64()), FloatLit(0.0));
  EXPECT_OUTCOMES(ProveOne(eq, {Float64()}, {Doubles(-0.0, 0.0, false)}), T);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kLt, Col(0, Float64()), FloatLit(-0.0)), {Float64()},
                           {Doubles(-0.0, 0.0, false)}),
                  F);
}

TEST(Proof, InexactBoundsStillExclude) {
  // A truncated max "b" (the writer's upper bound for "abc...") excludes "c%", proves nothing
  // about which values occur.
  ExprPtr s = Col(0, LargeUtf8());
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kGe, s, StrLit("c")), {LargeUtf8()}, {Strs("a", "b")}), F);
  EXPECT_OUTCOMES(ProveOne(Cmp(Op::kEq, s, StrLit("b")), {LargeUtf8()}, {Strs("a", "b")}), T | F);
}

TEST(Proof, ManyContainersAtOnce) {
  expr::BoundFilter filter = Filter(Cmp(Op::kGt, X(), IntLit(10)), {Int64()});
  StatisticsTable table;
  table.containers = 4;
  table.bounds = {{Ints(0, 5), Ints(0, 50), Ints(11, 50, 1), Unknown()}};
  std::vector<Outcomes> out = Prove(filter, table);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_OUTCOMES(out[0], F);
  EXPECT_OUTCOMES(out[1], T | F);
  EXPECT_OUTCOMES(out[2], T | N);
  EXPECT_OUTCOMES(out[3], T | F | N);
}

TEST(Proof, OutcomesToString) {
  EXPECT_EQ(OutcomesToString(0), "{}");
  EXPECT_EQ(OutcomesToString(kAnyOutcome), "{TRUE,FALSE,NULL}");
  EXPECT_EQ(OutcomesToString(F | N), "{FALSE,NULL}");
}

}  // namespace
}  // namespace pqsift::prune
