// Brute-force soundness of the proof: random small containers, their exact bounds (and randomly
// widened or unknown ones, and float bounds as sloppy writers store them), random predicate
// trees; every outcome a row actually produces (by a tiny reference three-valued interpreter)
// must be in the proved set.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <random>

#include "prune/expr_builders.h"
#include "prune/proof.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

using namespace testing;  // NOLINT: the expression builders
using Row = std::vector<Value>;

enum class ColKind { kInt, kFloat, kString, kBool };

std::shared_ptr<const DataType> TypeOf(ColKind k) {
  switch (k) {
    case ColKind::kInt: return Int64();
    case ColKind::kFloat: return Float64();
    case ColKind::kString: return LargeUtf8();
    case ColKind::kBool: return Boolean();
  }
  return nullptr;
}

// ---- the reference interpreter: one row at a time, SQL three-valued logic -------------------

bool LikeMatch(const std::string& s, size_t si, const std::string& p, size_t pi) {
  while (pi < p.size()) {
    char c = p[pi];
    if (c == '%') {
      for (size_t k = si; k <= s.size(); ++k) {
        if (LikeMatch(s, k, p, pi + 1)) return true;
      }
      return false;
    }
    if (si == s.size()) return false;
    if (c == '_') {
      ++si;
      ++pi;
      continue;
    }
    if (c == '\\' && pi + 1 < p.size()) c = p[++pi];
    if (s[si] != c) return false;
    ++si;
    ++pi;
  }
  return si == s.size();
}

Value Truth(bool b) { return Value::Bool(b); }

// The evaluator's cast semantics for the casts the generator emits.
Value CastValue(const Value& v, const DataType& to) {
  if (v.is_null()) return v;
  if (to.id == TypeId::kFloat64 && v.kind == Value::Kind::kInt) {
    return Value::Float(static_cast<double>(v.i));
  }
  if (to.id == TypeId::kDecimal128 && v.kind == Value::Kind::kInt) return Value::Int(v.i * 100);
  return v;
}

Value Eval(const expr::Expr& e, const Row& row) {
  auto child = [&](size_t i) { return Eval(*e.children[i], row); };
  switch (e.op) {
    case Op::kColumn: return row[e.column];
    case Op::kLiteral: return e.literal;
    case Op::kCast: return CastValue(child(0), *e.type);
    case Op::kEq:
    case Op::kNe:
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe: {
      Value a = child(0);
      Value b = child(1);
      if (a.is_null() || b.is_null()) return Value::Null();
      int c = expr::Compare(a, b);
      switch (e.op) {
        case Op::kEq: return Truth(c == 0);
        case Op::kNe: return Truth(c != 0);
        case Op::kLt: return Truth(c < 0);
        case Op::kLe: return Truth(c <= 0);
        case Op::kGt: return Truth(c > 0);
        default: return Truth(c >= 0);
      }
    }
    case Op::kIsDistinctFrom:
    case Op::kIsNotDistinctFrom: {
      Value a = child(0);
      Value b = child(1);
      bool same =
          a.is_null() || b.is_null() ? a.is_null() && b.is_null() : expr::Compare(a, b) == 0;
      return Truth(e.op == Op::kIsNotDistinctFrom ? same : !same);
    }
    case Op::kAnd:
    case Op::kOr: {
      bool is_and = e.op == Op::kAnd;
      bool any_null = false;
      for (size_t i = 0; i < e.children.size(); ++i) {
        Value v = child(i);
        if (v.is_null()) {
          any_null = true;
        } else if (v.b != is_and) {
          return Truth(!is_and);  // FALSE decides AND, TRUE decides OR
        }
      }
      return any_null ? Value::Null() : Truth(is_and);
    }
    case Op::kNot: {
      Value v = child(0);
      return v.is_null() ? v : Truth(!v.b);
    }
    case Op::kIsNull: return Truth(child(0).is_null());
    case Op::kIsNotNull: return Truth(!child(0).is_null());
    case Op::kIn: {
      Value v = child(0);
      if (v.is_null()) return v;
      for (const Value& x : e.list) {
        if (expr::Compare(v, x) == 0) return Truth(true);
      }
      return e.list_has_null ? Value::Null() : Truth(false);
    }
    case Op::kLike:
    case Op::kStartsWith:
    case Op::kEndsWith:
    case Op::kContains:
    case Op::kILike: {
      Value v = child(0);
      if (v.is_null()) return v;
      if (e.op == Op::kStartsWith) return Truth(v.bytes.starts_with(e.pattern));
      if (e.op == Op::kEndsWith) return Truth(v.bytes.ends_with(e.pattern));
      if (e.op == Op::kContains) return Truth(v.bytes.find(e.pattern) != std::string::npos);
      if (e.op == Op::kLike) return Truth(LikeMatch(v.bytes, 0, e.pattern, 0));
      std::string lower = v.bytes;
      std::string pattern = e.pattern;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (char& c : pattern) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return Truth(LikeMatch(lower, 0, pattern, 0));
    }
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kMod: {
      Value a = child(0);
      Value b = child(1);
      if (a.is_null() || b.is_null()) return Value::Null();
      if (e.op == Op::kAdd) return Value::Int(a.i + b.i);
      if (e.op == Op::kSub) return Value::Int(a.i - b.i);
      if (e.op == Op::kMod) return b.i == 0 ? Value::Null() : Value::Int(a.i % b.i);
      return Value::Int(a.i * b.i);
    }
    case Op::kIntersectsExtent:  // the generator emits no geometry, variant paths, dates or
    case Op::kDatePart:          // value functions (tests/property's differential draws date
    case Op::kDateTrunc:         // parts and value functions against DuckDB)
    case Op::kLower:
    case Op::kUpper:
    case Op::kLength:
    case Op::kOctetLength:
    case Op::kAbs:
    case Op::kCoalesce:
    case Op::kGreatest:
    case Op::kLeast:
    case Op::kRound:
    case Op::kAddInterval:
    case Op::kTrim:
    case Op::kStrpos:
    case Op::kReplace:
    case Op::kConcat:
    case Op::kRegexValue:
    case Op::kSubstring:
    case Op::kFloatTest:
    case Op::kRegexMatch:
    case Op::kVariantGet:
    case Op::kGuarded: break;
  }
  return Value::Null();
}

Outcomes OutcomeOf(const Value& v) {
  if (v.is_null()) return kCanBeNull;
  return v.b ? kCanBeTrue : kCanBeFalse;
}

// ---- random data --------------------------------------------------------------------------

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))];
  }

  Value RandomValue(ColKind k) {
    static const std::vector<double> kFloats = {-2.5,
                                                -1,
                                                -0.0,
                                                0.0,
                                                1,
                                                2.5,
                                                7,
                                                std::numeric_limits<double>::quiet_NaN(),
                                                std::numeric_limits<double>::infinity()};
    static const std::vector<std::string> kStrings = {
        "", "a", "ab", "abc", "abd", "abc\xff", "b", "ba", "\xff", "\xff\xff", "a%", "A"};
    switch (k) {
      case ColKind::kInt: return Value::Int(Int(-6, 6));
      case ColKind::kFloat: return Value::Float(Pick(kFloats));
      case ColKind::kString: return Value::Bytes(Pick(kStrings));
      case ColKind::kBool: return Value::Bool(Chance(0.5));
    }
    return Value::Null();
  }

  // ---- bounds: exact, then randomly weakened (always still sound) ----
  ColumnBounds BoundsOf(const std::vector<Row>& rows, size_t column, ColKind kind) {
    ColumnBounds b;
    b.num_rows = static_cast<int64_t>(rows.size());
    int64_t nulls = 0;
    bool nan = false;
    for (const Row& r : rows) {
      const Value& v = r[column];
      if (v.is_null()) {
        ++nulls;
        continue;
      }
      if (v.kind == Value::Kind::kFloat && std::isnan(v.f)) {
        nan = true;
        continue;  // writers leave NaN out of min/max
      }
      if (!b.min || expr::Compare(v, *b.min) < 0) b.min = v;
      if (!b.max || expr::Compare(v, *b.max) > 0) b.max = v;
    }
    b.null_count = nulls;
    b.may_contain_nan = kind == ColKind::kFloat && (nan || Chance(0.2));
    if (kind == ColKind::kFloat && nan && !b.min) {  // all NaN: the NaN point
      b.min = Value::Float(std::numeric_limits<double>::quiet_NaN());
      b.max = b.min;
    }
    if (kind == ColKind::kFloat && Chance(0.3)) return ThroughStatistics(b, nan);
    if (Chance(0.15)) b.null_count.reset();
    if (Chance(0.1)) b.min.reset();
    if (Chance(0.1)) b.max.reset();
    if (b.min && Chance(0.25)) b.min = Lower(*b.min);
    if (b.max && Chance(0.25)) b.max = Higher(*b.max);
    return b;
  }

  // The bounds as a sloppy TYPE_ORDER writer stores them (a zero of either sign, NaN counts
  // present or not), decoded by BoundsFromStatistics.
  ColumnBounds ThroughStatistics(const ColumnBounds& exact, bool has_nan) {
    Statistics s;
    auto encode = [&](const std::optional<Value>& v) -> std::optional<std::string_view> {
      if (!v) return std::nullopt;
      double d = v->f;
      if (d == 0) d = Chance(0.5) ? 0.0 : -0.0;  // the sign of a zero bound is arbitrary
      std::string& bytes = storage_.emplace_back(sizeof d, '\0');
      std::memcpy(bytes.data(), &d, sizeof d);
      return bytes;
    };
    bool all_nan = exact.min && std::isnan(exact.min->f);
    if (!all_nan) {
      s.min_value = encode(exact.min);
      s.max_value = encode(exact.max);
    }
    s.null_count = exact.null_count;
    if (Chance(0.7)) {
      int64_t nans = 0;
      if (has_nan) nans = exact.num_rows - *exact.null_count - non_nan_count_;
      s.nan_count = nans;
    }
    ColumnDescriptor c;
    c.physical_type = PhysicalType::kDouble;
    c.column_order = ColumnOrder::kTypeDefined;
    c.max_definition_level = 1;  // optional: the rows hold NULLs
    return BoundsFromStatistics(c, *Float64(), s, exact.num_rows);
  }

  Value Lower(const Value& v) {
    switch (v.kind) {
      case Value::Kind::kInt: return Value::Int(v.i - Int(1, 3));
      case Value::Kind::kFloat:
        return std::isnan(v.f) ? Value::Float(Int(-3, 3)) : Value::Float(v.f - 1);
      case Value::Kind::kBytes: return Value::Bytes(v.bytes.substr(0, v.bytes.size() / 2));
      case Value::Kind::kBool: return Value::Bool(false);
      case Value::Kind::kNull: break;
    }
    return v;
  }
  Value Higher(const Value& v) {
    switch (v.kind) {
      case Value::Kind::kInt: return Value::Int(v.i + Int(1, 3));
      case Value::Kind::kFloat:
        return Value::Float(Chance(0.3) ? std::numeric_limits<double>::quiet_NaN() : v.f + 1);
      case Value::Kind::kBytes: return Value::Bytes(v.bytes + (Chance(0.5) ? "\xff" : "a"));
      case Value::Kind::kBool: return Value::Bool(true);
      case Value::Kind::kNull: break;
    }
    return v;
  }

  // ---- predicates ----
  ExprPtr Literal(ColKind k) {
    if (Chance(0.05)) return Lit(Value::Null(), TypeOf(k));
    return Lit(RandomValue(k), TypeOf(k));
  }

  ExprPtr Leaf(const std::vector<ColKind>& kinds) {
    int column = Int(0, static_cast<int>(kinds.size()) - 1);
    ColKind kind = kinds[column];
    ExprPtr col = Col(column, TypeOf(kind));
    static const std::vector<Op> kComparisons = {Op::kEq,
                                                 Op::kNe,
                                                 Op::kLt,
                                                 Op::kLe,
                                                 Op::kGt,
                                                 Op::kGe,
                                                 Op::kIsDistinctFrom,
                                                 Op::kIsNotDistinctFrom};
    static const std::vector<std::string> kPatterns = {"a%",  "ab%",      "abc%",  "%",  "a_",
                                                       "abc", "\xff%",    "a\\%%", "%b", "",
                                                       "_%",  "abc\xff%", "b%%",   "a%c"};
    switch (Int(0, 9)) {
      case 0:
      case 1:
        if (Chance(0.5)) return Cmp(Pick(kComparisons), col, Literal(kind));
        return Cmp(Pick(kComparisons), Literal(kind), col);
      case 2: {  // column against column of the same kind
        for (size_t other = 0; other < kinds.size(); ++other) {
          if (kinds[other] == kind && static_cast<int>(other) != column) {
            return Cmp(Pick(kComparisons), col, Col(static_cast<int32_t>(other), TypeOf(kind)));
          }
        }
        return Cmp(Pick(kComparisons), col, col);
      }
      case 3: {
        std::vector<Value> list;
        int n = Int(1, 4);
        for (int i = 0; i < n; ++i) list.push_back(RandomValue(kind));
        return In(col, list, Chance(0.2));
      }
      case 4: return Chance(0.5) ? IsNull(col) : IsNotNull(col);
      case 5:
        if (kind == ColKind::kString) {
          Op op = Pick(std::vector<Op>{Op::kLike, Op::kLike, Op::kStartsWith, Op::kILike,
                                       Op::kEndsWith, Op::kContains});
          std::string p = Pick(kPatterns);
          if (op == Op::kStartsWith || op == Op::kEndsWith || op == Op::kContains) {
            p = p.substr(0, p.find('%'));
          }
          return Pattern(op, col, p);
        }
        if (kind == ColKind::kBool) return col;
        if (kind == ColKind::kInt) {
          if (Chance(0.5)) {
            return Cmp(Pick(kComparisons), Cast(col, Float64()),
                       FloatLit(Pick(std::vector<double>{-2.5, 0, 0.5, 3, 6.5})));
          }
          return Cmp(Pick(kComparisons), Cast(col, Decimal128(20, 2)),
                     Lit(Value::Int(Int(-700, 700)), Decimal128(20, 2)));
        }
        return Cmp(Pick(kComparisons), Cast(col, Float64()), Literal(kind));
      case 6:
        if (kind == ColKind::kInt) {
          return Cmp(Op::kGt, Arith(Op::kAdd, col, IntLit(Int(-2, 2))), IntLit(Int(-5, 5)));
        }
        return Cmp(Pick(kComparisons), col, Literal(kind));
      case 7: return Pick(std::vector<ExprPtr>{BoolLit(true), BoolLit(false), NullLit()});
      default: return Cmp(Pick(kComparisons), col, Literal(kind));
    }
  }

  ExprPtr Tree(const std::vector<ColKind>& kinds, int depth) {
    if (depth == 0 || Chance(0.35)) return Leaf(kinds);
    switch (Int(0, 2)) {
      case 0:
      case 1: {
        std::vector<ExprPtr> children;
        int n = Int(2, 3);
        for (int i = 0; i < n; ++i) children.push_back(Tree(kinds, depth - 1));
        return Chance(0.5) ? And(children) : Or(children);
      }
      default: return Not(Tree(kinds, depth - 1));
    }
  }

  int64_t non_nan_count_ = 0;  // set per column before ThroughStatistics

 private:
  std::mt19937_64 rng_;
  std::deque<std::string> storage_;
};

TEST(ProofSoundness, EveryOccurringOutcomeIsProved) {
  Generator g(20240611);
  constexpr int kCases = 20000;
  int64_t containers_checked = 0;
  int64_t pruned = 0;
  int64_t fully_matched = 0;
  int64_t narrower_than_any = 0;
  for (int n = 0; n < kCases; ++n) {
    std::vector<ColKind> kinds;
    int columns = g.Int(1, 3);
    for (int k = 0; k < columns; ++k) kinds.push_back(static_cast<ColKind>(g.Int(0, 3)));
    int containers = g.Int(1, 4);
    std::vector<std::vector<Row>> data(containers);
    StatisticsTable table;
    table.containers = containers;
    table.bounds.resize(columns);
    for (int c = 0; c < containers; ++c) {
      int rows = g.Chance(0.05) ? 0 : g.Int(1, 6);
      double null_rate = g.Pick(std::vector<double>{0, 0, 0.3, 1});
      for (int r = 0; r < rows; ++r) {
        Row row;
        for (ColKind kind : kinds)
          row.push_back(g.Chance(null_rate) ? Value::Null() : g.RandomValue(kind));
        data[c].push_back(std::move(row));
      }
      for (int k = 0; k < columns; ++k) {
        g.non_nan_count_ = 0;
        for (const Row& row : data[c]) {
          const Value& v = row[k];
          if (!v.is_null() && !(v.kind == Value::Kind::kFloat && std::isnan(v.f)))
            ++g.non_nan_count_;
        }
        table.bounds[k].push_back(g.BoundsOf(data[c], k, kinds[k]));
      }
    }
    std::vector<std::shared_ptr<const DataType>> types;
    for (ColKind kind : kinds) types.push_back(TypeOf(kind));
    expr::BoundFilter filter = Filter(g.Tree(kinds, 3), types);
    std::vector<Outcomes> proved = Prove(filter, table);
    ASSERT_EQ(proved.size(), static_cast<size_t>(containers));
    for (int c = 0; c < containers; ++c) {
      Outcomes actual = 0;
      for (const Row& row : data[c]) actual |= OutcomeOf(Eval(*filter.root, row));
      ++containers_checked;
      if ((actual & ~proved[c]) != 0) {
        std::string rows;
        for (const Row& row : data[c]) {
          rows += "(";
          for (const Value& v : row) rows += expr::DebugString(v) + " ";
          rows += ") ";
        }
        std::string bounds;
        for (int k = 0; k < columns; ++k) {
          const ColumnBounds& b = table.bounds[k][c];
          bounds += "[" + (b.min ? expr::DebugString(*b.min) : "?") + ", " +
                    (b.max ? expr::DebugString(*b.max) : "?") +
                    "] nulls=" + (b.null_count ? std::to_string(*b.null_count) : "?") +
                    (b.may_contain_nan ? " nan?" : "") + "; ";
        }
        FAIL() << "case " << n << " container " << c << ": actual " << OutcomesToString(actual)
               << " not within proved " << OutcomesToString(proved[c]) << "\nrows " << rows
               << "\nbounds " << bounds;
      }
      if (CannotMatch(proved[c])) ++pruned;
      if (FullyMatches(proved[c])) ++fully_matched;
      if (proved[c] != kAnyOutcome) ++narrower_than_any;
    }
  }
  std::printf("%lld containers: %lld cannot match, %lld fully matched, %lld narrower than any\n",
              static_cast<long long>(containers_checked), static_cast<long long>(pruned),
              static_cast<long long>(fully_matched), static_cast<long long>(narrower_than_any));
  // The property is only meaningful if the proof often proves something.
  EXPECT_GT(pruned, containers_checked / 20);
  EXPECT_GT(fully_matched, containers_checked / 50);
  EXPECT_GT(narrower_than_any, containers_checked / 3);
}

}  // namespace
}  // namespace pqsift::prune
