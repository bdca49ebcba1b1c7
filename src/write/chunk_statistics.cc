// Size and geospatial statistics of a chunk (chunk_statistics.h).
#include "write/chunk_statistics.h"

namespace pqsift::write {

void SizeTracker::Count(const int16_t* levels, int64_t n, int16_t max, std::vector<int64_t>& pages,
                        std::vector<int64_t>& chunk) {
  const size_t base = pages.size();
  pages.resize(base + static_cast<size_t>(max) + 1, 0);
  if (chunk.empty()) chunk.resize(static_cast<size_t>(max) + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    const int16_t l = levels[i];
    if (l >= 0 && l <= max) ++pages[base + static_cast<size_t>(l)];
  }
  for (size_t l = 0; l <= static_cast<size_t>(max); ++l) chunk[l] += pages[base + l];
}

void SizeTracker::EndPage(const int16_t* def, const int16_t* rep, int64_t entries) {
  if (byte_array_) {
    page_unencoded_.push_back(page_bytes_);
    chunk_bytes_ += page_bytes_;
  }
  page_bytes_ = 0;
  if (max_def_ > 0 && def != nullptr) Count(def, entries, max_def_, page_def_, chunk_def_);
  if (max_rep_ > 0 && rep != nullptr) Count(rep, entries, max_rep_, page_rep_, chunk_rep_);
}

SizeStatistics SizeTracker::Chunk() const {
  SizeStatistics s;
  if (byte_array_) s.unencoded_byte_array_data_bytes = chunk_bytes_;
  s.definition_level_histogram = chunk_def_;
  s.repetition_level_histogram = chunk_rep_;
  return s;
}

void GeoTracker::Add(std::span<const uint8_t> wkb) {
  Result<geo::WkbSummary> s = geo::Summarize(wkb, geography_);
  if (!s.ok()) {
    invalid_ = true;
    return;
  }
  edges_ =
      edges_ || (s->kind != geo::GeometryKind::kPoint && s->kind != geo::GeometryKind::kMultiPoint);
  extent_.Merge(s->extent);
  types_.insert(s->type_code);
}

GeospatialStatistics GeoTracker::Finish() const {
  GeospatialStatistics g;
  if (extent_.has_xy() && !(geography_ && edges_)) {
    BoundingBox& b = g.bbox.emplace();
    b.xmin = extent_.xmin;
    b.xmax = extent_.xmax;
    b.ymin = extent_.ymin;
    b.ymax = extent_.ymax;
    if (extent_.has_z()) {
      b.zmin = extent_.zmin;
      b.zmax = extent_.zmax;
    }
    if (extent_.has_m()) {
      b.mmin = extent_.mmin;
      b.mmax = extent_.mmax;
    }
  }
  if (!invalid_) g.geospatial_types.emplace(types_.begin(), types_.end());
  return g;
}

}  // namespace pqsift::write
