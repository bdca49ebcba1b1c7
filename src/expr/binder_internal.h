// Internal to the binder (binder.cc, binder_arithmetic.cc, binder_functions.cc): its helpers and
// the Binder class, which resolves names against a schema, types every node and coerces literals
// (docs/filter-language.md). binder.cc holds names, comparisons and casts; binder_arithmetic.cc
// the arithmetic (numbers, and dates and timestamps +- INTERVAL); binder_functions.cc the
// function calls. Not thread-safe: one Binder binds one filter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow/cast.h"
#include "expr/binder.h"
#include "expr/expr.h"
#include "expr/lexer.h"
#include "expr/parser.h"
#include "pqsift/schema.h"

namespace pqsift::expr::binding {

using ExprPtr = std::shared_ptr<const Expr>;
using TypePtr = std::shared_ptr<const DataType>;

// Beyond every value of every kInt domain: a literal further out is clamped here, which changes
// no comparison (arrow/cast.h).
inline const int128 kClampLimit = cast::ClampLimit();

inline constexpr int128 kNanosPerDay = int128{86400} * 1000000000;
using cast::Pow10;
using cast::ScaleExact;
using cast::TickDigits;
using cast::Ticks;

// The families of types that compare with one another (a column and a literal, two columns).
enum class Family : uint8_t {
  kBool,
  kInt,
  kDecimal,
  kFloat,
  kBytes,  // large_utf8, large_binary, fixed_size_binary
  kDate,
  kTimestamp,
  kTime,
  kOther,
};

// Helpers, in binder.cc (their contracts are there).
std::string Int128Text(int128 v);
int128 DayOfNanos(int128 nanos);
bool CastFitsEveryValue(TypeId from, bool to_64_bits);
Family FamilyOf(const DataType& t);
bool IsNumeric(Family f);
int IntegerDigits(TypeId id);
std::string LiteralText(const Literal& lit);
ExprPtr MakeLiteral(Value v, TypePtr type);
ExprPtr MakeNode(Op op, TypePtr type, std::vector<ExprPtr> children);
ExprPtr MakeCompare(Op op, ExprPtr a, ExprPtr b);
ExprPtr CastLiteral(const Expr& x, TypePtr to);
ExprPtr MakeCast(ExprPtr x, TypePtr to);
ExprPtr MakeLogic(Op op, const std::vector<ExprPtr>& parts);
ExprPtr CompareBetween(Op op, const ExprPtr& x, int128 f);
std::optional<Literal> ParseNumberText(std::string_view text, bool allow_special);
double RationalToFloat(int128 unscaled, int32_t scale, bool single);
std::optional<std::string> ParseUuid(std::string_view text);

// A path into a VARIANT column not yet given a SQL type: `v.a.b` takes its type where it is
// used (Binder::SettleVariant).
struct VariantPath {
  ExprPtr column;  // kColumn of the VARIANT group
  std::vector<variant::PathStep> steps;
};

struct Operand {
  ExprPtr expr;  // null for a literal (and for a variant path until settled)
  Literal literal;
  int32_t pos = 0;
  std::string description;  // "int64 column 'id'", "string 'abc'"
  bool uuid = false;        // a UUID column: strings in UUID text form compare as its 16 bytes
  std::optional<VariantPath> variant;

  bool is_literal() const { return expr == nullptr && !variant; }
};

// How a literal meets the column side.
struct Coerced {
  enum class Kind : uint8_t { kExact, kBetween, kFloatCast } kind = Kind::kExact;
  Value value;       // kExact: in the column side's domain
  int128 floor = 0;  // kBetween: the literal lies strictly between floor and floor + 1
};

class Binder {
 public:
  explicit Binder(const Schema& schema) : schema_(schema) {}

  Result<BoundFilter> Bind(std::string_view text);
  Result<BoundFilter> Bind(const AstNode& ast, std::string_view text);

 private:
  // ---- binder.cc ----
  Result<Operand> BindOperand(const AstNode& n);
  Result<Operand> BindColumn(const AstNode& n);
  std::optional<Result<Operand>> BindVariantPath(const AstNode& n);
  ExprPtr VariantColumn(int32_t node);
  static Operand SettleVariant(const Operand& x, variant::SqlType type);
  Result<variant::SqlType> VariantTypeFor(const Operand& x, const Operand& other);
  Status SettlePair(Operand& a, Operand& b);
  const ColumnDescriptor* FindLeaf(const std::string& path) const;
  std::string FindGroup(const std::string& path) const;
  std::string NearestName(const std::string& path) const;
  Result<Operand> BindCast(const AstNode& n);
  Result<ExprPtr> BindPredicate(const AstNode& n);
  static std::unique_ptr<AstNode> DistributeCase(const AstNode& n);
  static ExprPtr BetweenCommonType(ExprPtr x, const Operand& low, const Operand& high);
  Result<ExprPtr> AsPredicate(const Operand& variant_x);
  Result<ExprPtr> BindLike(const AstNode& n);
  Result<ExprPtr> BindIn(const AstNode& n);
  Result<ExprPtr> BindComparison(Op op, Operand a, Operand b, int32_t pos);
  std::optional<Result<ExprPtr>> MoveConstant(Op op, const Operand& a, const Operand& b,
                                              int32_t pos);
  Result<std::pair<ExprPtr, ExprPtr>> Unify(const Operand& a, const Operand& b, int32_t pos);
  Result<Coerced> CoerceLiteral(const Operand& x, const Operand& lit_operand);
  static Coerced FromTicks(Ticks t);
  Result<ExprPtr> FoldComparison(Op op, const Operand& a, const Operand& b, int32_t pos);

  // ---- binder_arithmetic.cc ----
  Result<Operand> BindNegate(const AstNode& n);
  Result<Operand> BindArithmetic(const AstNode& n);
  Result<ExprPtr> ArithmeticLiteral(const Operand& o, int32_t pos);
  Result<Operand> Arithmetic(Op op, const Operand& variant_a, const Operand& variant_b,
                             int32_t pos);
  Result<Operand> FoldArithmetic(Op op, const Operand& a, const Operand& b, int32_t pos);
  std::optional<Result<Operand>> ShiftTemporalColumn(Op op, const Operand& a, const Operand& b,
                                                     int32_t pos);

  std::optional<Result<Operand>> FoldTemporal(Op op, const Operand& a, const Operand& b,
                                              int32_t pos);

  // ---- binder_functions.cc ----
  static std::optional<std::string> DateFieldOfCall(const AstNode& n);
  Result<Operand> BindDateTrunc(const AstNode& n);
  Result<Operand> BindDateFunction(const AstNode& n, const AstNode& arg, Op op,
                                   std::string pattern);
  Result<Operand> BindDatePart(const AstNode& n, const std::string& field);
  std::optional<Operand> ClockLiteral(const std::string& name, int32_t pos);
  static std::optional<Op> ValueFunctionNamed(std::string_view name);
  Result<Operand> BindValueFunction(const AstNode& n, Op op);
  Result<Literal> FoldValueFunction(const AstNode& n, Op op, const Operand& x);
  Result<Operand> BindFloatTest(const AstNode& n);
  Result<Operand> BindSubstring(const AstNode& n);
  // coalesce / ifnull, greatest, least (`op`): one value of the operands' common type.
  Result<Operand> BindChoice(const AstNode& n, Op op);
  Result<Operand> BindRounding(const AstNode& n);
  Result<Operand> BindTextFunction(const AstNode& n, Op op);
  Result<Operand> BindConcat(const AstNode& n);
  Result<Operand> BindRegexValue(const AstNode& n);
  Result<Operand> BindVariantGet(const AstNode& n);
  Result<ExprPtr> BindIntersectsExtent(const AstNode& n);
  Result<ExprPtr> BindCall(const AstNode& n);
  // regexp_matches / regexp_full_match (`full`) of `value` with `pattern` and `options` (null:
  // none), the operands of a call or of an operator (~, SIMILAR TO; regex.h).
  Result<ExprPtr> BindRegexMatch(const AstNode& value, const AstNode& pattern,
                                 const AstNode* options, bool full);

  const Schema& schema_;
  std::optional<int64_t> now_micros_;  // ClockLiteral's instant, once read
  BoundFilter filter_;
};

}  // namespace pqsift::expr::binding
