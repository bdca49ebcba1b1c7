#include "expr/expr.h"

#include "arrow/layout.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>

#include "common/civil_date.h"
#include "common/value_format.h"
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

// Children that are themselves operators are parenthesised, so the text needs no precedence.
std::string Operand(const Expr& e, const BoundFilter& filter) {
  switch (e.op) {
    case Op::kColumn:
    case Op::kLiteral:
    case Op::kCast:
    case Op::kStartsWith:
    case Op::kEndsWith:
    case Op::kContains:
    case Op::kDatePart:
    case Op::kDateTrunc:
    case Op::kIntersectsExtent:
    case Op::kVariantGet:
    case Op::kGuarded: return ToString(e, filter);
    default: return "(" + ToString(e, filter) + ")";
  }
}

}  // namespace

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

int64_t DatePartOf(DateField field, int64_t days, int64_t second_of_day) {
  switch (field) {
    case DateField::kHour: return second_of_day / 3600;
    case DateField::kMinute: return second_of_day / 60 % 60;
    case DateField::kSecond: return second_of_day % 60;
    // 1970-01-01 was a Thursday (4, Sunday being 0).
    case DateField::kDow: return ((days + 4) % 7 + 7) % 7;
    case DateField::kIsoDow: return ((days + 3) % 7 + 7) % 7 + 1;
    default: break;
  }
  const CivilDate civil = CivilFromDays(days);
  switch (field) {
    case DateField::kYear: return civil.year;
    case DateField::kQuarter: return (civil.month - 1) / 3 + 1;
    case DateField::kMonth: return civil.month;
    case DateField::kDay: return civil.day;
    case DateField::kDoy: return days - DaysFromCivil(civil.year, 1, 1) + 1;
    default: return 0;
  }
}

bool IsTruncationUnit(std::string_view unit) {
  static constexpr std::string_view kUnits[] = {"year", "quarter", "month",  "week",
                                                "day",  "hour",    "minute", "second"};
  for (std::string_view u : kUnits) {
    if (u == unit) return true;
  }
  return false;
}

std::optional<int64_t> TruncatedMicros(std::string_view unit, int64_t days, int64_t micros) {
  constexpr int64_t kMicrosPerSecond = 1000000;
  int64_t day = days;
  int64_t into = 0;  // microseconds into `day` kept
  if (unit == "second" || unit == "minute" || unit == "hour") {
    const int64_t step = unit == "second"   ? kMicrosPerSecond
                         : unit == "minute" ? 60 * kMicrosPerSecond
                                            : 3600 * kMicrosPerSecond;
    into = micros / step * step;
  } else if (unit == "week") {
    day = days - (((days + 3) % 7 + 7) % 7);  // back to the Monday (1970-01-01 a Thursday)
  } else if (unit != "day") {
    const CivilDate civil = CivilFromDays(days);
    if (unit == "year") {
      day = DaysFromCivil(civil.year, 1, 1);
    } else if (unit == "quarter") {
      day = DaysFromCivil(civil.year, (civil.month - 1) / 3 * 3 + 1, 1);
    } else if (unit == "month") {
      day = DaysFromCivil(civil.year, civil.month, 1);
    } else {
      return std::nullopt;
    }
  }
  int64_t out = 0;
  if (__builtin_mul_overflow(day, 86400 * kMicrosPerSecond, &out) ||
      __builtin_add_overflow(out, into, &out)) {
    return std::nullopt;
  }
  return out;
}

bool DatePartNonDecreasing(DateField field, int64_t lo_days, int64_t lo_second, int64_t hi_days,
                           int64_t hi_second) {
  if (field == DateField::kYear) return true;
  const bool same_day = lo_days == hi_days;
  switch (field) {
    case DateField::kHour: return same_day;
    case DateField::kMinute: return same_day && lo_second / 3600 == hi_second / 3600;
    case DateField::kSecond: return same_day && lo_second / 60 == hi_second / 60;
    case DateField::kDow:
    case DateField::kIsoDow: return same_day;
    default: break;
  }
  const CivilDate lo = CivilFromDays(lo_days);
  const CivilDate hi = CivilFromDays(hi_days);
  switch (field) {
    case DateField::kQuarter:
    case DateField::kMonth:
    case DateField::kDoy: return lo.year == hi.year;
    case DateField::kDay: return lo.year == hi.year && lo.month == hi.month;
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
