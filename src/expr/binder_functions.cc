// The binder's function calls (binder_internal.h): DuckDB's date functions, value functions
// (lower, upper, length, abs, coalesce, greatest, floor, substring, isnan, ...), now() and
// current_date, regular expressions, variant_get and st_intersects_extent.
#include "expr/binder_internal.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "expr/rounding.h"
#include "expr/string_functions.h"
#include "expr/temporal_text.h"
#include "geo/geoarrow.h"

namespace pqsift::expr::binding {

// The field a call names: year(x), month(x), ... (DuckDB's names and aliases), or
// date_part('field', x), which extract(field FROM x) parses into; nullopt for other calls.
std::optional<std::string> Binder::DateFieldOfCall(const AstNode& n) {
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"dayofmonth", "day"}, {"dayofweek", "dow"}, {"weekday", "dow"}, {"dayofyear", "doy"},
      {"years", "year"},     {"months", "month"},  {"days", "day"},    {"hours", "hour"},
      {"minutes", "minute"}, {"seconds", "second"}};
  auto canonical = [](std::string name) {
    for (const auto& [alias, field] : kAliases) {
      if (name == alias) return std::string(field);
    }
    return name;
  };
  if (n.name == "date_part" || n.name == "datepart") {
    if (n.children.size() != 2 || n.children[0]->kind != AstNode::Kind::kLiteral ||
        n.children[0]->literal.kind != Literal::Kind::kString) {
      return std::string();  // an error for BindDatePart to report
    }
    return canonical(AsciiLower(n.children[0]->literal.s));
  }
  // The functions DuckDB has (no dow() or doy(): those are date_part's names).
  static constexpr std::string_view kFunctions[] = {"year",       "quarter", "month",  "day",
                                                    "dayofmonth", "hour",    "minute", "second",
                                                    "dayofweek",  "weekday", "isodow", "dayofyear"};
  for (std::string_view f : kFunctions) {
    if (n.name == f) return canonical(n.name);
  }
  return std::nullopt;
}

// date_trunc('unit', x) of a date or timestamp: a microsecond timestamp, of x's zone (expr.h
// kDateTrunc), as DuckDB's.
Result<Operand> Binder::BindDateTrunc(const AstNode& n) {
  if (n.children.size() != 2 || n.children[0]->kind != AstNode::Kind::kLiteral ||
      n.children[0]->literal.kind != Literal::Kind::kString) {
    return ErrorAt(n.pos,
                   "date_trunc needs a unit ('year', 'quarter', 'month', 'week', 'day', "
                   "'hour', 'minute', 'second') and a date or timestamp");
  }
  std::string unit = AsciiLower(n.children[0]->literal.s);
  if (!TruncUnitNamed(unit)) {
    return ErrorAt(n.children[0]->pos, "date_trunc: unknown unit '" + unit + "'");
  }
  return BindDateFunction(n, *n.children[1], Op::kDateTrunc, std::move(unit));
}

// A date function (kDatePart: BIGINT; kDateTrunc: a microsecond timestamp of the operand's
// zone) named `pattern`, over the date or timestamp operand `arg` of call `n`.
Result<Operand> Binder::BindDateFunction(const AstNode& n, const AstNode& arg, Op op,
                                         std::string pattern) {
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(arg));
  if (x.is_literal()) {
    return ErrorAt(x.pos, n.name + " needs a date or timestamp column, not " + x.description);
  }
  const Family f = FamilyOf(*x.expr->type);
  if (f != Family::kDate && f != Family::kTimestamp) {
    return ErrorAt(x.pos, n.name + " needs a date or timestamp, not " + x.description);
  }
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = op == Op::kDatePart ? Int64()
                                : Timestamp(TimeUnit::kMicros,
                                            f == Family::kTimestamp ? x.expr->type->timezone : "");
  e->children = {x.expr};
  Operand out;
  out.pos = n.pos;
  out.description = (op == Op::kDatePart ? pattern : n.name) + " of " + x.description;
  e->pattern = std::move(pattern);
  out.expr = ExprPtr(e);
  return out;
}

// year(x) and the other fields of a date or timestamp operand (expr.h kDatePart).
Result<Operand> Binder::BindDatePart(const AstNode& n, const std::string& field) {
  const bool part_call = n.name == "date_part" || n.name == "datepart";
  if (!DateFieldNamed(field)) {
    return ErrorAt(n.pos, part_call ? "date_part needs a field name ('year', 'month', 'day', "
                                      "'hour', ...) and a date or timestamp"
                                    : "unknown date part '" + field + "'");
  }
  const size_t arity = part_call ? 2 : 1;
  if (n.children.size() != arity) {
    return ErrorAt(
        n.pos, n.name + " takes " + std::to_string(arity) + " argument" + (arity > 1 ? "s" : ""));
  }
  return BindDateFunction(n, *n.children[arity - 1], Op::kDatePart, field);
}

// ---- now(), current_date ----
// now() (current_timestamp, get_current_timestamp, transaction_timestamp): the time the
// filter is bound, a TIMESTAMP WITH TIME ZONE of microseconds, as DuckDB's (the start of its
// transaction); today() (current_date): its day in UTC. One instant for the whole filter.
// nullopt for other names.
std::optional<Operand> Binder::ClockLiteral(const std::string& name, int32_t pos) {
  const bool instant = name == "now" || name == "current_timestamp" ||
                       name == "get_current_timestamp" || name == "transaction_timestamp";
  const bool day = name == "today" || name == "current_date";
  if (!instant && !day) return std::nullopt;
  if (!now_micros_) {
    now_micros_ = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  }
  Operand o;
  o.pos = pos;
  if (instant) {
    o.literal.kind = Literal::Kind::kTimestamp;
    o.literal.i = int128{*now_micros_} * 1000;
    o.literal.has_zone = true;
  } else {
    o.literal.kind = Literal::Kind::kDate;
    o.literal.i = DayOfNanos(int128{*now_micros_} * 1000);
  }
  o.description = LiteralText(o.literal);
  return o;
}

// ---- lower, upper, length, strlen, octet_length, abs, coalesce ----
// The op of a value function by its name (DuckDB's names and aliases); nullopt for others.
std::optional<Op> Binder::ValueFunctionNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, Op> kNames[] = {{"lower", Op::kLower},
                                                               {"lcase", Op::kLower},
                                                               {"upper", Op::kUpper},
                                                               {"ucase", Op::kUpper},
                                                               {"length", Op::kLength},
                                                               {"len", Op::kLength},
                                                               {"char_length", Op::kLength},
                                                               {"character_length", Op::kLength},
                                                               {"strlen", Op::kOctetLength},
                                                               {"octet_length", Op::kOctetLength},
                                                               {"abs", Op::kAbs},
                                                               {"coalesce", Op::kCoalesce},
                                                               {"ifnull", Op::kCoalesce},
                                                               {"substring", Op::kSubstring},
                                                               {"substr", Op::kSubstring},
                                                               {"left", Op::kSubstring},
                                                               {"right", Op::kSubstring},
                                                               {"isnan", Op::kFloatTest},
                                                               {"isinf", Op::kFloatTest},
                                                               {"isfinite", Op::kFloatTest},
                                                               {"floor", Op::kRound},
                                                               {"ceil", Op::kRound},
                                                               {"ceiling", Op::kRound},
                                                               {"round", Op::kRound},
                                                               {"trunc", Op::kRound},
                                                               {"greatest", Op::kGreatest},
                                                               {"least", Op::kLeast},
                                                               {"trim", Op::kTrim},
                                                               {"ltrim", Op::kTrim},
                                                               {"rtrim", Op::kTrim},
                                                               {"strpos", Op::kStrpos},
                                                               {"instr", Op::kStrpos},
                                                               {"replace", Op::kReplace},
                                                               {"concat", Op::kConcat},
                                                               {"||", Op::kConcat},
                                                               {"regexp_extract", Op::kRegexValue},
                                                               {"regexp_replace", Op::kRegexValue}};
  for (const auto& [n, op] : kNames) {
    if (name == n) return op;
  }
  return std::nullopt;
}

Result<Operand> Binder::BindValueFunction(const AstNode& n, Op op) {
  if (op == Op::kCoalesce || op == Op::kGreatest || op == Op::kLeast) return BindChoice(n, op);
  if (op == Op::kRound) return BindRounding(n);
  if (op == Op::kConcat) return BindConcat(n);
  if (op == Op::kRegexValue) return BindRegexValue(n);
  if (op == Op::kTrim || op == Op::kStrpos || op == Op::kReplace) return BindTextFunction(n, op);
  if (op == Op::kSubstring) return BindSubstring(n);
  if (op == Op::kFloatTest) return BindFloatTest(n);
  if (n.children.size() != 1) return ErrorAt(n.pos, n.name + " takes one argument");
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, op == Op::kAbs ? variant::SqlType::kDouble : variant::SqlType::kVarchar);
  Operand out;
  out.pos = n.pos;
  out.description = n.name + " of " + x.description;
  if (x.is_literal()) {
    if (x.literal.kind == Literal::Kind::kNull) {
      out.literal.kind = Literal::Kind::kNull;
      out.description = "NULL";
      return out;
    }
    PQSIFT_ASSIGN_OR_RETURN(out.literal, FoldValueFunction(n, op, x));
    out.description = LiteralText(out.literal);
    return out;
  }
  const DataType& type = *x.expr->type;
  const Family family = FamilyOf(type);
  const bool string = type.id == TypeId::kLargeString;
  TypePtr result = x.expr->type;
  ExprPtr operand = x.expr;
  switch (op) {
    case Op::kLower:
    case Op::kUpper:
    case Op::kLength:
      if (!string) return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
      if (op == Op::kLength) result = Int64();
      break;
    case Op::kOctetLength:
      if (family != Family::kBytes || (n.name == "strlen" && !string)) {
        return ErrorAt(x.pos, n.name + " needs a string" + (n.name == "strlen" ? "" : " or blob") +
                                  ", not " + x.description);
      }
      result = Int64();
      break;
    default:  // kAbs
      if (!IsNumeric(family)) return ErrorAt(x.pos, "abs needs a number, not " + x.description);
      if (family == Family::kInt) {
        const bool is_unsigned = type.id == TypeId::kUInt8 || type.id == TypeId::kUInt16 ||
                                 type.id == TypeId::kUInt32 || type.id == TypeId::kUInt64;
        if (is_unsigned) return x;  // its own absolute value
        if (type.id != TypeId::kInt64) operand = MakeCast(operand, Int64());
        result = Int64();  // integers are one int64 domain here, as in arithmetic
      }
  }
  out.expr = MakeNode(op, result, {operand});
  return out;
}

// lower('ABC'), abs(-2.5), ...: the value now, as the evaluator would give it.
Result<Literal> Binder::FoldValueFunction(const AstNode& n, Op op, const Operand& x) {
  const Literal& lit = x.literal;
  Literal out;
  if (op == Op::kAbs) {
    if (lit.kind != Literal::Kind::kInteger && lit.kind != Literal::Kind::kDecimal &&
        lit.kind != Literal::Kind::kFloat) {
      return ErrorAt(x.pos, "abs needs a number, not " + x.description);
    }
    out = lit;
    out.i = lit.i < 0 ? -lit.i : lit.i;
    out.f = std::fabs(lit.f);
    return out;
  }
  if (lit.kind != Literal::Kind::kString &&
      !(op == Op::kOctetLength && n.name != "strlen" && lit.kind == Literal::Kind::kBytes)) {
    return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
  }
  if (op == Op::kLower || op == Op::kUpper) {
    out.kind = Literal::Kind::kString;
    AppendCaseMapped(lit.s, op == Op::kUpper, &out.s);
    return out;
  }
  out.kind = Literal::Kind::kInteger;
  out.i = op == Op::kLength ? CodePointCount(lit.s) : static_cast<int64_t>(lit.s.size());
  return out;
}

// isnan(x), isinf(x), isfinite(x) of a number (an integer or decimal as a double: never NaN
// or infinite), as DuckDB's.
Result<Operand> Binder::BindFloatTest(const AstNode& n) {
  if (n.children.size() != 1) return ErrorAt(n.pos, n.name + " takes one argument");
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kDouble);
  Operand out;
  out.pos = n.pos;
  out.description = n.name + " of " + x.description;
  auto test = [&](double v) {
    return n.name == "isnan" ? std::isnan(v) : n.name == "isinf" ? std::isinf(v) : std::isfinite(v);
  };
  if (x.is_literal()) {
    const Literal& lit = x.literal;
    if (lit.kind == Literal::Kind::kNull) return x;
    if (lit.kind != Literal::Kind::kInteger && lit.kind != Literal::Kind::kDecimal &&
        lit.kind != Literal::Kind::kFloat) {
      return ErrorAt(x.pos, n.name + " needs a number, not " + x.description);
    }
    out.literal.kind = Literal::Kind::kBool;
    out.literal.b = test(lit.kind == Literal::Kind::kFloat ? lit.f : 0.0);
    out.description = LiteralText(out.literal);
    return out;
  }
  if (!IsNumeric(FamilyOf(*x.expr->type))) {
    return ErrorAt(x.pos, n.name + " needs a number, not " + x.description);
  }
  ExprPtr operand = x.expr;
  const TypeId id = operand->type->id;
  if (id != TypeId::kFloat64 && id != TypeId::kFloat32 && id != TypeId::kFloat16) {
    operand = MakeCast(operand, Float64());
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kFloatTest;
  e->type = Boolean();
  e->pattern = n.name;
  e->children = {operand};
  out.expr = ExprPtr(e);
  return out;
}

// substring(s, offset[, length]) (substr; SQL's substring(s FROM offset [FOR length])),
// left(s, n), right(s, n) of a string, with integer literals in DuckDB's range (expr.h).
Result<Operand> Binder::BindSubstring(const AstNode& n) {
  const bool substring = n.name == "substring" || n.name == "substr";
  if (substring ? n.children.size() < 2 || n.children.size() > 3 : n.children.size() != 2) {
    return ErrorAt(n.pos, n.name + (substring ? " takes a string, an offset and a length"
                                              : " takes a string and a count"));
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  std::vector<Value> numbers;
  for (size_t k = 1; k < n.children.size(); ++k) {
    PQSIFT_ASSIGN_OR_RETURN(Operand a, BindOperand(*n.children[k]));
    if (a.is_literal() && a.literal.kind == Literal::Kind::kNull) {
      Operand null;
      null.literal.kind = Literal::Kind::kNull;
      null.pos = n.pos;
      null.description = "NULL";
      return null;
    }
    // DuckDB's range: offsets and lengths of 32 bits, either sign.
    constexpr int128 kLimit = int128{1} << 32;
    if (!a.is_literal() || a.literal.kind != Literal::Kind::kInteger || a.literal.i < -kLimit ||
        a.literal.i >= kLimit) {
      return ErrorAt(a.pos, n.name + " needs an integer literal between -2^32 and 2^32 - 1, not " +
                                a.description);
    }
    numbers.push_back(Value::Int(a.literal.i));
  }
  const std::string mode = substring ? "substring" : n.name;
  Operand out;
  out.pos = n.pos;
  out.description = n.name + " of " + x.description;
  if (x.is_literal()) {
    if (x.literal.kind == Literal::Kind::kNull) return x;
    if (x.literal.kind != Literal::Kind::kString) {
      return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
    }
    out.literal.kind = Literal::Kind::kString;
    out.literal.s = std::string(SubstringCallOf(mode, numbers).Apply(x.literal.s));
    out.description = LiteralText(out.literal);
    return out;
  }
  if (x.expr->type->id != TypeId::kLargeString) {
    return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kSubstring;
  e->type = x.expr->type;
  e->pattern = mode;
  e->list = std::move(numbers);
  e->children = {x.expr};
  out.expr = ExprPtr(e);
  return out;
}

// coalesce(a, b, ...) (ifnull(a, b)), greatest(a, b, ...), least(a, b, ...): the operands in
// one type, the column sides' common one (as a comparison's), literals converted to it exactly.
// NULL literals are never chosen (greatest and least skip NULLs, as DuckDB's), and coalesce's
// arguments after a non-NULL literal are never reached: both go, and what is left of one
// operand is that operand. greatest and least take one literal at most.
Result<Operand> Binder::BindChoice(const AstNode& n, Op op) {
  if (n.children.empty() || (n.name == "ifnull" && n.children.size() != 2)) {
    return ErrorAt(n.pos, n.name + (n.name == "ifnull" ? " takes two arguments"
                                                       : " takes one or more arguments"));
  }
  std::vector<Operand> args;
  std::optional<Operand> literal;  // greatest, least: their one literal, met last
  for (const auto& child : n.children) {
    PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*child));
    if (x.variant) {
      return ErrorAt(x.pos, n.name + " of a VARIANT path needs its type: use variant_get");
    }
    if (x.is_literal() && x.literal.kind == Literal::Kind::kNull) continue;
    if (op != Op::kCoalesce && x.is_literal()) {
      if (literal) return ErrorAt(x.pos, n.name + " takes at most one literal");
      literal = std::move(x);
      continue;
    }
    args.push_back(std::move(x));
    if (args.back().is_literal()) break;  // coalesce: the operands after it are never reached
  }
  if (literal) args.push_back(std::move(*literal));
  if (args.empty()) {
    Operand null;
    null.literal.kind = Literal::Kind::kNull;
    null.pos = n.pos;
    null.description = "NULL";
    return null;
  }
  if (args.size() == 1) return args[0];
  // The columns' common type: each next one unified with the type so far.
  Operand common = args[0];
  for (size_t k = 1; k < args.size() && !args[k].is_literal(); ++k) {
    PQSIFT_ASSIGN_OR_RETURN(auto pair, Unify(common, args[k], args[k].pos));
    common.expr = pair.first;
    if (FamilyOf(*pair.first->type) == Family::kDecimal &&
        pair.second->type->precision > pair.first->type->precision) {
      common.expr = pair.second;  // one scale: the wider precision holds both
    }
    if (FamilyOf(*pair.first->type) == Family::kInt && !(*pair.first->type == *pair.second->type)) {
      // Integers of two widths compare directly; a value of both is an int64, or a
      // decimal(20, 0) where one is a uint64.
      const bool unsigned64 =
          pair.first->type->id == TypeId::kUInt64 || pair.second->type->id == TypeId::kUInt64;
      common.expr = MakeCast(pair.first, unsigned64 ? Decimal128(20, 0) : Int64());
    }
  }
  // The last operand may be a literal: in the columns' type, or a float literal that makes
  // a number of them all doubles (as DuckDB's coalesce(f32, 1.5e0) is a DOUBLE).
  TypePtr type = common.expr->type;
  std::optional<Coerced> last;
  if (args.back().is_literal() && args.back().literal.kind == Literal::Kind::kFloat &&
      IsNumeric(FamilyOf(*type))) {
    // A double literal makes the numbers doubles, also where it is a float32 (DuckDB).
    type = Float64();
    last = Coerced{Coerced::Kind::kFloatCast, Value::Float(args.back().literal.f), 0};
  } else if (args.back().is_literal() && args.back().literal.kind == Literal::Kind::kInteger &&
             FamilyOf(*type) == Family::kInt) {
    // An integer literal meets integer columns in a type that holds it and them: int64
    // (uint64 for a uint64 column), else decimal(38, 0). coalesce(u32, -97) is -97.
    const int128 v = args.back().literal.i;
    if (type->id == TypeId::kUInt64 ? v < 0 || v > int128{UINT64_MAX}
                                    : v < INT64_MIN || v > INT64_MAX) {
      type = Decimal128(38, 0);
    } else if (type->id != TypeId::kUInt64) {
      type = Int64();
    }
    last = Coerced{Coerced::Kind::kExact, Value::Int(v), 0};
  } else if (args.back().is_literal()) {
    PQSIFT_ASSIGN_OR_RETURN(last, CoerceLiteral(common, args.back()));
    if (last->kind == Coerced::Kind::kBetween) {
      return ErrorAt(args.back().pos, n.name + ": " + args.back().description +
                                          " is not a value of " + common.description + "'s type (" +
                                          type->ToString() + ")");
    }
    if (last->kind == Coerced::Kind::kFloatCast) type = Float64();
  }
  std::vector<ExprPtr> children;
  for (const Operand& x : args) {
    if (x.is_literal()) continue;
    const DataType& own = *x.expr->type;
    const bool same_decimal_scale = own.id == TypeId::kDecimal128 &&
                                    type->id == TypeId::kDecimal128 && own.scale == type->scale;
    children.push_back(own == *type || same_decimal_scale ? x.expr : MakeCast(x.expr, type));
  }
  if (last) children.push_back(MakeLiteral(std::move(last->value), type));
  Operand out;
  out.pos = n.pos;
  out.description = n.name + " of " + args[0].description;
  out.expr = MakeNode(op, type, std::move(children));
  return out;
}

// trim / ltrim / rtrim (s[, 'characters']), strpos / instr (s, 'needle'), replace (s, 'from',
// 'to') of a string, with literal arguments (string_functions.h); a NULL argument makes NULL.
Result<Operand> Binder::BindTextFunction(const AstNode& n, Op op) {
  const size_t min_args = op == Op::kReplace ? 3 : 2 - (op == Op::kTrim ? 1 : 0);
  const size_t max_args = op == Op::kReplace ? 3 : 2;
  if (n.children.size() < min_args || n.children.size() > max_args) {
    return ErrorAt(n.pos, n.name + (op == Op::kTrim     ? " takes a string and optional characters"
                                    : op == Op::kStrpos ? " takes a string and a string to find"
                                                        : " takes a string, what to replace and "
                                                          "its replacement"));
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  std::vector<std::string> args;
  bool null = x.is_literal() && x.literal.kind == Literal::Kind::kNull;
  for (size_t k = 1; k < n.children.size(); ++k) {
    PQSIFT_ASSIGN_OR_RETURN(Operand a, BindOperand(*n.children[k]));
    if (!a.is_literal() ||
        (a.literal.kind != Literal::Kind::kString && a.literal.kind != Literal::Kind::kNull)) {
      return ErrorAt(a.pos,
                     n.name + " needs string literals after its string, not " + a.description);
    }
    null = null || a.literal.kind == Literal::Kind::kNull;
    args.push_back(a.literal.s);
  }
  if (op == Op::kTrim && args.empty()) args.emplace_back(" ");  // DuckDB trims spaces only
  Operand out;
  out.pos = n.pos;
  if (null) {
    out.literal.kind = Literal::Kind::kNull;
    out.description = "NULL";
    return out;
  }
  const bool left = n.name != "rtrim";
  const bool right = n.name != "ltrim";
  if (x.is_literal()) {
    if (x.literal.kind != Literal::Kind::kString) {
      return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
    }
    if (op == Op::kStrpos) {
      out.literal.kind = Literal::Kind::kInteger;
      out.literal.i = CodePointPosition(x.literal.s, args[0]);
    } else {
      out.literal.kind = Literal::Kind::kString;
      if (op == Op::kTrim) {
        out.literal.s = std::string(Trimmed(x.literal.s, args[0], left, right));
      } else {
        AppendReplaced(x.literal.s, args[0], args[1], &out.literal.s);
      }
    }
    out.description = LiteralText(out.literal);
    return out;
  }
  if (x.expr->type->id != TypeId::kLargeString) {
    return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
  }
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = op == Op::kStrpos ? Int64() : x.expr->type;
  e->children = {x.expr};
  if (op == Op::kStrpos) {
    e->pattern = args[0];
  } else {
    e->pattern = op == Op::kTrim ? n.name : "replace";
    for (std::string& a : args) e->list.push_back(Value::Bytes(std::move(a)));
  }
  out.description = n.name + " of " + x.description;
  out.expr = ExprPtr(e);
  return out;
}

// regexp_extract(s, 'pattern'[, group[, 'options']]) and regexp_replace(s, 'pattern', 'rewrite'[,
// 'options']) of a string (regex.h): literal arguments; a NULL one makes NULL.
Result<Operand> Binder::BindRegexValue(const AstNode& n) {
  const bool extract = n.name == "regexp_extract";
  const size_t min_args = extract ? 2 : 3;
  if (n.children.size() < min_args || n.children.size() > 4) {
    return ErrorAt(n.pos, extract ? "regexp_extract takes a string, a pattern, a group and options"
                                  : "regexp_replace takes a string, a pattern, its replacement "
                                    "and options");
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  std::vector<Operand> args;
  for (size_t k = 1; k < n.children.size(); ++k) {
    PQSIFT_ASSIGN_OR_RETURN(Operand a, BindOperand(*n.children[k]));
    const bool group = extract && k == 2;
    const bool ok = a.is_literal() &&
                    (a.literal.kind == Literal::Kind::kNull ||
                     a.literal.kind == (group ? Literal::Kind::kInteger : Literal::Kind::kString));
    if (!ok) {
      return ErrorAt(a.pos, n.name + " needs " +
                                (group ? "an integer literal group" : "string literals") +
                                ", not " + a.description);
    }
    args.push_back(std::move(a));
  }
  Operand out;
  out.pos = n.pos;
  const bool null = std::any_of(args.begin(), args.end(), [](const Operand& a) {
    return a.literal.kind == Literal::Kind::kNull;
  });
  const std::string options = args.size() == 3 ? args[2].literal.s : "";
  auto compiled = Regex::Compile(args[0].literal.s, options, false, /*replacing=*/!extract);
  if (!compiled.ok()) return ErrorAt(args[0].pos, n.name + ": " + compiled.status().message());
  Value argument = Value::Int(0);
  if (extract && args.size() >= 2) {
    if (args[1].literal.i < 0 || args[1].literal.i > Regex::kMaxGroup) {
      return ErrorAt(args[1].pos, "regexp_extract: the group must be between 0 and 9");
    }
    argument = Value::Int(args[1].literal.i);
  } else if (!extract) {
    PQSIFT_RETURN_IF_ERROR((*compiled)
                               ->CheckRewrite(args[1].literal.s)
                               .WithContext("at " + std::to_string(args[1].pos)));
    argument = Value::Bytes(args[1].literal.s);
  }
  if (null || (x.is_literal() && x.literal.kind == Literal::Kind::kNull)) {
    out.literal.kind = Literal::Kind::kNull;
    out.description = "NULL";
    return out;
  }
  if (x.is_literal()) {
    if (x.literal.kind != Literal::Kind::kString) {
      return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
    }
    out.literal.kind = Literal::Kind::kString;
    if (extract) {
      (*compiled)->AppendExtracted(x.literal.s, static_cast<int>(argument.i), &out.literal.s);
    } else {
      (*compiled)->AppendReplaced(x.literal.s, argument.bytes, &out.literal.s);
    }
    out.description = LiteralText(out.literal);
    return out;
  }
  if (x.expr->type->id != TypeId::kLargeString) {
    return ErrorAt(x.pos, n.name + " needs a string, not " + x.description);
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kRegexValue;
  e->type = x.expr->type;
  e->pattern = n.name;
  e->regex = std::move(compiled).value();
  e->list = {std::move(argument)};
  e->children = {x.expr};
  out.description = n.name + " of " + x.description;
  out.expr = ExprPtr(e);
  return out;
}

// a || b (NULL where either is NULL) and concat(a, b, ...) (NULLs skipped) of strings: columns
// and literals; of literals only, folded.
Result<Operand> Binder::BindConcat(const AstNode& n) {
  const bool bars = n.name == "||";
  if (n.children.empty()) return ErrorAt(n.pos, "concat takes one or more arguments");
  // a || b || c parses as (a || b) || c: its operands in one list.
  std::vector<const AstNode*> operands;
  std::vector<const AstNode*> pending = {&n};
  while (!pending.empty()) {
    const AstNode* node = pending.back();
    pending.pop_back();
    const bool nested =
        node == &n || (bars && node->kind == AstNode::Kind::kCall && node->name == "||");
    if (!nested) {
      operands.push_back(node);
      continue;
    }
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it) {
      pending.push_back(it->get());
    }
  }
  std::vector<Operand> args;
  TypePtr string_type;
  for (const AstNode* child : operands) {
    PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*child));
    x = SettleVariant(x, variant::SqlType::kVarchar);
    if (x.is_literal() && x.literal.kind == Literal::Kind::kNull) {
      if (!bars) continue;
      Operand null;
      null.pos = n.pos;
      null.literal.kind = Literal::Kind::kNull;
      null.description = "NULL";
      return null;
    }
    const bool string = x.is_literal() ? x.literal.kind == Literal::Kind::kString
                                       : x.expr->type->id == TypeId::kLargeString;
    if (!string) {
      return ErrorAt(x.pos,
                     (bars ? std::string("||") : n.name) + " needs strings, not " + x.description);
    }
    if (!x.is_literal()) string_type = x.expr->type;
    // Neighbouring literals join now: 'a' || 'b' is 'ab'.
    if (x.is_literal() && !args.empty() && args.back().is_literal()) {
      args.back().literal.s += x.literal.s;
      continue;
    }
    args.push_back(std::move(x));
  }
  Operand out;
  out.pos = n.pos;
  if (!string_type) {  // literals only
    out.literal.kind = Literal::Kind::kString;
    if (!args.empty()) out.literal.s = args[0].literal.s;
    out.description = LiteralText(out.literal);
    return out;
  }
  std::vector<ExprPtr> children;
  children.reserve(args.size());
  for (const Operand& x : args) {
    children.push_back(x.is_literal() ? MakeLiteral(Value::Bytes(x.literal.s), string_type)
                                      : x.expr);
  }
  if (children.size() == 1) {
    out.expr = children[0];  // concat(s): s where s is not NULL, '' where it is
    if (bars) return out;
    children.push_back(MakeLiteral(Value::Bytes(""), string_type));
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kConcat;
  e->type = string_type;
  e->pattern = bars ? "||" : "concat";
  e->children = std::move(children);
  out.description = (bars ? std::string("||") : n.name) + " of " + args[0].description;
  out.expr = ExprPtr(e);
  return out;
}

// floor, ceil (ceiling), round, trunc of a number (rounding.h), typed as DuckDB's: a float keeps
// its type, a decimal becomes one of scale 0; of an integer, round and trunc are the integer and
// floor and ceil a DOUBLE. round(x, digits), digits an integer literal: a float rounded to that
// many places (any number, as DuckDB's), a decimal to scale min(digits, its scale), an integer
// itself. Negative digits of a decimal or an integer are refused: DuckDB 1.5 gives no rounded
// value for them (round(5.5::DECIMAL(2,1), -1) is 0 there).
Result<Operand> Binder::BindRounding(const AstNode& n) {
  const bool with_digits = n.name == "round" && n.children.size() == 2;
  if (n.children.size() != 1 && !with_digits) {
    return ErrorAt(n.pos, n.name + (n.name == "round" ? " takes one or two arguments (x[, digits])"
                                                      : " takes one argument"));
  }
  int32_t digits = 0;
  if (with_digits) {
    PQSIFT_ASSIGN_OR_RETURN(Operand d, BindOperand(*n.children[1]));
    if (!d.is_literal() || d.literal.kind != Literal::Kind::kInteger || d.literal.i < INT32_MIN ||
        d.literal.i > INT32_MAX) {
      return ErrorAt(d.pos, "round's digits must be an integer literal, not " + d.description);
    }
    digits = static_cast<int32_t>(d.literal.i);
  }
  const Rounding rounding = *RoundingNamed(n.name);
  const std::string name = n.name == "ceiling" ? "ceil" : n.name;
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kDouble);
  auto refuse_negative = [&]() -> Status {
    return ErrorAt(n.children[1]->pos,
                   "round to negative digits is supported for floats only, not " + x.description);
  };
  if (x.is_literal()) {
    Literal& lit = x.literal;
    switch (lit.kind) {
      case Literal::Kind::kNull: return x;
      case Literal::Kind::kInteger:
        if (digits < 0) return refuse_negative();
        return x;
      case Literal::Kind::kDecimal:
        if (digits < 0) return refuse_negative();
        if (digits >= lit.scale) return x;
        lit.i = RoundDecimal(rounding, lit.i, cast::PowerOfTen(lit.scale - digits).value_or(1));
        lit.scale = digits;
        if (digits == 0) lit.kind = Literal::Kind::kInteger;
        break;
      case Literal::Kind::kFloat:
        lit.f = with_digits ? RoundFloatTo(lit.f, digits) : RoundFloat(rounding, lit.f);
        break;
      default: return ErrorAt(x.pos, n.name + " needs a number, not " + x.description);
    }
    x.description = LiteralText(lit);
    return x;
  }
  const DataType& type = *x.expr->type;
  Operand out;
  out.pos = n.pos;
  out.description = name + " of " + x.description;
  switch (FamilyOf(type)) {
    case Family::kInt:
      if (digits < 0) return refuse_negative();
      if (rounding == Rounding::kRound || rounding == Rounding::kTrunc) return x;
      out.expr = MakeCast(x.expr, Float64());
      return out;
    case Family::kDecimal:
      if (digits < 0) return refuse_negative();
      if (type.scale <= digits) return x;
      out.expr = MakeNode(Op::kRound, Decimal128(type.precision, digits), {x.expr});
      break;
    case Family::kFloat: out.expr = MakeNode(Op::kRound, x.expr->type, {x.expr}); break;
    default: return ErrorAt(x.pos, n.name + " needs a number, not " + x.description);
  }
  auto e = std::make_shared<Expr>(*out.expr);
  e->pattern = name;
  e->digits = digits;
  out.expr = ExprPtr(e);
  return out;
}

// variant_get(v[.path], '$.path', 'TYPE'): the path's value as TYPE, NULL where missing or
// not convertible.
Result<Operand> Binder::BindVariantGet(const AstNode& n) {
  if (n.children.size() != 3) {
    return ErrorAt(n.pos, "variant_get takes three arguments: (column, '$.path', 'TYPE')");
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand v, BindOperand(*n.children[0]));
  if (!v.variant) {
    return ErrorAt(v.pos, "variant_get needs a VARIANT column, not " + v.description);
  }
  auto string_argument = [&](size_t k, std::string_view what) -> Result<std::string> {
    const AstNode& a = *n.children[k];
    if (a.kind != AstNode::Kind::kLiteral || a.literal.kind != Literal::Kind::kString) {
      return ErrorAt(a.pos, "variant_get needs a string literal " + std::string(what));
    }
    return a.literal.s;
  };
  PQSIFT_ASSIGN_OR_RETURN(std::string path_text, string_argument(1, "path"));
  PQSIFT_ASSIGN_OR_RETURN(std::string type_text, string_argument(2, "type"));
  Result<std::vector<variant::PathStep>> steps = variant::ParsePath(path_text);
  if (!steps.ok()) return ErrorAt(n.children[1]->pos, steps.status().message());
  Result<variant::SqlType> type = variant::ParseSqlType(type_text);
  if (!type.ok()) return ErrorAt(n.children[2]->pos, type.status().message());
  v.variant->steps.insert(v.variant->steps.end(), steps->begin(), steps->end());
  v.description = "variant_get of " + v.description;
  return SettleVariant(v, *type);
}

// st_intersects_extent(geom, xmin, ymin, xmax, ymax): a GEOMETRY/GEOGRAPHY column and four
// number literals (expr.h).
Result<ExprPtr> Binder::BindIntersectsExtent(const AstNode& n) {
  if (n.children.size() != 5) {
    return ErrorAt(n.pos,
                   "st_intersects_extent takes five arguments (geom, xmin, ymin, xmax, ymax)");
  }
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  if (x.is_literal() || x.expr->op != Op::kColumn ||
      x.expr->type->extension_name != geo::kGeoArrowWkb) {
    return ErrorAt(
        x.pos, "st_intersects_extent needs a GEOMETRY or GEOGRAPHY column, not " + x.description);
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kIntersectsExtent;
  e->type = Boolean();
  e->geography = geo::HasCurvedEdges(x.expr->type->extension_metadata);
  e->children = {x.expr};
  for (size_t k = 1; k < 5; ++k) {
    PQSIFT_ASSIGN_OR_RETURN(Operand c, BindOperand(*n.children[k]));
    const Literal& lit = c.literal;
    if (c.is_literal() && lit.kind == Literal::Kind::kNull) {
      return MakeLiteral(Value::Null(), Boolean());
    }
    double v = 0;
    if (c.is_literal() && lit.kind == Literal::Kind::kFloat) {
      v = lit.f;
    } else if (c.is_literal() &&
               (lit.kind == Literal::Kind::kInteger || lit.kind == Literal::Kind::kDecimal)) {
      v = RationalToFloat(lit.i, lit.scale, false);
    } else {
      return ErrorAt(
          c.pos, "st_intersects_extent needs number literals for the box, not " + c.description);
    }
    if (std::isnan(v)) return ErrorAt(c.pos, "st_intersects_extent: a box coordinate is NaN");
    e->list.push_back(Value::Float(v));
  }
  if (e->list[1].f > e->list[3].f) {
    return ErrorAt(n.pos, "st_intersects_extent: ymin is greater than ymax");
  }
  return ExprPtr(e);
}

Result<ExprPtr> Binder::BindCall(const AstNode& n) {
  if (n.name == "st_intersects_extent") return BindIntersectsExtent(n);
  if (ValueFunctionNamed(n.name) || DateFieldOfCall(n) || n.name == "date_trunc" ||
      n.name == "datetrunc") {  // coalesce(flag, FALSE); year(ts) is an error there
    PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(n));
    return AsPredicate(x);
  }
  if (n.name == "variant_get") {
    PQSIFT_ASSIGN_OR_RETURN(Operand x, BindVariantGet(n));
    return AsPredicate(x);
  }
  if (n.name == "regexp_matches" || n.name == "regexp_full_match") {
    if (n.children.size() != 2 && n.children.size() != 3) {
      return ErrorAt(n.pos, n.name + " takes a string, a pattern and optional options");
    }
    return BindRegexMatch(*n.children[0], *n.children[1],
                          n.children.size() == 3 ? n.children[2].get() : nullptr,
                          n.name == "regexp_full_match");
  }
  // DuckDB's names: prefix and suffix are starts_with's and ends_with's aliases.
  const Op op = n.name == "starts_with" || n.name == "prefix" ? Op::kStartsWith
                : n.name == "ends_with" || n.name == "suffix" ? Op::kEndsWith
                : n.name == "contains"                        ? Op::kContains
                                                              : Op::kLiteral;
  if (op == Op::kLiteral) {
    return ErrorAt(n.pos,
                   "unknown function '" + n.name +
                       "' or not a condition (conditions: starts_with, ends_with, contains, "
                       "prefix, suffix, regexp_matches, regexp_full_match, "
                       "st_intersects_extent; values: abs, coalesce, ifnull, greatest, least, "
                       "floor, ceil, round, trunc, length, lower, upper, strlen, octet_length, "
                       "trim, strpos, replace, concat, regexp_extract, regexp_replace, year, "
                       "month, day, ..., date_part, date_trunc, variant_get)");
  }
  if (n.children.size() != 2) return ErrorAt(n.pos, n.name + " takes two arguments");
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  PQSIFT_ASSIGN_OR_RETURN(Operand text, BindOperand(*n.children[1]));
  const bool text_literal = x.is_literal() && (x.literal.kind == Literal::Kind::kString ||
                                               x.literal.kind == Literal::Kind::kBytes ||
                                               x.literal.kind == Literal::Kind::kNull);
  if (!text_literal && (x.is_literal() || FamilyOf(*x.expr->type) != Family::kBytes)) {
    return ErrorAt(x.pos, n.name + " needs a string or binary column, not " + x.description);
  }
  if (!text.is_literal() ||
      (text.literal.kind != Literal::Kind::kString && text.literal.kind != Literal::Kind::kBytes &&
       text.literal.kind != Literal::Kind::kNull)) {
    return ErrorAt(text.pos, n.name + " needs a string literal, not " + text.description);
  }
  if (text.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
  if (text_literal) {  // of a literal (a CASE's branch, say): decided now
    if (x.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
    return MakeLiteral(Value::Bool(PassesSubstringTest(op, text.literal.s, x.literal.s)),
                       Boolean());
  }
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = Boolean();
  e->pattern = text.literal.s;
  e->children = {x.expr};
  return ExprPtr(e);
}

// ---- regular expressions ----
// The pattern and options must be string literals (DuckDB compiles a constant pattern once,
// as here); a NULL pattern makes the result NULL, NULL options are an error (as DuckDB's).
Result<ExprPtr> Binder::BindRegexMatch(const AstNode& value, const AstNode& pattern,
                                       const AstNode* options, bool full) {
  const std::string name = full ? "regexp_full_match" : "regexp_matches";
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(value));
  x = SettleVariant(x, variant::SqlType::kVarchar);
  PQSIFT_ASSIGN_OR_RETURN(Operand p, BindOperand(pattern));
  std::string option_text;
  if (options != nullptr) {
    PQSIFT_ASSIGN_OR_RETURN(Operand o, BindOperand(*options));
    if (!o.is_literal() || o.literal.kind != Literal::Kind::kString) {
      return ErrorAt(o.pos, name +
                                " needs its options as a string literal ('i', 'c', 's', ...), "
                                "not " +
                                o.description);
    }
    option_text = o.literal.s;
  }
  const bool string_literal = x.is_literal() && (x.literal.kind == Literal::Kind::kString ||
                                                 x.literal.kind == Literal::Kind::kNull);
  if (!string_literal && (x.is_literal() || x.expr->type->id != TypeId::kLargeString)) {
    return ErrorAt(x.pos, name + " needs a string, not " + x.description);
  }
  if (!p.is_literal() ||
      (p.literal.kind != Literal::Kind::kString && p.literal.kind != Literal::Kind::kNull)) {
    return ErrorAt(p.pos, name + " needs a string literal pattern, not " + p.description);
  }
  const bool null_pattern = p.literal.kind == Literal::Kind::kNull;
  auto compiled = Regex::Compile(null_pattern ? "" : p.literal.s, option_text, full);
  if (!compiled.ok()) {
    return ErrorAt(null_pattern || options == nullptr ? p.pos : options->pos,
                   name + ": " + compiled.status().message());
  }
  if (null_pattern) return MakeLiteral(Value::Null(), Boolean());
  if (x.is_literal()) {  // 'abc' ~ 'a.c': decided now
    if (x.literal.kind == Literal::Kind::kNull) return MakeLiteral(Value::Null(), Boolean());
    return MakeLiteral(Value::Bool((*compiled)->Matches(x.literal.s)), Boolean());
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kRegexMatch;
  e->type = Boolean();
  e->pattern = p.literal.s;
  e->regex = std::move(compiled).value();
  e->children = {x.expr};
  return ExprPtr(e);
}

}  // namespace pqsift::expr::binding
