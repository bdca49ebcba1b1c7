// The binder: resolves names against the schema, types every node, and coerces literals to the
// column side's comparison domain without ever rounding (docs/filter-language.md). Arithmetic is
// bound in binder_arithmetic.cc, the function calls in binder_functions.cc.
#include "expr/binder.h"

#include "arrow/cast.h"
#include "arrow/layout.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "column/arrow_type.h"
#include "expr/binder_internal.h"
#include "expr/lexer.h"
#include "expr/like.h"
#include "expr/parser.h"
#include "expr/temporal_text.h"
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

// ---- operands ----
Result<Operand> Binder::BindOperand(const AstNode& n) {
  switch (n.kind) {
    case AstNode::Kind::kColumn: return BindColumn(n);
    case AstNode::Kind::kLiteral: {
      Operand o;
      o.literal = n.literal;
      o.pos = n.pos;
      o.description = LiteralText(n.literal);
      return o;
    }
    case AstNode::Kind::kNegate: return BindNegate(n);
    case AstNode::Kind::kArithmetic: return BindArithmetic(n);
    case AstNode::Kind::kCast: return BindCast(n);
    case AstNode::Kind::kCase:  // conditions over a CASE are rewritten before (DistributeCase)
      return ErrorAt(n.pos, "CASE is supported inside a condition");
    case AstNode::Kind::kCall:
      if (n.name == "variant_get") return BindVariantGet(n);
      if (std::optional<std::string> field = DateFieldOfCall(n)) return BindDatePart(n, *field);
      if (n.name == "date_trunc" || n.name == "datetrunc") return BindDateTrunc(n);
      if (std::optional<Op> op = ValueFunctionNamed(n.name)) return BindValueFunction(n, *op);
      if (std::optional<Operand> clock = ClockLiteral(n.name, n.pos); clock && n.children.empty()) {
        return *clock;
      }
      [[fallthrough]];
    default: {
      PQSIFT_ASSIGN_OR_RETURN(ExprPtr p, BindPredicate(n));
      Operand o;
      o.expr = std::move(p);
      o.pos = n.pos;
      o.description = "boolean expression";
      return o;
    }
  }
}

Result<Operand> Binder::BindColumn(const AstNode& n) {
  std::string path;
  for (const std::string& part : n.path) path += (path.empty() ? "" : ".") + part;
  const ColumnDescriptor* column = n.subscripts.empty() ? FindLeaf(path) : nullptr;
  if (column == nullptr) {
    if (std::optional<Result<Operand>> v = BindVariantPath(n)) return *v;
    if (!n.subscripts.empty()) {
      return ErrorAt(n.subscripts[0].pos, "[ ] subscripts need a VARIANT column");
    }
    if (std::string group = FindGroup(path); !group.empty()) {
      return ErrorAt(
          n.pos, "column '" + group + "' is a group (struct, list or map): name a leaf inside it");
    }
    // SQL's current_date and current_timestamp, where no column has the name.
    const std::string lower = AsciiLower(path);
    if (lower == "current_date" || lower == "current_timestamp") {
      return *ClockLiteral(lower, n.pos);
    }
    std::string message = "no column '" + path + "'";
    if (std::string near = NearestName(path); !near.empty()) {
      message += " (did you mean '" + near + "'?)";
    }
    return ErrorAt(n.pos, message);
  }
  if (column->max_repetition_level > 0) {
    return ErrorAt(n.pos, "column '" + column->path +
                              "' is inside a list or map: filters take top-level or struct "
                              "fields only");
  }
  auto leaf = static_cast<int32_t>(column - schema_.columns().data());
  int32_t index = -1;
  for (size_t k = 0; k < filter_.columns.size(); ++k) {
    if (filter_.columns[k].leaf == leaf) index = static_cast<int32_t>(k);
  }
  if (index < 0) {
    Result<TypePtr> type = column::ArrowTypeForLeaf(*column);
    if (!type.ok()) return ErrorAt(n.pos, type.status().message());
    ColumnRef ref;
    ref.path = column->path;
    ref.leaf = leaf;
    ref.type = *type;
    index = static_cast<int32_t>(filter_.columns.size());
    filter_.columns.push_back(std::move(ref));
  }
  const ColumnRef& ref = filter_.columns[static_cast<size_t>(index)];
  auto e = std::make_shared<Expr>();
  e->op = Op::kColumn;
  e->column = index;
  e->type = ref.type;
  Operand o;
  o.expr = std::move(e);
  o.pos = n.pos;
  o.description = ref.type->ToString() + " column '" + ref.path + "'";
  o.uuid = column->logical_type.kind == LogicalType::Kind::kUuid;
  return o;
}

// `n` as a path into a VARIANT column: the longest prefix of its dotted parts that names a
// group annotated VARIANT, the rest and the subscripts the steps inside it. nullopt when no
// prefix names one.
std::optional<Result<Operand>> Binder::BindVariantPath(const AstNode& n) {
  for (size_t len = n.path.size(); len > 0; --len) {
    std::string prefix;
    for (size_t k = 0; k < len; ++k) prefix += (k == 0 ? "" : ".") + n.path[k];
    int32_t node = schema_.FindNode(prefix);
    if (node < 0) continue;
    const SchemaNode& group = schema_.nodes()[static_cast<size_t>(node)];
    if (group.is_leaf() || group.logical_type.kind != LogicalType::Kind::kVariant) return {};
    if (group.max_repetition_level > 0) {
      return ErrorAt(n.pos, "column '" + schema_.NodePath(node) +
                                "' is inside a list or map: filters take top-level or struct "
                                "fields only");
    }
    VariantPath v;
    for (size_t k = len; k < n.path.size(); ++k) {
      variant::PathStep step;
      step.name = n.path[k];
      v.steps.push_back(std::move(step));
    }
    for (const AstSubscript& sub : n.subscripts) {
      variant::PathStep step;
      if (sub.is_index) {
        // As DuckDB: v.a[1] is the first element; 0 is refused.
        if (sub.index < 1 || sub.index > UINT32_MAX) {
          return ErrorAt(sub.pos, "variant array indexes are 1-based: [1] is the first element");
        }
        step.is_index = true;
        step.index = static_cast<uint32_t>(sub.index - 1);
      } else {
        step.name = sub.name;
      }
      v.steps.push_back(std::move(step));
    }
    v.column = VariantColumn(node);
    Operand o;
    o.pos = n.pos;
    o.description =
        "VARIANT path '" + schema_.NodePath(node) + variant::FormatPath(v.steps).substr(1) + "'";
    o.variant = std::move(v);
    return o;
  }
  return {};
}

// The kColumn of VARIANT group `node` (read whole: the unshredded variant), added to the
// filter's columns once.
ExprPtr Binder::VariantColumn(int32_t node) {
  const std::string& path = schema_.NodePath(node);
  int32_t index = -1;
  for (size_t k = 0; k < filter_.columns.size(); ++k) {
    if (filter_.columns[k].leaf < 0 && filter_.columns[k].path == path) {
      index = static_cast<int32_t>(k);
    }
  }
  if (index < 0) {
    ColumnRef ref;
    ref.path = path;
    ref.type = variant::VariantArrowType();
    index = static_cast<int32_t>(filter_.columns.size());
    filter_.columns.push_back(std::move(ref));
  }
  auto e = std::make_shared<Expr>();
  e->op = Op::kColumn;
  e->column = index;
  e->type = filter_.columns[static_cast<size_t>(index)].type;
  return e;
}

// A variant path given its SQL type: kVariantGet.
Operand Binder::SettleVariant(const Operand& x, variant::SqlType type) {
  if (!x.variant) return x;
  auto e = std::make_shared<Expr>();
  e->op = Op::kVariantGet;
  e->type = variant::ArrowTypeOf(type);
  e->variant_path = x.variant->steps;
  e->variant_type = type;
  e->children = {x.variant->column};
  Operand out;
  out.expr = std::move(e);
  out.pos = x.pos;
  out.description = x.description + " as " + std::string(variant::SqlTypeName(type));
  return out;
}

// The type a variant path takes when it meets `other` (docs/filter-language.md): numbers as
// DOUBLE (so 42.5 = 42 is FALSE, as in DuckDB), strings as VARCHAR, booleans as BOOLEAN,
// dates as DATE; NULL as VARCHAR (any value is non-null there).
Result<variant::SqlType> Binder::VariantTypeFor(const Operand& x, const Operand& other) {
  auto mismatch = [&] {
    return ErrorAt(other.pos, "cannot compare " + x.description + " with " + other.description +
                                  ": CAST the path or use variant_get");
  };
  if (other.variant) return mismatch();
  if (other.is_literal()) {
    switch (other.literal.kind) {
      case Literal::Kind::kInteger:
      case Literal::Kind::kDecimal:
      case Literal::Kind::kFloat: return variant::SqlType::kDouble;
      case Literal::Kind::kString:
      case Literal::Kind::kNull: return variant::SqlType::kVarchar;
      case Literal::Kind::kBool: return variant::SqlType::kBoolean;
      case Literal::Kind::kDate: return variant::SqlType::kDate;
      default: return mismatch();
    }
  }
  Family f = FamilyOf(*other.expr->type);
  if (IsNumeric(f)) return variant::SqlType::kDouble;
  if (f == Family::kBool) return variant::SqlType::kBoolean;
  if (f == Family::kDate) return variant::SqlType::kDate;
  if (f == Family::kBytes && other.expr->type->id == TypeId::kLargeString) {
    return variant::SqlType::kVarchar;
  }
  return mismatch();
}

// Both sides of a comparison with a variant path settled by the other side.
Status Binder::SettlePair(Operand& a, Operand& b) {
  if (a.variant) {
    PQSIFT_ASSIGN_OR_RETURN(variant::SqlType t, VariantTypeFor(a, b));
    a = SettleVariant(a, t);
  } else if (b.variant) {
    PQSIFT_ASSIGN_OR_RETURN(variant::SqlType t, VariantTypeFor(b, a));
    b = SettleVariant(b, t);
  }
  return Status::OK();
}

// The leaf `path` names (Schema::FindNode: the one resolution of names), or null.
const ColumnDescriptor* Binder::FindLeaf(const std::string& path) const {
  int32_t node = schema_.FindNode(path);
  if (node < 0 || !schema_.nodes()[static_cast<size_t>(node)].is_leaf()) return nullptr;
  return &schema_.columns()[static_cast<size_t>(
      schema_.nodes()[static_cast<size_t>(node)].column_index)];
}

// The group `path` names, as the schema spells it, or empty.
std::string Binder::FindGroup(const std::string& path) const {
  int32_t node = schema_.FindNode(path);
  if (node < 0 || schema_.nodes()[static_cast<size_t>(node)].is_leaf()) return {};
  return schema_.NodePath(node);
}

// The leaf path within edit distance 2 (case-insensitive) of `path`, if exactly one is closest.
std::string Binder::NearestName(const std::string& path) const {
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t up = row[j];
        bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                    std::tolower(static_cast<unsigned char>(b[j - 1]));
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  size_t best_distance = 3;
  for (const ColumnDescriptor& c : schema_.columns()) {
    size_t d = distance(path, c.path);
    if (d < best_distance) {
      best_distance = d;
      best = c.path;
    }
  }
  return best;
}

Result<Operand> Binder::BindCast(const AstNode& n) {
  PQSIFT_ASSIGN_OR_RETURN(Operand x, BindOperand(*n.children[0]));
  const std::string& type = n.name;
  bool to_double = type == "double" || type == "float8" || type == "double precision";
  bool to_integer = type == "bigint" || type == "integer" || type == "int" || type == "int8" ||
                    type == "int4" || type == "int64" || type == "hugeint";
  if (x.variant) {
    // CAST of a variant path is variant_get's conversion: NULL where it does not convert
    // (TRY_CAST; DuckDB's CAST fails the query there).
    std::optional<variant::SqlType> to;
    if (to_integer) to = variant::SqlType::kBigint;
    if (to_double) to = variant::SqlType::kDouble;
    if (type == "varchar" || type == "text" || type == "string") to = variant::SqlType::kVarchar;
    if (type == "boolean" || type == "bool") to = variant::SqlType::kBoolean;
    if (type == "date") to = variant::SqlType::kDate;
    if (!to) {
      return ErrorAt(n.pos, "CAST of " + x.description + " AS " + type +
                                " is not supported (BIGINT, DOUBLE, VARCHAR, BOOLEAN, DATE)");
    }
    return SettleVariant(x, *to);
  }
  if (x.is_literal()) {
    Literal& lit = x.literal;
    std::optional<Literal> out;
    if (lit.kind == Literal::Kind::kNull) {
      out = lit;
    } else if (to_double || to_integer || type.starts_with("decimal") ||
               type.starts_with("numeric")) {
      if (lit.kind == Literal::Kind::kString) {
        out = ParseNumberText(lit.s, to_double);
      } else if (lit.kind == Literal::Kind::kInteger || lit.kind == Literal::Kind::kDecimal ||
                 lit.kind == Literal::Kind::kFloat) {
        out = lit;
      }
      if (out && to_double && out->kind != Literal::Kind::kFloat) {
        out->f = RationalToFloat(out->i, out->scale, false);
        out->kind = Literal::Kind::kFloat;
      }
      if (out && to_integer) {
        Ticks t = out->kind == Literal::Kind::kFloat ? Ticks{0, false}
                                                     : ScaleExact(out->i, 1, Pow10(out->scale));
        if (!t.exact)
          return ErrorAt(n.pos, "CAST of " + x.description + " to " + type +
                                    " would round; write the integer");
        out->kind = Literal::Kind::kInteger;
        out->i = t.floor;
        out->scale = 0;
      }
    } else if (type == "date" && lit.kind == Literal::Kind::kString) {
      if (std::optional<int64_t> days = ParseDate(lit.s)) {
        out.emplace();
        out->kind = Literal::Kind::kDate;
        out->i = *days;
      } else if (std::optional<TimestampText> ts = ParseTimestamp(lit.s)) {
        out.emplace();  // '2026-01-05 10:00'::DATE, as DuckDB: the day
        out->kind = Literal::Kind::kDate;
        out->i = DayOfNanos(ts->nanos);
      }
    } else if (type == "date" && lit.kind == Literal::Kind::kTimestamp) {
      out.emplace();
      out->kind = Literal::Kind::kDate;
      out->i = DayOfNanos(lit.i);
    } else if (type == "date" && lit.kind == Literal::Kind::kDate) {
      out = lit;
    } else if ((type == "timestamp" || type == "timestamptz") &&
               lit.kind == Literal::Kind::kString) {
      if (std::optional<TimestampText> ts = ParseTimestamp(lit.s)) {
        out.emplace();
        out->kind = Literal::Kind::kTimestamp;
        out->i = ts->nanos;
        out->has_zone = ts->has_zone;
      }
    } else if ((type == "varchar" || type == "text" || type == "string") &&
               lit.kind == Literal::Kind::kString) {
      out = lit;
    } else if ((type == "blob" || type == "bytea" || type == "varbinary") &&
               (lit.kind == Literal::Kind::kString || lit.kind == Literal::Kind::kBytes)) {
      out = lit;
      out->kind = Literal::Kind::kBytes;
    }
    if (!out) return ErrorAt(n.pos, "cannot CAST " + x.description + " AS " + type);
    x.literal = *out;
    x.description = LiteralText(*out);
    x.pos = n.pos;
    return x;
  }
  Family f = FamilyOf(*x.expr->type);
  TypePtr to;
  if (to_double && IsNumeric(f)) {
    to = Float64();
  } else if (type == "timestamp" && (f == Family::kDate || f == Family::kTimestamp)) {
    to = f == Family::kDate ? Timestamp(TimeUnit::kMicros, "") : x.expr->type;
  } else if (type == "date" && f == Family::kDate) {
    to = x.expr->type;
  } else if (type == "date" && f == Family::kTimestamp) {
    to = Date32();  // the day of the timestamp (a zoned one's in UTC)
  } else if (to_integer && f == Family::kInt &&
             CastFitsEveryValue(x.expr->type->id, type == "bigint" || type == "int8" ||
                                                      type == "int64" || type == "hugeint")) {
    to = Int64();  // every value fits: the value itself, in the one integer domain
  } else if (f == Family::kBytes &&
             (x.expr->type->id == TypeId::kLargeString
                  ? type == "varchar" || type == "text" || type == "string"
                  : type == "blob" || type == "bytea" || type == "varbinary")) {
    to = x.expr->type;
  }
  if (to == nullptr) {
    return ErrorAt(n.pos, "CAST of " + x.description + " AS " + type +
                              " is not supported (only to DOUBLE from numbers, to TIMESTAMP "
                              "from dates, to DATE from timestamps, and a column to its own "
                              "type: BIGINT, VARCHAR, BLOB, DATE)");
  }
  x.expr = MakeCast(x.expr, to);
  x.description = to->ToString() + " expression";
  return x;
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
