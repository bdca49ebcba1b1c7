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
//   kLike / kILike: one string child and `pattern` (SQL LIKE, '%' and '_', no escape character)
//   kStartsWith, kEndsWith, kContains: one string or binary child and `pattern` holding the
//        prefix, suffix or substring (literal bytes; PassesSubstringTest)
//   kDateTrunc: one date32 or timestamp child and `pattern` naming the unit (year, quarter,
//        month, week, day, hour, minute, second); a microsecond timestamp of the child's zone
//        (none for a date), as DuckDB's date_trunc; overflow is an error at evaluation
//   kDatePart: one date32 or timestamp child (a zoned timestamp's fields in UTC) and `pattern`
//        naming the field (DatePartOf: year, quarter, month, day, hour, minute, second, dow,
//        isodow, doy); int64, as DuckDB's year(x), extract(f FROM x), date_part('f', x)
//   kIntersectsExtent: st_intersects_extent(geom, xmin, ymin, xmax, ymax): one kColumn child
//        of a geoarrow.wkb column, `list` the four box coordinates as non-NaN float Values in
//        that order, `geography` for a column with spherical edges (geo/extent.h: the rule
//        for NaN, empty and out-of-range coordinates; xmin > xmax wraps). TRUE when the
//        row's extent meets the box, FALSE when it does not or has none, NULL for NULL or
//        bytes that are not WKB.
//   kLower, kUpper: one string child; a string, each code point case-mapped as DuckDB's lower()
//        and upper() do (utf8proc's simple mappings; string_functions.h)
//   kLength: one string child; int64, its code points (DuckDB's length()). kOctetLength: one
//        string or binary child; int64, its bytes (strlen(), octet_length())
//   kAbs: one child of the node's own type: int64 (any integer, widened; an unsigned one binds
//        to itself), decimal128 or a float; abs(INT64_MIN) is an overflow error at evaluation
//   kCoalesce: two or more children of the node's own type; the first non-NULL, else NULL
//   kGreatest, kLeast: two or more children of the node's own type; the largest (smallest)
//        non-NULL one in the comparison order (NaN largest), else NULL
//   kTrim: one string child; `pattern` "trim", "ltrim" or "rtrim", `list` {the characters, as
//        bytes} (string_functions.h Trimmed); a string
//   kStrpos: one string child, `pattern` the needle; int64 (CodePointPosition)
//   kReplace: one string child, `list` {from, to} as bytes; a string (AppendReplaced)
//   kConcat: two or more string children; `pattern` "||" (NULL where any is NULL) or "concat"
//        (NULLs skipped: never NULL)
//   kRegexValue: one string child and `regex`; `pattern` "regexp_extract" with `list` {group}
//        (Int) or "regexp_replace" with `list` {rewrite} (Bytes); a string (regex.h)
//   kAddInterval: one date32 or timestamp child plus interval_sign (+1, -1) times `interval`,
//        as DuckDB adds (interval.h AddInterval: months, then days, then microseconds); a
//        timestamp of microseconds (of the child's zone; a nanosecond child truncated to
//        microseconds first, as DuckDB's); of a date32 type only for whole days (date +- n);
//        never decreasing in the child; beyond the timestamp range an error at evaluation
//   kRound: one float child of the node's type, or a decimal child of the node's precision and
//        a scale above the node's (which is `digits`); `pattern` "floor", "ceil", "round" or
//        "trunc" (rounding.h); `digits`: round(x, digits)'s places after the point (0 for the
//        others and round(x); of a float any, of a decimal 0 <= digits < its scale)
//   kFloatTest: one float64 or float32 child (numbers cast to double); `pattern` "isnan",
//        "isinf" or "isfinite"; boolean, NULL for NULL
//   kRegexMatch: one string child and `regex` (regex.h), compiled once: TRUE where the child
//        matches (in part for regexp_matches, whole for regexp_full_match, `~`, SIMILAR TO)
//   kSubstring: one string child; `pattern` "substring" with `list` {offset} or {offset,
//        length}, or "left" / "right" with {n}: integers in DuckDB's range (+-2^32); a string
//        (string_functions.h SubstringOf, LeftOf, RightOf: code points, as DuckDB's)
//   kAdd..kDiv, kMod: two numeric children of the node's own type: int64 (integer + - * %),
//        float64 (anything with a float, and every '/', as DuckDB), or decimal128 (+ - % at the
//        node's scale). Exception: a decimal kMul keeps its children's own scales and its scale
//        is their sum. Overflow (int64, or 38 digits) is an error at evaluation; an integer or
//        decimal '%' by zero gives NULL and a float one NaN, as in DuckDB; '%' truncates (its
//        sign is the dividend's).
//   kLiteral: also a whole predicate or an AND/OR child of Boolean type (TRUE, FALSE or NULL),
//        e.g. `x = NULL` or a comparison of two literals, which the binder decides itself.
//   kCast: to float64, int64 (from a narrower integer, under arithmetic), decimal128 of a larger
//        scale, timestamp / time64 of a finer unit, or timestamp from date32.
//   A comparison with a literal that falls between two values of the column's domain (an int
//        column against 1.5, a ms timestamp against a literal with microseconds, a date against
//        a timestamp with a time) is rewritten exactly on its floor f and f + 1:
//        x < 1.5 -> x <= 1, x > 1.5 -> x >= 2, x = 1.5 -> (x > 1 AND x < 2), x <> 1.5 ->
//        (x <= 1 OR x >= 2); never rounded. An integer literal outside a narrow column's
//        range (int8col < 1000) stays as is; literals beyond every value of their domain are
//        clamped to +-10^38.
//   kVariantGet: one child, a kColumn of a VARIANT column (arrow.parquet.variant); the value at
//        `variant_path` converted to `variant_type` (variant/get.h: NULL where the row is NULL,
//        the path missing, the value Variant null or not convertible). `variant_get(v, '$.a',
//        'BIGINT')`, CAST(v.a AS BIGINT), and a bare path `v.a` compared with a value all bind
//        to it (docs/filter-language.md).
//   kGuarded (pruning filters only): children[0] is the value wherever every other child is
//        NULL; where one is not, nothing is known. The evaluator gives children[0]'s value, so
//        the prover evaluates it (on a value set) only where it has proven the others NULL. A
//        per-file rewrite of a kVariantGet whose path is shredded (scan/variant_proof.h):
//        children[0] the shredded typed_value column, the others the `value` columns a row's value
//        could come from.
//   BETWEEN a AND b is bound as kAnd(x >= a, x <= b); NOT IN / NOT LIKE as kNot(...);
//   `x <> y` as kNe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow/cast.h"
#include "expr/interval.h"
#include "expr/regex.h"
#include "expr/string_functions.h"
#include "expr/value.h"
#include "pqsift/array.h"
#include "variant/get.h"
#include "variant/path.h"

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
  kIntersectsExtent,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,  // after the others: kAdd..kDiv keep their values
  kVariantGet,
  kGuarded,
  kEndsWith,  // after the others: earlier values are kept
  kContains,
  kDatePart,
  kDateTrunc,
  kLower,  // after the others: earlier values are kept
  kUpper,
  kLength,
  kOctetLength,
  kAbs,
  kCoalesce,
  kSubstring,
  kFloatTest,
  kRegexMatch,
  kRound,
  kGreatest,
  kLeast,
  kAddInterval,
  kTrim,
  kStrpos,
  kReplace,
  kConcat,
  kRegexValue,
};

struct Expr {
  Op op = Op::kLiteral;
  std::shared_ptr<const DataType> type;         // result type (Boolean for predicates)
  int32_t column = -1;                          // kColumn: index into BoundFilter::columns
  Value literal;                                // kLiteral (kNull for NULL, typed by `type`)
  std::vector<Value> list;                      // kIn
  bool list_has_null = false;                   // kIn
  std::string pattern;                          // kLike, kILike, kStartsWith..kDateTrunc
  std::vector<variant::PathStep> variant_path;  // kVariantGet
  variant::SqlType variant_type = variant::SqlType::kVarchar;  // kVariantGet
  bool geography = false;                                      // kIntersectsExtent
  std::shared_ptr<const Regex> regex;                          // kRegexMatch, kRegexValue
  Interval interval;                                           // kAddInterval
  int interval_sign = 1;                                       // kAddInterval
  int32_t digits = 0;                                          // kRound
  std::vector<std::shared_ptr<const Expr>> children;
};

// A leaf column the filter reads, or a VARIANT group (read whole, as the unshredded variant;
// leaf -1). Only columns outside any list or map can be referenced.
struct ColumnRef {
  std::string path;                      // dotted: "s.a.b"
  int32_t leaf = -1;                     // index into Schema::columns(); -1 for a VARIANT group
  std::shared_ptr<const DataType> type;  // the Arrow type the column decodes to
};

struct BoundFilter {
  std::shared_ptr<const Expr> root;  // boolean
  std::vector<ColumnRef> columns;    // each referenced leaf once, in order of first reference
  std::string text;                  // the original `--where` text
};

// SQL-like rendering of a bound tree, for explain ("(id >= 1000) AND (region = 'eu')").
std::string ToString(const Expr& e, const BoundFilter& filter);

// An infix operator as ToString writes it between its operands: " = ", " + ", " AND ", ...
std::string_view OpText(Op op);

// The comparison with its operands swapped: a < b is b > a (=, <> and the others unchanged).
Op FlipComparison(Op op);

// The Value kind values of `type` compare in (value.h); kNull for types with none (nested, null).
Value::Kind ValueKindOf(const DataType& type);

// A literal of `type` in its user-facing form: 42, 1.25, 'text', X'00ff', DATE '2026-01-01',
// TIMESTAMP '2026-01-01 12:00:00', TRUE, NULL.
std::string LiteralToString(const Value& v, const DataType& type);

// Whether `value` passes a kStartsWith, kEndsWith or kContains node's test with `pattern` (false
// for any other op). Inline: evaluated per row.
inline bool PassesSubstringTest(Op op, std::string_view pattern, std::string_view value) {
  switch (op) {
    case Op::kStartsWith: return value.starts_with(pattern);
    case Op::kEndsWith: return value.ends_with(pattern);
    case Op::kContains: return value.find(pattern) != std::string_view::npos;
    default: return false;
  }
}

// The substring call a kSubstring node (or a literal one the binder folds) stands for: `mode`
// its pattern, `numbers` its list.
SubstringCall SubstringCallOf(std::string_view mode, const std::vector<Value>& numbers);

// The fields of kDatePart, by their names in `pattern` (DuckDB's: dow is 0 for Sunday, isodow
// 1 for Monday, doy 1 for January 1st).
enum class DateField : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kDow,
  kIsoDow,
  kDoy
};
std::optional<DateField> DateFieldNamed(std::string_view name);
// The field of an instant: a date's or timestamp's day and time (cast::SplitDateOrTimestamp).
int64_t DatePartOf(DateField field, const cast::TimestampDay& instant);
// Whether the field never decreases from instant `lo` to `hi` (lo <= hi): always for the year;
// for the others when both lie in one period of the field above it (month: one year; day: one
// month; hour: one day; ...), so the prover can push a container's bounds through it.
// Otherwise the field lies in DatePartRange.
bool DatePartNonDecreasing(DateField field, const cast::TimestampDay& lo,
                           const cast::TimestampDay& hi);
std::pair<int64_t, int64_t> DatePartRange(DateField field);

// The units of kDateTrunc, by their names in `pattern` (weeks start on Monday).
enum class TruncUnit : uint8_t { kYear, kQuarter, kMonth, kWeek, kDay, kHour, kMinute, kSecond };
std::optional<TruncUnit> TruncUnitNamed(std::string_view name);
// The instant truncated to `unit`, as microseconds since the epoch; nullopt for a result beyond
// int64. Never decreasing in the instant (the prover pushes bounds through it).
std::optional<int64_t> TruncatedMicros(TruncUnit unit, const cast::TimestampDay& instant);

}  // namespace pqsift::expr
