// The tokens of the filter language. Keywords are not special here: they are identifiers that
// the parser recognises case-insensitively, so a column may be named like a keyword when quoted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/status.h"

namespace pqsift::expr {

enum class TokenKind : uint8_t {
  kEnd,               // after the last token
  kIdentifier,        // text: as written
  kQuotedIdentifier,  // text: without the quotes, "" unescaped
  kInteger,           // text: the digits
  kDecimal,           // text: digits with a '.' (an exact decimal: 1.25)
  kFloat,             // text: a number with an exponent (1.5e3)
  kString,            // text: without the quotes, '' unescaped
  kHexString,         // text: the decoded bytes of X'..'
  kSymbol,            // text: = != <> < <= > >= + - * / ( ) , . [ ]
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  int32_t pos = 0;  // 1-based byte offset of the token's first character in the filter text
};

// Splits `text` into tokens ending with one kEnd token. InvalidArgument "at N: ..." for an
// unterminated string or quoted identifier, a bad X'..' literal, or a character that starts no
// token.
Result<std::vector<Token>> Tokenize(std::string_view text);

// `s` with ASCII letters lowered: keywords, function and unit names are case-insensitive.
std::string AsciiLower(std::string_view s);

// "at 17: <message>": the one form of every filter-language error.
Status ErrorAt(int32_t pos, std::string_view message);

}  // namespace pqsift::expr
