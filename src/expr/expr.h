// The bound filter expression: what the parser and binder produce from `--where` text, what the
// vectorised evaluator runs over batches, and what the pruning stages reason about.
//
// A bound tree is fully typed: every node has its result type, and both sides of a comparison
// are in one comparison domain (value.h). The binder makes them so by converting the literal to
// the column's type when that is exact, and otherwise by wrapping the column in a kCast to a
// wider type (int -> float64, int or decimal -> decimal of a larger scale, date -> timestamp,
// timestamp unit -> finer unit). Every kCast the binder emits is monotonic (non-decreasing),
// which is what lets pruning push bounds through it.
//
// Shapes the binder guarantees (the evaluator and the proof rely on them):
//   comparisons (kEq..kIsNotDistinctFrom): exactly two children, same Value kind
//   kAnd / kOr: two or more children, all boolean; kNot, kIsNull, kIsNotNull: one child
//   kIn: one child (the tested operand) and `list` of non-null literals in its domain (a NULL in
//        the SQL list is kept as `list_has_null`, which makes a non-match NULL, not FALSE)
//   kLike / kILike: one string child and `pattern` (SQL LIKE, '%' and '_', '\' escapes)
//   kStartsWith: one string or binary child and `pattern` holding the prefix
//   kAdd..kDiv: two numeric children of the node's own type (SQL integer overflow and division
//        by zero are errors at evaluation, as in DuckDB)
//   BETWEEN a AND b is bound as kAnd(x >= a, x <= b); NOT IN / NOT LIKE as kNot(...);
//   `x <> y` as kNe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "expr/value.h"
#include "pqsift/array.h"

namespace pqsift::expr {

enum class Op : uint8_t {
  kColumn,
  kLiteral,
  kCast,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kIsDistinctFrom,
  kIsNotDistinctFrom,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kIsNotNull,
  kIn,
  kLike,
  kILike,
  kStartsWith,
  kAdd,
  kSub,
  kMul,
  kDiv,
};

struct Expr {
  Op op = Op::kLiteral;
  std::shared_ptr<const DataType> type;  // result type (Boolean for predicates)
  int32_t column = -1;                   // kColumn: index into BoundFilter::columns
  Value literal;                         // kLiteral (kNull for NULL, typed by `type`)
  std::vector<Value> list;               // kIn
  bool list_has_null = false;            // kIn
  std::string pattern;                   // kLike, kILike, kStartsWith
  std::vector<std::shared_ptr<const Expr>> children;
};

// A leaf column the filter reads. Only leaves outside any list or map can be referenced.
struct ColumnRef {
  std::string path;                      // dotted: "s.a.b"
  int32_t leaf = -1;                     // index into Schema::columns()
  std::shared_ptr<const DataType> type;  // the Arrow type the column decodes to
};

struct BoundFilter {
  std::shared_ptr<const Expr> root;  // boolean
  std::vector<ColumnRef> columns;    // each referenced leaf once, in order of first reference
  std::string text;                  // the original `--where` text
};

// SQL-like rendering of a bound tree, for explain ("(id >= 1000) AND (region = 'eu')").
std::string ToString(const Expr& e, const BoundFilter& filter);

// The Value kind values of `type` compare in (value.h); kNull for types with none (nested, null).
Value::Kind ValueKindOf(const DataType& type);

// A literal of `type` in its user-facing form: 42, 1.25, 'text', X'00ff', DATE '2026-01-01',
// TIMESTAMP '2026-01-01 12:00:00', TRUE, NULL.
std::string LiteralToString(const Value& v, const DataType& type);

}  // namespace pqsift::expr
