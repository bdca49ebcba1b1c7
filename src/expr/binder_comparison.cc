// The binder's comparisons: a comparison typed in one domain (Unify), a literal coerced to the
// column side's domain exactly, with the floor/ceiling rewrites where it falls between two
// values (CoerceLiteral, docs/filter-language.md's table), constants moved across arithmetic
// (MoveConstant), and comparisons of literals folded (FoldComparison); and the exact reading
// of numbers and UUIDs written in strings. The rest of the binder is binder.cc.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "expr/binder_internal.h"
#include "expr/lexer.h"
#include "expr/temporal_text.h"

namespace pqsift::expr::binding {

// ---- exact conversion of literals ----

// A number written in a string ('42', '-1.5', '1e3', 'nan', '-inf'), as the lexer reads numbers.
std::optional<Literal> ParseNumberText(std::string_view text, bool allow_special) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  bool negative = !text.empty() && (text[0] == '-' || text[0] == '+') && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const std::string lower = AsciiLower(text);
  if (allow_special && (lower == "nan" || lower == "inf" || lower == "infinity")) {
    Literal lit;
    lit.kind = Literal::Kind::kFloat;
    lit.f = lower == "nan" ? std::nan("") : HUGE_VAL;
    if (negative) lit.f = -lit.f;
    return lit;
  }
  Result<std::vector<Token>> tokens = Tokenize(text);
  if (!tokens.ok() || tokens->size() != 2) return std::nullopt;
  const Token& t = (*tokens)[0];
  if (t.kind != TokenKind::kInteger && t.kind != TokenKind::kDecimal &&
      t.kind != TokenKind::kFloat) {
    return std::nullopt;
  }
  Result<std::unique_ptr<AstNode>> node = Parse(text);
  if (!node.ok() || (*node)->kind != AstNode::Kind::kLiteral) return std::nullopt;
  Literal lit = (*node)->literal;
  if (negative) {
    lit.i = -lit.i;
    lit.f = -lit.f;
  }
  return lit;
}

// An exact integer or decimal literal as a double (or a float, for float32 columns and
// expressions), converted as DuckDB casts the literal's own type: a decimal of more than 18
// digits (an integer beyond int64) is 128 bits wide there.
double RationalToFloat(int128 unscaled, int32_t scale, bool single) {
  constexpr int128 kWideDecimal = 1'000'000'000'000'000'000;  // 10^18
  bool wide = scale > 0 ? unscaled >= kWideDecimal || unscaled <= -kWideDecimal
                        : unscaled > INT64_MAX || unscaled < INT64_MIN;
  if (single) return DecimalToReal<float>(unscaled, scale, wide);
  return DecimalToReal<double>(unscaled, scale, wide);
}

// 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' (or 32 hex digits) to 16 bytes.
std::optional<std::string> ParseUuid(std::string_view text) {
  std::string bytes;
  int pending = -1;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (c == '-' && (k == 8 || k == 13 || k == 18 || k == 23) && text.size() == 36) continue;
    int v = (c >= '0' && c <= '9')   ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : -1;
    if (v < 0) return std::nullopt;
    if (pending < 0) {
      pending = v;
    } else {
      bytes.push_back(static_cast<char>(pending * 16 + v));
      pending = -1;
    }
  }
  if (bytes.size() != 16 || pending >= 0) return std::nullopt;
  return bytes;
}

Result<ExprPtr> Binder::BindComparison(Op op, Operand a, Operand b, int32_t pos) {
  PQSIFT_RETURN_IF_ERROR(SettlePair(a, b));
  bool distinct_op = op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom;
  if (a.is_literal() && b.is_literal()) return FoldComparison(op, a, b, pos);
  if (a.is_literal()) {
    std::swap(a, b);
    op = FlipComparison(op);
  }
  if (b.is_literal()) {
    if (b.literal.kind == Literal::Kind::kNull) {
      if (!distinct_op) return MakeLiteral(Value::Null(), Boolean());
      return MakeNode(op == Op::kIsDistinctFrom ? Op::kIsNotNull : Op::kIsNull, Boolean(),
                      {a.expr});
    }
    if (std::optional<Result<ExprPtr>> moved = MoveConstant(op, a, b, pos)) return *moved;
    PQSIFT_ASSIGN_OR_RETURN(Coerced c, CoerceLiteral(a, b));
    switch (c.kind) {
      case Coerced::Kind::kExact:
        return MakeCompare(op, a.expr, MakeLiteral(std::move(c.value), a.expr->type));
      case Coerced::Kind::kBetween: return CompareBetween(op, a.expr, c.floor);
      case Coerced::Kind::kFloatCast:
        return MakeCompare(op, MakeCast(a.expr, Float64()),
                           MakeLiteral(std::move(c.value), Float64()));
    }
  }
  PQSIFT_ASSIGN_OR_RETURN(auto pair, Unify(a, b, pos));
  return MakeCompare(op, pair.first, pair.second);
}

// As DuckDB's optimizer does: an integer `x + c1 op c2` becomes `x op c2 - c1` (likewise
// x - c1, c1 - x and x * c1), so the comparison computes nothing (no overflow error where
// DuckDB gives rows) and prunes with x's statistics. nullopt when `a` is no such arithmetic.
// A product that cannot reach c2 (c2 / c1 not an integer) compares x with a value between
// two integers; the result is exact arithmetic, as DuckDB's wherever DuckDB has no overflow.
std::optional<Result<ExprPtr>> Binder::MoveConstant(Op op, const Operand& a, const Operand& b,
                                                    int32_t pos) {
  const Expr& e = *a.expr;
  bool arithmetic = e.op == Op::kAdd || e.op == Op::kSub || e.op == Op::kMul;
  if (!arithmetic || e.type->id != TypeId::kInt64 || e.children.size() != 2 ||
      b.literal.kind != Literal::Kind::kInteger || b.literal.i > INT64_MAX ||
      b.literal.i < INT64_MIN) {
    return std::nullopt;
  }
  auto is_constant = [](const ExprPtr& c) {
    return c->op == Op::kLiteral && c->literal.kind == Value::Kind::kInt;
  };
  int constant_side = is_constant(e.children[1]) ? 1 : is_constant(e.children[0]) ? 0 : -1;
  if (constant_side < 0) return std::nullopt;
  const int128 c1 = e.children[static_cast<size_t>(constant_side)]->literal.i;
  const int128 c2 = b.literal.i;
  Operand x = a;
  x.expr = e.children[static_cast<size_t>(1 - constant_side)];
  if (x.expr->op == Op::kCast && FamilyOf(*x.expr->children[0]->type) == Family::kInt) {
    x.expr = x.expr->children[0];  // a narrower integer: its own literal rules apply
  }
  int128 moved = 0;
  switch (e.op) {
    case Op::kAdd: moved = c2 - c1; break;
    case Op::kSub:
      if (constant_side == 1) {
        moved = c2 + c1;
      } else {
        moved = c1 - c2;  // c1 - x op c2: x flip(op) c1 - c2
        op = FlipComparison(op);
      }
      break;
    default: {
      if (c1 == 0) return std::nullopt;  // x * 0: 0 or NULL, left to the evaluator
      if (c1 < 0) op = FlipComparison(op);
      Ticks quotient = c1 > 0 ? ScaleExact(c2, 1, c1) : ScaleExact(-c2, 1, -c1);
      if (!quotient.exact) {
        // c2 / c1 lies strictly between two integers.
        ExprPtr wide = e.children[static_cast<size_t>(1 - constant_side)];
        return Result<ExprPtr>(CompareBetween(op, wide, quotient.floor));
      }
      moved = quotient.floor;
    }
  }
  Operand literal = b;
  literal.literal.i = moved;  // beyond int64 too: the literal rules compare it exactly
  literal.description = LiteralText(literal.literal);
  return BindComparison(op, std::move(x), std::move(literal), pos);
}

// Two column-side operands in one comparison domain, casting the narrower one.
Result<std::pair<ExprPtr, ExprPtr>> Binder::Unify(const Operand& a, const Operand& b, int32_t pos) {
  ExprPtr x = a.expr;
  ExprPtr y = b.expr;
  const DataType& tx = *x->type;
  const DataType& ty = *y->type;
  Family fx = FamilyOf(tx);
  Family fy = FamilyOf(ty);
  auto mismatch = [&] {
    return ErrorAt(pos, "cannot compare " + a.description + " with " + b.description);
  };
  if (fx == fy) {
    switch (fx) {
      case Family::kBool:
      case Family::kInt:
      case Family::kFloat:
      case Family::kBytes:
      case Family::kDate: return std::make_pair(x, y);
      case Family::kDecimal: {
        if (tx.scale == ty.scale) return std::make_pair(x, y);
        bool x_finer = tx.scale > ty.scale;
        const ExprPtr& coarse = x_finer ? y : x;
        int32_t scale = std::max(tx.scale, ty.scale);
        int32_t precision = coarse->type->precision + scale - coarse->type->scale;
        if (precision > 38) return mismatch();
        ExprPtr cast = MakeCast(coarse, Decimal128(precision, scale));
        return x_finer ? std::make_pair(x, cast) : std::make_pair(cast, y);
      }
      case Family::kTimestamp:
      case Family::kTime: {
        if (tx.unit == ty.unit) return std::make_pair(x, y);
        bool x_finer = TickDigits(tx.unit) > TickDigits(ty.unit);
        const ExprPtr& coarse = x_finer ? y : x;
        TimeUnit unit = x_finer ? tx.unit : ty.unit;
        TypePtr to = fx == Family::kTime ? Time64(unit) : Timestamp(unit, coarse->type->timezone);
        ExprPtr cast = MakeCast(coarse, to);
        return x_finer ? std::make_pair(x, cast) : std::make_pair(cast, y);
      }
      default: return mismatch();
    }
  }
  if (IsNumeric(fx) && IsNumeric(fy)) {
    if (fx == Family::kFloat || fy == Family::kFloat) {
      // As DuckDB: a float32 meets integers and decimals as a float32 (16777217 = 16777216.0
      // holds there), and anything meets a double as a double.
      bool single = tx.id != TypeId::kFloat64 && ty.id != TypeId::kFloat64;
      TypePtr to = single ? Float32() : Float64();
      return std::make_pair(MakeCast(x, to), MakeCast(y, to));
    }
    // One integer, one decimal: the integer becomes a decimal of the other's scale.
    bool x_int = fx == Family::kInt;
    const ExprPtr& integer = x_int ? x : y;
    int32_t scale = x_int ? ty.scale : tx.scale;
    int32_t precision = IntegerDigits(integer->type->id) + scale;
    if (precision > 38) return mismatch();
    ExprPtr cast = MakeCast(integer, Decimal128(precision, scale));
    return x_int ? std::make_pair(cast, y) : std::make_pair(x, cast);
  }
  if ((fx == Family::kDate && fy == Family::kTimestamp) ||
      (fx == Family::kTimestamp && fy == Family::kDate)) {
    bool x_date = fx == Family::kDate;
    const DataType& ts = x_date ? ty : tx;
    ExprPtr cast = MakeCast(x_date ? x : y, Timestamp(ts.unit, ts.timezone));
    return x_date ? std::make_pair(cast, y) : std::make_pair(x, cast);
  }
  return mismatch();
}

// The literal in the domain of the column side `x` (see docs/filter-language.md).
Result<Coerced> Binder::CoerceLiteral(const Operand& x, const Operand& lit_operand) {
  const DataType& t = *x.expr->type;
  Literal lit = lit_operand.literal;
  auto mismatch = [&] {
    return ErrorAt(lit_operand.pos,
                   "cannot compare " + x.description + " with " + lit_operand.description);
  };
  Coerced out;
  Family family = FamilyOf(t);
  if (lit.kind == Literal::Kind::kString && (IsNumeric(family) || family == Family::kBool)) {
    // As DuckDB: a string compared with a number is read as a number.
    if (family == Family::kBool) {
      const std::string lower = AsciiLower(lit.s);
      if (lower != "true" && lower != "false") return mismatch();
      lit.kind = Literal::Kind::kBool;
      lit.b = lower == "true";
    } else {
      std::optional<Literal> number = ParseNumberText(lit.s, family == Family::kFloat);
      if (!number) return mismatch();
      lit = *number;
    }
  }
  switch (family) {
    case Family::kBool:
      if (lit.kind != Literal::Kind::kBool) return mismatch();
      out.value = Value::Bool(lit.b);
      return out;
    case Family::kInt:
    case Family::kDecimal: {
      if (lit.kind == Literal::Kind::kFloat) {
        out.kind = Coerced::Kind::kFloatCast;
        out.value = Value::Float(lit.f);
        return out;
      }
      if (lit.kind != Literal::Kind::kInteger && lit.kind != Literal::Kind::kDecimal) {
        return mismatch();
      }
      int32_t column_scale = family == Family::kDecimal ? t.scale : 0;
      Ticks ticks = column_scale >= lit.scale
                        ? ScaleExact(lit.i, Pow10(column_scale - lit.scale), 1)
                        : ScaleExact(lit.i, 1, Pow10(lit.scale - column_scale));
      return FromTicks(ticks);
    }
    case Family::kFloat: {
      bool single = t.id != TypeId::kFloat64;
      if (lit.kind == Literal::Kind::kFloat) {
        out.value = Value::Float(lit.f);
      } else if (lit.kind == Literal::Kind::kInteger || lit.kind == Literal::Kind::kDecimal) {
        out.value = Value::Float(RationalToFloat(lit.i, lit.scale, single));
      } else {
        return mismatch();
      }
      return out;
    }
    case Family::kBytes: {
      if (lit.kind == Literal::Kind::kBytes) {
        out.value = Value::Bytes(lit.s);
      } else if (lit.kind == Literal::Kind::kString) {
        std::optional<std::string> uuid;
        if (x.uuid && t.id == TypeId::kFixedSizeBinary) uuid = ParseUuid(lit.s);
        out.value = Value::Bytes(uuid ? *uuid : lit.s);
      } else {
        return mismatch();
      }
      return out;
    }
    case Family::kDate:
    case Family::kTimestamp:
    case Family::kTime: {
      if (lit.kind == Literal::Kind::kString) {
        // As DuckDB: a string compared with a temporal column is read as that type.
        if (family == Family::kTime) {
          std::optional<int64_t> nanos = ParseTimeOfDay(lit.s);
          if (!nanos) return ErrorAt(lit_operand.pos, "invalid time '" + lit.s + "'");
          return FromTicks(ScaleExact(*nanos, 1, Pow10(9 - TickDigits(t.unit))));
        }
        std::optional<int64_t> days = ParseDate(lit.s);
        if (days && family == Family::kDate) {
          lit.kind = Literal::Kind::kDate;
          lit.i = *days;
        } else if (std::optional<TimestampText> ts = ParseTimestamp(lit.s)) {
          lit.kind = Literal::Kind::kTimestamp;
          lit.i = ts->nanos;
          lit.has_zone = ts->has_zone;
        } else {
          return ErrorAt(lit_operand.pos, std::string("invalid ") +
                                              (family == Family::kDate ? "date" : "timestamp") +
                                              " '" + lit.s + "'");
        }
      }
      if (family == Family::kTime) return mismatch();
      if (family == Family::kDate) {
        if (lit.kind == Literal::Kind::kDate) return FromTicks({lit.i, true});
        if (lit.kind == Literal::Kind::kTimestamp) {
          return FromTicks(ScaleExact(lit.i, 1, kNanosPerDay));
        }
        return mismatch();
      }
      int digits = TickDigits(t.unit);
      if (lit.kind == Literal::Kind::kDate) {
        return FromTicks(ScaleExact(lit.i, int128{86400} * Pow10(digits), 1));
      }
      if (lit.kind == Literal::Kind::kTimestamp) {
        return FromTicks(ScaleExact(lit.i, 1, Pow10(9 - digits)));
      }
      return mismatch();
    }
    case Family::kOther: break;
  }
  return mismatch();
}

Coerced Binder::FromTicks(Ticks t) {
  Coerced out;
  if (t.exact) {
    out.value = Value::Int(t.floor);
  } else {
    out.kind = Coerced::Kind::kBetween;
    out.floor = t.floor;
  }
  return out;
}

// A comparison of two literals, decided now.
Result<ExprPtr> Binder::FoldComparison(Op op, const Operand& a, const Operand& b, int32_t pos) {
  const Literal& x = a.literal;
  const Literal& y = b.literal;
  bool x_null = x.kind == Literal::Kind::kNull;
  bool y_null = y.kind == Literal::Kind::kNull;
  if (x_null || y_null) {
    if (op == Op::kIsDistinctFrom) return MakeLiteral(Value::Bool(x_null != y_null), Boolean());
    if (op == Op::kIsNotDistinctFrom) {
      return MakeLiteral(Value::Bool(x_null == y_null), Boolean());
    }
    return MakeLiteral(Value::Null(), Boolean());
  }
  // Compare through a column-side stand-in of the left literal's own type.
  TypePtr type;
  Value left;
  switch (x.kind) {
    case Literal::Kind::kBool:
      type = Boolean();
      left = Value::Bool(x.b);
      break;
    case Literal::Kind::kInteger:
    case Literal::Kind::kDecimal:
      type = Decimal128(38, x.scale);
      left = Value::Int(x.i);
      break;
    case Literal::Kind::kFloat:
      type = Float64();
      left = Value::Float(x.f);
      break;
    case Literal::Kind::kString:
    case Literal::Kind::kBytes:
      type = LargeBinary();
      left = Value::Bytes(x.s);
      break;
    case Literal::Kind::kDate:
      type = Date32();
      left = Value::Int(x.i);
      break;
    case Literal::Kind::kTimestamp:
      type = Timestamp(TimeUnit::kNanos, "");
      left = Value::Int(x.i);
      break;
    case Literal::Kind::kInterval:
      return ErrorAt(pos, "cannot compare " + a.description + " with " + b.description);
    case Literal::Kind::kNull: break;
  }
  Operand stand_in = a;
  stand_in.expr = MakeLiteral(left, type);
  PQSIFT_ASSIGN_OR_RETURN(Coerced c, CoerceLiteral(stand_in, b));
  int order = 0;
  if (c.kind == Coerced::Kind::kExact) {
    order = Compare(left, c.value);
  } else if (c.kind == Coerced::Kind::kBetween) {
    order = left.i <= c.floor ? -1 : 1;
  } else {
    double lf = RationalToFloat(x.i, x.scale, false);
    order = Compare(Value::Float(lf), c.value);
  }
  (void)pos;
  bool result = false;
  switch (op) {
    case Op::kEq:
    case Op::kIsNotDistinctFrom: result = order == 0; break;
    case Op::kNe:
    case Op::kIsDistinctFrom: result = order != 0; break;
    case Op::kLt: result = order < 0; break;
    case Op::kLe: result = order <= 0; break;
    case Op::kGt: result = order > 0; break;
    default: result = order >= 0; break;
  }
  return MakeLiteral(Value::Bool(result), Boolean());
}

}  // namespace pqsift::expr::binding
