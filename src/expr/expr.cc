#include "expr/expr.h"

#include "arrow/layout.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>

#include "common/civil_date.h"
#include "common/value_format.h"
#include "expr/string_functions.h"
#include "expr/temporal_text.h"

namespace pqsift::expr {
namespace {

bool FitsInt64(int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// A column path as the parser reads it back: plain when every part is a simple identifier.
std::string ColumnText(const std::string& path) {
  bool plain = !path.empty();
  bool part_start = true;
  for (char c : path) {
    if (c == '.') {
      plain = plain && !part_start;
      part_start = true;
      continue;
    }
    bool ok = std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
              (!part_start && (std::isdigit(static_cast<unsigned char>(c)) || c == '$'));
    plain = plain && ok;
    part_start = false;
  }
  if (plain && !part_start) return path;
  std::string out = "\"";
  for (char c : path) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The name a value function's node is written with.
std::string_view FunctionName(Op op) {
  switch (op) {
    case Op::kLower: return "lower";
    case Op::kUpper: return "upper";
    case Op::kLength: return "length";
    case Op::kOctetLength: return "octet_length";
    case Op::kAbs: return "abs";
    case Op::kCoalesce: return "coalesce";
    case Op::kGreatest: return "greatest";
    case Op::kLeast: return "least";
    default: return "?";
  }
}

// Children that are themselves operators are parenthesised, so the text needs no precedence.
std::string Operand(const Expr& e, const BoundFilter& filter) {
  if (e.op == Op::kConcat && e.pattern == "concat") return ToString(e, filter);
  switch (e.op) {
    case Op::kColumn:
    case Op::kLiteral:
    case Op::kCast:
    case Op::kStartsWith:
    case Op::kEndsWith:
    case Op::kContains:
    case Op::kDatePart:
    case Op::kDateTrunc:
    case Op::kLower:
    case Op::kUpper:
    case Op::kLength:
    case Op::kOctetLength:
    case Op::kAbs:
    case Op::kCoalesce:
    case Op::kGreatest:
    case Op::kLeast:
    case Op::kRound:
    case Op::kTrim:
    case Op::kStrpos:
    case Op::kReplace:
    case Op::kRegexValue:
    case Op::kSubstring:
    case Op::kFloatTest:
    case Op::kRegexMatch:
    case Op::kIntersectsExtent:
    case Op::kVariantGet:
    case Op::kGuarded: return ToString(e, filter);
    default: return "(" + ToString(e, filter) + ")";
  }
}

}  // namespace

SubstringCall SubstringCallOf(std::string_view mode, const std::vector<Value>& numbers) {
  SubstringCall call;
  call.kind = mode == "left"    ? SubstringCall::Kind::kLeft
              : mode == "right" ? SubstringCall::Kind::kRight
                                : SubstringCall::Kind::kSubstring;
  if (!numbers.empty()) call.first = static_cast<int64_t>(numbers[0].i);
  if (numbers.size() > 1) call.length = static_cast<int64_t>(numbers[1].i);
  return call;
}

std::string_view OpText(Op op) {
  switch (op) {
    case Op::kEq: return " = ";
    case Op::kNe: return " <> ";
    case Op::kLt: return " < ";
    case Op::kLe: return " <= ";
    case Op::kGt: return " > ";
    case Op::kGe: return " >= ";
    case Op::kIsDistinctFrom: return " IS DISTINCT FROM ";
    case Op::kIsNotDistinctFrom: return " IS NOT DISTINCT FROM ";
    case Op::kAnd: return " AND ";
    case Op::kOr: return " OR ";
    case Op::kAdd: return " + ";
    case Op::kSub: return " - ";
    case Op::kMul: return " * ";
    case Op::kDiv: return " / ";
    case Op::kMod: return " % ";
    case Op::kLike: return " LIKE ";
    case Op::kILike: return " ILIKE ";
    default: return " ? ";
  }
}

Op FlipComparison(Op op) {
  switch (op) {
    case Op::kLt: return Op::kGt;
    case Op::kLe: return Op::kGe;
    case Op::kGt: return Op::kLt;
    case Op::kGe: return Op::kLe;
    default: return op;
  }
}

Value::Kind ValueKindOf(const DataType& type) {
  if (layout::IsInteger(type.id)) return Value::Kind::kInt;
  if (layout::IsFloatingPoint(type.id)) return Value::Kind::kFloat;
  switch (type.id) {
    case TypeId::kBoolean: return Value::Kind::kBool;
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDecimal128: return Value::Kind::kInt;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return Value::Kind::kBytes;
    default: return Value::Kind::kNull;
  }
}

std::string LiteralToString(const Value& v, const DataType& type) {
  if (v.is_null()) return "NULL";
  if (v.kind == Value::Kind::kFloat) {
    if (std::isnan(v.f) || std::isinf(v.f)) return "CAST('" + FormatDouble(v.f) + "' AS DOUBLE)";
    std::string text = FormatDouble(v.f);
    // Written with an exponent so it reads back as a float, not an exact decimal.
    if (text.find_first_of("eE") == std::string::npos) text += "e0";
    return text;
  }
  if (v.kind == Value::Kind::kInt && type.id == TypeId::kDecimal128) {
    std::array<uint8_t, 16> bytes{};
    auto u = static_cast<unsigned __int128>(v.i);
    for (size_t k = 0; k < 16; ++k) bytes[k] = static_cast<uint8_t>(u >> (8 * k));
    return FormatDecimal128(bytes, type.scale);
  }
  if (v.kind != Value::Kind::kInt || !FitsInt64(v.i)) return DebugString(v);
  auto i = static_cast<int64_t>(v.i);
  switch (type.id) {
    case TypeId::kDate32: return "DATE '" + FormatDate(i) + "'";
    case TypeId::kTimestamp:
      return "TIMESTAMP '" + FormatTimestamp(i, type.unit, false) +
             (type.timezone.empty() ? "" : "Z") + "'";
    case TypeId::kTime32:
    case TypeId::kTime64: return "'" + FormatTime(i, type.unit) + "'";
    default: return DebugString(v);
  }
}

std::string ToString(const Expr& e, const BoundFilter& filter) {
  switch (e.op) {
    case Op::kColumn: {
      auto k = static_cast<size_t>(e.column);
      return k < filter.columns.size() ? ColumnText(filter.columns[k].path) : "?";
    }
    case Op::kLiteral: return LiteralToString(e.literal, *e.type);
    case Op::kCast:
      return "CAST(" + ToString(*e.children[0], filter) + " AS " + e.type->ToString() + ")";
    case Op::kNot: return "NOT " + Operand(*e.children[0], filter);
    case Op::kIsNull: return Operand(*e.children[0], filter) + " IS NULL";
    case Op::kIsNotNull: return Operand(*e.children[0], filter) + " IS NOT NULL";
    case Op::kIn: {
      std::string out = Operand(*e.children[0], filter) + " IN (";
      const DataType& type = *e.children[0]->type;
      for (size_t k = 0; k < e.list.size(); ++k) {
        out += (k > 0 ? ", " : "") + LiteralToString(e.list[k], type);
      }
      if (e.list_has_null) out += e.list.empty() ? "NULL" : ", NULL";
      return out + ")";
    }
    case Op::kLike:
    case Op::kILike:
      return Operand(*e.children[0], filter) + std::string(OpText(e.op)) +
             DebugString(Value::Bytes(e.pattern));
    case Op::kStartsWith:
    case Op::kEndsWith:
    case Op::kContains: {
      const char* name = e.op == Op::kStartsWith ? "starts_with("
                         : e.op == Op::kEndsWith ? "ends_with("
                                                 : "contains(";
      return name + ToString(*e.children[0], filter) + ", " + DebugString(Value::Bytes(e.pattern)) +
             ")";
    }
    case Op::kDatePart:
    case Op::kDateTrunc:
      return std::string(e.op == Op::kDatePart ? "date_part('" : "date_trunc('") + e.pattern +
             "', " + ToString(*e.children[0], filter) + ")";
    case Op::kLower:
    case Op::kUpper:
    case Op::kLength:
    case Op::kOctetLength:
    case Op::kAbs:
    case Op::kCoalesce:
    case Op::kGreatest:
    case Op::kLeast: {
      std::string out = std::string(FunctionName(e.op)) + "(";
      for (size_t k = 0; k < e.children.size(); ++k) {
        out += (k > 0 ? ", " : "") + ToString(*e.children[k], filter);
      }
      return out + ")";
    }
    case Op::kFloatTest: return e.pattern + "(" + ToString(*e.children[0], filter) + ")";
    case Op::kRound:
      return e.pattern + "(" + ToString(*e.children[0], filter) +
             (e.digits != 0 ? ", " + std::to_string(e.digits) : "") + ")";
    case Op::kTrim:
    case Op::kStrpos:
    case Op::kReplace: {
      std::string out = (e.op == Op::kStrpos ? std::string("strpos") : e.pattern) + "(" +
                        ToString(*e.children[0], filter);
      if (e.op == Op::kStrpos) out += ", " + DebugString(Value::Bytes(e.pattern));
      for (const Value& v : e.list) out += ", " + DebugString(v);
      return out + ")";
    }
    case Op::kRegexValue: {
      std::string out = e.pattern + "(" + ToString(*e.children[0], filter) + ", " +
                        DebugString(Value::Bytes(e.regex->pattern()));
      for (const Value& v : e.list) out += ", " + DebugString(v);
      if (!e.regex->options().empty()) out += ", " + DebugString(Value::Bytes(e.regex->options()));
      return out + ")";
    }
    case Op::kConcat: {
      const bool bars = e.pattern == "||";
      std::string out = bars ? "" : "concat(";
      for (size_t k = 0; k < e.children.size(); ++k) {
        if (k > 0) out += bars ? " || " : ", ";
        out += bars ? Operand(*e.children[k], filter) : ToString(*e.children[k], filter);
      }
      return bars ? out : out + ")";
    }
    case Op::kAddInterval:
      return Operand(*e.children[0], filter) + (e.interval_sign < 0 ? " - " : " + ") +
             (e.type->id == TypeId::kDate32 ? std::to_string(e.interval.days)
                                            : "INTERVAL '" + IntervalText(e.interval) + "'");
    case Op::kRegexMatch: {
      std::string out = std::string(e.regex->full() ? "regexp_full_match(" : "regexp_matches(") +
                        ToString(*e.children[0], filter) + ", " +
                        DebugString(Value::Bytes(e.regex->pattern()));
      if (!e.regex->options().empty()) out += ", " + DebugString(Value::Bytes(e.regex->options()));
      return out + ")";
    }
    case Op::kSubstring: {
      std::string out = e.pattern + "(" + ToString(*e.children[0], filter);
      for (const Value& v : e.list) out += ", " + DebugString(v);
      return out + ")";
    }
    case Op::kIntersectsExtent: {
      std::string out = "st_intersects_extent(" + ToString(*e.children[0], filter);
      for (const Value& v : e.list) out += ", " + DebugString(v);
      return out + ")";
    }
    case Op::kVariantGet:
      return "variant_get(" + ToString(*e.children[0], filter) + ", " +
             DebugString(Value::Bytes(variant::FormatPath(e.variant_path))) + ", '" +
             std::string(variant::SqlTypeName(e.variant_type)) + "')";
    case Op::kGuarded: {
      // Pruning filters only: the shredded column, unless a fallback `value` column is set.
      std::string out = "shredded(" + ToString(*e.children[0], filter);
      for (size_t k = 1; k < e.children.size(); ++k) {
        out += (k == 1 ? " unless " : ", ") + ToString(*e.children[k], filter);
      }
      return out + ")";
    }
    default: break;
  }
  std::string out;
  for (size_t k = 0; k < e.children.size(); ++k) {
    if (k > 0) out += OpText(e.op);
    out += Operand(*e.children[k], filter);
  }
  return out;
}

std::optional<DateField> DateFieldNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, DateField> kNames[] = {
      {"year", DateField::kYear},     {"quarter", DateField::kQuarter},
      {"month", DateField::kMonth},   {"day", DateField::kDay},
      {"hour", DateField::kHour},     {"minute", DateField::kMinute},
      {"second", DateField::kSecond}, {"dow", DateField::kDow},
      {"isodow", DateField::kIsoDow}, {"doy", DateField::kDoy}};
  for (const auto& [text, field] : kNames) {
    if (text == name) return field;
  }
  return std::nullopt;
}

namespace {

// Days since the Monday on or before `day` (1970-01-01 was a Thursday: 3).
int64_t DaysSinceMonday(int64_t day) { return ((day + 3) % 7 + 7) % 7; }

}  // namespace

int64_t DatePartOf(DateField field, const cast::TimestampDay& instant) {
  const int64_t second = instant.micros / 1000000;
  switch (field) {
    case DateField::kHour: return second / 3600;
    case DateField::kMinute: return second / 60 % 60;
    case DateField::kSecond: return second % 60;
    case DateField::kDow: return (DaysSinceMonday(instant.day) + 1) % 7;  // Sunday 0
    case DateField::kIsoDow: return DaysSinceMonday(instant.day) + 1;     // Monday 1
    default: break;
  }
  const CivilDate civil = CivilFromDays(instant.day);
  switch (field) {
    case DateField::kYear: return civil.year;
    case DateField::kQuarter: return (civil.month - 1) / 3 + 1;
    case DateField::kMonth: return civil.month;
    case DateField::kDay: return civil.day;
    case DateField::kDoy: return instant.day - DaysFromCivil(civil.year, 1, 1) + 1;
    default: return 0;
  }
}

std::optional<TruncUnit> TruncUnitNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, TruncUnit> kNames[] = {
      {"year", TruncUnit::kYear},     {"quarter", TruncUnit::kQuarter},
      {"month", TruncUnit::kMonth},   {"week", TruncUnit::kWeek},
      {"day", TruncUnit::kDay},       {"hour", TruncUnit::kHour},
      {"minute", TruncUnit::kMinute}, {"second", TruncUnit::kSecond}};
  for (const auto& [text, unit] : kNames) {
    if (text == name) return unit;
  }
  return std::nullopt;
}

std::optional<int64_t> TruncatedMicros(TruncUnit unit, const cast::TimestampDay& instant) {
  constexpr int64_t kMicrosPerSecond = 1000000;
  int64_t day = instant.day;
  int64_t into = 0;  // microseconds into `day` kept
  switch (unit) {
    case TruncUnit::kSecond:
    case TruncUnit::kMinute:
    case TruncUnit::kHour: {
      const int64_t step = kMicrosPerSecond * (unit == TruncUnit::kSecond   ? 1
                                               : unit == TruncUnit::kMinute ? 60
                                                                            : 3600);
      into = instant.micros / step * step;
      break;
    }
    case TruncUnit::kDay: break;
    case TruncUnit::kWeek: day -= DaysSinceMonday(day); break;
    case TruncUnit::kYear:
    case TruncUnit::kQuarter:
    case TruncUnit::kMonth: {
      const CivilDate civil = CivilFromDays(day);
      const int64_t month = unit == TruncUnit::kYear      ? 1
                            : unit == TruncUnit::kQuarter ? (civil.month - 1) / 3 * 3 + 1
                                                          : civil.month;
      day = DaysFromCivil(civil.year, month, 1);
      break;
    }
  }
  int64_t out = 0;
  if (__builtin_mul_overflow(day, 86400 * kMicrosPerSecond, &out) ||
      __builtin_add_overflow(out, into, &out)) {
    return std::nullopt;
  }
  return out;
}

bool DatePartNonDecreasing(DateField field, const cast::TimestampDay& lo,
                           const cast::TimestampDay& hi) {
  if (field == DateField::kYear) return true;
  constexpr int64_t kMicrosPerMinute = 60 * int64_t{1000000};
  constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
  const bool same_day = lo.day == hi.day;
  switch (field) {
    case DateField::kHour:
    case DateField::kDow:
    case DateField::kIsoDow: return same_day;
    case DateField::kMinute:
      return same_day && lo.micros / kMicrosPerHour == hi.micros / kMicrosPerHour;
    case DateField::kSecond:
      return same_day && lo.micros / kMicrosPerMinute == hi.micros / kMicrosPerMinute;
    default: break;
  }
  const CivilDate a = CivilFromDays(lo.day);
  const CivilDate b = CivilFromDays(hi.day);
  switch (field) {
    case DateField::kQuarter:
    case DateField::kMonth:
    case DateField::kDoy: return a.year == b.year;
    case DateField::kDay: return a.year == b.year && a.month == b.month;
    default: return false;
  }
}

std::pair<int64_t, int64_t> DatePartRange(DateField field) {
  switch (field) {
    case DateField::kYear: return {INT64_MIN, INT64_MAX};
    case DateField::kQuarter: return {1, 4};
    case DateField::kMonth: return {1, 12};
    case DateField::kDay: return {1, 31};
    case DateField::kHour: return {0, 23};
    case DateField::kMinute:
    case DateField::kSecond: return {0, 59};
    case DateField::kDow: return {0, 6};
    case DateField::kIsoDow: return {1, 7};
    case DateField::kDoy: return {1, 366};
  }
  return {INT64_MIN, INT64_MAX};
}

}  // namespace pqsift::expr
