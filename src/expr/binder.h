// From `--where` text to a BoundFilter: lexer, parser and binder (names and types).
//
// The language (docs/filter-language.md has the grammar and the coercion rules):
//   = != <> < <= > >=, BETWEEN, [NOT] IN (...), IS [NOT] NULL, IS [NOT] DISTINCT FROM,
//   AND, OR, NOT, parentheses, [NOT] LIKE / ILIKE, starts_with(col, 'x'), + - * /,
//   literals: integers, floats (1.5e3), exact decimals (1.25), 'strings', DATE '2026-01-01',
//   TIMESTAMP '2026-01-01 12:00:00[.ffffff][Z|+hh:mm]', TRUE, FALSE, NULL; columns by name or
//   dotted path, "quoted" for odd names.
#pragma once

#include <string_view>

#include "expr/expr.h"
#include "pqsift/schema.h"
#include "pqsift/status.h"

namespace pqsift::expr {

// InvalidArgument for a syntax error, an unknown column, a column inside a list or map, or a
// type mismatch; the message points at the position: "at 17: no column 'regoin'".
Result<BoundFilter> BindFilter(std::string_view text, const Schema& schema);

struct AstNode;
// The same for a syntax tree already parsed from `text` (expr/parser.h), e.g. one conjunct of
// a larger filter; `text` is kept as the filter's text.
Result<BoundFilter> BindFilter(const AstNode& ast, std::string_view text, const Schema& schema);

}  // namespace pqsift::expr
