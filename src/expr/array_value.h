// One element of a decoded column as a Value in the column's comparison domain (value.h): what a
// runtime filter publishes from a top-k heap or a join's build side.
#pragma once

#include <cstdint>
#include <optional>

#include "expr/value.h"
#include "pqsift/array.h"

namespace pqsift::expr {

// Element `i` of `array` (relative to its offset): Value::Null() for a NULL, nullopt for a type
// without a Value kind (nested, null). REQUIRES: 0 <= i < array.length, a valid layout.
std::optional<Value> ValueAt(const Array& array, int64_t i);

}  // namespace pqsift::expr
