// A GEOMETRY column through the Scanner and the Arrow C Data Interface: raw WKB as geoarrow.wkb
// with the CRS in the extension metadata, read back by ImportField as the same type.
#include <gtest/gtest.h>

#include <string>

#include "geo/wkb.h"
#include "pqsift/arrow_abi.h"
#include "pqsift/arrow_export.h"
#include "pqsift/scan.h"
#include "testing/files.h"

namespace pqsift {
namespace {

TEST(GeoArrowExport, GeometryIsGeoArrowWkbWithItsCrs) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  auto scanner = Scanner::Open({root + "/data/geospatial/crs-srid.parquet"}, ScanOptions{});
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto batch = (*scanner)->Next();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_NE(*batch, nullptr);
  const RecordBatch& b = **batch;
  size_t g = 0;
  while (g < b.schema->fields.size() && b.schema->fields[g].type->id != TypeId::kLargeBinary) ++g;
  ASSERT_LT(g, b.schema->fields.size());
  const DataType& type = *b.schema->fields[g].type;
  EXPECT_EQ(type.extension_name, "geoarrow.wkb");
  EXPECT_EQ(type.extension_metadata, R"({"crs":"5070","crs_type":"srid"})");

  // The values are WKB as stored: every non-null one walks.
  const Array& a = *b.columns[g];
  const int64_t* offsets = a.buffers[1]->as<int64_t>();
  for (int64_t i = 0; i < a.length; ++i) {
    const int64_t s = a.offset + i;
    if (offsets[s + 1] == offsets[s]) continue;  // a null
    std::string wkt;
    EXPECT_TRUE(geo::AppendWkt({a.buffers[2]->data() + offsets[s],
                                static_cast<size_t>(offsets[s + 1] - offsets[s])},
                               wkt)
                    .ok());
  }

  ArrowSchema schema;
  ASSERT_TRUE(ExportType(b.schema->fields[g], &schema).ok());
  ASSERT_NE(schema.metadata, nullptr);
  EXPECT_EQ(std::string_view(schema.format), "Z");
  auto field = ImportField(&schema);
  ASSERT_TRUE(field.ok()) << field.status().ToString();
  EXPECT_EQ(*field->type, type);
  schema.release(&schema);
}

}  // namespace
}  // namespace pqsift
