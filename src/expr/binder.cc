// The binder: resolves names against the schema, types every node, and coerces literals to the
// column side's comparison domain without ever rounding (docs/filter-language.md). This file:
// the entry points, the tree-building helpers and the predicates (AND/OR/NOT, CASE, IS, BETWEEN,
// LIKE, IN). Operands (columns, VARIANT paths, CAST) are bound in binder_operands.cc,
// comparisons and the exact coercion of literals in binder_comparison.cc, arithmetic in
// binder_arithmetic.cc, function calls in binder_functions.cc.
#include "expr/binder.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "arrow/layout.h"
#include "expr/binder_internal.h"
#include "expr/like.h"
#include "expr/parser.h"
#include "variant/shredding.h"

namespace pqsift::expr {
namespace binding {

std::string Int128Text(int128 v) { return DebugString(Value::Int(v)); }

// The day (since 1970-01-01) of an instant in nanoseconds, floored.
int128 DayOfNanos(int128 nanos) {
  int128 day = nanos / kNanosPerDay;
  return nanos % kNanosPerDay < 0 ? day - 1 : day;
}

// Whether every value of integer type `from` fits the integer target of a CAST: BIGINT (64
// bits) or INTEGER (32). (A value that does not fit fails DuckDB's query: not supported here.)
bool CastFitsEveryValue(TypeId from, bool to_64_bits) {
  switch (from) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kUInt8:
    case TypeId::kUInt16: return true;
    case TypeId::kInt64:
    case TypeId::kUInt32: return to_64_bits;
    default: return false;
  }
}

Family FamilyOf(const DataType& t) {
  if (layout::IsInteger(t.id)) return Family::kInt;
  if (layout::IsFloatingPoint(t.id)) return Family::kFloat;
  switch (t.id) {
    case TypeId::kBoolean: return Family::kBool;
    case TypeId::kDecimal128: return Family::kDecimal;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return Family::kBytes;
    case TypeId::kDate32: return Family::kDate;
    case TypeId::kTimestamp: return Family::kTimestamp;
    case TypeId::kTime32:
    case TypeId::kTime64: return Family::kTime;
    default: return Family::kOther;
  }
}

bool IsNumeric(Family f) {
  return f == Family::kInt || f == Family::kDecimal || f == Family::kFloat;
}

// Decimal digits an integer type needs (the precision of the decimal it converts to exactly).
int IntegerDigits(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: return 3;
    case TypeId::kInt16:
    case TypeId::kUInt16: return 5;
    case TypeId::kInt32:
    case TypeId::kUInt32: return 10;
    case TypeId::kUInt64: return 20;
    default: return 19;
  }
}

std::string LiteralText(const Literal& lit) {
  switch (lit.kind) {
    case Literal::Kind::kNull: return "NULL";
    case Literal::Kind::kBool: return lit.b ? "TRUE" : "FALSE";
    case Literal::Kind::kInteger: return "integer " + Int128Text(lit.i);
    case Literal::Kind::kDecimal:
      return "decimal " + LiteralToString(Value::Int(lit.i), *Decimal128(38, lit.scale));
    case Literal::Kind::kFloat: return "float " + DebugString(Value::Float(lit.f));
    case Literal::Kind::kString: return "string " + DebugString(Value::Bytes(lit.s));
    case Literal::Kind::kBytes: {
      std::string hex = DebugString(Value::Bytes(lit.s));
      return "binary " + hex;
    }
    case Literal::Kind::kDate: return LiteralToString(Value::Int(lit.i), *Date32());
    case Literal::Kind::kTimestamp:
      return LiteralToString(Value::Int(lit.i), *Timestamp(TimeUnit::kNanos, ""));
    case Literal::Kind::kInterval: return "INTERVAL '" + IntervalText(lit.interval) + "'";
  }
  return "?";
}

// ---- tree building ----

ExprPtr MakeLiteral(Value v, TypePtr type) {
  auto e = std::make_shared<Expr>();
  e->op = Op::kLiteral;
  e->literal = std::move(v);
  e->type = std::move(type);
  return e;
}

ExprPtr MakeNode(Op op, TypePtr type, std::vector<ExprPtr> children) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = std::move(type);
  e->children = std::move(children);
  return e;
}

ExprPtr MakeCompare(Op op, ExprPtr a, ExprPtr b) {
  return MakeNode(op, Boolean(), {std::move(a), std::move(b)});
}

// A cast of a literal is done now; the binder only casts literals to types that hold them
// exactly, or round them as DuckDB does (integers to int64, a float or a decimal of a larger
// scale; decimals to a float).
ExprPtr CastLiteral(const Expr& x, TypePtr to) {
  const Value& v = x.literal;
  if (v.is_null()) return MakeLiteral(v, std::move(to));
  int32_t from_scale = x.type->id == TypeId::kDecimal128 ? x.type->scale : 0;
  if (to->id == TypeId::kFloat64 || to->id == TypeId::kFloat32) {
    bool single = to->id == TypeId::kFloat32;
    double f = v.kind == Value::Kind::kFloat ? v.f : RationalToFloat(v.i, from_scale, single);
    if (single) f = static_cast<float>(f);
    return MakeLiteral(Value::Float(f), std::move(to));
  }
  int32_t to_scale = to->id == TypeId::kDecimal128 ? to->scale : 0;
  return MakeLiteral(Value::Int(v.i * Pow10(to_scale - from_scale)), std::move(to));
}

ExprPtr MakeCast(ExprPtr x, TypePtr to) {
  if (*x->type == *to) return x;
  if (x->op == Op::kLiteral) return CastLiteral(*x, std::move(to));
  return MakeNode(Op::kCast, std::move(to), {std::move(x)});
}

// AND / OR of predicates, flattening nested nodes of the same op.
ExprPtr MakeLogic(Op op, const std::vector<ExprPtr>& parts) {
  std::vector<ExprPtr> children;
  for (const ExprPtr& p : parts) {
    if (p->op == op) {
      children.insert(children.end(), p->children.begin(), p->children.end());
    } else {
      children.push_back(p);
    }
  }
  if (children.size() == 1) return children[0];
  return MakeNode(op, Boolean(), std::move(children));
}

// x op r where r lies strictly between the integers f and f + 1 of x's domain.
ExprPtr CompareBetween(Op op, const ExprPtr& x, int128 f) {
  ExprPtr lo = MakeLiteral(Value::Int(f), x->type);
  ExprPtr hi = MakeLiteral(Value::Int(f + 1), x->type);
  switch (op) {
    case Op::kLt:
    case Op::kLe: return MakeCompare(Op::kLe, x, lo);
    case Op::kGt:
    case Op::kGe: return MakeCompare(Op::kGe, x, hi);
    case Op::kEq:  // FALSE, or NULL when x is NULL
      return MakeLogic(Op::kAnd, {MakeCompare(Op::kGt, x, lo), MakeCompare(Op::kLt, x, hi)});
    case Op::kNe:  // TRUE, or NULL when x is NULL
      return MakeLogic(Op::kOr, {MakeCompare(Op::kLe, x, lo), MakeCompare(Op::kGe, x, hi)});
    case Op::kIsDistinctFrom:  // always TRUE
      return MakeLogic(Op::kOr, {MakeNode(Op::kIsNull, Boolean(), {x}), MakeCompare(Op::kLe, x, lo),
                                 MakeCompare(Op::kGe, x, hi)});
    default:  // kIsNotDistinctFrom: always FALSE
      return MakeLogic(Op::kAnd, {MakeNode(Op::kIsNotNull, Boolean(), {x}),
                                  MakeCompare(Op::kGt, x, lo), MakeCompare(Op::kLt, x, hi)});
  }
}

// ---- the binder ----

Result<BoundFilter> Binder::Bind(std::string_view text) {
  PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<AstNode> ast, Parse(text));
  PQSIFT_ASSIGN_OR_RETURN(ExprPtr root, BindPredicate(*ast));
  filter_.root = std::move(root);
  filter_.text = std::string(text);
  return std::move(filter_);
}

Result<BoundFilter> Binder::Bind(const AstNode& ast, std::string_view text) {
  PQSIFT_ASSIGN_OR_RETURN(ExprPtr root, BindPredicate(ast));
  filter_.root = std::move(root);
  filter_.text = std::string(text);
  return std::move(filter_);
}

// ---- predicates ----
namespace {

const AstNode* FindCase(const AstNode& n) {
  if (n.kind == AstNode::Kind::kCase) return &n;
  for (const auto& child : n.children) {
    if (const AstNode* found = FindCase(*child)) return found;
  }
  return nullptr;
}

std::unique_ptr<AstNode> NewAst(AstNode::Kind kind, int32_t pos) {
  auto node = std::make_unique<AstNode>();
  node->kind = kind;
  node->pos = pos;
  return node;
}

// `c IS TRUE` (or IS NOT TRUE): never NULL.
std::unique_ptr<AstNode> IsTrue(const AstNode& c, bool is_true) {
  auto truth = NewAst(AstNode::Kind::kLiteral, c.pos);
  truth->literal.kind = Literal::Kind::kBool;
  truth->literal.b = true;
  auto test = NewAst(AstNode::Kind::kCompare, c.pos);
  test->op = is_true ? Op::kIsNotDistinctFrom : Op::kIsDistinctFrom;
  test->children.push_back(CloneAst(c));
  test->children.push_back(std::move(truth));
  return test;
}

}  // namespace

// A predicate P over a CASE (P(CASE WHEN c1 THEN v1 ... ELSE e END), the CASE itself as the
// condition included) is CASE WHEN c1 THEN P(v1) ... ELSE P(e) END, which is
// (c1 IS TRUE AND P(v1)) OR (c1 IS NOT TRUE AND c2 IS TRUE AND P(v2)) OR ... OR (every c IS NOT
// TRUE AND P(e)): the guards are never NULL and exactly one holds, so the OR is the chosen
// branch's value, NULL included. Bound so, the branches prune as any condition does. CASE x
// WHEN a is WHEN x = a; no ELSE is ELSE NULL. nullptr where `n` holds no CASE.
std::unique_ptr<AstNode> Binder::DistributeCase(const AstNode& n) {
  const AstNode* c = FindCase(n);
  if (c == nullptr) return nullptr;
  const size_t first = c->simple ? 1 : 0;
  const size_t whens = (c->children.size() - first - (c->has_else ? 1 : 0)) / 2;
  std::vector<std::unique_ptr<AstNode>> conditions;
  for (size_t k = 0; k < whens; ++k) {
    const AstNode& when = *c->children[first + 2 * k];
    if (!c->simple) {
      conditions.push_back(CloneAst(when));
      continue;
    }
    auto equal = NewAst(AstNode::Kind::kCompare, when.pos);
    equal->op = Op::kEq;
    equal->children.push_back(CloneAst(*c->children[0]));
    equal->children.push_back(CloneAst(when));
    conditions.push_back(std::move(equal));
  }
  auto null = NewAst(AstNode::Kind::kLiteral, c->pos);
  null->literal.kind = Literal::Kind::kNull;
  const AstNode& otherwise = c->has_else ? *c->children.back() : *null;
  auto any = NewAst(AstNode::Kind::kOr, c->pos);
  for (size_t k = 0; k <= whens; ++k) {
    auto term = NewAst(AstNode::Kind::kAnd, c->pos);
    for (size_t j = 0; j < k; ++j) term->children.push_back(IsTrue(*conditions[j], false));
    if (k < whens) term->children.push_back(IsTrue(*conditions[k], true));
    const AstNode& value = k < whens ? *c->children[first + 2 * k + 1] : otherwise;
    term->children.push_back(CloneAst(n, c, &value));
    any->children.push_back(term->children.size() == 1 ? std::move(term->children[0])
                                                       : std::move(term));
  }
  return any;
}

Result<ExprPtr> Binder::BindPredicate(const AstNode& n) {
  if (n.kind != AstNode::Kind::kAnd && n.kind != AstNode::Kind::kOr &&
      n.kind != AstNode::Kind::kNot) {
    if (std::unique_ptr<AstNode> branches = DistributeCase(n)) return BindPredicate(*branches);
  }
  switch (n.kind) {
    case AstNode::Kind::kAnd:
    case AstNode::Kind::kOr: {
      std::vector<ExprPtr> parts;
      for (const auto& child : n.children) {
        PQSIFT_ASSIGN_OR_RETURN(ExprPtr p, BindPredicate(*child));
        parts.push_back(std::move(p));
      }
      return MakeLogic(n.kind == AstNode::Kind::kAnd ? Op::kAnd : Op::kOr, parts);
    }
    case AstNode::Kind::kNot: {
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr p, BindPredicate(*n.children[0]));
      return MakeNode(Op::kNot, Boolean(), {p});
    }
    case AstNode::Kind::kCompare: {
      PQSIFT_ASSIGN_OR_RETURN(Operand a, BindOperand(*n.children[0]));
      PQSIFT_ASSIGN_OR_RETURN(Operand b, BindOperand(*n.children[1]));
      return BindComparison(n.op, std::move(a), std::move(b), n.pos);
    }
    case AstNode::Kind::kIsNull: {
      PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
      // Any value is a VARCHAR: NULL exactly where the path is missing or Variant null.
      x = SettleVariant(x, variant::SqlType::kVarchar);
      if (x.is_literal()) {
        bool is_null = x.literal.kind == Literal::Kind::kNull;
        return MakeLiteral(Value::Bool(is_null != n.negated), Boolean());
      }
      return MakeNode(n.negated ? Op::kIsNotNull : Op::kIsNull, Boolean(), {x.expr});
    }
    case AstNode::Kind::kBetween: {
      PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
      PQSIFT_ASSIGN_OR_RETURN(Operand low, BindOperand(*n.children[1]));
      PQSIFT_ASSIGN_OR_RETURN(Operand high, BindOperand(*n.children[2]));
      if (x.variant) {
        const Operand& by =
            low.is_literal() && low.literal.kind == Literal::Kind::kNull ? high : low;
        PQSIFT_ASSIGN_OR_RETURN(variant::SqlType t, VariantTypeFor(x, by));
        x = SettleVariant(x, t);
      }
      if (!x.is_literal()) x.expr = BetweenCommonType(x.expr, low, high);
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr ge, BindComparison(Op::kGe, x, std::move(low), n.pos));
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr le, BindComparison(Op::kLe, x, std::move(high), n.pos));
      ExprPtr both = MakeLogic(Op::kAnd, {ge, le});
      return n.negated ? MakeNode(Op::kNot, Boolean(), {both}) : both;
    }
    case AstNode::Kind::kIn: {
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr in, BindIn(n));
      return n.negated ? MakeNode(Op::kNot, Boolean(), {in}) : in;
    }
    case AstNode::Kind::kLike: {
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr like, BindLike(n));
      return n.negated ? MakeNode(Op::kNot, Boolean(), {like}) : like;
    }
    case AstNode::Kind::kCall: return BindCall(n);
    default: break;
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(n));
  return AsPredicate(x);
}

// DuckDB gives BETWEEN one type for its three operands, where two comparisons would each
// pick their own: a double among the bounds (a literal with an exponent, a double column)
// makes a numeric x a double for both bounds, a float32 column bound makes an integer or
// decimal x a float32. (`f32 BETWEEN 7e0 AND 8.99996757507324` compares the upper bound
// as a double there, not as the float nearest to it.)
ExprPtr Binder::BetweenCommonType(ExprPtr x, const Operand& low, const Operand& high) {
  Family family = FamilyOf(*x->type);
  if (!IsNumeric(family) || x->type->id == TypeId::kFloat64) return x;
  auto is_double = [](const Operand& o) {
    return o.is_literal() ? o.literal.kind == Literal::Kind::kFloat
                          : o.expr->type->id == TypeId::kFloat64;
  };
  auto is_single = [](const Operand& o) {
    return !o.is_literal() && FamilyOf(*o.expr->type) == Family::kFloat;
  };
  if (is_double(low) || is_double(high)) return MakeCast(std::move(x), Float64());
  if (family != Family::kFloat && (is_single(low) || is_single(high))) {
    return MakeCast(std::move(x), Float32());
  }
  return x;
}

Result<ExprPtr> Binder::AsPredicate(const Operand& variant_x) {
  const Operand x = SettleVariant(variant_x, variant::SqlType::kBoolean);
  if (x.is_literal()) {
    if (x.literal.kind == Literal::Kind::kBool) {
      return MakeLiteral(Value::Bool(x.literal.b), Boolean());
    }
    if (x.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
  } else if (x.expr->type->id == TypeId::kBoolean) {
    return x.expr;
  }
  return ErrorAt(x.pos, "expected a boolean condition, not " + x.description);
}

Result<ExprPtr> Binder::BindLike(const AstNode& n) {
  if (n.op == Op::kRegexMatch) {
    return BindRegexMatch(*n.children[0], *n.children[1], nullptr, /*full=*/true);
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  PQSIFT_ASSIGN_OR_RETURN(Operand pattern, BindOperand(*n.children[1]));
  const bool text_literal = x.is_literal() && (x.literal.kind == Literal::Kind::kString ||
                                               x.literal.kind == Literal::Kind::kBytes ||
                                               x.literal.kind == Literal::Kind::kNull);
  if (!text_literal && (x.is_literal() || FamilyOf(*x.expr->type) != Family::kBytes)) {
    return ErrorAt(x.pos, "LIKE needs a string or binary column, not " + x.description);
  }
  if (!pattern.is_literal() || (pattern.literal.kind != Literal::Kind::kString &&
                                pattern.literal.kind != Literal::Kind::kNull)) {
    return ErrorAt(pattern.pos, "LIKE needs a string literal pattern, not " + pattern.description);
  }
  if (pattern.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
  if (text_literal) {  // 'none' LIKE 'n%' (a CASE's branch, say): decided now
    if (x.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
    return MakeLiteral(
        Value::Bool(LikeMatcher(pattern.literal.s, n.op == Op::kILike).Matches(x.literal.s)),
        Boolean());
  }
  const std::string& p = pattern.literal.s;
  // The pattern's literal text (no escape character, as in DuckDB), and whether its wildcards are
  // exactly one
  // '%' at the end (a prefix test) or none at all (an equality).
  std::string text;
  int wildcards = 0;
  bool trailing_percent = false;
  for (size_t k = 0; k < p.size(); ++k) {
    if (p[k] == '%' || p[k] == '_') {
      ++wildcards;
      trailing_percent = p[k] == '%' && k + 1 == p.size();
    } else {
      text.push_back(p[k]);
    }
  }
  if (n.op == Op::kLike && wildcards == 0) {
    return MakeCompare(Op::kEq, x.expr, MakeLiteral(Value::Bytes(text), x.expr->type));
  }
  auto e = std::make_shared<Expr>();
  e->type = Boolean();
  e->children = {x.expr};
  if (n.op == Op::kLike && wildcards == 1 && trailing_percent) {
    // 'abc%' is starts_with(x, 'abc'): the same rows, and a prefix the pruning understands.
    e->op = Op::kStartsWith;
    e->pattern = text;
  } else {
    e->op = n.op;
    e->pattern = p;
  }
  return ExprPtr(e);
}

Result<ExprPtr> Binder::BindIn(const AstNode& n) {
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  std::vector<Operand> items;
  for (size_t k = 1; k < n.children.size(); ++k) {
    PQSIFT_ASSIGN_OR_RETURN(Operand item, BindOperand(*n.children[k]));
    items.push_back(std::move(item));
  }
  if (x.variant) {
    // Typed by the first item that is not NULL.
    const Operand* by = &items[0];
    for (const Operand& item : items) {
      if (!item.is_literal() || item.literal.kind != Literal::Kind::kNull) {
        by = &item;
        break;
      }
    }
    PQSIFT_ASSIGN_OR_RETURN(variant::SqlType t, VariantTypeFor(x, *by));
    x = SettleVariant(x, t);
  }
  bool all_literals = !x.is_literal();
  for (Operand& item : items) {
    if (item.variant) {
      PQSIFT_ASSIGN_OR_RETURN(variant::SqlType t, VariantTypeFor(item, x));
      item = SettleVariant(item, t);
    }
    all_literals = all_literals && item.is_literal();
  }
  if (!all_literals) {
    // x IN (a, b) is x = a OR x = b, NULLs included.
    std::vector<ExprPtr> parts;
    for (Operand& item : items) {
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr eq, BindComparison(Op::kEq, x, std::move(item), n.pos));
      parts.push_back(std::move(eq));
    }
    return MakeLogic(Op::kOr, parts);
  }
  ExprPtr column = x.expr;
  // As in DuckDB, the list and the column meet in one common type: a DOUBLE literal (one
  // with an exponent) in the list makes a float32 or float16 column compare as a double.
  bool narrow_float = column->type->id == TypeId::kFloat32 || column->type->id == TypeId::kFloat16;
  bool double_item = std::any_of(items.begin(), items.end(), [](const Operand& item) {
    return item.literal.kind == Literal::Kind::kFloat;
  });
  if (narrow_float && double_item) column = MakeCast(column, Float64());
  bool has_null = false;
  std::vector<Coerced> coerced;
  for (int attempt = 0; attempt < 2; ++attempt) {
    coerced.clear();
    bool needs_float = false;
    Operand side = x;
    side.expr = column;
    for (const Operand& item : items) {
      if (item.literal.kind == Literal::Kind::kNull) {
        has_null = true;
        continue;
      }
      PQSIFT_ASSIGN_OR_RETURN(Coerced c, CoerceLiteral(side, item));
      needs_float = needs_float || c.kind == Coerced::Kind::kFloatCast;
      coerced.push_back(std::move(c));
    }
    if (!needs_float) break;
    column = MakeCast(column, Float64());
  }
  std::vector<Value> values;
  std::optional<int128> inexact;
  for (Coerced& c : coerced) {
    if (c.kind == Coerced::Kind::kBetween) {
      if (!inexact) inexact = c.floor;  // never equal: drop it
    } else {
      values.push_back(std::move(c.value));
    }
  }
  std::sort(values.begin(), values.end(),
            [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  values.erase(std::unique(values.begin(), values.end(),
                           [](const Value& a, const Value& b) { return Compare(a, b) == 0; }),
               values.end());
  if (values.empty()) {
    if (has_null) return MakeLiteral(Value::Null(), Boolean());  // NULL or no match: NULL
    return CompareBetween(Op::kEq, column, *inexact);
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kIn;
  e->type = Boolean();
  e->children = {column};
  e->list = std::move(values);
  e->list_has_null = has_null;
  return ExprPtr(e);
}

}  // namespace binding

using binding::Binder;

Result<BoundFilter> BindFilter(std::string_view text, const Schema& schema) {
  Binder binder(schema);
  return binder.Bind(text);
}

Result<BoundFilter> BindFilter(const AstNode& ast, std::string_view text, const Schema& schema) {
  Binder binder(schema);
  return binder.Bind(ast, text);
}

}  // namespace pqsift::expr
