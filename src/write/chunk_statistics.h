// The statistics a chunk writer keeps besides min/max: SizeStatistics (parquet.thrift: the
// unencoded bytes of BYTE_ARRAY values, histograms of repetition and definition levels) for the
// chunk and for each page (the offset index's unencoded bytes, the column index's histograms),
// and GeospatialStatistics of GEOMETRY chunks (Geospatial.md: bounding box and type codes).
//
// As Arrow C++ writes them: a histogram only when its maximum level is above 0 (with a maximum
// of 0 every entry is at level 0, so the histogram says nothing the value count does not); the
// unencoded bytes only for BYTE_ARRAY leaves. Bounding boxes skip NaN coordinates and values that
// are not WKB (the rule of geo/extent.h), so the reader's bbox proof holds.
//
// GEOGRAPHY chunks (GeospatialStatistics too): their edges are geodesics, which leave the box of
// their vertices (an arc between two points of latitude 60 passes north of 60; one from
// longitude 170 to -170 crosses 180), and Geospatial.md's bbox bounds the shapes, edges
// included. Only a chunk of points (POINT and MULTIPOINT values: no edges) has its vertices' box
// as a sound bbox, with out-of-range coordinates skipped as the rule says; any other chunk gets
// type codes and no bbox (a sound spherical box needs arc extrema, antimeridian crossings and
// polar caps, not computed).
//
// One per chunk writer; one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "geo/extent.h"
#include "pqsift/metadata.h"

namespace pqsift::write {

class SizeTracker {
 public:
  SizeTracker(int16_t max_def, int16_t max_rep, bool byte_array)
      : max_def_(max_def), max_rep_(max_rep), byte_array_(byte_array) {}

  // Bytes of BYTE_ARRAY values added to the current page (lengths without prefixes).
  void AddBytes(int64_t n) { page_bytes_ += n; }
  // The current page ends with these level entries (null when that maximum level is 0).
  void EndPage(const int16_t* def, const int16_t* rep, int64_t entries);

  SizeStatistics Chunk() const;
  // Per page, for the offset index (empty unless BYTE_ARRAY).
  const std::vector<int64_t>& page_unencoded_bytes() const { return page_unencoded_; }
  // Per page, concatenated (max level + 1 entries per page), for the column index; empty when
  // that maximum level is 0.
  const std::vector<int64_t>& page_def_histograms() const { return page_def_; }
  const std::vector<int64_t>& page_rep_histograms() const { return page_rep_; }

 private:
  static void Count(const int16_t* levels, int64_t n, int16_t max, std::vector<int64_t>& pages,
                    std::vector<int64_t>& chunk);

  int16_t max_def_;
  int16_t max_rep_;
  bool byte_array_;
  int64_t page_bytes_ = 0;
  int64_t chunk_bytes_ = 0;
  std::vector<int64_t> page_unencoded_;
  std::vector<int64_t> page_def_, page_rep_;
  std::vector<int64_t> chunk_def_, chunk_rep_;
};

class GeoTracker {
 public:
  explicit GeoTracker(bool geography = false) : geography_(geography) {}

  // One non-null value of the column.
  void Add(std::span<const uint8_t> wkb);
  // The chunk's GeospatialStatistics: a bbox when some value had X and Y (GEOGRAPHY: and every
  // value was a point or multipoint), Z and M ranges when some had them, and the sorted type
  // codes (none when a value was not WKB: then the list would not name every instance).
  GeospatialStatistics Finish() const;

 private:
  bool geography_;
  geo::Extent extent_;
  std::set<int32_t> types_;
  bool invalid_ = false;
  bool edges_ = false;  // some value is neither a point nor a multipoint
};

}  // namespace pqsift::write
