// Widening casts between Arrow types that hold every value of the narrower one exactly: the
// type changes a dataset's files may make to a column without changing what it means (a column
// written as int32 by one writer and int64 by another). Nothing else converts here.
#pragma once

#include <memory>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift {

// True when every value of `from` is a value of `to`: a signed integer to a wider signed integer,
// an unsigned integer to a wider unsigned integer, float32 to float64. False for equal types.
bool CanWiden(const DataType& from, const DataType& to);

// The wider of two types when one widens to the other (or they are equal); null otherwise.
std::shared_ptr<const DataType> WiderType(const std::shared_ptr<const DataType>& a,
                                          const std::shared_ptr<const DataType>& b);

// `array` with its values converted to `to` (the validity bitmap shared, the values copied).
// REQUIRES: CanWiden(*array.type, *to) (InvalidArgument otherwise).
Result<std::shared_ptr<Array>> WidenArray(const Array& array, std::shared_ptr<const DataType> to);

}  // namespace pqsift
