// The GeoArrow extension type pqsift reads GEOMETRY and GEOGRAPHY columns as: "geoarrow.wkb" over
// large_binary, with the Parquet type's CRS and edges in its JSON metadata
// (geoarrow.org/extension-types). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pqsift::geo {

inline constexpr std::string_view kGeoArrowWkb = "geoarrow.wkb";

// {"crs":"OGC:CRS84","crs_type":"authority_code"} for `crs` (empty: OGC:CRS84, Parquet's
// default); "srid:N" becomes {"crs":"N","crs_type":"srid"}; any other string is passed as the
// crs unchanged. `edge_algorithm` (a GEOGRAPHY's, 0 SPHERICAL ... 4 KARNEY) adds "edges".
std::string GeoArrowMetadata(std::string_view crs, std::optional<int32_t> edge_algorithm);

// A CRS string kept for the life of the process (LogicalType::crs is a view); the same string
// is stored once. Thread-safe.
std::string_view InternCrs(std::string_view crs);

// Whether a geoarrow.wkb metadata declares non-planar edges (GeoArrow's "edges" member, which
// GEOGRAPHY columns have): then coordinates are longitude/latitude.
bool HasCurvedEdges(std::string_view metadata);

// The CRS a geoarrow.wkb metadata names, as a Parquet GEOMETRY crs string: empty for OGC:CRS84
// or none, "srid:N" for an srid; the string as given otherwise. Best effort: metadata that is not
// the flat object GeoArrowMetadata writes gives empty.
std::string ParquetCrsFromGeoArrow(std::string_view metadata);

}  // namespace pqsift::geo
