// The inspect JSON of a file's footer (docs/inspect-json.md), built from its metadata: the one
// value behind `pqsift inspect --json`, the text view of `pqsift inspect` and `pqsift.inspect()`
// in Python (python/ext), so every view of a footer agrees.
#pragma once

#include <nlohmann/json.hpp>

#include "pqsift/metadata.h"
#include "pqsift/parquet_file.h"
#include "pqsift/schema.h"

namespace pqsift::cli {

// The whole footer: file facts, the schema tree, the leaf columns, every row group and column
// chunk (codec, encodings, sizes, statistics, page index and bloom filter locations).
nlohmann::ordered_json InspectJson(const ParquetMetadata& md);

// Statistics as inspect JSON (docs/inspect-json.md): min/max rendered in the column's logical
// type (hex with "<key>_invalid" when the bytes do not fit it), their source, the counts and the
// exactness flags, each only when set.
nlohmann::ordered_json StatisticsJson(const Statistics& s, const ColumnDescriptor& col);

}  // namespace pqsift::cli
