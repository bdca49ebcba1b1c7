// Arrays whose every row holds one value: a hive partition column within one file, or NULL for
// a column the file lacks.
#pragma once

#include <cstdint>
#include <memory>

#include "expr/value.h"
#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift::scan {

// `length` copies of `value` (in the Value domain of `type`, expr/value.h) as an array of
// `type`; all NULL for Value::Null() (any type, nested too); for a dictionary type, a one-entry
// dictionary of the value and indices all 0. InvalidArgument when a non-null value does not fit
// the type (a nested type, another Value kind).
Result<std::shared_ptr<Array>> MakeConstantArray(const std::shared_ptr<const DataType>& type,
                                                 const expr::Value& value, int64_t length);

}  // namespace pqsift::scan
