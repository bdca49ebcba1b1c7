// Hive partitioning: key=value folder names, their types and values.
#include "dataset/partition.h"

#include <charconv>
#include <map>

#include "expr/temporal_text.h"

namespace pqsift {
namespace dataset {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX escapes decoded (as Hive and Spark write special characters); a malformed escape stays.
std::string UrlDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = HexDigit(s[i + 1]);
      int lo = HexDigit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

std::optional<int64_t> ParseInt64(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<int64_t> ParseMicros(std::string_view s) {
  // A date alone is a DATE, not a TIMESTAMP; a zone makes it TIMESTAMPTZ, which is not inferred.
  if (s.size() <= 10) return std::nullopt;
  std::optional<expr::TimestampText> t = expr::ParseTimestamp(s);
  if (!t || t->has_zone || t->nanos % 1000 != 0) return std::nullopt;
  expr::int128 micros = t->nanos / 1000;
  if (micros > INT64_MAX || micros < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(micros);
}

}  // namespace

std::optional<expr::Value> ParsePartitionValue(const std::optional<std::string>& text,
                                               PartitionType type) {
  if (!text) return expr::Value::Null();
  const std::string& s = *text;
  switch (type) {
    case PartitionType::kInt64: {
      auto v = ParseInt64(s);
      if (!v) return std::nullopt;
      return expr::Value::Int(*v);
    }
    case PartitionType::kFloat64: {
      double v = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
      return expr::Value::Float(v);
    }
    case PartitionType::kDate: {
      if (s.size() < 8) return std::nullopt;
      auto days = expr::ParseDate(s);
      if (!days) return std::nullopt;
      return expr::Value::Int(*days);
    }
    case PartitionType::kTimestamp: {
      auto micros = ParseMicros(s);
      if (!micros) return std::nullopt;
      return expr::Value::Int(*micros);
    }
    case PartitionType::kString: return expr::Value::Bytes(s);
  }
  return std::nullopt;
}

PartitionType InferPartitionType(const std::vector<std::optional<std::string>>& values) {
  for (PartitionType type :
       {PartitionType::kInt64, PartitionType::kDate, PartitionType::kTimestamp}) {
    bool all = true;
    bool any = false;
    for (const auto& v : values) {
      if (!v) continue;
      any = true;
      if (!ParsePartitionValue(v, type)) {
        all = false;
        break;
      }
    }
    if (all && any) return type;
  }
  return PartitionType::kString;
}

SchemaElement PartitionElement(std::string_view name, PartitionType type) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = Repetition::kOptional;
  LogicalType logical;
  switch (type) {
    case PartitionType::kInt64: e.type = PhysicalType::kInt64; break;
    case PartitionType::kFloat64: e.type = PhysicalType::kDouble; break;
    case PartitionType::kDate:
      e.type = PhysicalType::kInt32;
      logical.kind = LogicalType::Kind::kDate;
      e.logical_type = logical;
      break;
    case PartitionType::kTimestamp:
      e.type = PhysicalType::kInt64;
      logical.kind = LogicalType::Kind::kTimestamp;
      logical.unit = TimeUnit::kMicros;
      logical.is_adjusted_to_utc = false;
      e.logical_type = logical;
      break;
    case PartitionType::kString:
      e.type = PhysicalType::kByteArray;
      logical.kind = LogicalType::Kind::kString;
      e.logical_type = logical;
      break;
  }
  return e;
}

const char* PartitionTypeName(PartitionType type) {
  switch (type) {
    case PartitionType::kInt64: return "bigint";
    case PartitionType::kFloat64: return "double";
    case PartitionType::kDate: return "date";
    case PartitionType::kTimestamp: return "timestamp";
    case PartitionType::kString: return "string";
  }
  return "?";
}

}  // namespace dataset

std::vector<std::pair<std::string, std::optional<std::string>>> HiveSegments(
    std::string_view path) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  size_t end = path.rfind('/');
  if (end == std::string_view::npos) return out;
  std::string_view folders = path.substr(0, end);
  size_t pos = 0;
  while (pos <= folders.size()) {
    size_t slash = folders.find('/', pos);
    if (slash == std::string_view::npos) slash = folders.size();
    std::string_view part = folders.substr(pos, slash - pos);
    size_t eq = part.find('=');
    if (eq != std::string_view::npos && eq > 0) {
      std::string_view value = part.substr(eq + 1);
      std::optional<std::string> decoded;
      if (value != kHiveNullPartition) decoded = dataset::UrlDecode(value);
      out.emplace_back(std::string(part.substr(0, eq)), std::move(decoded));
    }
    pos = slash + 1;
  }
  return out;
}

Result<std::vector<PartitionField>> ParsePartitionSchema(std::string_view text) {
  static const std::map<std::string, PartitionType> kTypes = {
      {"bigint", PartitionType::kInt64},   {"int64", PartitionType::kInt64},
      {"double", PartitionType::kFloat64}, {"float64", PartitionType::kFloat64},
      {"date", PartitionType::kDate},      {"timestamp", PartitionType::kTimestamp},
      {"string", PartitionType::kString},  {"varchar", PartitionType::kString}};
  std::vector<PartitionField> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view part = text.substr(pos, comma - pos);
    size_t colon = part.find(':');
    auto trim = [](std::string_view s) {
      size_t b = s.find_first_not_of(' ');
      size_t e = s.find_last_not_of(' ');
      return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
    };
    std::string name = trim(part.substr(0, colon));
    std::string type = colon == std::string_view::npos ? "" : trim(part.substr(colon + 1));
    for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto found = kTypes.find(type);
    if (name.empty() || found == kTypes.end()) {
      return Status::InvalidArgument("partition schema: '" + std::string(part) +
                                     "' is not NAME:TYPE (types: bigint, double, date, "
                                     "timestamp, string)");
    }
    out.push_back({name, found->second});
    pos = comma + 1;
  }
  return out;
}

}  // namespace pqsift
