#include "expr/parser.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>

#include "expr/lexer.h"
#include "expr/temporal_text.h"

namespace pqsift::expr {
namespace {

using Node = std::unique_ptr<AstNode>;

// Words that cannot name a column unless quoted.
bool IsReserved(std::string_view lower) {
  static constexpr std::string_view kWords[] = {
      "and",     "or",       "not",  "is", "null",   "true", "false", "in",   "like", "ilike",
      "between", "distinct", "from", "as", "escape", "case", "when",  "then", "else", "end"};
  for (std::string_view w : kWords) {
    if (w == lower) return true;
  }
  return false;
}

// Digits (and at most one '.') to an exact literal; a double where DuckDB has one: a decimal
// of more than 38 digits as written, an integer of more than 38 significant digits.
Literal NumberLiteral(const Token& t) {
  Literal lit;
  if (t.kind == TokenKind::kFloat) {
    lit.kind = Literal::Kind::kFloat;
    lit.f = std::strtod(t.text.c_str(), nullptr);
    return lit;
  }
  int128 value = 0;
  int32_t scale = 0;
  int digits = 0;
  bool after_point = false;
  for (char c : t.text) {
    if (c == '.') {
      after_point = true;
      continue;
    }
    // As DuckDB: a decimal of more than 38 digits as written (leading zeros too) is a DOUBLE;
    // an integer is one while its value fits. Checked before the digit is added: a 39th
    // significant digit could overflow int128.
    if (t.kind == TokenKind::kDecimal || digits > 0 || c != '0') ++digits;
    if (digits > 38) {
      lit.kind = Literal::Kind::kFloat;
      lit.f = std::strtod(t.text.c_str(), nullptr);
      return lit;
    }
    value = value * 10 + (c - '0');
    if (after_point) ++scale;
  }
  lit.kind = t.kind == TokenKind::kDecimal ? Literal::Kind::kDecimal : Literal::Kind::kInteger;
  lit.i = value;
  lit.scale = scale;
  return lit;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Node> ParseAll() {
    PQSIFT_ASSIGN_OR_RETURN(Node root, ParseOr());
    if (Peek().kind != TokenKind::kEnd) return Unexpected(Peek());
    return root;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    size_t k = std::min(next_ + ahead, tokens_.size() - 1);
    return tokens_[k];
  }
  const Token& Advance() {
    const Token& t = tokens_[next_];
    if (next_ + 1 < tokens_.size()) ++next_;
    return t;
  }
  bool IsKeyword(const Token& t, std::string_view word) const {
    return t.kind == TokenKind::kIdentifier && AsciiLower(t.text) == word;
  }
  bool IsSymbol(const Token& t, std::string_view s) const {
    return t.kind == TokenKind::kSymbol && t.text == s;
  }
  bool AcceptKeyword(std::string_view word) {
    if (!IsKeyword(Peek(), word)) return false;
    Advance();
    return true;
  }
  bool AcceptSymbol(std::string_view s) {
    if (!IsSymbol(Peek(), s)) return false;
    Advance();
    return true;
  }
  Status Unexpected(const Token& t) const {
    if (t.kind == TokenKind::kEnd) return ErrorAt(t.pos, "unexpected end of filter");
    std::string shown = t.kind == TokenKind::kString ? "'" + t.text + "'" : t.text;
    if (t.kind == TokenKind::kHexString) shown = "X'..'";
    return ErrorAt(t.pos, "unexpected '" + shown + "'");
  }
  Status ExpectSymbol(std::string_view s) {
    if (AcceptSymbol(s)) return Status::OK();
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd) {
      return ErrorAt(t.pos, "expected '" + std::string(s) + "' but the filter ended");
    }
    return ErrorAt(t.pos, "expected '" + std::string(s) + "'");
  }
  Status ExpectKeyword(std::string_view word) {
    if (AcceptKeyword(word)) return Status::OK();
    std::string upper = AsciiLower(word);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return ErrorAt(Peek().pos, "expected " + upper);
  }

  static Node Make(AstNode::Kind kind, int32_t pos) {
    auto n = std::make_unique<AstNode>();
    n->kind = kind;
    n->pos = pos;
    return n;
  }

  // Every child joins its parent here, so no tree grows higher than kMaxExpressionDepth: the
  // binder, the evaluator and the prover walk trees recursively, and a 40 KB chain of "+ 1"
  // would overflow their stacks.
  Status Adopt(AstNode& parent, Node child) {
    parent.height = std::max(parent.height, child->height + 1);
    parent.children.push_back(std::move(child));
    if (parent.height > kMaxExpressionDepth) return TooDeep(parent.pos);
    return Status::OK();
  }

  // Every recursive descent (parentheses, a call's arguments, CAST, NOT, unary minus or plus)
  // goes through here: nesting the height limit would refuse anyway is refused before it can
  // overflow the parser's own stack (parentheses alone add no height).
  Result<Node> Descend(Result<Node> (Parser::*parse)()) {
    if (descents_ >= kMaxExpressionDepth) return TooDeep(Peek().pos);
    ++descents_;
    Result<Node> node = (this->*parse)();
    --descents_;
    return node;
  }

  Status TooDeep(int32_t pos) const {
    return ErrorAt(pos, "the filter nests more than " + std::to_string(kMaxExpressionDepth) +
                            " levels deep (operators, parentheses, NOT)");
  }

  // A chain of one operator (a OR b OR c) becomes one node with all operands.
  Result<Node> ParseChain(AstNode::Kind kind, std::string_view keyword,
                          Result<Node> (Parser::*operand)()) {
    int32_t pos = Peek().pos;
    PQSIFT_ASSIGN_OR_RETURN(Node first, (this->*operand)());
    if (!IsKeyword(Peek(), keyword)) return first;
    Node chain = Make(kind, pos);
    PQSIFT_RETURN_IF_ERROR(Adopt(*chain, std::move(first)));
    while (AcceptKeyword(keyword)) {
      PQSIFT_ASSIGN_OR_RETURN(Node next, (this->*operand)());
      PQSIFT_RETURN_IF_ERROR(Adopt(*chain, std::move(next)));
    }
    return chain;
  }

  Result<Node> ParseOr() { return ParseChain(AstNode::Kind::kOr, "or", &Parser::ParseAnd); }
  Result<Node> ParseAnd() { return ParseChain(AstNode::Kind::kAnd, "and", &Parser::ParseNot); }

  Result<Node> ParseNot() {
    if (IsKeyword(Peek(), "not")) {
      int32_t pos = Advance().pos;
      PQSIFT_ASSIGN_OR_RETURN(Node operand, Descend(&Parser::ParseNot));
      Node n = Make(AstNode::Kind::kNot, pos);
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(operand)));
      return n;
    }
    return ParseIs();
  }

  Result<Node> ParseIs() {
    PQSIFT_ASSIGN_OR_RETURN(Node left, ParseComparison());
    while (IsKeyword(Peek(), "is")) {
      int32_t pos = Advance().pos;
      bool negated = AcceptKeyword("not");
      if (AcceptKeyword("null")) {
        Node n = Make(AstNode::Kind::kIsNull, pos);
        n->negated = negated;
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
        left = std::move(n);
      } else if (AcceptKeyword("distinct")) {
        PQSIFT_RETURN_IF_ERROR(ExpectKeyword("from"));
        PQSIFT_ASSIGN_OR_RETURN(Node right, ParseComparison());
        Node n = Make(AstNode::Kind::kCompare, pos);
        n->op = negated ? Op::kIsNotDistinctFrom : Op::kIsDistinctFrom;
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(right)));
        left = std::move(n);
      } else if (IsKeyword(Peek(), "true") || IsKeyword(Peek(), "false")) {
        // x IS [NOT] TRUE is x IS [NOT] DISTINCT FROM TRUE: never NULL, as in DuckDB.
        Node truth = Make(AstNode::Kind::kLiteral, Peek().pos);
        truth->literal.kind = Literal::Kind::kBool;
        truth->literal.b = IsKeyword(Advance(), "true");
        Node n = Make(AstNode::Kind::kCompare, pos);
        n->op = negated ? Op::kIsDistinctFrom : Op::kIsNotDistinctFrom;
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(truth)));
        left = std::move(n);
      } else {
        return ErrorAt(Peek().pos, "expected NULL, TRUE, FALSE or DISTINCT FROM after IS");
      }
    }
    return left;
  }

  Result<Node> ParseComparison() {
    PQSIFT_ASSIGN_OR_RETURN(Node left, ParseRange());
    static constexpr std::pair<std::string_view, Op> kOps[] = {
        {"=", Op::kEq},  {"!=", Op::kNe}, {"<>", Op::kNe}, {"<", Op::kLt},
        {"<=", Op::kLe}, {">", Op::kGt},  {">=", Op::kGe}};
    for (const auto& [symbol, op] : kOps) {
      if (!IsSymbol(Peek(), symbol)) continue;
      int32_t pos = Advance().pos;
      PQSIFT_ASSIGN_OR_RETURN(Node right, ParseRange());
      Node n = Make(AstNode::Kind::kCompare, pos);
      n->op = op;
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(right)));
      for (const auto& [other, unused] : kOps) {
        if (IsSymbol(Peek(), other)) {
          return ErrorAt(Peek().pos, "comparisons do not chain: add parentheses");
        }
      }
      return n;
    }
    return left;
  }

  Result<Node> ParseRange() {
    PQSIFT_ASSIGN_OR_RETURN(Node value, ParseConcat());
    int32_t pos = Peek().pos;
    bool negated = false;
    if (IsKeyword(Peek(), "not") &&
        (IsKeyword(Peek(1), "between") || IsKeyword(Peek(1), "in") || IsKeyword(Peek(1), "like") ||
         IsKeyword(Peek(1), "ilike") || IsKeyword(Peek(1), "similar"))) {
      Advance();
      negated = true;
    }
    if (AcceptKeyword("between")) {
      Node n = Make(AstNode::Kind::kBetween, pos);
      n->negated = negated;
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(value)));
      PQSIFT_ASSIGN_OR_RETURN(Node low, ParseConcat());
      PQSIFT_RETURN_IF_ERROR(ExpectKeyword("and"));
      PQSIFT_ASSIGN_OR_RETURN(Node high, ParseConcat());
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(low)));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(high)));
      return n;
    }
    if (AcceptKeyword("in")) {
      Node n = Make(AstNode::Kind::kIn, pos);
      n->negated = negated;
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(value)));
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol("("));
      do {
        PQSIFT_ASSIGN_OR_RETURN(Node item, ParseConcat());
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(item)));
      } while (AcceptSymbol(","));
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
      return n;
    }
    // s ~ 'regex', s !~ 'regex', s [NOT] SIMILAR TO 'regex': DuckDB's whole-value matches.
    const bool similar = IsKeyword(Peek(), "similar");
    const bool tilde = !negated && (IsSymbol(Peek(), "~") || IsSymbol(Peek(), "!~"));
    const bool like = IsKeyword(Peek(), "like");
    if (like || IsKeyword(Peek(), "ilike") || similar || tilde) {
      if (tilde) negated = IsSymbol(Peek(), "!~");
      Advance();
      if (similar) PQSIFT_RETURN_IF_ERROR(ExpectKeyword("to"));
      Node n = Make(AstNode::Kind::kLike, pos);
      n->op = similar || tilde ? Op::kRegexMatch : like ? Op::kLike : Op::kILike;
      n->negated = negated;
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(value)));
      PQSIFT_ASSIGN_OR_RETURN(Node pattern, ParseConcat());
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(pattern)));
      if (n->op != Op::kRegexMatch && IsKeyword(Peek(), "escape")) {
        return ErrorAt(Peek().pos,
                       "ESCAPE is not supported (LIKE has no escape character, as in DuckDB)");
      }
      return n;
    }
    return value;
  }

  // Left-associative operators of one precedence, each a symbol and its op.
  struct BinaryOp {
    std::string_view symbol;
    Op op;
  };
  Result<Node> ParseBinary(std::initializer_list<BinaryOp> ops, Result<Node> (Parser::*operand)()) {
    PQSIFT_ASSIGN_OR_RETURN(Node left, (this->*operand)());
    auto next_op = [&]() -> const BinaryOp* {
      for (const BinaryOp& o : ops) {
        if (IsSymbol(Peek(), o.symbol)) return &o;
      }
      return nullptr;
    };
    while (const BinaryOp* o = next_op()) {
      const Token& t = Advance();
      Node n = Make(AstNode::Kind::kArithmetic, t.pos);
      n->op = o->op;
      PQSIFT_ASSIGN_OR_RETURN(Node right, (this->*operand)());
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(right)));
      left = std::move(n);
    }
    return left;
  }
  // a || b: string concatenation, looser than + and - (as in PostgreSQL and DuckDB), a call of
  // "||" for the binder.
  Result<Node> ParseConcat() {
    PQSIFT_ASSIGN_OR_RETURN(Node left, ParseAdditive());
    while (IsSymbol(Peek(), "||")) {
      const int32_t pos = Advance().pos;
      PQSIFT_ASSIGN_OR_RETURN(Node right, ParseAdditive());
      Node n = Make(AstNode::Kind::kCall, pos);
      n->name = "||";
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(left)));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(right)));
      left = std::move(n);
    }
    return left;
  }

  Result<Node> ParseAdditive() {
    return ParseBinary({{"+", Op::kAdd}, {"-", Op::kSub}}, &Parser::ParseMultiplicative);
  }
  Result<Node> ParseMultiplicative() {
    return ParseBinary({{"*", Op::kMul}, {"/", Op::kDiv}, {"%", Op::kMod}}, &Parser::ParseUnary);
  }

  Result<Node> ParseUnary() {
    if (IsSymbol(Peek(), "-")) {
      int32_t pos = Advance().pos;
      PQSIFT_ASSIGN_OR_RETURN(Node operand, Descend(&Parser::ParseUnary));
      Node n = Make(AstNode::Kind::kNegate, pos);
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(operand)));
      return n;
    }
    if (AcceptSymbol("+")) return Descend(&Parser::ParseUnary);
    PQSIFT_ASSIGN_OR_RETURN(Node n, ParsePrimary());
    // x::type, DuckDB's and PostgreSQL's cast, binding tighter than any operator (-x::date is
    // -(x::date)); chains cast in turn.
    while (IsSymbol(Peek(), "::")) {
      Node cast = Make(AstNode::Kind::kCast, Advance().pos);
      PQSIFT_RETURN_IF_ERROR(Adopt(*cast, std::move(n)));
      PQSIFT_RETURN_IF_ERROR(ParseTypeName(*cast));
      n = std::move(cast);
    }
    return n;
  }

  Result<Node> LiteralNode(int32_t pos, Literal lit) {
    Node n = Make(AstNode::Kind::kLiteral, pos);
    n->literal = std::move(lit);
    return n;
  }

  Result<Node> ParsePrimary() {
    const Token& t = Peek();
    int32_t pos = t.pos;
    switch (t.kind) {
      case TokenKind::kEnd: return Unexpected(t);
      case TokenKind::kInteger:
      case TokenKind::kDecimal:
      case TokenKind::kFloat: return LiteralNode(pos, NumberLiteral(Advance()));
      case TokenKind::kString:
      case TokenKind::kHexString: {
        Literal lit;
        lit.kind = t.kind == TokenKind::kString ? Literal::Kind::kString : Literal::Kind::kBytes;
        lit.s = Advance().text;
        return LiteralNode(pos, std::move(lit));
      }
      case TokenKind::kSymbol: {
        if (!AcceptSymbol("(")) return Unexpected(t);
        PQSIFT_ASSIGN_OR_RETURN(Node inner, Descend(&Parser::ParseOr));
        PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
        return inner;
      }
      case TokenKind::kQuotedIdentifier: return ParseColumn();
      case TokenKind::kIdentifier: break;
    }
    std::string word = AsciiLower(t.text);
    if (word == "null" || word == "true" || word == "false") {
      Advance();
      Literal lit;
      lit.kind = word == "null" ? Literal::Kind::kNull : Literal::Kind::kBool;
      lit.b = word == "true";
      return LiteralNode(pos, std::move(lit));
    }
    // TIMESTAMP WITH TIME ZONE '...' and TIMESTAMPTZ '...': a zoned timestamp; without an
    // offset in the text, in UTC (DuckDB's session time zone here).
    const bool with_zone = word == "timestamp" && IsKeyword(Peek(1), "with") &&
                           IsKeyword(Peek(2), "time") && IsKeyword(Peek(3), "zone") &&
                           Peek(4).kind == TokenKind::kString;
    if (with_zone || (word == "timestamptz" && Peek(1).kind == TokenKind::kString)) {
      for (int k = with_zone ? 4 : 1; k > 0; --k) Advance();
      const Token& text = Advance();
      std::optional<TimestampText> ts = ParseTimestamp(text.text);
      if (!ts) return ErrorAt(text.pos, "invalid timestamp '" + text.text + "'");
      Literal lit;
      lit.kind = Literal::Kind::kTimestamp;
      lit.i = ts->nanos;
      lit.has_zone = true;
      return LiteralNode(pos, std::move(lit));
    }
    if ((word == "date" || word == "timestamp") && Peek(1).kind == TokenKind::kString) {
      Advance();
      const Token& text = Advance();
      Literal lit;
      if (word == "date") {
        std::optional<int64_t> days = ParseDate(text.text);
        if (!days) return ErrorAt(text.pos, "invalid date '" + text.text + "'");
        lit.kind = Literal::Kind::kDate;
        lit.i = *days;
      } else {
        std::optional<TimestampText> ts = ParseTimestamp(text.text);
        if (!ts) return ErrorAt(text.pos, "invalid timestamp '" + text.text + "'");
        lit.kind = Literal::Kind::kTimestamp;
        lit.i = ts->nanos;
        lit.has_zone = ts->has_zone;
      }
      return LiteralNode(pos, std::move(lit));
    }
    const TokenKind next = Peek(1).kind;
    if (word == "interval" && (next == TokenKind::kString || next == TokenKind::kInteger ||
                               next == TokenKind::kDecimal)) {
      return ParseInterval();
    }
    if (word == "cast" && IsSymbol(Peek(1), "(")) return ParseCast();
    if (word == "case") return ParseCase();
    if (word == "extract" && IsSymbol(Peek(1), "(")) return ParseExtract();
    if (IsSymbol(Peek(1), "(")) return ParseCall();
    if (IsReserved(word)) return Unexpected(t);
    return ParseColumn();
  }

  // INTERVAL '90' DAY, INTERVAL 90 DAY, INTERVAL '1 year 2 months' (DuckDB's forms).
  Result<Node> ParseInterval() {
    int32_t pos = Advance().pos;
    const Token& value = Advance();
    std::string unit;
    if (Peek().kind == TokenKind::kIdentifier && IsIntervalUnit(Peek().text)) {
      unit = Advance().text;
    } else if (value.kind != TokenKind::kString) {
      return ErrorAt(Peek().pos,
                     "expected an interval unit (DAY, MONTH, ...) after INTERVAL " + value.text);
    }
    std::string why;
    std::optional<Interval> interval = expr::ParseInterval(value.text, unit, &why);
    if (!interval) return ErrorAt(value.pos, why);
    Literal lit;
    lit.kind = Literal::Kind::kInterval;
    lit.interval = *interval;
    return LiteralNode(pos, std::move(lit));
  }

  Result<Node> ParseColumn() {
    Node n = Make(AstNode::Kind::kColumn, Peek().pos);
    while (true) {
      const Token& part = Peek();
      if (part.kind == TokenKind::kIdentifier && !IsReserved(AsciiLower(part.text))) {
        n->path.push_back(Advance().text);
      } else if (part.kind == TokenKind::kQuotedIdentifier) {
        n->path.push_back(Advance().text);
      } else {
        return ErrorAt(part.pos, "expected a column name");
      }
      if (!AcceptSymbol(".")) break;
    }
    // Subscripts into a VARIANT column: ['name'], [n], and .name after them.
    while (IsSymbol(Peek(), "[")) {
      AstSubscript step;
      step.pos = Advance().pos;
      const Token& key = Peek();
      if (key.kind == TokenKind::kString) {
        step.name = Advance().text;
      } else if (key.kind == TokenKind::kInteger && key.text.size() <= 18) {
        step.is_index = true;
        step.index = std::strtoll(Advance().text.c_str(), nullptr, 10);
      } else {
        return ErrorAt(key.pos, "expected a 'name' or an index inside [ ]");
      }
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol("]"));
      n->subscripts.push_back(std::move(step));
      while (AcceptSymbol(".")) {
        const Token& part = Peek();
        if (part.kind != TokenKind::kIdentifier && part.kind != TokenKind::kQuotedIdentifier) {
          return ErrorAt(part.pos, "expected a field name");
        }
        AstSubscript member;
        member.pos = part.pos;
        member.name = Advance().text;
        n->subscripts.push_back(std::move(member));
      }
    }
    return n;
  }

  Result<Node> ParseCall() {
    const Token& name = Advance();
    Node n = Make(AstNode::Kind::kCall, name.pos);
    n->name = AsciiLower(name.text);
    Advance();  // (
    if (n->name == "position") {
      // SQL's position(needle IN s): strpos(s, needle). The needle is read above IN's level.
      n->name = "strpos";
      PQSIFT_ASSIGN_OR_RETURN(Node needle, Descend(&Parser::ParseConcat));
      PQSIFT_RETURN_IF_ERROR(ExpectKeyword("in"));
      PQSIFT_ASSIGN_OR_RETURN(Node text, Descend(&Parser::ParseOr));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(text)));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(needle)));
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
      return n;
    }
    if (!AcceptSymbol(")")) {
      do {
        PQSIFT_ASSIGN_OR_RETURN(Node arg, Descend(&Parser::ParseOr));
        PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(arg)));
        // SQL's substring(s FROM offset [FOR length]): substring(s, offset[, length]).
        if (n->name == "substring" && n->children.size() == 1 && AcceptKeyword("from")) {
          PQSIFT_ASSIGN_OR_RETURN(Node offset, Descend(&Parser::ParseOr));
          PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(offset)));
          if (AcceptKeyword("for")) {
            PQSIFT_ASSIGN_OR_RETURN(Node length, Descend(&Parser::ParseOr));
            PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(length)));
          }
          break;
        }
      } while (AcceptSymbol(","));
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    return n;
  }

  // CASE [x] WHEN c THEN v [WHEN ...] [ELSE e] END.
  Result<Node> ParseCase() {
    Node n = Make(AstNode::Kind::kCase, Advance().pos);
    if (!IsKeyword(Peek(), "when")) {
      n->simple = true;
      PQSIFT_ASSIGN_OR_RETURN(Node x, Descend(&Parser::ParseOr));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(x)));
    }
    if (!IsKeyword(Peek(), "when")) return ErrorAt(Peek().pos, "expected WHEN in CASE");
    while (AcceptKeyword("when")) {
      PQSIFT_ASSIGN_OR_RETURN(Node condition, Descend(&Parser::ParseOr));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(condition)));
      PQSIFT_RETURN_IF_ERROR(ExpectKeyword("then"));
      PQSIFT_ASSIGN_OR_RETURN(Node value, Descend(&Parser::ParseOr));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(value)));
    }
    if (AcceptKeyword("else")) {
      n->has_else = true;
      PQSIFT_ASSIGN_OR_RETURN(Node value, Descend(&Parser::ParseOr));
      PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(value)));
    }
    PQSIFT_RETURN_IF_ERROR(ExpectKeyword("end"));
    return n;
  }

  // extract(field FROM x), SQL's spelling of date_part('field', x), as which it is kept.
  Result<Node> ParseExtract() {
    Node n = Make(AstNode::Kind::kCall, Advance().pos);
    n->name = "date_part";
    Advance();  // (
    const Token& field = Peek();
    if (field.kind != TokenKind::kIdentifier && field.kind != TokenKind::kString) {
      return ErrorAt(field.pos, "expected a field name (year, month, day, hour, ...)");
    }
    Node name = Make(AstNode::Kind::kLiteral, field.pos);
    name->literal.kind = Literal::Kind::kString;
    name->literal.s = AsciiLower(Advance().text);
    PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(name)));
    PQSIFT_RETURN_IF_ERROR(ExpectKeyword("from"));
    PQSIFT_ASSIGN_OR_RETURN(Node operand, Descend(&Parser::ParseOr));
    PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(operand)));
    PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
    return n;
  }

  // CAST(x AS name[(n[, m])]): the type is kept as lower-case text for the binder.
  Result<Node> ParseCast() {
    Node n = Make(AstNode::Kind::kCast, Advance().pos);
    Advance();  // (
    PQSIFT_ASSIGN_OR_RETURN(Node operand, Descend(&Parser::ParseOr));
    PQSIFT_RETURN_IF_ERROR(Adopt(*n, std::move(operand)));
    PQSIFT_RETURN_IF_ERROR(ExpectKeyword("as"));
    PQSIFT_RETURN_IF_ERROR(ParseTypeName(*n));
    PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
    return n;
  }

  // A cast's type: name[(n[, m])], kept in n.name as lower-case text for the binder. Words
  // after the first (DOUBLE PRECISION) belong to it, but not the keywords that may follow a
  // cast (x::date BETWEEN ..., x::date IS NULL).
  Status ParseTypeName(AstNode& n) {
    if (Peek().kind != TokenKind::kIdentifier) return ErrorAt(Peek().pos, "expected a type name");
    n.name = AsciiLower(Advance().text);
    while (Peek().kind == TokenKind::kIdentifier && !IsReserved(AsciiLower(Peek().text))) {
      n.name += " " + AsciiLower(Advance().text);
    }
    if (AcceptSymbol("(")) {
      n.name += "(";
      do {
        if (Peek().kind != TokenKind::kInteger) return ErrorAt(Peek().pos, "expected a number");
        n.name += Advance().text;
        if (IsSymbol(Peek(), ",")) n.name += ",";
      } while (AcceptSymbol(","));
      PQSIFT_RETURN_IF_ERROR(ExpectSymbol(")"));
      n.name += ")";
    }
    return Status::OK();
  }

  std::vector<Token> tokens_;
  size_t next_ = 0;
  int32_t descents_ = 0;
};

}  // namespace

std::unique_ptr<AstNode> CloneAst(const AstNode& node, const AstNode* replaced, const AstNode* by) {
  if (&node == replaced) return CloneAst(*by);
  auto out = std::make_unique<AstNode>();
  out->kind = node.kind;
  out->pos = node.pos;
  out->op = node.op;
  out->negated = node.negated;
  out->path = node.path;
  out->subscripts = node.subscripts;
  out->literal = node.literal;
  out->name = node.name;
  out->simple = node.simple;
  out->has_else = node.has_else;
  out->height = node.height;
  for (const auto& child : node.children) out->children.push_back(CloneAst(*child, replaced, by));
  return out;
}

Result<std::unique_ptr<AstNode>> Parse(std::string_view text) {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  Parser parser(std::move(tokens));
  return parser.ParseAll();
}

}  // namespace pqsift::expr
