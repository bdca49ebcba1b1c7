// The text-to-typed-values path shared by the text inputs (CSV, JSON Lines): parsing a field's
// text as a column type, and inferring a column's type from sample values.
#include "cli/input/text_values.h"

#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <map>
#include <variant>

#include "arrow/builder.h"
#include "expr/temporal_text.h"

namespace pqsift::cli {
namespace {

using expr::int128;

// ---- values ----

bool ParseInt64(std::string_view s, int64_t& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool ParseDouble(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool ParseBool(std::string_view s, bool& out) {
  if (s == "true" || s == "TRUE" || s == "True") {
    out = true;
    return true;
  }
  if (s == "false" || s == "FALSE" || s == "False") {
    out = false;
    return true;
  }
  return false;
}

int64_t UnitsPerSecond(TimeUnit unit) {
  return unit == TimeUnit::kMillis ? 1000 : unit == TimeUnit::kMicros ? 1'000'000 : 1'000'000'000;
}

// Nanoseconds in `unit` exactly, or false (digits below the unit, or out of int64).
bool NanosTo(int128 nanos, TimeUnit unit, int64_t& out) {
  int128 per = 1'000'000'000 / UnitsPerSecond(unit);
  if (nanos % per != 0) return false;
  int128 v = nanos / per;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  out = static_cast<int64_t>(v);
  return true;
}

// "[-]digits[.digits]" as an unscaled decimal of `scale` digits after the point, at most
// `precision` digits in all; no rounding (more fractional digits than the scale fail).
bool ParseDecimal(std::string_view s, int32_t precision, int32_t scale, int128& out) {
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  int128 v = 0;
  int digits = 0, fraction = -1;
  bool any = false;
  for (char c : s) {
    if (c == '.' && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    any = true;
    if (fraction >= 0 && ++fraction > scale) {
      if (c != '0') return false;  // a non-zero digit below the scale
      continue;
    }
    if (v != 0 || c != '0') ++digits;
    v = v * 10 + (c - '0');
    if (digits > 38) return false;
  }
  if (!any) return false;
  for (int f = std::max(fraction, 0); f < scale; ++f) {
    v *= 10;
    if (v != 0) ++digits;
  }
  if (digits > precision) return false;
  out = negative ? -v : v;
  return true;
}

// "decimal(p,s)" (spaces allowed around the numbers) -> p and s; false for anything else.
bool ParseDecimalType(std::string_view text, int* precision, int* scale) {
  constexpr std::string_view kPrefix = "decimal(";
  if (!text.starts_with(kPrefix) || !text.ends_with(')')) return false;
  std::string_view inner = text.substr(kPrefix.size(), text.size() - kPrefix.size() - 1);
  size_t comma = inner.find(',');
  if (comma == std::string_view::npos) return false;
  auto parse = [](std::string_view digits, int* out) {
    size_t b = digits.find_first_not_of(' ');
    size_t e = digits.find_last_not_of(' ');
    if (b == std::string_view::npos) return false;
    digits = digits.substr(b, e - b + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), *out);
    return error == std::errc() && end == digits.data() + digits.size();
  };
  return parse(inner.substr(0, comma), precision) && parse(inner.substr(comma + 1), scale);
}

// One column of the batch being built.
class CsvColumn {
 public:
  explicit CsvColumn(std::shared_ptr<const DataType> type) : type_(std::move(type)) { Reset(); }

  // Appends one field; false when it does not parse as the column's type.
  bool Append(const TextField& f) {
    const bool is_text = type_->id == TypeId::kLargeString || type_->id == TypeId::kLargeBinary;
    if (f.kind == FieldKind::kNull || (f.kind == FieldKind::kEmptyQuoted && !is_text)) {
      AppendNull();
      return true;
    }
    std::string_view s = f.text;
    switch (type_->id) {
      case TypeId::kBoolean: {
        bool v;
        return ParseBool(s, v) && Put<bool>(v);
      }
      case TypeId::kInt8: return Integer<int8_t>(s);
      case TypeId::kInt16: return Integer<int16_t>(s);
      case TypeId::kInt32: return Integer<int32_t>(s);
      case TypeId::kInt64: return Integer<int64_t>(s);
      case TypeId::kUInt8: return Integer<uint8_t>(s);
      case TypeId::kUInt16: return Integer<uint16_t>(s);
      case TypeId::kUInt32: return Integer<uint32_t>(s);
      case TypeId::kUInt64: return Integer<uint64_t>(s);
      case TypeId::kFloat32: {
        double v;
        return ParseDouble(s, v) && Put<float>(static_cast<float>(v));
      }
      case TypeId::kFloat64: {
        double v;
        return ParseDouble(s, v) && Put<double>(v);
      }
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: std::get<BinaryArrayBuilder>(builder_).Append(s); return true;
      case TypeId::kDate32: {
        auto days = expr::ParseDate(s);
        return days && *days >= INT32_MIN && *days <= INT32_MAX &&
               Put<int32_t>(static_cast<int32_t>(*days));
      }
      case TypeId::kTime32:
      case TypeId::kTime64: {
        auto nanos = expr::ParseTimeOfDay(s);
        int64_t v;
        if (!nanos || !NanosTo(*nanos, type_->unit, v)) return false;
        return type_->id == TypeId::kTime32 ? Put<int32_t>(static_cast<int32_t>(v))
                                            : Put<int64_t>(v);
      }
      case TypeId::kTimestamp: {
        auto ts = expr::ParseTimestamp(s);
        int64_t v;
        // A zoned column takes zoned values (converted to UTC); a local column local ones.
        if (!ts || ts->has_zone != !type_->timezone.empty()) return false;
        return NanosTo(ts->nanos, type_->unit, v) && Put<int64_t>(v);
      }
      case TypeId::kDecimal128: {
        int128 v;
        if (!ParseDecimal(s, type_->precision, type_->scale, v)) return false;
        std::array<uint8_t, 16> bytes;
        std::memcpy(bytes.data(), &v, 16);
        return Put<std::array<uint8_t, 16>>(bytes);
      }
      default: return false;
    }
  }

  std::shared_ptr<Array> Finish() {
    auto out = std::visit(
        [](auto& b) -> std::shared_ptr<Array> {
          if constexpr (std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) {
            return nullptr;
          } else {
            return b.Finish();
          }
        },
        builder_);
    Reset();
    return out;
  }

 private:
  template <typename T>
  bool Put(T v) {
    std::get<FixedWidthArrayBuilder<T>>(builder_).Append(v);
    return true;
  }
  template <typename T>
  bool Integer(std::string_view s) {
    if constexpr (std::is_same_v<T, uint64_t>) {
      uint64_t u;
      auto r = std::from_chars(s.data(), s.data() + s.size(), u);
      return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty() && Put<T>(u);
    } else {
      int64_t v;
      if (!ParseInt64(s, v)) return false;
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
      return Put<T>(static_cast<T>(v));
    }
  }
  void AppendNull() {
    std::visit(
        [](auto& b) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) {
            b.AppendNull();
          }
        },
        builder_);
  }
  void Reset() {
    switch (type_->id) {
      case TypeId::kBoolean: builder_.emplace<FixedWidthArrayBuilder<bool>>(type_); break;
      case TypeId::kInt8: builder_.emplace<FixedWidthArrayBuilder<int8_t>>(type_); break;
      case TypeId::kInt16: builder_.emplace<FixedWidthArrayBuilder<int16_t>>(type_); break;
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32: builder_.emplace<FixedWidthArrayBuilder<int32_t>>(type_); break;
      case TypeId::kInt64:
      case TypeId::kTime64:
      case TypeId::kTimestamp: builder_.emplace<FixedWidthArrayBuilder<int64_t>>(type_); break;
      case TypeId::kUInt8: builder_.emplace<FixedWidthArrayBuilder<uint8_t>>(type_); break;
      case TypeId::kUInt16: builder_.emplace<FixedWidthArrayBuilder<uint16_t>>(type_); break;
      case TypeId::kUInt32: builder_.emplace<FixedWidthArrayBuilder<uint32_t>>(type_); break;
      case TypeId::kUInt64: builder_.emplace<FixedWidthArrayBuilder<uint64_t>>(type_); break;
      case TypeId::kFloat32: builder_.emplace<FixedWidthArrayBuilder<float>>(type_); break;
      case TypeId::kFloat64: builder_.emplace<FixedWidthArrayBuilder<double>>(type_); break;
      case TypeId::kDecimal128:
        builder_.emplace<FixedWidthArrayBuilder<std::array<uint8_t, 16>>>(type_);
        break;
      default: builder_.emplace<BinaryArrayBuilder>(type_); break;
    }
  }

  std::shared_ptr<const DataType> type_;
  std::variant<std::monostate, FixedWidthArrayBuilder<bool>, FixedWidthArrayBuilder<int8_t>,
               FixedWidthArrayBuilder<int16_t>, FixedWidthArrayBuilder<int32_t>,
               FixedWidthArrayBuilder<int64_t>, FixedWidthArrayBuilder<uint8_t>,
               FixedWidthArrayBuilder<uint16_t>, FixedWidthArrayBuilder<uint32_t>,
               FixedWidthArrayBuilder<uint64_t>, FixedWidthArrayBuilder<float>,
               FixedWidthArrayBuilder<double>, FixedWidthArrayBuilder<std::array<uint8_t, 16>>,
               BinaryArrayBuilder>
      builder_;
};

}  // namespace

struct TextColumn::Impl : CsvColumn {
  using CsvColumn::CsvColumn;
};

TextColumn::TextColumn(std::shared_ptr<const DataType> type)
    : impl_(std::make_unique<Impl>(std::move(type))) {}
TextColumn::~TextColumn() = default;
TextColumn::TextColumn(TextColumn&&) noexcept = default;
TextColumn& TextColumn::operator=(TextColumn&&) noexcept = default;
bool TextColumn::Append(const TextField& f) { return impl_->Append(f); }
std::shared_ptr<Array> TextColumn::Finish() { return impl_->Finish(); }

void TypeInference::See(const TextField& f, bool text_only) {
  if (f.kind != FieldKind::kValue) return;
  any = true;
  std::string_view s = f.text;
  bool b;
  int64_t i;
  double d;
  // Text that was a string in its source (a JSON string) is never a boolean or a number.
  if (is_bool) is_bool = !text_only && ParseBool(s, b);
  if (is_int) is_int = !text_only && ParseInt64(s, i);
  if (is_double) is_double = !text_only && ParseDouble(s, d);
  if (is_date) is_date = expr::ParseDate(s).has_value();
  if (is_timestamp) {
    auto ts = expr::ParseTimestamp(s);
    is_timestamp = ts.has_value();
    if (ts) {
      all_zoned &= ts->has_zone;
      none_zoned &= !ts->has_zone;
      needs_nanos |= ts->nanos % 1000 != 0;
    }
  }
}

std::shared_ptr<const DataType> TypeInference::Type() const {
  if (!any) return LargeUtf8();
  if (is_bool) return Boolean();
  if (is_int) return Int64();
  if (is_double) return Float64();
  if (is_date) return Date32();
  if (is_timestamp && (all_zoned || none_zoned)) {
    return Timestamp(needs_nanos ? TimeUnit::kNanos : TimeUnit::kMicros, all_zoned ? "UTC" : "");
  }
  return LargeUtf8();
}

Result<std::shared_ptr<const DataType>> ParseColumnType(std::string_view name) {
  static const std::map<std::string_view, std::shared_ptr<const DataType>> kTypes = {
      {"bool", Boolean()},
      {"int8", Int8()},
      {"int16", Int16()},
      {"int32", Int32()},
      {"int64", Int64()},
      {"uint8", UInt8()},
      {"uint16", UInt16()},
      {"uint32", UInt32()},
      {"uint64", UInt64()},
      {"float", Float32()},
      {"float32", Float32()},
      {"double", Float64()},
      {"float64", Float64()},
      {"string", LargeUtf8()},
      {"binary", LargeBinary()},
      {"date", Date32()},
      {"time_ms", Time32(TimeUnit::kMillis)},
      {"time_us", Time64(TimeUnit::kMicros)},
      {"time_ns", Time64(TimeUnit::kNanos)},
      {"timestamp_ms", Timestamp(TimeUnit::kMillis, "")},
      {"timestamp_us", Timestamp(TimeUnit::kMicros, "")},
      {"timestamp_ns", Timestamp(TimeUnit::kNanos, "")},
      {"timestamp_ms_utc", Timestamp(TimeUnit::kMillis, "UTC")},
      {"timestamp_us_utc", Timestamp(TimeUnit::kMicros, "UTC")},
      {"timestamp_ns_utc", Timestamp(TimeUnit::kNanos, "UTC")},
  };
  if (auto it = kTypes.find(name); it != kTypes.end()) return it->second;
  int precision = 0, scale = 0;
  std::string text(name);
  if (ParseDecimalType(text, &precision, &scale) && precision >= 1 && precision <= 38 &&
      scale >= 0 && scale <= precision) {
    return Decimal128(precision, scale);
  }
  return Status::InvalidArgument("unknown column type '" + text +
                                 "' (bool, int8..int64, uint8..uint64, float, double, string, "
                                 "binary, date, time_ms|us|ns, timestamp_ms|us|ns[_utc], "
                                 "decimal(p,s))");
}

Result<std::vector<std::pair<std::string, std::shared_ptr<const DataType>>>> ParseSchemaList(
    const std::string& text) {
  std::vector<std::pair<std::string, std::shared_ptr<const DataType>>> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    // A comma inside decimal(p,s) does not end the item.
    size_t paren = text.find('(', pos);
    if (paren != std::string::npos && paren < comma) comma = text.find(',', text.find(')', paren));
    std::string item = text.substr(pos, comma - pos);
    pos = comma == std::string::npos ? text.size() : comma + 1;
    size_t colon = item.rfind(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("--schema item '" + item + "' is not name:type");
    }
    std::string column = item.substr(0, colon);
    size_t b = column.find_first_not_of(' '), e = column.find_last_not_of(' ');
    column = b == std::string::npos ? "" : column.substr(b, e - b + 1);
    PQSIFT_ASSIGN_OR_RETURN(auto type, ParseColumnType(item.substr(colon + 1)));
    out.emplace_back(std::move(column), std::move(type));
  }
  return out;
}

}  // namespace pqsift::cli
