// Statistics bytes (PLAIN encoding without length prefix, parquet.thrift Statistics) rendered
// as text in the column's logical type, for `inspect` and `explain`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pqsift/schema.h"

namespace pqsift::format {

// The value as text (docs/inspect-json.md lists the forms), or nullopt when the byte length
// does not fit the column's type (the caller shows hex and flags it).
std::optional<std::string> RenderStatisticsValue(std::string_view bytes,
                                                 const ColumnDescriptor& column);

}  // namespace pqsift::format
