// Arrow-layout values (pqsift/array.h) as Python objects, one element at a time: the object
// columns of to_pandas()/to_numpy() (strings, binary, decimals, dates, times, nested values) and
// the elements inside nested values.
//
//   boolean                    bool            decimal128          decimal.Decimal
//   int*, uint*                int             date32              datetime.date
//   float16/32/64              float           time32[ms]/64[us]   datetime.time
//   large_utf8                 str             time64[ns]          factory (numpy.timedelta64)
//   large_binary, fixed binary bytes           timestamp[ms/us]    datetime.datetime (tz UTC
//   null                       None                                when the type has a zone)
//   large_list                 list            timestamp[ns]       factory (pandas.Timestamp
//   struct                     dict                                or numpy.datetime64)
//   map                        list of (key, value) tuples, or a dict (MapsAs)
//   dictionary                 its dictionary value
// NULL is ConvertOptions::null_object (None, or pandas.NA for pandas' strings).
//
// Values Python cannot hold (a date outside years 1-9999, a time outside a day) are an
// OutOfRange StatusError naming the column and the row. Strings that are not valid UTF-8 have
// their bad bytes replaced by U+FFFD, as the CLI prints them.
//
// Thread safety: everything here needs the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "pqsift/array.h"

namespace pqsift::python {

enum class MapsAs { kPairs, kDictLast, kDictStrict };

struct ConvertOptions {
  bool pandas = false;               // pandas' dtypes (columns.h); else numpy's
  bool date_as_object = true;        // pandas: dates as datetime.date objects
  bool timestamp_as_object = false;  // pandas: timestamps as objects (any range)
  MapsAs maps = MapsAs::kPairs;
  pybind11::object null_object;  // what a NULL element becomes (None)
  pybind11::object string_null;  // a NULL in a pandas string column (pandas.NA)
  // (int64 nanoseconds, tz name or None) -> object, for timestamp[ns] elements.
  pybind11::object make_ns_timestamp;
  // int64 nanoseconds -> object, for time64[ns] elements.
  pybind11::object make_ns_time;
};

// Where an element being converted sits, for error messages: the top-level column and its row
// in the whole result.
struct ElementContext {
  std::string column;
  int64_t row = 0;
};

// Creates the Python object of element i of one array (and its children).
class ElementConverter {
 public:
  virtual ~ElementConverter() = default;
  // A new reference. `i` counts from the array's start (its offset is applied here).
  // REQUIRES: 0 <= i < length. Throws StatusError for values Python cannot hold.
  virtual pybind11::object Get(int64_t i) = 0;
};

// REQUIRES: `array` passed ValidateArray (the scan's arrays do) and outlives the converter;
// `options` and `context` too.
std::unique_ptr<ElementConverter> MakeElementConverter(const Array& array,
                                                       const ConvertOptions& options,
                                                       ElementContext& context);

// A str from UTF-8 bytes (ASCII copied directly; invalid bytes replaced by U+FFFD).
pybind11::object MakeStr(const char* data, int64_t size);
// A str from bytes known to be ASCII (IsAscii: a batch's string bytes are checked at once).
pybind11::object MakeAsciiStr(const char* data, int64_t size);
bool IsAscii(const char* data, int64_t size);

// Loads the datetime C API and decimal.Decimal; called once when the module loads.
void InitPyValues();

// Validity bit i of an Arrow bitmap (1 = valid); a null bitmap means all valid.
inline bool IsValidBit(const uint8_t* bits, int64_t i) {
  return bits == nullptr || ((bits[i >> 3] >> (i & 7)) & 1) != 0;
}

}  // namespace pqsift::python
