// A scan's output columns as numpy arrays, built batch by batch: what to_numpy() and
// to_pandas() are made of (python/src/pqsift/_convert.py wraps them into pandas arrays).
//
// A ColumnBuilder per output field takes each batch's array (Append), converts its values into
// one growing buffer (reserved for the rows the plan will read, so fixed-width columns are never
// copied to grow) and hands the buffer to numpy without a copy (Finish). The batch is not kept,
// so a scan converted this way holds about one column set, never the Arrow batches plus a copy.
//
// Finish returns (kind, values, mask, timezone):
//   "numpy"   values is the column (numpy dtype); mask is the validity (True = valid) for
//             to_numpy(), or None when no value is NULL
//   "masked"  (pandas) values + mask (True = NULL) for pandas' IntegerArray / BooleanArray
//   "string"  (pandas) an object array of str, NULL as pandas.NA, for pandas' StringArray
//   "datetimetz" (pandas) int64 nanoseconds (NULL as NaT) of timestamps in `timezone`
//   "categorical" (pandas) int32 codes (-1: NULL) into the categories, an object array in the
//             mask's place, for pandas' Categorical
// Per Arrow type (numpy | pandas):
//   bool, int*, uint*      same dtype | same dtype when the field is required, else "masked"
//   float16/32/64          same dtype | float32/float32/float64, NULL as NaN
//   date32                 datetime64[D] | datetime.date objects, or datetime64[ns]
//   time32/64              timedelta64[unit] | datetime.time objects (time64[ns]: timedelta64[ns])
//   timestamp              datetime64[unit] | datetime64[ns] ("datetimetz" with a zone), or
//                          objects (timestamp_as_object); a value outside the nanosecond range
//                          is an OutOfRange error naming the column and row
//   dictionary             the values, as its value type | "categorical" of the values as
//                          objects (py_values.h)
//   everything else        object (py_values.h)
//
// Thread safety: needs the GIL; fixed-width Append releases it while it copies.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "pqsift/array.h"
#include "py_values.h"

namespace pqsift::python {

class ColumnBuilder {
 public:
  virtual ~ColumnBuilder() = default;
  // Appends the array's elements (rows row_base ... in the result, for error messages).
  // Throws StatusError (OutOfRange) for a value the target cannot hold.
  virtual void Append(const Array& array, int64_t row_base) = 0;
  // The column: (kind, values, mask, timezone). Call once.
  virtual pybind11::tuple Finish() = 0;
};

// `capacity`: the rows expected (a reservation of address space, touched only as rows arrive;
// more rows than this still fit).
std::unique_ptr<ColumnBuilder> MakeColumnBuilder(const Field& field, const ConvertOptions& options,
                                                 int64_t capacity);

}  // namespace pqsift::python
