// Extents and the box test (extent.h).
#include "geo/extent.h"

#include <algorithm>
#include <cmath>

namespace pqsift::geo {

void Extent::Merge(const Extent& o) {
  xmin = std::min(xmin, o.xmin);
  xmax = std::max(xmax, o.xmax);
  ymin = std::min(ymin, o.ymin);
  ymax = std::max(ymax, o.ymax);
  zmin = std::min(zmin, o.zmin);
  zmax = std::max(zmax, o.zmax);
  mmin = std::min(mmin, o.mmin);
  mmax = std::max(mmax, o.mmax);
}

namespace {

class ExtentVisitor {
 public:
  ExtentVisitor(WkbSummary& out, bool geography) : out_(out), geography_(geography) {}

  void Begin(GeometryKind kind, Dims dims, uint32_t) {
    if (depth_++ == 0) {
      out_.kind = kind;
      out_.dims = dims;
      out_.type_code = IsoTypeCode(kind, dims);
      z_ = dims.z ? 2 : -1;
      m_ = dims.m ? (dims.z ? 3 : 2) : -1;
    }
  }
  void End() { --depth_; }
  void Ring(uint32_t) {}
  void EndRing() {}
  bool Point(const double* c) {
    Extent& e = out_.extent;
    const double x = c[0];
    const double y = c[1];
    // NaN fails both comparisons, so it is skipped; so are a geography's out-of-range values.
    if (!std::isnan(x) && (!geography_ || (x >= -180 && x <= 180))) {
      e.xmin = std::min(e.xmin, x);
      e.xmax = std::max(e.xmax, x);
    }
    if (!std::isnan(y) && (!geography_ || (y >= -90 && y <= 90))) {
      e.ymin = std::min(e.ymin, y);
      e.ymax = std::max(e.ymax, y);
    }
    if (z_ > 0 && !std::isnan(c[z_])) {
      e.zmin = std::min(e.zmin, c[z_]);
      e.zmax = std::max(e.zmax, c[z_]);
    }
    if (m_ > 0 && !std::isnan(c[m_])) {
      e.mmin = std::min(e.mmin, c[m_]);
      e.mmax = std::max(e.mmax, c[m_]);
    }
    return true;
  }

 private:
  WkbSummary& out_;
  bool geography_;
  int depth_ = 0;
  int z_ = -1;
  int m_ = -1;
};

bool Overlaps(double lo, double hi, double qlo, double qhi) { return lo <= qhi && hi >= qlo; }

}  // namespace

Result<WkbSummary> Summarize(std::span<const uint8_t> wkb, bool geography) {
  WkbSummary out;
  ExtentVisitor visitor(out, geography);
  PQSIFT_RETURN_IF_ERROR(WalkWkb(wkb, visitor));
  return out;
}

bool Intersects(const Extent& e, const QueryBox& q) {
  if (!e.has_xy()) return false;
  if (!Overlaps(e.ymin, e.ymax, q.ymin, q.ymax)) return false;
  if (q.xmin <= q.xmax) return Overlaps(e.xmin, e.xmax, q.xmin, q.xmax);
  return e.xmax >= q.xmin || e.xmin <= q.xmax;  // the box wraps
}

bool BoxMayIntersect(const BoundingBox& b, const QueryBox& q) {
  if (std::isnan(b.xmin) || std::isnan(b.xmax) || std::isnan(b.ymin) || std::isnan(b.ymax)) {
    return true;  // Geospatial.md: such a box is not reliable
  }
  // Writers of GEOGRAPHY boxes compute them with trigonometry and land a few ulps inside a
  // vertex (parquet-testing's geography-lines.parquet: a bbox xmax below a vertex's x), so each
  // bound is widened by a relative 1e-9 (at least 1e-9) before it may prove anything.
  auto lo = [](double v) { return v - 1e-9 * std::max(1.0, std::fabs(v)); };
  auto hi = [](double v) { return v + 1e-9 * std::max(1.0, std::fabs(v)); };
  if (!Overlaps(lo(b.ymin), hi(b.ymax), q.ymin, q.ymax)) return false;
  if (b.xmin > b.xmax) return true;  // wraps: a row's planar extent may span the gap
  const double xmin = lo(b.xmin);
  const double xmax = hi(b.xmax);
  if (q.xmin <= q.xmax) return Overlaps(xmin, xmax, q.xmin, q.xmax);
  return xmax >= q.xmin || xmin <= q.xmax;
}

}  // namespace pqsift::geo
