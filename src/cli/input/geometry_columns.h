// `pqsift convert --geometry col[,col...]`: a BatchReader over another that delivers the named
// columns as GEOMETRY (geoarrow.wkb over large_binary, CRS OGC:CRS84 unless the column already
// was geoarrow.wkb): a text column's WKT parsed to WKB (geo/wkt.h), a binary column's bytes
// checked to be WKB. A value that is neither is InvalidArgument naming the column and row.
//
// Owns the wrapped reader; one thread at a time (as any BatchReader).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pqsift/arrow_export.h"
#include "pqsift/status.h"

namespace pqsift::cli {

// InvalidArgument for a name the input lacks or a column that is neither text nor binary.
Result<std::unique_ptr<BatchReader>> WithGeometryColumns(std::unique_ptr<BatchReader> input,
                                                         const std::vector<std::string>& names);

}  // namespace pqsift::cli
