#include "variant/json.h"

#include <array>
#include <charconv>
#include <cmath>

#include "arrow/utf8.h"
#include "common/value_format.h"

namespace pqsift::variant {
namespace {

template <typename T>
void AppendInteger(std::string& out, T v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  (void)ec;
  out.append(buf, end);
}

template <typename T>
void AppendFloating(std::string& out, T v) {
  if (!std::isfinite(v)) {
    out += std::isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else if constexpr (std::is_same_v<T, float>) {
    AppendFloat(out, v);
  } else {
    AppendDouble(out, v);
  }
}

void AppendDecimalValue(std::string& out, const Decimal& d) {
  std::array<uint8_t, 16> be;
  auto u = static_cast<unsigned __int128>(d.unscaled);
  for (int i = 15; i >= 0; --i) {
    be[static_cast<size_t>(i)] = static_cast<uint8_t>(u);
    u >>= 8;
  }
  out += FormatDecimalBytes(be, d.scale);
}

template <typename Body>
void Quoted(std::string& out, Body&& body) {
  out += '"';
  body();
  out += '"';
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  size_t start = 0;  // first byte not yet copied
  size_t i = 0;
  while (i < s.size()) {
    auto b = static_cast<uint8_t>(s[i]);
    if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
      ++i;
      continue;
    }
    out.append(s.data() + start, i - start);
    if (b >= 0x80) {
      size_t n = utf8::SequenceLength(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD for one invalid byte
        n = 1;
      } else {
        out.append(s.data() + i, n);
      }
      i += n;
    } else {
      switch (b) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
          out += "\\u00";
          out += kHex[b >> 4];
          out += kHex[b & 15];
      }
      ++i;
    }
    start = i;
  }
  out.append(s.data() + start, s.size() - start);
  out += '"';
}

void AppendJson(std::string& out, const Value& v) {
  switch (v.type()) {
    case Type::kNull: out += "null"; return;
    case Type::kBoolean: out += v.boolean() ? "true" : "false"; return;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: AppendInteger(out, v.integer()); return;
    case Type::kDouble: AppendFloating(out, v.float64()); return;
    case Type::kFloat: AppendFloating(out, v.float32()); return;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16: AppendDecimalValue(out, v.decimal()); return;
    case Type::kDate: Quoted(out, [&] { AppendDate(out, v.date()); }); return;
    case Type::kTimeNtzMicros:
      Quoted(out, [&] { AppendTime(out, v.ticks(), TimeUnit::kMicros); });
      return;
    case Type::kTimestampMicros:
    case Type::kTimestampNtzMicros:
    case Type::kTimestampNanos:
    case Type::kTimestampNtzNanos: {
      const bool nanos = v.type() == Type::kTimestampNanos || v.type() == Type::kTimestampNtzNanos;
      const bool utc = v.type() == Type::kTimestampMicros || v.type() == Type::kTimestampNanos;
      Quoted(out, [&] {
        AppendTimestamp(out, v.ticks(), nanos ? TimeUnit::kNanos : TimeUnit::kMicros, utc);
      });
      return;
    }
    case Type::kBinary: Quoted(out, [&] { AppendBase64(out, v.binary()); }); return;
    case Type::kString: AppendJsonString(out, v.string()); return;
    case Type::kUuid: Quoted(out, [&] { out += FormatUuid(v.binary()); }); return;
    case Type::kArray:
      out += '[';
      for (uint32_t i = 0; i < v.num_elements(); ++i) {
        if (i > 0) out += ',';
        AppendJson(out, v.element(i));
      }
      out += ']';
      return;
    case Type::kObject:
      out += '{';
      for (uint32_t i = 0; i < v.num_elements(); ++i) {
        if (i > 0) out += ',';
        AppendJsonString(out, v.field_name(i));
        out += ':';
        AppendJson(out, v.field_value(i));
      }
      out += '}';
      return;
  }
}

std::string ToJson(const Value& v) {
  std::string out;
  AppendJson(out, v);
  return out;
}

}  // namespace pqsift::variant
