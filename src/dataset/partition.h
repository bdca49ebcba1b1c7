// Hive partition values as typed values: the Value a partition column holds in one file, and
// the Parquet schema element that makes the column bindable like a file column.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "expr/value.h"
#include "pqsift/dataset.h"
#include "pqsift/metadata.h"

namespace pqsift::dataset {

// `text` as a value of `type` (nullopt text: NULL). nullopt when it does not parse.
std::optional<expr::Value> ParsePartitionValue(const std::optional<std::string>& text,
                                               PartitionType type);

// The type DuckDB would give these values: BIGINT if each parses as one, else DATE, else
// TIMESTAMP, else VARCHAR (NULLs fit every type).
PartitionType InferPartitionType(const std::vector<std::optional<std::string>>& values);

// A nullable leaf named `name` whose Arrow type (column/arrow_type.h) is the partition type's:
// int64, float64, date32, timestamp[us], large_utf8. `name` must outlive the element.
SchemaElement PartitionElement(std::string_view name, PartitionType type);

const char* PartitionTypeName(PartitionType type);

}  // namespace pqsift::dataset
