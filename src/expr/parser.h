// The recursive-descent parser: filter text to an unbound syntax tree (names not yet resolved,
// literals not yet typed). Precedence, loosest first (as in PostgreSQL and DuckDB):
//   OR;  AND;  NOT;  IS [NOT] NULL, IS [NOT] DISTINCT FROM;  = != <> < <= > >= (non-associative);
//   [NOT] BETWEEN, [NOT] IN, [NOT] LIKE, [NOT] ILIKE, [NOT] SIMILAR TO, ~, !~;  ||;  + -;
//   * /;  unary - +;  primaries.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/expr.h"
#include "expr/interval.h"
#include "expr/value.h"
#include "pqsift/status.h"

namespace pqsift::expr {

// A literal as written, before it meets a column type.
struct Literal {
  enum class Kind : uint8_t {
    kNull,
    kBool,
    kInteger,    // i (any size that fits int128)
    kDecimal,    // i unscaled, scale digits after the point (1.25: i = 125, scale = 2)
    kFloat,      // f (a number with an exponent, or an integer or decimal too long for int128)
    kString,     // s
    kBytes,      // s (X'..')
    kDate,       // i days since the epoch
    kTimestamp,  // i nanoseconds since the epoch; has_zone when 'Z' or an offset was written
    kInterval,   // interval (INTERVAL '90' DAY): added to or subtracted from a date or timestamp
  };
  Kind kind = Kind::kNull;
  bool b = false;
  int128 i = 0;
  int32_t scale = 0;
  double f = 0;
  std::string s;
  bool has_zone = false;
  Interval interval;
};

// A step into a VARIANT column after its name: `v['a']` and `.a` after a subscript are member
// steps, `v.a[1]` an index step (1-based as written, as DuckDB's; the binder makes it 0-based).
struct AstSubscript {
  bool is_index = false;
  std::string name;   // a member step
  int64_t index = 0;  // an index step, as written
  int32_t pos = 0;
};

struct AstNode {
  enum class Kind : uint8_t {
    kColumn,      // path: the dotted parts; subscripts: the steps from the first '[' on
    kLiteral,     // literal
    kNegate,      // unary minus: children[0]
    kArithmetic,  // op kAdd..kDiv: children[0], children[1]
    kCompare,     // op kEq..kIsNotDistinctFrom: children[0], children[1]
    kAnd,         // children (two or more)
    kOr,          // children (two or more)
    kNot,         // children[0]
    kIsNull,      // children[0]; negated: IS NOT NULL
    kBetween,     // children: value, low, high; negated: NOT BETWEEN
    kIn,          // children: value, then the list; negated: NOT IN
    kLike,        // op kLike / kILike / kRegexMatch (~, SIMILAR TO): children: value, pattern;
                  // negated: NOT LIKE, !~, NOT SIMILAR TO
    kCall,        // name (lower case; "||" for a || b), children: arguments
    kCast,        // name: the type as written (lower case), children[0]
    kCase,        // CASE [x] WHEN c THEN v ... [ELSE e] END: children: x when `simple`, then
                  // each WHEN's c and v, then e when `has_else`
  };
  Kind kind = Kind::kLiteral;
  int32_t pos = 0;  // 1-based position in the text, for error messages
  Op op = Op::kLiteral;
  bool negated = false;
  std::vector<std::string> path;
  std::vector<AstSubscript> subscripts;
  Literal literal;
  std::string name;
  std::vector<std::unique_ptr<AstNode>> children;
  bool simple = false;    // kCase: CASE x WHEN a THEN ... (x = a per WHEN)
  bool has_else = false;  // kCase
  int32_t height = 1;     // levels of this subtree (a leaf is 1), for kMaxExpressionDepth
};

// The deepest filter the parser accepts, in tree levels (each operator, NOT, unary minus, call
// or CAST adds one; an AND or OR chain adds one however long) and in nested parentheses. Deeper
// is InvalidArgument: the binder, evaluator and prover recurse over the tree, and a filter of a
// few kilobytes must not exhaust a thread's stack. DuckDB's own limit is 1000.
inline constexpr int32_t kMaxExpressionDepth = 256;

// A deep copy of `node` in which `replaced` (a node inside it, or null) is a copy of `by`.
std::unique_ptr<AstNode> CloneAst(const AstNode& node, const AstNode* replaced = nullptr,
                                  const AstNode* by = nullptr);

// InvalidArgument "at N: ..." on a syntax error (N is where the unexpected token starts, or one
// past the end of the text for a premature end).
Result<std::unique_ptr<AstNode>> Parse(std::string_view text);

}  // namespace pqsift::expr
