#include "expr/order_by.h"

#include <cctype>

#include "expr/lexer.h"

namespace pqsift::expr {
namespace {

bool IsWord(const Token& t, std::string_view word) {
  return t.kind == TokenKind::kIdentifier && AsciiLower(t.text) == word;
}
bool IsSymbol(const Token& t, std::string_view symbol) {
  return t.kind == TokenKind::kSymbol && t.text == symbol;
}

}  // namespace

Result<std::vector<OrderKey>> ParseOrderBy(std::string_view text) {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  std::vector<OrderKey> keys;
  size_t i = 0;
  for (;;) {
    OrderKey key;
    for (;;) {
      const Token& part = tokens[i];
      if (part.kind != TokenKind::kIdentifier && part.kind != TokenKind::kQuotedIdentifier) {
        return ErrorAt(part.pos, "expected a column name");
      }
      if (!key.column.empty()) key.column += '.';
      key.column += part.text;
      ++i;
      if (!IsSymbol(tokens[i], ".")) break;
      ++i;
    }
    if (IsWord(tokens[i], "asc") || IsWord(tokens[i], "desc")) {
      key.descending = IsWord(tokens[i], "desc");
      ++i;
    }
    if (IsWord(tokens[i], "nulls")) {
      ++i;
      if (!IsWord(tokens[i], "first") && !IsWord(tokens[i], "last")) {
        return ErrorAt(tokens[i].pos, "expected FIRST or LAST after NULLS");
      }
      key.nulls_first = IsWord(tokens[i], "first");
      ++i;
    }
    keys.push_back(std::move(key));
    if (tokens[i].kind == TokenKind::kEnd) break;
    if (!IsSymbol(tokens[i], ",")) {
      return ErrorAt(tokens[i].pos, "expected ',', ASC, DESC or NULLS FIRST/LAST");
    }
    ++i;
  }
  return keys;
}

}  // namespace pqsift::expr
