// The binder's operands: a column by its path (exact, then a unique case-insensitive match,
// with the nearest name in the error), a path into a VARIANT column and the type it is read
// as, literals, and CAST. The rest of the binder is binder.cc.
#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "column/arrow_type.h"
#include "expr/binder_internal.h"
#include "expr/temporal_text.h"
#include "variant/shredding.h"

namespace pqsift::expr::binding {

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

}  // namespace pqsift::expr::binding
