#include "variant/get.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include "arrow/builder.h"
#include "arrow/cast.h"
#include "arrow/layout.h"
#include "variant/json.h"
#include "variant/shredding.h"

namespace pqsift::variant {
namespace {

// The whole of `s` as a T (from_chars: no leading "+" or spaces), or nullopt.
template <typename T>
std::optional<T> ParseWhole(std::string_view s) {
  T out = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

using cast::Pow10;

// A decimal rounded half away from zero to an integer (DuckDB's decimal to BIGINT cast:
// 2.50 -> 3, -2.50 -> -3).
__int128 RoundDecimal(const Decimal& d) {
  if (d.scale == 0) return d.unscaled;
  const __int128 p = Pow10(d.scale);
  __int128 q = d.unscaled / p;
  const __int128 r = d.unscaled % p;
  if (2 * (r < 0 ? -r : r) >= p) q += d.unscaled < 0 ? -1 : 1;
  return q;
}

// A float rounded to the nearest integer, ties to even (2.5 -> 2, 3.5 -> 4, -2.5 -> -2), as
// DuckDB casts a variant DOUBLE or FLOAT to BIGINT; independent of the FPU's rounding mode.
// d - floor(d) is exact for every finite double, so the tie test is exact.
double RoundHalfEven(double d) {
  const double f = std::floor(d);
  const double diff = d - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return std::fmod(f, 2.0) == 0 ? f : f + 1;
}

double DecimalToDouble(const Decimal& d) {
  // The exact digits parsed as a double: the nearest double to the decimal.
  const bool neg = d.unscaled < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(d.unscaled)
                            : static_cast<unsigned __int128>(d.unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  std::string text = (neg ? "-" : "") + digits + "e-" + std::to_string(d.scale);
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::optional<int64_t> ToBigint(const Value& v) {
  switch (v.type()) {
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: return v.integer();
    case Type::kBoolean: return v.boolean() ? 1 : 0;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16: {
      const __int128 r = RoundDecimal(v.decimal());
      if (r < INT64_MIN || r > INT64_MAX) return std::nullopt;
      return static_cast<int64_t>(r);
    }
    case Type::kFloat:
    case Type::kDouble: {
      const double d = v.type() == Type::kFloat ? v.float32() : v.float64();
      const double r = RoundHalfEven(d);  // NaN stays NaN and fails the range test
      // [-2^63, 2^63): the doubles that fit in int64.
      if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) return std::nullopt;
      return static_cast<int64_t>(r);
    }
    case Type::kString: return ParseWhole<int64_t>(v.string());
    default: return std::nullopt;
  }
}

std::optional<double> ToDouble(const Value& v) {
  switch (v.type()) {
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: return static_cast<double>(v.integer());
    case Type::kBoolean: return v.boolean() ? 1.0 : 0.0;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16: return DecimalToDouble(v.decimal());
    case Type::kFloat: return v.float32();
    case Type::kDouble: return v.float64();
    case Type::kString: return ParseWhole<double>(v.string());
    default: return std::nullopt;
  }
}

std::optional<bool> ToBoolean(const Value& v) {
  switch (v.type()) {
    case Type::kBoolean: return v.boolean();
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: return v.integer() != 0;
    case Type::kString:
      if (EqualsIgnoreCase(v.string(), "true")) return true;
      if (EqualsIgnoreCase(v.string(), "false")) return false;
      return std::nullopt;
    default: return std::nullopt;
  }
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::optional<int32_t> ToDate(const Value& v) {
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  switch (v.type()) {
    case Type::kDate: return v.date();
    case Type::kTimestampMicros:
    case Type::kTimestampNtzMicros: return static_cast<int32_t>(FloorDiv(v.ticks(), kMicrosPerDay));
    case Type::kTimestampNanos:
    case Type::kTimestampNtzNanos:
      return static_cast<int32_t>(FloorDiv(v.ticks(), kMicrosPerDay * 1000));
    default: return std::nullopt;
  }
}

std::span<const uint8_t> BytesAt(const Array& b, int64_t j) {
  const int64_t* o = layout::Offsets<int64_t>(b);
  const int64_t begin = o[b.offset + j];
  return {b.buffers[2]->data() + begin, static_cast<size_t>(o[b.offset + j + 1] - begin)};
}

}  // namespace

Result<SqlType> ParseSqlType(std::string_view name) {
  for (auto [n, t] : {std::pair{"BIGINT", SqlType::kBigint},
                      {"INT8", SqlType::kBigint},
                      {"LONG", SqlType::kBigint},
                      {"DOUBLE", SqlType::kDouble},
                      {"FLOAT8", SqlType::kDouble},
                      {"VARCHAR", SqlType::kVarchar},
                      {"STRING", SqlType::kVarchar},
                      {"TEXT", SqlType::kVarchar},
                      {"BOOLEAN", SqlType::kBoolean},
                      {"BOOL", SqlType::kBoolean},
                      {"DATE", SqlType::kDate}}) {
    if (EqualsIgnoreCase(name, n)) return t;
  }
  return Status::InvalidArgument("variant_get type '" + std::string(name) +
                                 "' is not one of BIGINT, DOUBLE, VARCHAR, BOOLEAN, DATE");
}

std::string_view SqlTypeName(SqlType type) {
  switch (type) {
    case SqlType::kBigint: return "BIGINT";
    case SqlType::kDouble: return "DOUBLE";
    case SqlType::kVarchar: return "VARCHAR";
    case SqlType::kBoolean: return "BOOLEAN";
    case SqlType::kDate: return "DATE";
  }
  return "?";
}

std::shared_ptr<const DataType> ArrowTypeOf(SqlType type) {
  switch (type) {
    case SqlType::kBigint: return Int64();
    case SqlType::kDouble: return Float64();
    case SqlType::kVarchar: return LargeUtf8();
    case SqlType::kBoolean: return Boolean();
    case SqlType::kDate: return Date32();
  }
  return NullType();
}

Result<std::shared_ptr<Array>> VariantGet(const Array& variants, const std::vector<PathStep>& path,
                                          SqlType type) {
  if (!IsVariantType(*variants.type) || variants.children.size() != 2) {
    return Status::InvalidArgument("variant_get needs a variant column, not " +
                                   variants.type->ToString());
  }
  const Array& metadata = *variants.children[0];
  const Array& values = *variants.children[1];
  BitmapBuilder validity;
  BitmapBuilder bools;
  TypedBufferBuilder<int64_t> ints;
  TypedBufferBuilder<double> doubles;
  TypedBufferBuilder<int32_t> dates;
  LargeBinaryBuilder strings;
  std::string text;
  for (int64_t i = 0; i < variants.length; ++i) {
    std::optional<Value> at;
    std::optional<Metadata> md;
    if (variants.IsValid(i)) {
      const int64_t j = variants.offset + i;
      auto m = Metadata::Parse(BytesAt(metadata, j));
      if (!m.ok()) return m.status().WithContext("variant_get, row " + std::to_string(i));
      md = *m;
      auto v = Value::Parse(*md, BytesAt(values, j));
      if (!v.ok()) return v.status().WithContext("variant_get, row " + std::to_string(i));
      at = Extract(*v, path);
      if (at && at->type() == Type::kNull) at.reset();
    }
    bool valid = false;
    switch (type) {
      case SqlType::kBigint: {
        std::optional<int64_t> x = at ? ToBigint(*at) : std::nullopt;
        valid = x.has_value();
        ints.Append(x.value_or(0));
        break;
      }
      case SqlType::kDouble: {
        std::optional<double> x = at ? ToDouble(*at) : std::nullopt;
        valid = x.has_value();
        doubles.Append(x.value_or(0));
        break;
      }
      case SqlType::kBoolean: {
        std::optional<bool> x = at ? ToBoolean(*at) : std::nullopt;
        valid = x.has_value();
        bools.Append(x.value_or(false));
        break;
      }
      case SqlType::kDate: {
        std::optional<int32_t> x = at ? ToDate(*at) : std::nullopt;
        valid = x.has_value();
        dates.Append(x.value_or(0));
        break;
      }
      case SqlType::kVarchar: {
        valid = at.has_value();
        if (!valid) {
          strings.AppendEmpty();
        } else if (at->type() == Type::kString) {
          strings.Append(at->string());
        } else {
          text.clear();
          AppendJson(text, *at);
          strings.Append(text);
        }
        break;
      }
    }
    validity.Append(valid);
  }
  auto out = std::make_shared<Array>();
  out->type = ArrowTypeOf(type);
  out->length = variants.length;
  out->null_count = validity.null_count();
  out->buffers.push_back(validity.FinishValidity());
  switch (type) {
    case SqlType::kBigint: out->buffers.push_back(ints.Finish()); break;
    case SqlType::kDouble: out->buffers.push_back(doubles.Finish()); break;
    case SqlType::kBoolean: out->buffers.push_back(bools.Finish()); break;
    case SqlType::kDate: out->buffers.push_back(dates.Finish()); break;
    case SqlType::kVarchar: {
      out->buffers.resize(3);
      strings.Finish(&out->buffers[1], &out->buffers[2]);
      break;
    }
  }
  return out;
}

}  // namespace pqsift::variant
