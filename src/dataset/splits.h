// Row-group byte ranges and the midpoint rule behind splits (pqsift/dataset.h: Split).
#pragma once

#include <cstdint>
#include <vector>

#include "pqsift/dataset.h"
#include "pqsift/parquet_file.h"

namespace pqsift::dataset {

// The bytes of row group `g`'s column chunks, first chunk start to last chunk end (checked
// against the file size); empty for a row group without readable chunks.
Result<ByteRange> RowGroupBytes(const ParquetMetadata& md, size_t g);

// Per row group, 1 when its midpoint lies outside [split.start, split.end).
Result<std::vector<uint8_t>> ExcludedBySplit(const ParquetMetadata& md, const Split& split);

}  // namespace pqsift::dataset
