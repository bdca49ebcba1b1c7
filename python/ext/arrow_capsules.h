// The Arrow PyCapsule interface (the "__arrow_c_stream__", "__arrow_c_schema__" and
// "__arrow_c_array__" protocol of the Arrow project): a scan's batches handed to any Arrow
// consumer (pyarrow, polars, DuckDB's Python API) through the C Data / C Stream interface
// without a copy, and streams taken from any producer (for pqsift.write).
//
// Capsules are named "arrow_schema", "arrow_array" and "arrow_array_stream" and own a
// malloc'd struct: a consumer moves the struct out (its release set to NULL); a capsule dropped
// unconsumed releases it. The exported batches share the scan's buffers (arrow_export.h).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "pqsift/array.h"
#include "pqsift/arrow_abi.h"
#include "pqsift/arrow_export.h"

namespace pqsift::python {

pybind11::capsule SchemaCapsule(const BatchSchema& schema);
// (schema capsule, array capsule) of one batch as a struct array.
pybind11::tuple BatchCapsules(const RecordBatch& batch);
// A stream over `reader` (the consumer's get_next calls run the reader on its own thread;
// they do not need the GIL).
pybind11::capsule StreamCapsule(std::shared_ptr<BatchReader> reader);

// The ArrowArrayStream of an object with __arrow_c_stream__, moved out of its capsule: the
// caller owns it and must release it. InvalidArgument (StatusError) for anything else.
ArrowArrayStream TakeStream(pybind11::handle producer);

}  // namespace pqsift::python
