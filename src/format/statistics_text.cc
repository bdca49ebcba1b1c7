#include "format/statistics_text.h"

#include <bit>
#include <cstring>
#include <span>

#include "common/value_format.h"

namespace pqsift::format {
namespace {

using Kind = LogicalType::Kind;

template <typename T>
T LoadLE(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof v);  // Parquet and x86 are both little endian
  return v;
}

std::span<const uint8_t> AsBytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// An integer physical value (already widened) rendered in its logical type.
std::string RenderInteger(int64_t v, bool is_int32, const LogicalType& t) {
  switch (t.kind) {
    case Kind::kDecimal: return FormatDecimal(v, t.scale);
    case Kind::kDate: return FormatDate(v);
    case Kind::kTime: return FormatTime(v, t.unit);
    case Kind::kTimestamp: return FormatTimestamp(v, t.unit, t.is_adjusted_to_utc);
    case Kind::kInteger:
      if (!t.is_signed) {
        uint64_t u = is_int32 ? static_cast<uint32_t>(v) : static_cast<uint64_t>(v);
        return std::to_string(u);
      }
      return std::to_string(v);
    default: return std::to_string(v);
  }
}

// INT96: 8 bytes of nanoseconds within the day, then 4 bytes of Julian day, little endian.
std::string RenderInt96(std::string_view bytes) {
  auto nanos = LoadLE<int64_t>(bytes);
  auto julian_day = LoadLE<int32_t>(bytes.substr(8));
  constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
  __int128 total = static_cast<__int128>(julian_day - kJulianEpochDay) * 86400000000000LL + nanos;
  if (total > INT64_MAX || total < INT64_MIN) return FormatHex(AsBytes(bytes));
  return FormatTimestamp(static_cast<int64_t>(total), TimeUnit::kNanos, false);
}

std::string RenderBytes(std::string_view bytes, const LogicalType& t) {
  switch (t.kind) {
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson: return FormatText(bytes);
    case Kind::kDecimal: return FormatDecimalBytes(AsBytes(bytes), t.scale);
    case Kind::kUuid: return FormatUuid(AsBytes(bytes));
    default: return FormatHex(AsBytes(bytes));
  }
}

}  // namespace

std::optional<std::string> RenderStatisticsValue(std::string_view bytes,
                                                 const ColumnDescriptor& column) {
  const LogicalType& t = column.logical_type;
  switch (column.physical_type) {
    case PhysicalType::kBoolean:
      if (bytes.size() != 1) return std::nullopt;
      return bytes[0] ? "true" : "false";
    case PhysicalType::kInt32:
      if (bytes.size() != 4) return std::nullopt;
      return RenderInteger(LoadLE<int32_t>(bytes), true, t);
    case PhysicalType::kInt64:
      if (bytes.size() != 8) return std::nullopt;
      return RenderInteger(LoadLE<int64_t>(bytes), false, t);
    case PhysicalType::kInt96:
      if (bytes.size() != 12) return std::nullopt;
      return RenderInt96(bytes);
    case PhysicalType::kFloat:
      if (bytes.size() != 4) return std::nullopt;
      return FormatFloat(LoadLE<float>(bytes));
    case PhysicalType::kDouble:
      if (bytes.size() != 8) return std::nullopt;
      return FormatDouble(LoadLE<double>(bytes));
    case PhysicalType::kFixedLenByteArray:
      // Truncated bounds may be shorter than the width; only an exact width is a value.
      if (static_cast<int64_t>(bytes.size()) != column.type_length) return std::nullopt;
      if (t.kind == Kind::kFloat16 && bytes.size() == 2) {
        return FormatFloat(HalfToFloat(LoadLE<uint16_t>(bytes)));
      }
      return RenderBytes(bytes, t);
    case PhysicalType::kByteArray: return RenderBytes(bytes, t);
  }
  return std::nullopt;
}

}  // namespace pqsift::format
