#include "prune/statistics.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "arrow/layout.h"
#include "common/value_format.h"

namespace pqsift::prune {
namespace {

using expr::int128;
using expr::Value;
using Kind = LogicalType::Kind;

template <typename T>
std::optional<T> LoadLE(std::string_view bytes) {
  if (bytes.size() != sizeof(T)) return std::nullopt;
  T v;
  std::memcpy(&v, bytes.data(), sizeof v);  // Parquet and the hosts we build for: little endian
  return v;
}

// Big-endian two's complement of 1..16 bytes (decimals stored as bytes).
std::optional<Value> BigEndianSigned(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > 16) return std::nullopt;
  // Sign-extend from the first byte, then shift the rest in; unsigned arithmetic avoids
  // shifting into the sign bit.
  unsigned __int128 v = static_cast<int8_t>(bytes[0]) < 0 ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return Value::Int(static_cast<int128>(v));
}

std::optional<Value> IntInRange(int128 v, int128 lo, int128 hi) {
  if (v < lo || v > hi) return std::nullopt;  // the decoder would wrap it: not a bound
  return Value::Int(v);
}

// An INT32 physical value in the domain of the Arrow type it decodes to.
std::optional<Value> FromInt32(int32_t v, TypeId id) {
  auto u = static_cast<uint32_t>(v);
  switch (id) {
    case TypeId::kInt8: return IntInRange(v, INT8_MIN, INT8_MAX);
    case TypeId::kInt16: return IntInRange(v, INT16_MIN, INT16_MAX);
    case TypeId::kUInt8: return IntInRange(u, 0, UINT8_MAX);
    case TypeId::kUInt16: return IntInRange(u, 0, UINT16_MAX);
    case TypeId::kUInt32: return Value::Int(u);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kDecimal128: return Value::Int(v);
    default: return std::nullopt;
  }
}

std::optional<Value> FromInt64(int64_t v, TypeId id) {
  switch (id) {
    case TypeId::kUInt64: return Value::Int(static_cast<uint64_t>(v));
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDecimal128: return Value::Int(v);
    default: return std::nullopt;
  }
}

// Logical types whose TYPE_DEFINED_ORDER is the order of our Value domain for the Arrow type
// they decode to (LogicalTypes.md "Sort Order"). INTERVAL has no defined order; the others are
// either nested, geometric, or unknown to us.
bool HasTypeDefinedOrder(const ColumnDescriptor& c) {
  if (c.physical_type == PhysicalType::kInt96) return false;
  switch (c.logical_type.kind) {
    case Kind::kNone:
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kDecimal:
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kTimestamp:
    case Kind::kInteger:
    case Kind::kUnknown:
    case Kind::kJson:
    case Kind::kBson:
    case Kind::kUuid:
    case Kind::kFloat16: return true;
    default: return false;
  }
}

// Whether min_value/max_value are bounds in our order for this column.
bool TrustMinMaxValue(const ColumnDescriptor& c, const DataType& t) {
  if (!c.column_order) return false;  // without column_orders their meaning is undefined
  switch (*c.column_order) {
    case ColumnOrder::kTypeDefined: return HasTypeDefinedOrder(c);
    // Numeric order except for -0 < +0 and NaN placement, both of which the float handling
    // below makes harmless.
    case ColumnOrder::kIeee754TotalOrder: return layout::IsFloatingPoint(t.id);
    default: return false;
  }
}

// Whether the deprecated min/max, always computed by signed comparison of the physical value,
// bound the decoded values: only where the decoded value is the signed physical value (or a
// range-checked narrowing of it). Unsigned integers, byte arrays (compared as signed bytes by
// old writers) and INT96 are refused.
bool TrustDeprecatedMinMax(const ColumnDescriptor& c, const DataType& t) {
  if (c.logical_type.kind == Kind::kInteger && !c.logical_type.is_signed) return false;
  switch (c.physical_type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: return true;
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      switch (t.id) {
        case TypeId::kInt8:
        case TypeId::kInt16:
        case TypeId::kInt32:
        case TypeId::kInt64:
        case TypeId::kDate32:
        case TypeId::kTime32:
        case TypeId::kTime64:
        case TypeId::kTimestamp:
        case TypeId::kDecimal128: return true;
        default: return false;
      }
    default: return false;
  }
}

// parquet.thrift ColumnOrder: a NaN bound is no bound; a min of zero may hide -0.0 and a max of
// zero +0.0, so zeros are widened to the signed zero on the outside.
void AdjustFloatBound(std::optional<Value>& bound, bool is_min) {
  if (!bound) return;
  if (std::isnan(bound->f)) {
    bound.reset();
  } else if (bound->f == 0) {
    bound->f = is_min ? -0.0 : 0.0;
  }
}

}  // namespace

std::optional<Value> DecodeStatisticsValue(std::string_view bytes, const ColumnDescriptor& column,
                                           const DataType& arrow_type) {
  TypeId id = arrow_type.id;
  switch (column.physical_type) {
    case PhysicalType::kBoolean: {
      auto v = LoadLE<uint8_t>(bytes);
      if (!v || *v > 1 || id != TypeId::kBoolean) return std::nullopt;
      return Value::Bool(*v == 1);
    }
    case PhysicalType::kInt32: {
      auto v = LoadLE<int32_t>(bytes);
      return v ? FromInt32(*v, id) : std::nullopt;
    }
    case PhysicalType::kInt64: {
      auto v = LoadLE<int64_t>(bytes);
      return v ? FromInt64(*v, id) : std::nullopt;
    }
    case PhysicalType::kInt96: return std::nullopt;  // no usable order (see the trust rules)
    case PhysicalType::kFloat: {
      auto v = LoadLE<float>(bytes);
      if (!v || id != TypeId::kFloat32) return std::nullopt;
      return Value::Float(*v);
    }
    case PhysicalType::kDouble: {
      auto v = LoadLE<double>(bytes);
      if (!v || id != TypeId::kFloat64) return std::nullopt;
      return Value::Float(*v);
    }
    case PhysicalType::kByteArray:
      if (id == TypeId::kDecimal128) return BigEndianSigned(bytes);
      if (id == TypeId::kLargeString || id == TypeId::kLargeBinary) {
        return Value::Bytes(std::string(bytes));
      }
      return std::nullopt;
    case PhysicalType::kFixedLenByteArray:
      // A bound of another width is not a value of the type; a shorter max would not even bound
      // ("ab" < "abc"), so it is refused rather than padded.
      if (bytes.size() != static_cast<size_t>(column.type_length)) return std::nullopt;
      if (id == TypeId::kFloat16) {
        auto bits = LoadLE<uint16_t>(bytes);
        return bits ? std::optional(Value::Float(HalfToFloat(*bits))) : std::nullopt;
      }
      if (id == TypeId::kDecimal128) return BigEndianSigned(bytes);
      if (id == TypeId::kFixedSizeBinary) return Value::Bytes(std::string(bytes));
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> NullRowsFromLevels(const ColumnDescriptor& column,
                                          std::span<const int64_t> histogram, int64_t rows) {
  if (column.max_repetition_level != 0 || column.max_definition_level <= 0 || rows < 0) {
    return std::nullopt;
  }
  const auto max = static_cast<size_t>(column.max_definition_level);
  if (histogram.size() != max + 1) return std::nullopt;
  int64_t total = 0;
  for (int64_t count : histogram) {
    if (count < 0 || __builtin_add_overflow(total, count, &total)) return std::nullopt;
  }
  if (total != rows) return std::nullopt;
  return rows - histogram[max];
}

ColumnBounds BoundsFromStatistics(const ColumnDescriptor& column, const DataType& arrow_type,
                                  const std::optional<Statistics>& statistics, int64_t num_rows,
                                  std::span<const int64_t> definition_level_histogram) {
  ColumnBounds out;
  out.num_rows = num_rows;
  bool is_float = layout::IsFloatingPoint(arrow_type.id);
  out.may_contain_nan = is_float;
  bool repeated = column.max_repetition_level > 0;
  bool nullable = column.max_definition_level > 0;
  // The schema proves what no statistic needs to: a column required all the way down is never
  // NULL.
  if (!repeated && !nullable) out.null_count = 0;
  // Two witnesses of the null count: the statistics' null_count and the level histogram. One
  // alone is believed; two that disagree make both suspect (a writer whose null_count left out
  // the rows where an ancestor is NULL would otherwise skip rows `s.a IS NULL` must return).
  std::optional<int64_t> from_levels =
      NullRowsFromLevels(column, definition_level_histogram, num_rows);
  std::optional<int64_t> from_statistics;
  if (statistics && !repeated && nullable && statistics->null_count &&
      *statistics->null_count >= 0 && *statistics->null_count <= num_rows) {
    from_statistics = statistics->null_count;
  }
  if (from_statistics && from_levels) {
    if (*from_statistics == *from_levels) out.null_count = from_statistics;
  } else if (from_statistics) {
    out.null_count = from_statistics;
  } else if (from_levels) {
    out.null_count = from_levels;
    out.null_count_from_levels = true;
  }
  if (!statistics) return out;
  const Statistics& s = *statistics;

  if (is_float && s.nan_count && *s.nan_count == 0) out.may_contain_nan = false;

  // Each side from the new field under a trusted order, else from the deprecated one where
  // signed order is the type's order. A trusted field that does not decode (wrong length, out
  // of the type's range) makes the whole statistics suspect: no bounds at all.
  bool new_trusted = TrustMinMaxValue(column, arrow_type);
  bool old_trusted = TrustDeprecatedMinMax(column, arrow_type);
  bool malformed = false;
  auto pick = [&](const std::optional<std::string_view>& value_field,
                  const std::optional<bool>& exact_field,
                  const std::optional<std::string_view>& deprecated_field,
                  bool& is_exact) -> std::optional<Value> {
    const std::optional<std::string_view>* field = nullptr;
    if (new_trusted && value_field) {
      field = &value_field;
      is_exact = exact_field.value_or(false);
    } else if (old_trusted && deprecated_field) {
      field = &deprecated_field;
      is_exact = false;  // the deprecated fields say nothing about exactness
    } else {
      return std::nullopt;
    }
    std::optional<Value> v = DecodeStatisticsValue(**field, column, arrow_type);
    if (!v) malformed = true;
    return v;
  };
  out.min = pick(s.min_value, s.is_min_value_exact, s.min, out.min_is_exact);
  out.max = pick(s.max_value, s.is_max_value_exact, s.max, out.max_is_exact);
  if (malformed) {
    out.min.reset();
    out.max.reset();
  }

  if (is_float) {
    AdjustFloatBound(out.min, true);
    AdjustFloatBound(out.max, false);
    // Every non-null value NaN (writers then leave min/max out): the range is the NaN point,
    // which sorts above every number in the Value order.
    bool all_nan = !repeated && !out.min && !out.max && s.nan_count && *s.nan_count > 0 &&
                   out.null_count && *s.nan_count == num_rows - *out.null_count;
    if (all_nan) {
      out.min = Value::Float(std::numeric_limits<double>::quiet_NaN());
      out.max = out.min;
    }
  }
  if (out.min && out.max && expr::Compare(*out.min, *out.max) > 0) {
    out.min.reset();  // contradictory claims: trust neither
    out.max.reset();
  }
  if (!out.min) out.min_is_exact = false;
  if (!out.max) out.max_is_exact = false;
  return out;
}

ColumnBounds BoundsFromChunk(const ColumnDescriptor& column, const DataType& arrow_type,
                             const ColumnMetaData& chunk, int64_t num_rows) {
  std::span<const int64_t> histogram;
  if (chunk.size_statistics) {
    const std::vector<int64_t>& h = chunk.size_statistics->definition_level_histogram;
    int64_t total = 0;
    bool sane = true;
    for (int64_t count : h) {
      sane = sane && count >= 0 && !__builtin_add_overflow(total, count, &total);
    }
    // Every level entry is a value of the chunk: a histogram of another total is not this
    // chunk's.
    if (sane && total == chunk.num_values) histogram = h;
  }
  return BoundsFromStatistics(column, arrow_type, chunk.statistics, num_rows, histogram);
}

ColumnBounds BoundsFromPageIndex(const ColumnDescriptor& column, const DataType& arrow_type,
                                 const format::ColumnIndex& index, size_t page, int64_t page_rows) {
  Statistics page_statistics;
  if (index.null_counts) page_statistics.null_count = (*index.null_counts)[page];
  if (index.nan_counts) page_statistics.nan_count = (*index.nan_counts)[page];
  // The page's histogram: definition_level_histograms holds max + 1 counts per page, or is
  // not used at all.
  std::span<const int64_t> histogram;
  if (column.max_definition_level >= 0) {
    const auto per_page = static_cast<size_t>(column.max_definition_level) + 1;
    const std::vector<int64_t>& all = index.definition_level_histograms;
    if (all.size() == per_page * index.null_pages.size()) {
      histogram = std::span<const int64_t>(all).subspan(page * per_page, per_page);
    }
  }
  if (!index.null_pages[page]) {
    page_statistics.min_value = index.min_values[page];
    page_statistics.max_value = index.max_values[page];
    return BoundsFromStatistics(column, arrow_type, page_statistics, page_rows, histogram);
  }
  // Only NULLs, says the page: no bounds (the entries are empty by the spec). Believed only
  // when its null count agrees: some writers (Polars) flag pages without bounds, e.g. all NaN,
  // as null pages although they hold values. Otherwise nothing is known.
  ColumnBounds out =
      BoundsFromStatistics(column, arrow_type, page_statistics, page_rows, histogram);
  bool confirmed =
      column.max_repetition_level == 0 && out.null_count && *out.null_count == page_rows;
  if (!confirmed) return BoundsFromStatistics(column, arrow_type, Statistics{}, page_rows);
  return out;
}

ColumnBounds RestrictToRows(const ColumnBounds& container, int64_t rows) {
  ColumnBounds out = container;
  out.num_rows = rows;
  out.min_is_exact = false;
  out.max_is_exact = false;
  if (container.null_count && *container.null_count != 0) {
    bool all_null = *container.null_count == container.num_rows;
    out.null_count = all_null ? std::optional<int64_t>(rows) : std::nullopt;
  }
  return out;
}

}  // namespace pqsift::prune
