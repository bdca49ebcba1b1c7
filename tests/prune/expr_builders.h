// Bound expression trees built by hand, for the pruning tests (the binder is tested on its own):
// column references, literals, comparisons, AND/OR/NOT, IN, IS NULL, LIKE, starts_with, casts.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "expr/expr.h"

namespace pqsift::prune::testing {

using ExprPtr = std::shared_ptr<const expr::Expr>;
using expr::Op;
using expr::Value;

inline ExprPtr Node(Op op, std::shared_ptr<const DataType> type, std::vector<ExprPtr> children) {
  auto e = std::make_shared<expr::Expr>();
  e->op = op;
  e->type = std::move(type);
  e->children = std::move(children);
  return e;
}

inline ExprPtr Col(int32_t column, std::shared_ptr<const DataType> type) {
  auto e = std::make_shared<expr::Expr>();
  e->op = Op::kColumn;
  e->type = std::move(type);
  e->column = column;
  return e;
}

inline ExprPtr Lit(Value v, std::shared_ptr<const DataType> type) {
  auto e = std::make_shared<expr::Expr>();
  e->op = Op::kLiteral;
  e->type = std::move(type);
  e->literal = std::move(v);
  return e;
}
inline ExprPtr IntLit(int64_t v) { return Lit(Value::Int(v), Int64()); }
inline ExprPtr FloatLit(double v) { return Lit(Value::Float(v), Float64()); }
inline ExprPtr StrLit(std::string v) { return Lit(Value::Bytes(std::move(v)), LargeUtf8()); }
inline ExprPtr BoolLit(bool v) { return Lit(Value::Bool(v), Boolean()); }
inline ExprPtr NullLit() { return Lit(Value::Null(), Boolean()); }

inline ExprPtr Cmp(Op op, ExprPtr a, ExprPtr b) {
  return Node(op, Boolean(), {std::move(a), std::move(b)});
}
inline ExprPtr And(std::vector<ExprPtr> children) { return Node(Op::kAnd, Boolean(), children); }
inline ExprPtr Or(std::vector<ExprPtr> children) { return Node(Op::kOr, Boolean(), children); }
inline ExprPtr Not(ExprPtr child) { return Node(Op::kNot, Boolean(), {std::move(child)}); }
inline ExprPtr IsNull(ExprPtr child) { return Node(Op::kIsNull, Boolean(), {std::move(child)}); }
inline ExprPtr IsNotNull(ExprPtr child) {
  return Node(Op::kIsNotNull, Boolean(), {std::move(child)});
}
inline ExprPtr Cast(ExprPtr child, std::shared_ptr<const DataType> to) {
  return Node(Op::kCast, std::move(to), {std::move(child)});
}
inline ExprPtr Arith(Op op, ExprPtr a, ExprPtr b) {
  auto type = a->type;
  return Node(op, type, {std::move(a), std::move(b)});
}

inline ExprPtr In(ExprPtr child, std::vector<Value> list, bool list_has_null = false) {
  auto e = std::make_shared<expr::Expr>();
  e->op = Op::kIn;
  e->type = Boolean();
  e->children = {std::move(child)};
  e->list = std::move(list);
  e->list_has_null = list_has_null;
  return e;
}

// kLike, kILike, kStartsWith, kEndsWith or kContains.
inline ExprPtr Pattern(Op op, ExprPtr child, std::string pattern) {
  auto e = std::make_shared<expr::Expr>();
  e->op = op;
  e->type = Boolean();
  e->children = {std::move(child)};
  e->pattern = std::move(pattern);
  return e;
}

// A filter over columns of the given types (leaf k for column k).
inline expr::BoundFilter Filter(ExprPtr root, std::vector<std::shared_ptr<const DataType>> types) {
  expr::BoundFilter f;
  f.root = std::move(root);
  for (size_t k = 0; k < types.size(); ++k) {
    f.columns.push_back({"c" + std::to_string(k), static_cast<int32_t>(k), types[k]});
  }
  return f;
}

}  // namespace pqsift::prune::testing
