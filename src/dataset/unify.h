// Schema unification: the one schema a scan over files with evolving schemas reads through.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "pqsift/dataset.h"
#include "pqsift/parquet_file.h"
#include "pqsift/schema.h"

namespace pqsift::dataset {

// The top-level fields of every file, by name, in order of first appearance, then the partition
// columns. A field keeps the type its files give it; where one file stores a narrower type
// (arrow/widen.h), the wider. A field some file lacks, or that is optional in some file, is
// optional. InvalidArgument naming both files for any other difference (types, nesting), or
// for a partition key that is also a file column. The schema keeps the footers it points into
// alive.
Result<std::shared_ptr<const Schema>> UnifySchemas(
    std::span<const std::shared_ptr<const ParquetMetadata>> files,
    const std::vector<PartitionField>& partitions);

// The schema elements of the same unification without partition columns (names point into the
// footers of `files`): what a manifest stores to stand for the dataset's schema.
Result<std::vector<SchemaElement>> UnifiedElements(
    std::span<const std::shared_ptr<const ParquetMetadata>> files);

// A ParquetMetadata without row groups whose schema is `elements` (a manifest's record of the
// dataset's schema, decoded).
Result<std::shared_ptr<const ParquetMetadata>> SchemaOnlyMetadata(
    const std::vector<SchemaElement>& elements);

}  // namespace pqsift::dataset
