// GeospatialStatistics as the chunk writer computes them (write/chunk_statistics.h): GEOMETRY
// gets its vertices' box; GEOGRAPHY only when every value is a point or multipoint (geodesic
// edges leave their vertices' box, so any other chunk gets type codes and no bbox).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "geo/wkt.h"
#include "write/chunk_statistics.h"

namespace pqsift::write {
namespace {

GeospatialStatistics Track(bool geography, const std::vector<std::string>& wkts) {
  GeoTracker tracker(geography);
  for (const std::string& wkt : wkts) {
    std::string wkb;
    EXPECT_TRUE(geo::AppendWkbFromWkt(wkt, wkb).ok()) << wkt;
    tracker.Add({reinterpret_cast<const uint8_t*>(wkb.data()), wkb.size()});
  }
  return tracker.Finish();
}

TEST(GeoStatisticsTest, GeographyOfPointsHasItsVerticesBox) {
  GeospatialStatistics g =
      Track(true, {"POINT (10 60)", "MULTIPOINT ((-20 -5), (30 61))", "POINT EMPTY"});
  ASSERT_TRUE(g.bbox.has_value());
  EXPECT_EQ(g.bbox->xmin, -20);
  EXPECT_EQ(g.bbox->xmax, 30);
  EXPECT_EQ(g.bbox->ymin, -5);
  EXPECT_EQ(g.bbox->ymax, 61);
  EXPECT_EQ(g.geospatial_types, (std::vector<int32_t>{1, 4}));
  // Out-of-range coordinates are special values for GEOGRAPHY: skipped axis by axis.
  g = Track(true, {"POINT (10 60)", "POINT (200 95)"});
  ASSERT_TRUE(g.bbox.has_value());
  EXPECT_EQ(g.bbox->xmax, 10);
  EXPECT_EQ(g.bbox->ymax, 60);
}

TEST(GeoStatisticsTest, GeographyWithEdgesHasNoBox) {
  // The arc from (0 60) to (90 60) passes north of latitude 60: a box up to 60 is no bound.
  for (const char* shape : {"LINESTRING (0 60, 90 60)", "POLYGON ((0 0, 10 0, 10 10, 0 0))",
                            "GEOMETRYCOLLECTION (POINT (1 1))"}) {
    SCOPED_TRACE(shape);
    GeospatialStatistics g = Track(true, {"POINT (1 2)", shape});
    EXPECT_FALSE(g.bbox.has_value());
    ASSERT_TRUE(g.geospatial_types.has_value());
    EXPECT_EQ(g.geospatial_types->size(), 2u);
  }
  // GEOMETRY's edges are straight: the vertices' box bounds them.
  GeospatialStatistics g = Track(false, {"POINT (1 2)", "LINESTRING (0 60, 90 60)"});
  ASSERT_TRUE(g.bbox.has_value());
  EXPECT_EQ(g.bbox->ymax, 60);
}

}  // namespace
}  // namespace pqsift::write
