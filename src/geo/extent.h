// A geometry's extent (its bounding box) and the box test of st_intersects_extent, on both
// sides of pruning: per row from the WKB, and per container from GeospatialStatistics' bbox.
// The two sides share one rule so a container is skipped only when no row in it can match.
//
// The rule (Geospatial.md's "special values"): coordinates that are NaN are skipped axis by axis,
// and for GEOGRAPHY so are X outside [-180, 180] and Y outside [-90, 90]; a geometry with no X or
// no Y left (EMPTY, POINT EMPTY, all NaN) has no extent and intersects nothing. Writers build the
// bbox by the same rule, so it bounds every extent in its chunk; a bbox with a NaN bound or
// a wrapping X (xmin > xmax, GEOGRAPHY across the antimeridian) proves nothing about X, and its
// bounds are widened by a relative 1e-9 first (GEOGRAPHY writers round a few ulps inward).
//
// Pure functions and plain structs; thread-safe.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>

#include "geo/wkb.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::geo {

struct Extent {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  double xmin = kInf, xmax = -kInf, ymin = kInf, ymax = -kInf;
  double zmin = kInf, zmax = -kInf, mmin = kInf, mmax = -kInf;

  bool has_x() const { return xmin <= xmax; }
  bool has_y() const { return ymin <= ymax; }
  bool has_xy() const { return has_x() && has_y(); }
  bool has_z() const { return zmin <= zmax; }
  bool has_m() const { return mmin <= mmax; }
  void Merge(const Extent& o);
};

// What one WKB value holds: its top-level type code and dimensions, and its extent.
struct WkbSummary {
  GeometryKind kind = GeometryKind::kPoint;
  Dims dims;
  int32_t type_code = 0;  // IsoTypeCode
  Extent extent;
};

// `geography`: skip coordinates outside the geographic ranges (see above).
Result<WkbSummary> Summarize(std::span<const uint8_t> wkb, bool geography);

// The query box of st_intersects_extent. xmin > xmax wraps (x >= xmin or x <= xmax), as the
// bounding boxes of Geospatial.md do.
struct QueryBox {
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};

// The row's answer: the extent exists and meets the box (closed intervals: touching counts).
bool Intersects(const Extent& e, const QueryBox& q);

// False only when no geometry whose extent lies in `bbox` (by the rule above) can intersect `q`.
bool BoxMayIntersect(const BoundingBox& bbox, const QueryBox& q);

}  // namespace pqsift::geo
