// The binder's arithmetic (binder_internal.h): + - * / % and unary minus over numbers, typed as
// DuckDB types them; literals folded exactly; date and timestamp literals +- INTERVAL folded;
// date and timestamp columns +- INTERVAL (kAddInterval).
#include "expr/binder_internal.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "expr/interval.h"
#include "expr/temporal_text.h"

namespace pqsift::expr::binding {

Result<Operand> Binder::BindNegate(const AstNode& n) {
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kDouble);
  if (x.is_literal()) {
    Literal& lit = x.literal;
    switch (lit.kind) {
      case Literal::Kind::kInteger:
      case Literal::Kind::kDecimal: lit.i = -lit.i; break;
      case Literal::Kind::kFloat: lit.f = -lit.f; break;
      case Literal::Kind::kNull: break;
      default: return ErrorAt(n.pos, "cannot negate " + x.description);
    }
    x.pos = n.pos;
    x.description = LiteralText(lit);
    return x;
  }
  Family f = FamilyOf(*x.expr->type);
  if (!IsNumeric(f)) return ErrorAt(n.pos, "cannot negate " + x.description);
  Operand zero;
  zero.literal.kind = Literal::Kind::kInteger;
  zero.pos = n.pos;
  zero.description = "integer 0";
  return Arithmetic(Op::kSub, zero, x, n.pos);
}

Result<Operand> Binder::BindArithmetic(const AstNode& n) {
  PQSIFT_ASSIGN_OR_RETURN(Operand a, BindOperand(*n.children[0]));
  PQSIFT_ASSIGN_OR_RETURN(Operand b, BindOperand(*n.children[1]));
  return Arithmetic(n.op, a, b, n.pos);
}

// The typed literal an arithmetic operand stands for: integers as int64 (decimal(38, 0) when
// larger), decimals as decimal(digits, scale), floats as float64.
Result<ExprPtr> Binder::ArithmeticLiteral(const Operand& o, int32_t pos) {
  const Literal& lit = o.literal;
  switch (lit.kind) {
    case Literal::Kind::kInteger:
      if (lit.i >= INT64_MIN && lit.i <= INT64_MAX) return MakeLiteral(Value::Int(lit.i), Int64());
      return MakeLiteral(Value::Int(lit.i), Decimal128(38, 0));
    case Literal::Kind::kDecimal: {
      int digits = static_cast<int>(Int128Text(lit.i < 0 ? -lit.i : lit.i).size());
      int32_t precision = std::max(digits, lit.scale);
      precision = std::max(precision, 1);
      return MakeLiteral(Value::Int(lit.i), Decimal128(precision, lit.scale));
    }
    case Literal::Kind::kFloat: return MakeLiteral(Value::Float(lit.f), Float64());
    case Literal::Kind::kNull: return MakeLiteral(Value::Null(), Int64());
    default: return ErrorAt(pos, "arithmetic on " + o.description + " is not supported");
  }
}

// A date or timestamp column +- an INTERVAL literal (INTERVAL + column too): a TIMESTAMP of
// microseconds (of the column's zone), as DuckDB's; a date column +- an integer literal: a DATE
// (expr.h kAddInterval). nullopt for other operands.
std::optional<Result<Operand>> Binder::ShiftTemporalColumn(Op op, const Operand& a,
                                                           const Operand& b, int32_t pos) {
  if (op != Op::kAdd && op != Op::kSub) return std::nullopt;
  const bool column_first = !a.is_literal() && b.is_literal();
  const bool literal_first = op == Op::kAdd && a.is_literal() && !b.is_literal();
  if (!column_first && !literal_first) return std::nullopt;
  const Operand& column = column_first ? a : b;
  const Literal& lit = column_first ? b.literal : a.literal;
  const Family family = FamilyOf(*column.expr->type);
  if (family != Family::kDate && family != Family::kTimestamp) return std::nullopt;
  const int sign = op == Op::kSub ? -1 : 1;
  auto e = std::make_shared<Expr>();
  e->op = Op::kAddInterval;
  e->children = {column.expr};
  if (lit.kind == Literal::Kind::kInterval) {
    e->interval = lit.interval;
    e->interval_sign = sign;
    e->type = Timestamp(TimeUnit::kMicros,
                        family == Family::kTimestamp ? column.expr->type->timezone : "");
  } else if (lit.kind == Literal::Kind::kInteger && family == Family::kDate) {
    if (lit.i > INT32_MAX || lit.i < INT32_MIN) {
      return ErrorAt(pos, "a date +- " + LiteralText(lit) + " days is beyond the date range");
    }
    e->interval.days = static_cast<int64_t>(lit.i);
    e->interval_sign = sign;
    e->type = column.expr->type;
  } else {
    return std::nullopt;
  }
  Operand out;
  out.pos = pos;
  out.description = column.description + (sign < 0 ? " - " : " + ") + LiteralText(lit);
  out.expr = ExprPtr(e);
  return out;
}

Result<Operand> Binder::Arithmetic(Op op, const Operand& variant_a, const Operand& variant_b,
                                   int32_t pos) {
  const Operand a = SettleVariant(variant_a, variant::SqlType::kDouble);
  const Operand b = SettleVariant(variant_b, variant::SqlType::kDouble);
  if (a.is_literal() && b.is_literal()) return FoldArithmetic(op, a, b, pos);
  if (std::optional<Result<Operand>> shifted = ShiftTemporalColumn(op, a, b, pos)) {
    return std::move(*shifted);
  }
  for (const Operand* o : {&a, &b}) {
    if (o->is_literal() && o->literal.kind == Literal::Kind::kInterval) {
      return ErrorAt(o->pos,
                     "an INTERVAL is added to or subtracted from a DATE or TIMESTAMP, not " +
                         (o == &a ? b : a).description);
    }
  }
  ExprPtr x;
  ExprPtr y;
  if (a.is_literal()) {
    PQSIFT_ASSIGN_OR_RETURN(x, ArithmeticLiteral(a, a.pos));
  } else {
    x = a.expr;
  }
  if (b.is_literal()) {
    PQSIFT_ASSIGN_OR_RETURN(y, ArithmeticLiteral(b, b.pos));
  } else {
    y = b.expr;
  }
  Family fx = FamilyOf(*x->type);
  Family fy = FamilyOf(*y->type);
  if (!IsNumeric(fx) || !IsNumeric(fy)) {
    const Operand& bad = IsNumeric(fx) ? b : a;
    return ErrorAt(pos, "arithmetic on " + bad.description + " is not supported");
  }
  TypePtr result;
  if (fx == Family::kFloat || fy == Family::kFloat) {
    // As DuckDB: a float32 (or float16) meeting integers, decimals or float32 stays a float32,
    // computed in single precision; a double anywhere (a literal with an exponent) makes it
    // a double.
    bool single = x->type->id != TypeId::kFloat64 && y->type->id != TypeId::kFloat64;
    result = single ? Float32() : Float64();
    x = MakeCast(x, result);
    y = MakeCast(y, result);
  } else if (op == Op::kDiv) {
    // DuckDB: '/' on integers and decimals gives a double.
    result = Float64();
    x = MakeCast(x, result);
    y = MakeCast(y, result);
  } else if (fx == Family::kInt && fy == Family::kInt) {
    result = Int64();
    x = MakeCast(x, result);
    y = MakeCast(y, result);
  } else {
    auto as_decimal = [](const ExprPtr& e) {
      if (e->type->id == TypeId::kDecimal128) return e;
      return MakeCast(e, Decimal128(IntegerDigits(e->type->id), 0));
    };
    x = as_decimal(x);
    y = as_decimal(y);
    const DataType& tx = *x->type;
    const DataType& ty = *y->type;
    if (op == Op::kMul) {
      // Children keep their scales; the product's scale is their sum (exact, as DuckDB).
      int32_t scale = tx.scale + ty.scale;
      if (scale > 38) return ErrorAt(pos, "decimal product needs more than 38 digits of scale");
      result = Decimal128(std::min(38, tx.precision + ty.precision), scale);
    } else {
      int32_t scale = std::max(tx.scale, ty.scale);
      int32_t integer = std::max(tx.precision - tx.scale, ty.precision - ty.scale);
      if (integer + scale > 38) {
        return ErrorAt(pos, "decimal sum needs more than 38 digits");
      }
      result = Decimal128(std::min(38, integer + scale + 1), scale);
      auto rescale = [&](const ExprPtr& e) {
        const DataType& t = *e->type;
        if (t.scale == scale) return e;
        return MakeCast(e, Decimal128(t.precision + scale - t.scale, scale));
      };
      x = rescale(x);
      y = rescale(y);
    }
  }
  Operand out;
  out.expr = MakeNode(op, result, {x, y});
  out.pos = pos;
  out.description = result->ToString() + " expression";
  return out;
}

// Arithmetic between two literals, done now: integers exactly in int64 (overflow is an error),
// decimals exactly, anything with a float or '/' in double. NULL propagates.
Result<Operand> Binder::FoldArithmetic(Op op, const Operand& a, const Operand& b, int32_t pos) {
  if (std::optional<Result<Operand>> temporal = FoldTemporal(op, a, b, pos)) {
    return std::move(*temporal);
  }
  Operand out;
  out.pos = pos;
  const Literal& x = a.literal;
  const Literal& y = b.literal;
  auto numeric = [](const Literal& l) {
    return l.kind == Literal::Kind::kInteger || l.kind == Literal::Kind::kDecimal ||
           l.kind == Literal::Kind::kFloat || l.kind == Literal::Kind::kNull;
  };
  if (!numeric(x) || !numeric(y)) {
    const Operand& bad = numeric(x) ? b : a;
    return ErrorAt(pos, "arithmetic on " + bad.description + " is not supported");
  }
  Literal& r = out.literal;
  if (x.kind == Literal::Kind::kNull || y.kind == Literal::Kind::kNull) {
    r.kind = Literal::Kind::kNull;
  } else if (op == Op::kDiv || x.kind == Literal::Kind::kFloat || y.kind == Literal::Kind::kFloat) {
    auto as_double = [](const Literal& l) {
      return l.kind == Literal::Kind::kFloat ? l.f : RationalToFloat(l.i, l.scale, false);
    };
    double dx = as_double(x);
    double dy = as_double(y);
    r.kind = Literal::Kind::kFloat;
    switch (op) {
      case Op::kAdd: r.f = dx + dy; break;
      case Op::kSub: r.f = dx - dy; break;
      case Op::kMul: r.f = dx * dy; break;
      case Op::kMod: r.f = std::fmod(dx, dy); break;  // x % 0 is NaN, as DuckDB
      default: r.f = dx / dy; break;                  // IEEE, as DuckDB 1.5: 1 / 0 is inf
    }
  } else {
    // Exact: integers are decimals of scale 0.
    int32_t scale = op == Op::kMul ? x.scale + y.scale : std::max(x.scale, y.scale);
    int128 ix = x.i;
    int128 iy = y.i;
    bool overflow = scale > 38;
    if (op != Op::kMul) {
      overflow = overflow || __builtin_mul_overflow(ix, Pow10(scale - x.scale), &ix) ||
                 __builtin_mul_overflow(iy, Pow10(scale - y.scale), &iy);
    }
    int128 v = 0;
    if (!overflow && op == Op::kMod && iy == 0) {
      r.kind = Literal::Kind::kNull;  // an integer or decimal % 0 is NULL, as DuckDB
      out.description = LiteralText(r);
      return out;
    }
    if (!overflow) {
      switch (op) {
        case Op::kAdd: overflow = __builtin_add_overflow(ix, iy, &v); break;
        case Op::kSub: overflow = __builtin_sub_overflow(ix, iy, &v); break;
        case Op::kMod: v = ix % iy; break;  // truncated: the dividend's sign
        default: overflow = __builtin_mul_overflow(ix, iy, &v); break;
      }
    }
    bool integers = x.kind == Literal::Kind::kInteger && y.kind == Literal::Kind::kInteger;
    if (integers && !overflow && (v < INT64_MIN || v > INT64_MAX) &&
        (x.i >= INT64_MIN && x.i <= INT64_MAX && y.i >= INT64_MIN && y.i <= INT64_MAX)) {
      overflow = true;  // int64 arithmetic, as DuckDB's BIGINT
    }
    if (overflow || v >= kClampLimit || v <= -kClampLimit) {
      return ErrorAt(pos, "overflow in constant arithmetic");
    }
    r.kind = integers ? Literal::Kind::kInteger : Literal::Kind::kDecimal;
    r.i = v;
    r.scale = scale;
  }
  out.description = LiteralText(r);
  return out;
}

// DATE or TIMESTAMP literal +- INTERVAL (TIMESTAMP, as DuckDB), INTERVAL + either, and DATE
// +- an integer of days (DATE); nullopt when neither side is a date, timestamp or interval.
std::optional<Result<Operand>> Binder::FoldTemporal(Op op, const Operand& a, const Operand& b,
                                                    int32_t pos) {
  using K = Literal::Kind;
  auto temporal = [](const Literal& l) { return l.kind == K::kDate || l.kind == K::kTimestamp; };
  const Literal& x = a.literal;
  const Literal& y = b.literal;
  if (!temporal(x) && !temporal(y) && x.kind != K::kInterval && y.kind != K::kInterval) {
    return std::nullopt;
  }
  Operand out;
  out.pos = pos;
  if (x.kind == K::kNull || y.kind == K::kNull) {
    out.literal.kind = K::kNull;
    out.description = "NULL";
    return out;
  }
  const bool add = op == Op::kAdd;
  const bool sub = op == Op::kSub;
  const Literal* instant = temporal(x) ? &x : &y;
  const Literal* other = temporal(x) ? &y : &x;
  // An interval or a day count after the instant, or one added before it.
  const bool ordered = temporal(x) ? (add || sub) : add;
  const int sign = sub ? -1 : 1;
  Literal& r = out.literal;
  if (ordered && temporal(*instant) && other->kind == K::kInterval) {
    const int128 nanos = instant->kind == K::kDate ? instant->i * kNanosPerDay : instant->i;
    std::optional<int128> sum = AddInterval(nanos, other->interval, sign);
    if (!sum) return Result<Operand>(ErrorAt(pos, "a timestamp beyond the timestamp range"));
    r.kind = K::kTimestamp;
    r.i = *sum;
    r.has_zone = instant->kind == K::kTimestamp && instant->has_zone;
  } else if (ordered && instant->kind == K::kDate && other->kind == K::kInteger &&
             other->i >= INT32_MIN && other->i <= INT32_MAX) {
    r.kind = K::kDate;
    r.i = instant->i + sign * other->i;
  } else {
    return Result<Operand>(
        ErrorAt(pos, "cannot compute " + LiteralText(x) + std::string(OpText(op)) + LiteralText(y) +
                         " (a date or timestamp +- an INTERVAL, or a date +- a number of days)"));
  }
  out.description = LiteralText(r);
  return out;
}

}  // namespace pqsift::expr::binding
