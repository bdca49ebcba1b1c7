#include "expr/lexer.h"

#include <cctype>

namespace pqsift::expr {
namespace {

bool IsIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;  // UTF-8 names
}
bool IsIdentifierPart(char c) {
  return IsIdentifierStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads a quoted run starting at text[i] == quote, where a doubled quote stands for one.
// Returns the position after the closing quote, or npos when unterminated.
size_t ReadQuoted(std::string_view text, size_t i, char quote, std::string* out) {
  for (size_t k = i + 1; k < text.size(); ++k) {
    if (text[k] != quote) {
      out->push_back(text[k]);
    } else if (k + 1 < text.size() && text[k + 1] == quote) {
      out->push_back(quote);
      ++k;
    } else {
      return k + 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status ErrorAt(int32_t pos, std::string_view message) {
  return Status::InvalidArgument("at " + std::to_string(pos) + ": " + std::string(message));
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    auto pos = static_cast<int32_t>(i + 1);
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {  // comment to end of line
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    Token t;
    t.pos = pos;
    if ((c == 'x' || c == 'X') && i + 1 < text.size() && text[i + 1] == '\'') {
      std::string hex;
      size_t end = ReadQuoted(text, i + 1, '\'', &hex);
      if (end == std::string_view::npos) return ErrorAt(pos, "unterminated X'..' literal");
      if (hex.size() % 2 != 0) return ErrorAt(pos, "X'..' needs an even number of hex digits");
      for (size_t k = 0; k < hex.size(); k += 2) {
        int hi = HexDigit(hex[k]);
        int lo = HexDigit(hex[k + 1]);
        if (hi < 0 || lo < 0) return ErrorAt(pos, "X'..' holds a character that is not hex");
        t.text.push_back(static_cast<char>(hi * 16 + lo));
      }
      t.kind = TokenKind::kHexString;
      i = end;
    } else if (IsIdentifierStart(c)) {
      size_t start = i;
      while (i < text.size() && IsIdentifierPart(text[i])) ++i;
      t.kind = TokenKind::kIdentifier;
      t.text = std::string(text.substr(start, i - start));
    } else if (c == '"' || c == '\'') {
      size_t end = ReadQuoted(text, i, c, &t.text);
      if (end == std::string_view::npos) {
        return ErrorAt(pos, c == '"' ? "unterminated quoted identifier" : "unterminated string");
      }
      t.kind = c == '"' ? TokenKind::kQuotedIdentifier : TokenKind::kString;
      i = end;
    } else if (IsDigit(c) || (c == '.' && i + 1 < text.size() && IsDigit(text[i + 1]))) {
      size_t start = i;
      t.kind = TokenKind::kInteger;
      while (i < text.size() && IsDigit(text[i])) ++i;
      if (i < text.size() && text[i] == '.') {
        t.kind = TokenKind::kDecimal;
        ++i;
        while (i < text.size() && IsDigit(text[i])) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t k = i + 1;
        if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
        if (k >= text.size() || !IsDigit(text[k])) {
          return ErrorAt(static_cast<int32_t>(i + 1), "exponent without digits");
        }
        while (k < text.size() && IsDigit(text[k])) ++k;
        t.kind = TokenKind::kFloat;
        i = k;
      }
      if (i < text.size() && IsIdentifierPart(text[i])) {
        return ErrorAt(static_cast<int32_t>(i + 1), "unexpected character after a number");
      }
      t.text = std::string(text.substr(start, i - start));
    } else {
      static constexpr std::string_view kTwoChar[] = {
          "!=", "<>", "<=", ">=", "==", "::", "!~", "||"};
      t.kind = TokenKind::kSymbol;
      std::string_view two = text.substr(i, 2);
      bool matched = false;
      for (std::string_view s : kTwoChar) {
        if (two == s) {
          t.text = s == "==" ? "=" : std::string(s);
          i += 2;
          matched = true;
          break;
        }
      }
      if (!matched) {
        if (std::string_view("=<>+-*/%(),.[]~").find(c) == std::string_view::npos) {
          return ErrorAt(pos, "unexpected character '" + std::string(1, c) + "'");
        }
        t.text = std::string(1, c);
        ++i;
      }
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.kind = TokenKind::kEnd;
  end.pos = static_cast<int32_t>(text.size() + 1);
  tokens.push_back(std::move(end));
  return tokens;
}

}  // namespace pqsift::expr
