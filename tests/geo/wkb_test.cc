// The WKB walk, WKT both ways, extents and the box test (src/geo).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "geo/extent.h"
#include "geo/geoarrow.h"
#include "geo/wkb.h"
#include "geo/wkt.h"

namespace pqsift::geo {
namespace {

std::span<const uint8_t> Span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string Wkb(std::string_view wkt) {
  std::string out;
  Status st = AppendWkbFromWkt(wkt, out);
  EXPECT_TRUE(st.ok()) << wkt << ": " << st.ToString();
  return out;
}

std::string Wkt(const std::string& wkb) {
  std::string out;
  Status st = AppendWkt(Span(wkb), out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

std::string Hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

TEST(Wkb, EveryTypeAndDimensionRoundTripsThroughWkt) {
  const char* kCases[] = {
      "POINT (30 10)",
      "POINT Z (30 10 40)",
      "POINT M (30 10 300)",
      "POINT ZM (30 10 40 300)",
      "LINESTRING (30 10, 10 30, 40 40)",
      "POLYGON ((35 10, 45 45, 15 40, 10 20, 35 10), (20 30, 35 35, 30 20, 20 30))",
      "MULTIPOINT ((10 40), (40 30), (20 20), (30 10))",
      "MULTILINESTRING M ((10 10 1, 20 20 2), (40 40 3, 30 30 4))",
      "MULTIPOLYGON Z (((30 20 50, 45 40 85, 10 40 50, 30 20 50)), ((15 5 20, 40 10 50, 10 20 30, "
      "5 10 15, 15 5 20)))",
      "GEOMETRYCOLLECTION ZM (POINT ZM (30 10 40 300), LINESTRING ZM (30 10 40 300, 10 30 40 "
      "300), MULTIPOINT ZM ((30 10 40 300)), GEOMETRYCOLLECTION ZM (POINT ZM (1 2 3 4)))",
      "POINT EMPTY",
      "POINT ZM EMPTY",
      "LINESTRING EMPTY",
      "POLYGON Z EMPTY",
      "MULTIPOINT M EMPTY",
      "MULTILINESTRING EMPTY",
      "MULTIPOLYGON EMPTY",
      "GEOMETRYCOLLECTION EMPTY",
      "MULTIPOINT ((1 2), EMPTY)",
      "GEOMETRYCOLLECTION (POINT EMPTY, LINESTRING (1.5 -2.25, 1e+300 0))",
  };
  for (const char* wkt : kCases) EXPECT_EQ(Wkt(Wkb(wkt)), wkt);
}

TEST(Wkb, TypeCodesAreIso) {
  std::string wkb = Wkb("POLYGON ZM ((1 2 3 4, 5 6 7 8, 1 2 3 4))");
  Result<WkbSummary> s = Summarize(Span(wkb), false);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->type_code, 3003);
  EXPECT_EQ(TypeCodeName(3003), "POLYGON ZM");
  EXPECT_EQ(TypeCodeName(1007), "GEOMETRYCOLLECTION Z");
  EXPECT_EQ(TypeCodeName(8), "UNKNOWN(8)");
  // The spec's POINT EMPTY bytes: a point of NaN coordinates.
  EXPECT_EQ(Wkt(Hex("0101000000000000000000f87f000000000000f87f")), "POINT EMPTY");
}

TEST(Wkb, BigEndianAndEwkbFlagsAreRead) {
  EXPECT_EQ(Wkt(Hex("00000000013ff00000000000004000000000000000")), "POINT (1 2)");
  // EWKB: Z flag, SRID flag with 4326.
  EXPECT_EQ(Wkt(Hex("01010000a0e6100000000000000000f03f00000000000000400000000000000840")),
            "POINT Z (1 2 3)");
  // Parts of a collection in the other byte order.
  EXPECT_EQ(Wkt(Hex("0104000000010000000000000001"
                    "3ff0000000000000"
                    "4000000000000000")),
            "MULTIPOINT ((1 2))");
}

TEST(Wkb, MalformedInputIsCorruption) {
  const std::string point = Wkb("POINT (1 2)");
  std::vector<std::string> bad = {
      "",
      point.substr(0, 10),                                       // truncated point
      point + "x",                                               // trailing byte
      Hex("0208000000"),                                         // byte order 2
      Hex("0108000000"),                                         // type 8
      Hex("01e9030000"),                                         // type 1001 without its Z
      Hex("0102000000ffffffff"),                                 // count beyond the input
      Hex("01030000000100000010000000"),                         // ring count beyond the input
      Hex("010400000001000000") + Wkb("LINESTRING (1 2, 3 4)"),  // a MULTIPOINT of a line
      Hex("010700000001000000") + Wkb("POINT Z (1 2 3)"),        // a part with other dims
  };
  // A collection nested deeper than kMaxDepth.
  std::string deep;
  for (int i = 0; i <= kMaxDepth + 1; ++i) deep += Hex("010700000001000000");
  deep += point;
  bad.push_back(deep);
  for (const std::string& b : bad) {
    std::string out;
    Status st = AppendWkt(Span(b), out);
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    EXPECT_FALSE(Summarize(Span(b), false).ok());
  }
}

TEST(Wkt, ParsesLooseForms) {
  EXPECT_EQ(Wkt(Wkb("point(1 2)")), "POINT (1 2)");
  EXPECT_EQ(Wkt(Wkb("POINT (1 2 3)")), "POINT Z (1 2 3)");
  EXPECT_EQ(Wkt(Wkb("LINESTRING (1 2 3 4, 5 6 7 8)")), "LINESTRING ZM (1 2 3 4, 5 6 7 8)");
  EXPECT_EQ(Wkt(Wkb("MULTIPOINT (1 2, 3 4)")), "MULTIPOINT ((1 2), (3 4))");
  EXPECT_EQ(Wkt(Wkb("SRID=4326;POINT(1 2)")), "POINT (1 2)");
  EXPECT_EQ(Wkt(Wkb("  POLYGON ( ( 0 0 , 1 0 , 0 1 , 0 0 ) )  ")),
            "POLYGON ((0 0, 1 0, 0 1, 0 0))");
}

TEST(Wkt, MalformedTextIsInvalidArgument) {
  for (const char* wkt :
       {"", "POINT", "POINT (1)", "POINT (1 2", "CIRCLE (1 2)", "LINESTRING (1 2, 3 4 5)",
        "POINT Z (1 2)", "POINT (1 2) x", "MULTIPOINT Z ((1 2 3), (1 2))"}) {
    std::string out;
    EXPECT_EQ(AppendWkbFromWkt(wkt, out).code(), StatusCode::kInvalidArgument) << wkt;
  }
}

TEST(Extent, SkipsNanAndOutOfRangeAxisByAxis) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Result<WkbSummary> s = Summarize(Span(Wkb("LINESTRING Z (1 nan 5, nan 4 nan, 3 2 7)")), false);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->extent.xmin, 1);
  EXPECT_EQ(s->extent.xmax, 3);
  EXPECT_EQ(s->extent.ymin, 2);
  EXPECT_EQ(s->extent.ymax, 4);
  EXPECT_EQ(s->extent.zmin, 5);
  EXPECT_EQ(s->extent.zmax, 7);
  EXPECT_FALSE(s->extent.has_m());
  (void)nan;
  // Empty geometries and all-NaN points have no extent and intersect nothing.
  for (const char* wkt : {"POINT EMPTY", "LINESTRING EMPTY", "GEOMETRYCOLLECTION (POINT EMPTY)",
                          "LINESTRING (nan 1, nan 2)"}) {
    Result<WkbSummary> e = Summarize(Span(Wkb(wkt)), false);
    ASSERT_TRUE(e.ok());
    EXPECT_FALSE(e->extent.has_xy()) << wkt;
    EXPECT_FALSE(Intersects(e->extent, QueryBox{-1e308, -1e308, 1e308, 1e308})) << wkt;
  }
  // A geography skips longitudes beyond 180 and latitudes beyond 90.
  Result<WkbSummary> g = Summarize(Span(Wkb("LINESTRING (200 10, 170 95, 160 20)")), true);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->extent.xmin, 160);
  EXPECT_EQ(g->extent.xmax, 170);
  EXPECT_EQ(g->extent.ymin, 10);
  EXPECT_EQ(g->extent.ymax, 20);
}

TEST(Extent, BoxTestsAndWraparound) {
  Extent e;
  e.xmin = 10, e.xmax = 20, e.ymin = 0, e.ymax = 5;
  EXPECT_TRUE(Intersects(e, {20, 5, 30, 6}));  // touching corners count
  EXPECT_FALSE(Intersects(e, {21, 0, 30, 5}));
  EXPECT_FALSE(Intersects(e, {0, 6, 30, 9}));
  EXPECT_TRUE(Intersects(e, {15, 0, -170, 5}));  // wraps: x >= 15 or x <= -170
  EXPECT_FALSE(Intersects(e, {25, 0, 5, 5}));    // wraps, misses [10, 20]

  BoundingBox b{10, 20, 0, 5};
  EXPECT_TRUE(BoxMayIntersect(b, {12, 1, 13, 2}));
  EXPECT_FALSE(BoxMayIntersect(b, {21, 0, 30, 5}));
  EXPECT_FALSE(BoxMayIntersect(b, {0, 6, 30, 9}));
  EXPECT_FALSE(BoxMayIntersect(b, {25, 0, 5, 5}));
  // A vertex a few ulps outside a (GEOGRAPHY, trigonometric) bbox is not lost.
  EXPECT_TRUE(BoxMayIntersect(b, {20 + 1e-12, 0, 30, 5}));
  // A wrapping bbox proves nothing about X, only about Y.
  BoundingBox wrap{170, -170, 0, 5};
  EXPECT_TRUE(BoxMayIntersect(wrap, {0, 0, 10, 5}));
  EXPECT_FALSE(BoxMayIntersect(wrap, {0, 6, 10, 9}));
  // A NaN bound makes the box unusable.
  BoundingBox nan_box{std::nan(""), 20, 0, 5};
  EXPECT_TRUE(BoxMayIntersect(nan_box, {100, 100, 200, 200}));
}

TEST(GeoArrow, MetadataCarriesCrsAndEdges) {
  EXPECT_EQ(GeoArrowMetadata({}, std::nullopt),
            R"({"crs":"OGC:CRS84","crs_type":"authority_code"})");
  EXPECT_EQ(GeoArrowMetadata("srid:5070", std::nullopt), R"({"crs":"5070","crs_type":"srid"})");
  const std::string g = GeoArrowMetadata("projjson:p\"q", 0);
  EXPECT_EQ(g, R"({"crs":"projjson:p\"q","edges":"spherical"})");
  EXPECT_TRUE(HasCurvedEdges(g));
  EXPECT_FALSE(HasCurvedEdges(GeoArrowMetadata({}, std::nullopt)));
  EXPECT_EQ(ParquetCrsFromGeoArrow(GeoArrowMetadata("srid:5070", std::nullopt)), "srid:5070");
  EXPECT_EQ(ParquetCrsFromGeoArrow(GeoArrowMetadata({}, std::nullopt)), "");
  EXPECT_EQ(InternCrs("srid:1").data(), InternCrs(std::string("srid:1")).data());
}

}  // namespace
}  // namespace pqsift::geo
