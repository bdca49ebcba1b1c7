#include "prune/proof.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include "arrow/builder.h"
#include "arrow/cast.h"
#include "arrow/layout.h"
#include "expr/evaluate.h"
#include "expr/interval.h"
#include "expr/like.h"
#include "expr/rounding.h"
#include "geo/extent.h"
#include "prune/range_algebra.h"

namespace pqsift::prune {
namespace {

using expr::Expr;
using expr::int128;
using expr::Op;
using expr::Value;
using range_algebra::Bits;
using range_algebra::Cmp;
using range_algebra::Compare;
using range_algebra::CompareDistinct;
using range_algebra::IsNaN;
using range_algebra::IsPoint;
using range_algebra::kNaN;
using range_algebra::MayBeAtMost;
using range_algebra::MayBeBelow;
using range_algebra::Not;
using range_algebra::OverParts;
using range_algebra::Range;
using range_algebra::Ranges;
using range_algebra::ToOutcomes;
using range_algebra::ToRange;

// The literal prefix every match of a LIKE pattern starts with (LIKE has no escape character,
// as in DuckDB); `whole` when the pattern is
// exactly that prefix followed by '%'s (then every string with the prefix matches).
struct LikePrefix {
  std::string prefix;
  bool whole = false;
};
LikePrefix PrefixOfLike(const std::string& pattern) {
  LikePrefix out;
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '%' || c == '_') break;
    out.prefix += c;
    ++i;
  }
  if (i == pattern.size()) return out;  // no wildcard: equality, a subset of the prefix match
  out.whole = pattern.find_first_not_of('%', i) == std::string::npos;
  return out;
}

// The least string above every string that starts with `prefix`: drop trailing 0xff bytes and
// increment the last one. None when the prefix is empty or all 0xff (no upper limit).
std::optional<std::string> NextPrefix(std::string prefix) {
  while (!prefix.empty() && static_cast<uint8_t>(prefix.back()) == 0xff) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<uint8_t>(prefix.back()) + 1);
  return prefix;
}

bool IsBytes(TypeId id) {
  return id == TypeId::kLargeString || id == TypeId::kLargeBinary || id == TypeId::kFixedSizeBinary;
}
using cast::IntCastFactor;
using cast::PowerOfTen;

class Prover {
 public:
  // `assumed` (probing): the outcomes of the value-set subtrees in the order met, instead of
  // evaluating them.
  Prover(const expr::BoundFilter& filter, const StatisticsTable& stats,
         const std::vector<Outcomes>* assumed = nullptr)
      : filter_(filter),
        stats_(stats),
        n_(static_cast<size_t>(std::max<int64_t>(0, stats.containers))),
        assumed_(assumed) {
    column_cache_.resize(filter.columns.size());
  }

  // The filter's columns whose ranges leave NaN out somewhere (Range::finite_hi), in order.
  std::vector<int32_t> ColumnsBesideNaN() {
    std::vector<int32_t> out;
    for (size_t k = 0; k < filter_.columns.size(); ++k) {
      const Ranges r = ColumnRanges(static_cast<int32_t>(k));
      if (std::any_of(r.ranges.begin(), r.ranges.end(),
                      [](const Range& x) { return x.finite_hi != nullptr; })) {
        out.push_back(static_cast<int32_t>(k));
      }
    }
    return out;
  }

  // Proves only the rows of one case per listed column: NaN (true) or not (false), where its
  // statistics leave NaN out. Before the first proof.
  void AssumeNaNCases(std::map<int32_t, bool> cases) {
    nan_cases_ = std::move(cases);
    for (auto& cached : column_cache_) cached.reset();
  }

  // The outcomes of predicate `e` per container: from the bounds, narrowed by value sets where
  // `e` is a largest subtree reading a single column that has them.
  std::vector<Outcomes> Predicate(const Expr& e) {
    if (inside_value_set_subtree_) return FromBounds(e);
    int32_t column = SingleColumnOf(e);
    if (column == kNoColumn) {
      if (std::optional<Outcomes> known = Constant(e)) {
        return Each([&](size_t) { return *known; });
      }
    }
    if (column < 0 || !HasValueSets(column)) return FromBounds(e);
    if (assumed_ != nullptr) return Assumed(e, column);
    inside_value_set_subtree_ = true;
    std::vector<Outcomes> out = FromBounds(e);
    inside_value_set_subtree_ = false;
    NarrowByValueSets(e, column, out);
    return out;
  }

  // Value-set subtrees met so far (probing).
  size_t subtrees_assumed() const { return next_assumed_; }

  std::vector<Outcomes> FromBounds(const Expr& e) {
    switch (e.op) {
      case Op::kEq:
      case Op::kNe:
      case Op::kLt:
      case Op::kLe:
      case Op::kGt:
      case Op::kGe:
      case Op::kIsDistinctFrom:
      case Op::kIsNotDistinctFrom: {
        if (e.children.size() != 2) return Any();
        Ranges a = Values(*e.children[0]);
        Ranges b = Values(*e.children[1]);
        bool distinct = e.op == Op::kIsDistinctFrom || e.op == Op::kIsNotDistinctFrom;
        return Each([&](size_t c) {
          return distinct ? CompareDistinct(e.op, a[c], b[c]) : Compare(e.op, a[c], b[c]);
        });
      }
      case Op::kAnd:
      case Op::kOr: {
        if (e.children.empty()) return Any();
        auto combine = e.op == Op::kAnd ? range_algebra::AndOutcomes : range_algebra::OrOutcomes;
        std::vector<Outcomes> out = Predicate(*e.children[0]);
        for (size_t i = 1; i < e.children.size(); ++i) {
          std::vector<Outcomes> next = Predicate(*e.children[i]);
          for (size_t c = 0; c < n_; ++c) out[c] = combine(out[c], next[c]);
        }
        return out;
      }
      case Op::kNot: {
        if (e.children.size() != 1) return Any();
        std::vector<Outcomes> out = Predicate(*e.children[0]);
        for (Outcomes& o : out) o = Not(o);
        return out;
      }
      case Op::kIsNull:
      case Op::kIsNotNull: {
        if (e.children.size() != 1) return Any();
        Ranges r = Values(*e.children[0]);
        bool is_null = e.op == Op::kIsNull;
        return Each([&](size_t c) {
          bool null = r[c].can_be_null;
          bool value = r[c].can_be_value;
          return Bits(is_null ? null : value, is_null ? value : null, false);
        });
      }
      case Op::kIn: return In(e);
      case Op::kStartsWith:
      case Op::kLike: {
        if (e.children.size() != 1) return Any();
        if (e.children[0]->op == Op::kLiteral) return LiteralLike(e);
        LikePrefix p{e.pattern, true};
        if (e.op == Op::kLike) p = PrefixOfLike(e.pattern);
        return Prefix(*e.children[0], p);
      }
      case Op::kIntersectsExtent: return IntersectsExtent(e);
      case Op::kILike:
      case Op::kEndsWith:
      case Op::kContains:
      case Op::kRegexMatch:
      case Op::kFloatTest: {  // NULL in, NULL out; otherwise TRUE or FALSE
        if (e.children.size() != 1) return Any();
        if (e.children[0]->op == Op::kLiteral) return LiteralLike(e);
        Ranges r = Values(*e.children[0]);  // NULL in, NULL out; otherwise TRUE or FALSE
        return Each(
            [&](size_t c) { return Bits(r[c].can_be_value, r[c].can_be_value, r[c].can_be_null); });
      }
      case Op::kColumn:
      case Op::kLiteral:
      case Op::kCast:
      case Op::kDatePart:
      case Op::kDateTrunc:
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
      case Op::kVariantGet:
      case Op::kGuarded: {
        Ranges r = Values(e);
        return Each([&](size_t c) { return ToOutcomes(r[c]); });
      }
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv:
      case Op::kMod: break;
    }
    return Any();
  }

  // A pattern matched against a literal (a partition value or file name substituted for its
  // column, expr/substitute.h): decided exactly, so `filename LIKE '%day=2026-01-05%'` skips a
  // file before its footer is read, whatever the pattern's shape.
  std::vector<Outcomes> LiteralLike(const Expr& e) {
    const expr::Value& v = e.children[0]->literal;
    if (v.is_null()) return Each([](size_t) { return Bits(false, false, true); });
    if (v.kind != expr::Value::Kind::kBytes) return Any();
    bool match = false;
    if (e.op == Op::kStartsWith || e.op == Op::kEndsWith || e.op == Op::kContains) {
      match = expr::PassesSubstringTest(e.op, e.pattern, v.bytes);
    } else if (e.op == Op::kRegexMatch) {
      match = e.regex->Matches(v.bytes);
    } else {
      match = expr::LikeMatcher(e.pattern, e.op == Op::kILike).Matches(v.bytes);
    }
    return Each([&](size_t) { return Bits(match, !match, false); });
  }

  Ranges Values(const Expr& e) {
    switch (e.op) {
      case Op::kColumn: return ColumnRanges(e.column);
      case Op::kLiteral: {
        Ranges out{true, {Range{}}};
        if (e.literal.is_null()) {
          out.ranges[0].can_be_value = false;
        } else {
          out.ranges[0] = Range{&e.literal, &e.literal, false, true};
        }
        return out;
      }
      case Op::kCast: return Cast(e);
      case Op::kDatePart: return DatePart(e);
      case Op::kDateTrunc: return DateTrunc(e);
      case Op::kVariantGet: {
        // Nothing is known of a variant's values, except that of a NULL variant (a file
        // without the column): NULL.
        bool null_input = !e.children.empty() && e.children[0]->op == Op::kLiteral &&
                          e.children[0]->literal.is_null();
        Ranges out = Unknown();
        if (null_input) out.ranges[0].can_be_value = false;
        return out;
      }
      case Op::kGuarded: return Guarded(e);
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv:
      case Op::kMod:
      case Op::kLower:  // row by row, and on value sets (NarrowByValueSets); not by bounds
      case Op::kUpper:
      case Op::kLength:
      case Op::kOctetLength:
      case Op::kAbs:
      case Op::kCoalesce:
      case Op::kGreatest:
      case Op::kLeast:
      case Op::kTrim:
      case Op::kStrpos:
      case Op::kReplace:
      case Op::kConcat:
      case Op::kRegexValue:
      case Op::kSubstring: return Unknown();
      case Op::kRound: return Round(e);
      case Op::kAddInterval: return AddInterval(e);
      default: {  // a predicate used as a boolean value
        std::vector<Outcomes> o = Predicate(e);
        Ranges out;
        out.ranges.reserve(n_);
        for (Outcomes x : o) out.ranges.push_back(ToRange(x));
        return out;
      }
    }
  }

 private:
  template <typename F>
  std::vector<Outcomes> Each(F&& f) {
    std::vector<Outcomes> out(n_);
    for (size_t c = 0; c < n_; ++c) out[c] = f(c);
    return out;
  }
  std::vector<Outcomes> Any() { return std::vector<Outcomes>(n_, kAnyOutcome); }
  static Ranges Unknown() { return Ranges{true, {Range{}}}; }

  // The one column `e` reads; kNoColumn when none, kManyColumns when several.
  static constexpr int32_t kNoColumn = -1;
  static constexpr int32_t kManyColumns = -2;
  // A kGuarded reads its typed column only where its guards are all NULL (the only containers
  // where value sets are used for it: GuardsNull), so its guards do not count here.
  static int32_t SingleColumnOf(const Expr& e) {
    if (e.op == Op::kColumn) return e.column >= 0 ? e.column : kManyColumns;
    if (e.op == Op::kGuarded)
      return e.children.empty() ? kManyColumns : SingleColumnOf(*e.children[0]);
    int32_t found = kNoColumn;
    for (const auto& child : e.children) {
      int32_t c = SingleColumnOf(*child);
      if (c == kNoColumn) continue;
      if (c == kManyColumns || (found != kNoColumn && found != c)) return kManyColumns;
      found = c;
    }
    return found;
  }

  bool HasValueSets(int32_t column) const {
    if (static_cast<size_t>(column) >= stats_.bounds.size() || stats_.bounds[column].size() < n_) {
      return false;
    }
    const std::vector<ColumnBounds>& bounds = stats_.bounds[column];
    return std::any_of(bounds.begin(), bounds.begin() + static_cast<std::ptrdiff_t>(n_),
                       [](const ColumnBounds& b) { return b.values != nullptr; });
  }

  // Outcomes of `e` (reading only `column`) where every row's value is one of `values`:
  // nullopt when the evaluator cannot evaluate it (an error, e.g. overflow): then the bounds'
  // outcomes stand.
  std::optional<Outcomes> EvaluateOn(const Expr& e, int32_t column, const Array& values) {
    std::vector<const Array*> columns(filter_.columns.size(), nullptr);
    columns[static_cast<size_t>(column)] = &values;
    Result<std::vector<expr::Truth>> truth =
        expr::EvaluateTruth(filter_, e, columns, values.length);
    if (!truth.ok()) return std::nullopt;
    Outcomes out = 0;
    for (expr::Truth t : *truth) {
      out |= t == expr::Truth::kTrue    ? kCanBeTrue
             : t == expr::Truth::kFalse ? kCanBeFalse
                                        : kCanBeNull;
    }
    return out;
  }

  // The outcome of a predicate that reads no column, once the columns a file holds one value
  // of (partition values) are literals (expr/substitute.h): evaluated, so that any function of
  // them (`lower(region) = 'eu'`) decides a file exactly. nullopt for a bare literal (the
  // bounds have it) or where the evaluator fails (an overflow: the scan reports it).
  std::optional<Outcomes> Constant(const Expr& e) {
    if (e.op == Op::kLiteral || e.op == Op::kVariantGet || e.op == Op::kGuarded) {
      return std::nullopt;
    }
    std::vector<const Array*> no_columns(filter_.columns.size(), nullptr);
    Result<std::vector<expr::Truth>> truth = expr::EvaluateTruth(filter_, e, no_columns, 1);
    if (!truth.ok() || truth->size() != 1) return std::nullopt;
    const expr::Truth t = (*truth)[0];
    return t == expr::Truth::kTrue    ? kCanBeTrue
           : t == expr::Truth::kFalse ? kCanBeFalse
                                      : kCanBeNull;
  }

  // The outcome of `e` on a row where `column` is NULL (once per subtree).
  Outcomes OnNull(const Expr& e, int32_t column) {
    const std::shared_ptr<const DataType>& type = filter_.columns[column].type;
    if (!type) return kAnyOutcome;
    Result<std::shared_ptr<Array>> null = MakeAllNullArray(type, 1);
    if (!null.ok()) return kAnyOutcome;
    return EvaluateOn(e, column, **null).value_or(kAnyOutcome);
  }

  // Probing (CouldDecide): the value-set subtree's outcome is the next assumed one, plus its
  // outcome on NULL where the column may be NULL.
  std::vector<Outcomes> Assumed(const Expr& e, int32_t column) {
    Outcomes t = next_assumed_ < assumed_->size() ? (*assumed_)[next_assumed_] : kAnyOutcome;
    ++next_assumed_;
    std::vector<Outcomes> out = FromBoundsInside(e);
    std::optional<Outcomes> on_null;
    for (size_t c = 0; c < n_; ++c) {
      const ColumnBounds& b = stats_.bounds[column][c];
      if (b.values == nullptr || b.num_rows <= 0 || !GuardsNull(e, c)) continue;
      bool can_be_null = !b.null_count || *b.null_count > 0;
      bool can_be_value = !b.null_count || *b.null_count < b.num_rows;
      Outcomes o = can_be_value ? t : 0;
      if (can_be_null) {
        if (!on_null) on_null = OnNull(e, column);
        o |= *on_null;
      }
      out[c] = o;
    }
    return out;
  }

  std::vector<Outcomes> FromBoundsInside(const Expr& e) {
    bool was = inside_value_set_subtree_;
    inside_value_set_subtree_ = true;
    std::vector<Outcomes> out = FromBounds(e);
    inside_value_set_subtree_ = was;
    return out;
  }

  // Whether every guard of every kGuarded in `e` is all NULL in container c (true when there
  // is none).
  bool GuardsNull(const Expr& e, size_t c) const {
    if (e.op == Op::kGuarded) {
      for (size_t k = 1; k < e.children.size(); ++k) {
        const Expr& g = *e.children[k];
        if (g.op != Op::kColumn || g.column < 0 ||
            static_cast<size_t>(g.column) >= stats_.bounds.size() ||
            stats_.bounds[g.column].size() <= c) {
          return false;
        }
        const ColumnBounds& b = stats_.bounds[g.column][c];
        if (!b.null_count || *b.null_count != b.num_rows) return false;
      }
    }
    for (const auto& child : e.children) {
      if (!GuardsNull(*child, c)) return false;
    }
    return true;
  }

  void NarrowByValueSets(const Expr& e, int32_t column, std::vector<Outcomes>& out) {
    if (static_cast<size_t>(column) >= filter_.columns.size()) return;
    std::optional<Outcomes> on_null;
    for (size_t c = 0; c < n_; ++c) {
      const ColumnBounds& b = stats_.bounds[column][c];
      if (b.values == nullptr || b.num_rows <= 0 || !GuardsNull(e, c)) continue;
      bool can_be_null = !b.null_count || *b.null_count > 0;
      bool can_be_value = !b.null_count || *b.null_count < b.num_rows;
      Outcomes exact = 0;
      if (can_be_value) {
        std::optional<Outcomes> o = EvaluateOn(e, column, *b.values);
        if (!o) continue;
        exact |= *o;
      }
      if (can_be_null) {
        if (!on_null) on_null = OnNull(e, column);
        exact |= *on_null;
      }
      // Both sets hold every outcome a row can give: so does their intersection.
      out[c] &= exact;
    }
  }

  const Value* Keep(Value v) {
    arena_.push_back(std::move(v));
    return &arena_.back();
  }

  // A filter column's ranges, built once from its ColumnBounds.
  // FALSE or NULL (NULL rows, bytes that are not WKB) where the container's bbox misses the
  // query box; anything elsewhere.
  std::vector<Outcomes> IntersectsExtent(const Expr& e) {
    if (e.children.size() != 1 || e.children[0]->op != Op::kColumn || e.list.size() != 4) {
      return Any();
    }
    const int32_t column = e.children[0]->column;
    if (column < 0 || static_cast<size_t>(column) >= stats_.bounds.size() ||
        stats_.bounds[column].size() < n_) {
      return Any();
    }
    const geo::QueryBox box{e.list[0].f, e.list[1].f, e.list[2].f, e.list[3].f};
    return Each([&](size_t c) {
      const ColumnBounds& b = stats_.bounds[column][c];
      if (b.num_rows <= 0) return Outcomes{0};
      const bool only_nulls = b.null_count && *b.null_count >= b.num_rows;
      if (only_nulls) return Bits(false, false, true);
      const bool miss = b.geo_bbox && !geo::BoxMayIntersect(*b.geo_bbox, box);
      return Bits(!miss, true, true);
    });
  }

  Ranges ColumnRanges(int32_t column) {
    if (column < 0 || static_cast<size_t>(column) >= stats_.bounds.size() ||
        stats_.bounds[column].size() < n_) {
      return Unknown();
    }
    std::optional<Ranges>& cached = column_cache_[column];
    if (cached) return *cached;
    bool is_float = static_cast<size_t>(column) < filter_.columns.size() &&
                    filter_.columns[column].type &&
                    layout::IsFloatingPoint(filter_.columns[column].type->id);
    Ranges out;
    out.ranges.resize(n_);
    for (size_t c = 0; c < n_; ++c) {
      const ColumnBounds& b = stats_.bounds[column][c];
      Range& r = out.ranges[c];
      if (b.num_rows <= 0) {
        r.can_be_null = r.can_be_value = false;  // no rows: no outcome at all
        continue;
      }
      r.can_be_null = !b.null_count || *b.null_count > 0;
      r.can_be_value = !b.null_count || *b.null_count < b.num_rows;
      r.lo = b.min ? &*b.min : nullptr;
      r.hi = b.max ? &*b.max : nullptr;
      bool float_bounds = is_float || (b.max && b.max->kind == Value::Kind::kFloat);
      if (r.hi && float_bounds && b.may_contain_nan && !IsNaN(r.hi)) {
        r.finite_hi = r.hi;
        r.hi = &kNaN;
        if (auto it = nan_cases_.find(column); it != nan_cases_.end()) {
          // One case of the proof (Prove): the rows that are NaN, or those that are not.
          r.lo = it->second ? &kNaN : r.lo;
          r.hi = it->second ? &kNaN : r.finite_hi;
          r.finite_hi = nullptr;
        }
      }
    }
    cached = out;
    return out;
  }

  // kGuarded: children[0]'s values in the containers where every other child is all NULL;
  // unknown (any value, or NULL) in the others.
  Ranges Guarded(const Expr& e) {
    if (e.children.empty()) return Unknown();
    Ranges typed = Values(*e.children[0]);
    std::vector<bool> open(n_, false);  // some guard may be set
    for (size_t k = 1; k < e.children.size(); ++k) {
      Ranges guard = Values(*e.children[k]);
      for (size_t c = 0; c < n_; ++c) open[c] = open[c] || guard[c].can_be_value;
    }
    Ranges out;
    out.ranges.resize(n_);
    for (size_t c = 0; c < n_; ++c) out.ranges[c] = open[c] ? Range{} : typed[c];
    return out;
  }

  // The ranges of a function of one operand: `in` with each container's range mapped by
  // f(const Range&) -> Range (the NULL and value flags are f's to keep or change).
  template <typename F>
  static Ranges MapRanges(const Ranges& in, F&& f) {
    Ranges out;
    out.constant = in.constant;
    out.ranges.reserve(in.ranges.size());
    for (const Range& r : in.ranges) out.ranges.push_back(f(r));
    return out;
  }

  Ranges Cast(const Expr& e) {
    if (e.children.size() != 1 || !e.type || !e.children[0]->type) return Unknown();
    const DataType& from = *e.children[0]->type;
    const DataType& to = *e.type;
    const bool known = CastKnown(from, to);
    return MapRanges(Values(*e.children[0]), [&](const Range& r) {
      if (!known) {
        // A cast we cannot reason about may turn values into NULL (or fail): any outcome.
        return Range{nullptr, nullptr, r.can_be_null || r.can_be_value, r.can_be_value};
      }
      Range out{CastBound(r.lo, from, to, false), CastBound(r.hi, from, to, true), r.can_be_null,
                r.can_be_value};
      // A float widened to a double: NaN stays NaN, so the finite part maps on its own.
      if (r.finite_hi != nullptr && layout::IsFloatingPoint(from.id) &&
          layout::IsFloatingPoint(to.id)) {
        out.finite_hi = CastBound(r.finite_hi, from, to, true);
        if (out.finite_hi == nullptr) out.hi = nullptr;
      }
      return out;
    });
  }

  // A bound of a date or timestamp column (days or ticks) as its day and time, split as the
  // evaluator splits values (cast::SplitDateOrTimestamp); nullopt when unbounded.
  static std::optional<cast::TimestampDay> InstantOf(const Value* v, const DataType& type) {
    if (v == nullptr || v->kind != Value::Kind::kInt || v->i > INT64_MAX || v->i < INT64_MIN) {
      return std::nullopt;
    }
    return cast::SplitDateOrTimestamp(static_cast<int64_t>(v->i), type);
  }

  // date_trunc('unit', x): NULL where x is; never decreasing in x, so the truncations of x's
  // bounds bound it (unbounded where one does not fit a timestamp).
  Ranges DateTrunc(const Expr& e) {
    if (e.children.size() != 1 || !e.children[0]->type) return Unknown();
    const DataType& from = *e.children[0]->type;
    std::optional<expr::TruncUnit> unit = expr::TruncUnitNamed(e.pattern);
    if (!unit || !cast::SplitsIntoDays(from)) return Unknown();
    auto cut = [&](const Value* v) -> const Value* {
      std::optional<cast::TimestampDay> t = InstantOf(v, from);
      std::optional<int64_t> micros = t ? expr::TruncatedMicros(*unit, *t) : std::nullopt;
      return micros ? Keep(Value::Int(*micros)) : nullptr;
    };
    return MapRanges(Values(*e.children[0]), [&](const Range& r) {
      return Range{cut(r.lo), cut(r.hi), r.can_be_null, r.can_be_value};
    });
  }

  // floor, ceil, round, trunc: NULL where x is; each never decreases, so x's bounds map to
  // the bounds of the result (a float's NaN, the largest, to NaN).
  Ranges Round(const Expr& e) {
    if (e.children.size() != 1 || !e.children[0]->type) return Unknown();
    const std::optional<expr::Rounding> rounding = expr::RoundingNamed(e.pattern);
    if (!rounding) return Unknown();
    const int128 unit =
        PowerOfTen(e.children[0]->type->scale - (e.type ? e.type->scale : 0)).value_or(1);
    auto image = [&](const Value* v) -> const Value* {
      if (v == nullptr) return nullptr;
      if (v->kind == Value::Kind::kFloat && e.digits != 0)
        return Keep(Value::Float(expr::RoundFloatTo(v->f, e.digits)));
      if (v->kind == Value::Kind::kFloat)
        return Keep(Value::Float(expr::RoundFloat(*rounding, v->f)));
      if (v->kind == Value::Kind::kInt)
        return Keep(Value::Int(expr::RoundDecimal(*rounding, v->i, unit)));
      return nullptr;
    };
    // round(x, digits) of a float never decreases only where its steps are exact (beyond, it
    // may return 0 or x: RoundsMonotonically): bounds only when both finite bounds lie there.
    auto monotonic = [&](const Range& r) {
      if (e.digits == 0 || e.type == nullptr || !layout::IsFloatingPoint(e.type->id)) return true;
      auto exact = [&](const Value* v) {
        return v != nullptr && v->kind == Value::Kind::kFloat &&
               expr::RoundsMonotonically(v->f, e.digits);
      };
      if (r.lo != nullptr && r.lo->kind == Value::Kind::kFloat && std::isnan(r.lo->f)) {
        return true;  // the NaN point: NaN rounds to NaN
      }
      return exact(r.lo) && exact(r.finite_hi != nullptr ? r.finite_hi : r.hi);
    };
    return MapRanges(Values(*e.children[0]), [&](const Range& r) {
      if (!monotonic(r)) return Range{nullptr, nullptr, r.can_be_null, r.can_be_value};
      Range out{image(r.lo), image(r.hi), r.can_be_null, r.can_be_value};
      out.finite_hi = image(r.finite_hi);  // NaN rounds to NaN
      return out;
    });
  }

  // x +- INTERVAL, date +- n days: NULL where x is; never decreasing in x (months clamp to
  // the month's end, which keeps the order), so x's bounds map to the result's (unbounded where
  // one leaves the range).
  Ranges AddInterval(const Expr& e) {
    if (e.children.size() != 1 || !e.children[0]->type) return Unknown();
    const DataType& from = *e.children[0]->type;
    if (!cast::SplitsIntoDays(from)) return Unknown();
    const bool to_date = e.type && e.type->id == TypeId::kDate32;
    auto image = [&](const Value* v) -> const Value* {
      const std::optional<cast::TimestampDay> t = InstantOf(v, from);
      if (!t) return nullptr;
      if (to_date)
        return Keep(Value::Int(int128{t->day} + int128{e.interval_sign} * e.interval.days));
      std::optional<int64_t> micros =
          expr::ShiftedMicros(t->day, t->micros, e.interval, e.interval_sign);
      return micros ? Keep(Value::Int(*micros)) : nullptr;
    };
    return MapRanges(Values(*e.children[0]), [&](const Range& r) {
      return Range{image(r.lo), image(r.hi), r.can_be_null, r.can_be_value};
    });
  }

  // year(x) and the other fields: NULL where x is; bounded by the fields of x's bounds where
  // the field never decreases between them (the year always; a month within one year, ...:
  // expr::DatePartNonDecreasing), else by the field's range (month 1..12, ...).
  Ranges DatePart(const Expr& e) {
    if (e.children.size() != 1 || !e.children[0]->type) return Unknown();
    std::optional<expr::DateField> field = expr::DateFieldNamed(e.pattern);
    const DataType& from = *e.children[0]->type;
    if (!field || !cast::SplitsIntoDays(from)) return Unknown();
    const auto [lowest, highest] = expr::DatePartRange(*field);
    const Value* fixed_lo = Keep(Value::Int(lowest));
    const Value* fixed_hi = Keep(Value::Int(highest));
    auto part = [&](const cast::TimestampDay& t) {
      return Keep(Value::Int(expr::DatePartOf(*field, t)));
    };
    return MapRanges(Values(*e.children[0]), [&](const Range& r) {
      Range o{fixed_lo, fixed_hi, r.can_be_null, r.can_be_value};
      const std::optional<cast::TimestampDay> lo = InstantOf(r.lo, from);
      const std::optional<cast::TimestampDay> hi = InstantOf(r.hi, from);
      if (*field == expr::DateField::kYear) {
        o.lo = lo ? part(*lo) : nullptr;
        o.hi = hi ? part(*hi) : nullptr;
      } else if (lo && hi && expr::DatePartNonDecreasing(*field, *lo, *hi)) {
        o.lo = part(*lo);
        o.hi = part(*hi);
      }
      return o;
    });
  }

  // Whether we know how to push bounds through a cast from `from` to `to` (every such cast is
  // monotonic and maps non-null to non-null).
  static bool CastKnown(const DataType& from, const DataType& to) {
    if (from.id == to.id && from.id != TypeId::kDecimal128 && from.id != TypeId::kTimestamp &&
        from.id != TypeId::kTime64) {
      return true;
    }
    if (IsBytes(from.id) && IsBytes(to.id)) return true;
    if (layout::IsFloatingPoint(from.id) &&
        (to.id == TypeId::kFloat64 || (to.id == TypeId::kFloat32 && from.id != TypeId::kFloat64))) {
      return true;
    }
    bool from_int_domain = layout::IsInteger(from.id) || from.id == TypeId::kDecimal128;
    if (from_int_domain && to.id == TypeId::kFloat64) return true;
    if (cast::CastsToDay(from, to)) return true;
    return IntCastFactor(from, to).has_value();
  }

  // The image of bound `v` under the cast, widened outward where the conversion rounds; null
  // when unbounded.
  const Value* CastBound(const Value* v, const DataType& from, const DataType& to, bool upper) {
    if (v == nullptr) return nullptr;
    if (v->kind == Value::Kind::kInt && to.id == TypeId::kFloat64) {
      int scale = from.id == TypeId::kDecimal128 ? from.scale : 0;
      std::optional<int128> divisor = PowerOfTen(scale);
      if (!divisor) return nullptr;
      double d = static_cast<double>(v->i) / static_cast<double>(*divisor);
      constexpr int128 kExactLimit = int128{1} << 53;
      bool exact = scale == 0 && v->i <= kExactLimit && v->i >= -kExactLimit;
      if (!exact) {
        // The evaluator's rounding may differ from ours by an ulp or so; two ulps outward keep
        // the image a bound.
        double toward = upper ? std::numeric_limits<double>::infinity()
                              : -std::numeric_limits<double>::infinity();
        d = std::nextafter(std::nextafter(d, toward), toward);
      }
      return Keep(Value::Float(d));
    }
    if (v->kind == Value::Kind::kInt) {
      // A timestamp to its date: the day of a bound is a bound, either side (never decreasing).
      if (cast::CastsToDay(from, to)) {
        if (v->i > INT64_MAX || v->i < INT64_MIN) return nullptr;
        return Keep(Value::Int(cast::SplitTimestamp(static_cast<int64_t>(v->i), from.unit).day));
      }
      std::optional<int128> factor = IntCastFactor(from, to);
      if (!factor) return nullptr;
      if (*factor == 1) return v;
      int128 scaled;
      if (__builtin_mul_overflow(v->i, *factor, &scaled)) return nullptr;
      return Keep(Value::Int(scaled));
    }
    return v;  // bool, float and byte casts we accept keep the value and its order
  }

  std::vector<Outcomes> In(const Expr& e) {
    if (e.children.size() != 1) return Any();
    Ranges r = Values(*e.children[0]);
    // The list sorted once, so each container is one binary search.
    std::vector<const Value*> list;
    for (const Value& v : e.list) {
      if (v.is_null() || (!list.empty() && v.kind != list[0]->kind)) return Any();
      list.push_back(&v);
    }
    auto less = [](const Value* a, const Value* b) { return expr::Compare(*a, *b) < 0; };
    std::sort(list.begin(), list.end(), less);
    Outcomes no_match = e.list_has_null ? kCanBeNull : kCanBeFalse;
    auto outcomes = [&](const Range& x) {
      Outcomes out = x.can_be_null ? kCanBeNull : 0;
      if (!x.can_be_value) return out;
      bool comparable = !list.empty() && (!x.lo || x.lo->kind == list[0]->kind) &&
                        (!x.hi || x.hi->kind == list[0]->kind);
      if (!comparable) return static_cast<Outcomes>(out | kCanBeTrue | no_match);
      // The first list value >= lo; it matches only if it is <= hi.
      auto it = x.lo ? std::lower_bound(list.begin(), list.end(), x.lo, less) : list.begin();
      bool may_match = it != list.end() && MayBeAtMost(*it, x.hi);
      bool must_match =
          may_match && x.lo != nullptr && IsPoint(x) && expr::Compare(**it, *x.lo) == 0;
      if (may_match) out |= kCanBeTrue;
      if (!must_match) out |= no_match;
      return out;
    };
    return Each([&](size_t c) { return OverParts(r[c], outcomes); });
  }

  std::vector<Outcomes> Prefix(const Expr& operand, const LikePrefix& p) {
    Ranges r = Values(operand);
    const Value* prefix = Keep(Value::Bytes(p.prefix));
    std::optional<std::string> next_text = NextPrefix(p.prefix);
    const Value* next = next_text ? Keep(Value::Bytes(*next_text)) : nullptr;
    return Each([&](size_t c) {
      const Range& x = r[c];
      // Matches lie in [prefix, next): the range must reach into it.
      bool t = MayBeAtMost(prefix, x.hi) && (next == nullptr || MayBeBelow(x.lo, next));
      // Every value matches only if the range lies inside [prefix, next) and the pattern
      // accepts every string with the prefix.
      bool all_match = false;
      if (p.whole) {
        if (p.prefix.empty()) {
          all_match = true;
        } else if (next != nullptr) {
          std::optional<int> lo = Cmp(x.lo, prefix);
          std::optional<int> hi = Cmp(x.hi, next);
          all_match = lo && *lo >= 0 && hi && *hi < 0;
        }
      }
      return Bits(x.can_be_value && t, x.can_be_value && !all_match, x.can_be_null);
    });
  }

  const expr::BoundFilter& filter_;
  const StatisticsTable& stats_;
  size_t n_;
  std::map<int32_t, bool> nan_cases_;
  std::vector<std::optional<Ranges>> column_cache_;
  std::deque<Value> arena_;  // derived bounds; a deque keeps their addresses stable
  bool inside_value_set_subtree_ = false;
  // Outcomes of the value-set subtrees met in order, for probing (null: evaluate them).
  const std::vector<Outcomes>* assumed_ = nullptr;
  size_t next_assumed_ = 0;
};

}  // namespace

std::vector<Outcomes> Prove(const expr::BoundFilter& filter, const StatisticsTable& stats) {
  if (!filter.root) {
    return std::vector<Outcomes>(static_cast<size_t>(std::max<int64_t>(0, stats.containers)),
                                 kAnyOutcome);
  }
  Prover prover(filter, stats);
  // Where statistics leave NaN out, a float column's values are its bounds and NaN apart, but
  // outcomes of sub-predicates forget which case gave which (x >= 4 AND x <= 6 over [1, 3] and
  // NaN: TRUE by NaN on the left, by 1 on the right). Each row is NaN or not: proving each
  // case of each such column on its own (up to 3 columns) and taking the union is exact on that
  // split, and what no case allows is proven.
  constexpr size_t kMaxCaseColumns = 3;
  const std::vector<int32_t> split = prover.ColumnsBesideNaN();
  if (split.empty() || split.size() > kMaxCaseColumns) return prover.Predicate(*filter.root);
  std::vector<Outcomes> out(static_cast<size_t>(std::max<int64_t>(0, stats.containers)), 0);
  for (uint32_t mask = 0; mask < (1u << split.size()); ++mask) {
    std::map<int32_t, bool> cases;
    for (size_t j = 0; j < split.size(); ++j) cases[split[j]] = ((mask >> j) & 1u) != 0;
    Prover one_case(filter, stats);
    one_case.AssumeNaNCases(std::move(cases));
    const std::vector<Outcomes> o = one_case.Predicate(*filter.root);
    for (size_t c = 0; c < out.size() && c < o.size(); ++c) out[c] |= o[c];
  }
  return out;
}

std::vector<bool> CouldDecide(const expr::BoundFilter& filter, const StatisticsTable& stats) {
  size_t n = static_cast<size_t>(std::max<int64_t>(0, stats.containers));
  if (!filter.root) return std::vector<bool>(n, false);
  // Count the value-set subtrees (every one assumed TRUE).
  constexpr size_t kMaxSubtrees = 4;  // 3^4 probes at most
  std::vector<Outcomes> assumed(64, kCanBeTrue);
  size_t subtrees = 0;
  {
    Prover prover(filter, stats, &assumed);
    prover.Predicate(*filter.root);
    subtrees = prover.subtrees_assumed();
  }
  if (subtrees > kMaxSubtrees) return std::vector<bool>(n, true);
  // If some value sets decide a container, so does one of their values alone (outcome sets only
  // shrink with the values, and decisions survive shrinking): trying one outcome per subtree,
  // each subtree independently, covers every value set.
  std::vector<bool> out(n, false);
  size_t combinations = 1;
  for (size_t j = 0; j < subtrees; ++j) combinations *= 3;
  for (size_t m = 0; m < combinations; ++m) {
    size_t code = m;
    for (size_t j = 0; j < subtrees; ++j, code /= 3) {
      assumed[j] = static_cast<Outcomes>(1u << (code % 3));
    }
    Prover prover(filter, stats, &assumed);
    std::vector<Outcomes> o = prover.Predicate(*filter.root);
    for (size_t c = 0; c < n; ++c) out[c] = out[c] || CannotMatch(o[c]) || FullyMatches(o[c]);
  }
  return out;
}

std::string OutcomesToString(Outcomes o) {
  std::string out = "{";
  auto add = [&](Outcomes bit, const char* name) {
    if (!(o & bit)) return;
    if (out.size() > 1) out += ",";
    out += name;
  };
  add(kCanBeTrue, "TRUE");
  add(kCanBeFalse, "FALSE");
  add(kCanBeNull, "NULL");
  return out + "}";
}

}  // namespace pqsift::prune
