// GEOMETRY and GEOGRAPHY through the CLI over parquet-testing's geospatial files: the logical
// types and GeospatialStatistics in inspect, WKB as WKT in the text outputs, the bounding-box
// filter (pruned == --no-prune), and convert --geometry writing what it reads back.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "testing/cli.h"
#include "testing/files.h"

namespace pqsift {
namespace {

using nlohmann::json;

std::string GeoFile(const std::string& name) {
  const std::string dir = testing::ParquetTestingDir();
  if (dir.empty()) return {};
  return dir + "/data/geospatial/" + name;
}

std::vector<json> JsonLines(const std::string& text) {
  std::vector<json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST(GeospatialCli, GeometryRendersAsTheReferenceWkt) {
  const std::string file = GeoFile("geospatial.parquet");
  if (file.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  auto r = testing::RunCli({"scan", file, "--select", "wkt,geometry", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> rows = JsonLines(r.out);
  ASSERT_GT(rows.size(), 100u);
  for (const json& row : rows) EXPECT_EQ(row["geometry"], row["wkt"]) << row.dump();
  // CSV: quoted, since WKT has commas.
  auto csv = testing::RunCli({"scan", file, "--select", "geometry", "--where",
                              "\"group\" = 'linestring'", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\"LINESTRING (30 10, 10 30, 40 40)\""), std::string::npos) << csv.out;
}

TEST(GeospatialCli, InspectShowsTypesCrsAndStatistics) {
  const std::string file = GeoFile("geospatial.parquet");
  if (file.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  auto text = testing::RunCli({"inspect", file});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("GEOMETRY(OGC:CRS84)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("geospatial statistics:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("types POINT Z"), std::string::npos) << text.out;

  auto j = testing::RunCli({"inspect", file, "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json meta = json::parse(j.out);
  bool saw_bbox = false;
  for (const json& rg : meta["row_groups"]) {
    for (const json& c : rg["columns"]) {
      if (c["path"] != "geometry" || !c.contains("geospatial_statistics")) continue;
      const json& g = c["geospatial_statistics"];
      if (!g.contains("bbox")) continue;
      saw_bbox = true;
      EXPECT_LE(g["bbox"]["xmin"].get<double>(), g["bbox"]["xmax"].get<double>());
      EXPECT_TRUE(g.contains("geospatial_types"));
    }
  }
  EXPECT_TRUE(saw_bbox);

  const std::string srid = GeoFile("crs-srid.parquet");
  auto s = testing::RunCli({"inspect", srid});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("GEOMETRY(srid:5070)"), std::string::npos) << s.out;
  auto g = testing::RunCli({"inspect", GeoFile("crs-geography.parquet"), "--json"});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_NE(g.out.find("\"GEOGRAPHY(OGC:CRS84,SPHERICAL)\""), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("\"edge_algorithm\": \"SPHERICAL\""), std::string::npos) << g.out;
}

int64_t Count(const std::string& file, const std::string& where, bool prune) {
  std::vector<std::string> args = {"count", file, "--where", where};
  if (!prune) args.push_back("--no-prune");
  auto r = testing::RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << where << ": " << r.err;
  return std::stoll(r.out);
}

TEST(GeospatialCli, BoxFilterPrunesWithoutLosingRows) {
  if (GeoFile("x").empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  struct Case {
    const char* file;
    const char* column;
    double box[4];
  };
  const Case kCases[] = {
      {"geospatial.parquet", "geometry", {29, 9, 31, 11}},
      {"geospatial.parquet", "geometry", {-1000, -1000, 1000, 1000}},
      {"geospatial.parquet", "geometry", {100, 100, 200, 200}},
      {"geography-points.parquet", "geometry", {0, 0, 30, 30}},
      {"geography-points.parquet", "geometry", {170, -90, -170, 90}},  // wraps
      {"geography-points.parquet", "geometry", {-10, 80, 10, 90}},     // a pole
      {"geography-lines.parquet", "geometry", {175, -20, 180, 20}},
      {"geography-polygons.parquet", "geometry", {-180, -90, -170, -60}},
  };
  for (const Case& c : kCases) {
    char where[256];
    std::snprintf(where, sizeof where, "st_intersects_extent(%s, %g, %g, %g, %g)", c.column,
                  c.box[0], c.box[1], c.box[2], c.box[3]);
    const std::string file = GeoFile(c.file);
    EXPECT_EQ(Count(file, where, true), Count(file, where, false)) << c.file << " " << where;
  }
  // The point files' row groups of 10 rows are pruned by their boxes.
  const std::string stats =
      (std::filesystem::temp_directory_path() / ("pqsift_geo_stats_" + std::to_string(::getpid())))
          .string();
  auto r = testing::RunCli({"count", GeoFile("geography-points.parquet"), "--where",
                            "st_intersects_extent(geometry, 0, 0, 30, 30)", "--stats-json", stats});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(testing::Slurp(stats));
  EXPECT_GT(s["row_groups_skipped"].get<int64_t>(), 25) << s.dump();
  std::filesystem::remove(stats);
}

TEST(GeospatialCli, ConvertWritesGeometryWithStatistics) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pqsift_geo_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string csv = (dir / "in.csv").string();
  {
    std::ofstream out(csv);
    out << "id,shape\n"
        << "1,POINT (1 2)\n"
        << "2,\"LINESTRING Z (0 0 1, 10 5 2)\"\n"
        << "3,\n"
        << "4,POINT EMPTY\n";
  }
  const std::string file = (dir / "out.parquet").string();
  auto w = testing::RunCli({"convert", csv, file, "--geometry", "shape"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  auto back = testing::RunCli({"scan", file, "--format", "jsonl"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  std::vector<json> rows = JsonLines(back.out);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["shape"], "POINT (1 2)");
  EXPECT_EQ(rows[1]["shape"], "LINESTRING Z (0 0 1, 10 5 2)");
  EXPECT_TRUE(rows[2]["shape"].is_null());
  EXPECT_EQ(rows[3]["shape"], "POINT EMPTY");

  auto j = testing::RunCli({"inspect", file, "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json meta = json::parse(j.out);
  const json& shape = meta["row_groups"][0]["columns"][1];
  ASSERT_TRUE(shape.contains("geospatial_statistics")) << shape.dump();
  const json& g = shape["geospatial_statistics"];
  EXPECT_EQ(g["bbox"],
            json::parse(R"({"xmin":0.0,"xmax":10.0,"ymin":0.0,"ymax":5.0,"zmin":1.0,"zmax":2.0})"));
  EXPECT_EQ(g["geospatial_types"], json::parse("[1, 1002]"));
  EXPECT_FALSE(shape["statistics"].contains("min")) << "GEOMETRY has no defined order";
  // SizeStatistics on every column: the id column has no byte arrays, shape's definition levels.
  ASSERT_TRUE(shape.contains("size_statistics"));
  EXPECT_EQ(shape["size_statistics"]["definition_level_histogram"], json::parse("[1, 3]"));
  EXPECT_GT(shape["size_statistics"]["unencoded_byte_array_data_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(Count(file, "st_intersects_extent(shape, 9, 4, 20, 20)", true), 1);
  EXPECT_EQ(Count(file, "st_intersects_extent(shape, 20, 20, 30, 30)", true), 0);

  auto bad = testing::RunCli({"convert", csv, file, "--geometry", "id"});
  EXPECT_NE(bad.exit_code, 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pqsift
