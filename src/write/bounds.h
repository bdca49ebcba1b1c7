// Min/max bounds for statistics and the column index: tracking them over the values written,
// encoding them (PLAIN bytes without a length prefix, parquet.thrift Statistics), and cutting
// long byte-array bounds to a short lower bound and a short upper bound.
//
// Float rules (parquet.thrift ColumnOrder, TYPE_ORDER): NaNs are counted and never enter the
// bounds; a zero minimum is written as -0.0 and a zero maximum as +0.0, so a reader that treats
// the zeros as distinct still gets bounds around every zero.
//
// Thread safety: a tracker is used by one thread at a time; the functions are pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "encoding/types.h"
#include "pqsift/metadata.h"
#include "write/leaf_spec.h"

namespace pqsift::write {

// A lower bound of at most `max_bytes` bytes for every value >= `min`: a prefix of `min` (cut
// at a character boundary when `utf8`, so a valid string stays valid). `min` itself when it is
// short enough. REQUIRES: max_bytes >= 1.
std::string TruncateLowerBound(std::string_view min, size_t max_bytes, bool utf8);
// An upper bound of at most `max_bytes` bytes for every value <= `max`: `max` itself when it is
// short enough, else a prefix with its last byte incremented and what follows dropped (for
// `utf8`, preferably an ASCII byte below 0x7F, so the bound stays valid UTF-8). nullopt when no
// such bound exists (the prefix is all 0xFF bytes). REQUIRES: max_bytes >= 1.
std::optional<std::string> TruncateUpperBound(std::string_view max, size_t max_bytes, bool utf8);

// Three-way comparison of two bounds as encoded (PLAIN bytes, no length prefix) of a column of
// `physical` type in `order`: negative, zero or positive. For the column index's boundary order.
int CompareEncodedBounds(SortOrder order, PhysicalType physical, std::string_view a,
                         std::string_view b);

// The smallest and largest values seen, in the column's order, and how many NaNs were left out.
template <typename DType>
class BoundsTracker {
 public:
  using Value = typename DType::Value;
  explicit BoundsTracker(SortOrder order) : order_(order) {}

  // Takes `n` non-null values into account. ByteView values need only live during the call.
  void Update(const Value* values, int64_t n);
  void Merge(const BoundsTracker& other);
  void Reset();

  // False when no value (other than NaN) was seen.
  bool has_bounds() const { return has_bounds_; }
  int64_t nan_count() const { return nan_count_; }
  // The bounds as PLAIN bytes without a length prefix (the zero rule for floats applied).
  // REQUIRES: has_bounds().
  std::string EncodedMin() const { return Encode(min_, /*is_max=*/false); }
  std::string EncodedMax() const { return Encode(max_, /*is_max=*/true); }

 private:
  bool Less(const Value& a, const Value& b) const;
  bool IsNaN(const Value& v) const;
  void Take(const Value& low, const Value& high);
  std::string Encode(const Value& v, bool is_max) const;

  SortOrder order_;
  bool has_bounds_ = false;
  int64_t nan_count_ = 0;
  Value min_{};
  Value max_{};
  std::string min_bytes_;  // ByteView bounds: the bytes min_ and max_ point to
  std::string max_bytes_;
};

// Whether the values of a chunk, in row order, never decrease (or never increase) in the
// column's order, and whether its nulls all come first or all last: the evidence for
// RowGroup.sorting_columns, which the writer declares only when it saw it hold.
template <typename DType>
class OrderTracker {
 public:
  using Value = typename DType::Value;
  explicit OrderTracker(SortOrder order) : order_(order) {}

  // The next non-null values, in row order. ByteView values need only live during the call.
  void Update(const Value* values, int64_t n);
  // The definition levels (0: null, 1: value) of the next `rows` rows.
  void UpdateNulls(const int16_t* levels, int64_t rows);

  // How the chunk is sorted (column_idx left 0), or nullopt: not sorted, no value at all, or a
  // NaN (which has no place in the order).
  std::optional<SortingColumn> Sorting() const;

 private:
  SortOrder order_;
  bool ascending_ = true;
  bool descending_ = true;
  bool has_last_ = false;
  Value last_{};
  std::string last_bytes_;  // ByteView: the bytes last_ points to
  bool has_value_ = false;
  bool any_null_ = false;
  bool null_after_value_ = false;
  bool value_after_null_ = false;
};

}  // namespace pqsift::write
