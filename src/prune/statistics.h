// Column statistics as claims we can trust: typed bounds built under the design brief's rules.
//
// A ColumnBounds describes the values of one column in one container (a row group now; a page,
// a file or a partition later). Every field may be unknown, and unknown is always safe: the proof
// treats a missing bound as "any value".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "expr/value.h"
#include "format/page_index.h"
#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"

namespace pqsift::prune {

struct ColumnBounds {
  // Every non-null value v of the column in the container has min <= v <= max, in the Value
  // order of the column's Arrow type. Bounds may be inexact (truncated): then they still bound,
  // but are not values that occur. Unset: unknown.
  std::optional<expr::Value> min;
  std::optional<expr::Value> max;
  std::optional<int64_t> null_count;  // unset: unknown (never "zero")
  // The null count came from a definition level histogram alone (the statistics had none), for
  // explain: "nulls(s.a) = 0 of 100 (definition levels)".
  bool null_count_from_levels = false;
  int64_t num_rows = 0;  // rows of the container (known exactly)
  // False when the column may hold NaN that the bounds do not cover (float columns: Parquet
  // writers leave NaN out of min/max). Unset null_count or NaN uncertainty never proves anything.
  bool may_contain_nan = true;
  // True only when the file says the bound is the actual extreme value (is_*_value_exact).
  // Inexact bounds still bound; only exact ones may be reported as values (MIN/MAX answers).
  bool min_is_exact = false;
  bool max_is_exact = false;
  // When set: every non-null value of the column in the container is one of these (a
  // superset, e.g. a dictionary page whose chunk's data pages are all dictionary-encoded), as
  // an array of the column's Arrow type. The proof evaluates the column's own conditions on
  // them (proof.h); null: nothing known beyond the bounds.
  std::shared_ptr<const Array> values;
  // GEOMETRY/GEOGRAPHY: the chunk's GeospatialStatistics bbox; every non-null value's extent
  // (geo/extent.h's rule) lies in it. Unset: unknown.
  std::optional<BoundingBox> geo_bbox;
};

// The bounds of `column` (decoded as `arrow_type`) from a column chunk's statistics, applying the
// trust rules: min_value/max_value only under a known TYPE_DEFINED_ORDER whose sort order matches
// the logical type; the deprecated min/max only where signed order agrees with the type; nothing
// for INT96 or an unknown order; float bounds widened for NaN and -0/+0; conversions that overflow
// give no bound. Malformed statistics (wrong byte length, min > max) give no bounds, never an
// error.
// Null counts count values, so they are used only for non-repeated columns (where values and
// rows coincide); a repeated column gets an unknown null count. A column that is required all
// the way down (max definition level 0) has a null count of 0 whatever the statistics say.
// `definition_level_histogram` (SizeStatistics, or one page's part of a column index's
// histograms; empty: none) is a second witness of the null count (NullRowsFromLevels): alone it
// gives the null count, and where it and the statistics' null_count disagree neither is
// believed (unknown).
ColumnBounds BoundsFromStatistics(const ColumnDescriptor& column, const DataType& arrow_type,
                                  const std::optional<Statistics>& statistics, int64_t num_rows,
                                  std::span<const int64_t> definition_level_histogram = {});

// BoundsFromStatistics of a column chunk from the footer: its statistics and, when its value
// count agrees with the histogram's total, its SizeStatistics' definition level histogram.
ColumnBounds BoundsFromChunk(const ColumnDescriptor& column, const DataType& arrow_type,
                             const ColumnMetaData& chunk, int64_t num_rows);

// The rows of `rows` whose value of non-repeated `column` is NULL, from the column's definition
// level histogram there (SizeStatistics.definition_level_histogram: how many level entries have
// each level 0..max). Each row of a non-repeated column is exactly one entry, and its value is
// NULL (the leaf or an optional ancestor: `s.a` is NULL where `s` is, as in DuckDB) exactly when
// its level is below the maximum, so the answer is rows - histogram[max]. nullopt, proving
// nothing, for a repeated column (entries are not rows), a column required all the way down
// (no histogram is written), and a histogram that is not max+1 counts, has a negative count, or
// does not add up to `rows`.
std::optional<int64_t> NullRowsFromLevels(const ColumnDescriptor& column,
                                          std::span<const int64_t> histogram, int64_t rows);

// The bounds of `column` in page `page` of a column chunk's column index (`page_rows` rows, from
// the offset index), under the same trust rules as BoundsFromStatistics: the page's min/max bytes
// are min_value/max_value-style bounds in the column order (no deprecated fields, no exactness
// flags: exact is never claimed). The page's null count is its null_counts entry and its part
// of definition_level_histograms (used only when that list has max definition level + 1 counts
// per page), as BoundsFromStatistics combines them. A null page (null_pages) has no bounds and,
// for a non-repeated column whose page null count says so too, every row NULL; a null page
// without a null count that agrees (Polars flags all-NaN pages as null pages) says nothing at
// all. REQUIRES: page < index.null_pages.size() (the decoder checked that every list has one
// entry per page).
ColumnBounds BoundsFromPageIndex(const ColumnDescriptor& column, const DataType& arrow_type,
                                 const format::ColumnIndex& index, size_t page, int64_t page_rows);

// The bounds of a part of `rows` rows of a container, from the container's bounds: min and max
// still bound (but are no longer known to occur), NaN may still be there; the null count is
// known only when the container had no NULL (then none) or only NULLs (then all).
ColumnBounds RestrictToRows(const ColumnBounds& container, int64_t rows);

// One PLAIN-encoded statistics value (no length prefix) as a Value in the domain of
// `arrow_type`, or nullopt when the bytes do not fit the type (wrong length, out of the Arrow
// type's range, INT96, a decimal wider than 16 bytes). Decoding only: no trust rules.
std::optional<expr::Value> DecodeStatisticsValue(std::string_view bytes,
                                                 const ColumnDescriptor& column,
                                                 const DataType& arrow_type);

// The statistics of many containers, columnar: bounds[k][c] is filter column k in container c.
struct StatisticsTable {
  int64_t containers = 0;
  std::vector<std::vector<ColumnBounds>> bounds;
};

}  // namespace pqsift::prune
