// Handing batches to any Arrow consumer through the Arrow C Data Interface and the C Stream
// Interface (arrow_abi.h), without copying: the exported structs share the batch's buffers and
// keep them alive until the consumer calls their release callbacks.
//
// Conventions of every function here:
//  - On success the out struct is owned by the caller, who must call out->release(out) once
//    (or move it, per the spec). Every child struct can be moved out and released on its own.
//  - On error the out struct is marked released (release == NULL) and nothing is leaked.
//  - Exported buffers of zero bytes point to a static, 64-byte aligned dummy rather than NULL
//    (some consumers mishandle NULL); a validity buffer is NULL when the array has no nulls.
//  - Release callbacks may run on any thread; they only drop references.
#pragma once

#include <memory>

#include "pqsift/array.h"
#include "pqsift/arrow_abi.h"
#include "pqsift/status.h"

namespace pqsift {

// Format strings per the spec: "n", "b", "c", "s", "i", "l", "C", "S", "I", "L", "e", "f",
// "g", "U", "Z", "w:N", "d:P,S", "tdD", "ttm"/"ttu"/"ttn", "tsm:UTC"/"tsu:"/... (timezone
// after the colon, empty for local), "+L", "+s", "+m" (child "entries" struct<key, value>);
// a dictionary type is "i" (its int32 indices) with `dictionary` the value type's schema (not
// flagged ordered), and a dictionary array has `dictionary` set to its values' ArrowArray.
// Nullable fields get ARROW_FLAG_NULLABLE; metadata only for extension types.
// InvalidArgument for a type ValidateType rejects.
Status ExportSchema(const BatchSchema& schema, ArrowSchema* out);  // a struct of the fields
Status ExportType(const Field& field, ArrowSchema* out);
// On success `out` owns references to the array's buffers; release it with out->release(out).
// Checks ValidateArrayLayout first (cheap); does not scan the data.
Status ExportArray(const std::shared_ptr<Array>& array, ArrowArray* out);
// The batch as one struct array of length num_rows with no validity buffer, whose children
// are the columns (what the C Stream Interface carries). `out_schema` may be null when only
// the array is wanted. Checks that the columns match the schema's count and types and are
// num_rows long.
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out_array, ArrowSchema* out_schema);

// A pull-based source of batches. Used from one thread at a time.
class BatchReader {
 public:
  virtual ~BatchReader() = default;
  virtual std::shared_ptr<const BatchSchema> schema() const = 0;
  // The next batch, or nullptr at the end. Errors end the stream.
  virtual Result<std::shared_ptr<RecordBatch>> Next() = 0;
};

// Wraps `reader` in an ArrowArrayStream (which owns it until released). Callback semantics:
//  - get_schema: the reader's schema as a struct (ExportSchema); 0 or an error code.
//  - get_next: the next batch (ExportRecordBatch); at the end, 0 with out->release == NULL
//    (and again on every later call). A batch whose columns do not match the schema is an
//    error.
//  - get_last_error: the message of the last failed call, or NULL if none failed; valid
//    until the next callback.
//  - Error codes are errno values: EINVAL for a caller's mistake (StatusCode
//    kInvalidArgument), ENOSYS for kNotSupported, ENOMEM for kResourceExhausted and out of
//    memory, EIO for everything else (corrupt data, I/O). An error ends the stream: later
//    get_next calls return the same code and message.
// Not thread-safe: the consumer calls the callbacks from one thread at a time (per the spec).
// InvalidArgument when `reader` is null.
Status ExportBatchStream(std::shared_ptr<BatchReader> reader, ArrowArrayStream* out);

// The reverse direction, for tests and for embedding pqsift in an Arrow-based host.
// ImportArray takes ownership of `array` (afterwards array->release == NULL, also on error)
// and only reads `schema` (the caller still releases it). The result shares the C array's
// memory: its buffers keep the C struct alive, and its release callback runs once, when the
// last of them is dropped (on any thread). The array is checked with ValidateArray (the
// memory is untrusted); a violation is InvalidArgument. Null counts of -1 are computed.
// NotSupported for types pqsift has no TypeId for (utf8 with 32-bit offsets, seconds, views,
// unions, dictionaries with other than int32 indices, ...).
Result<std::shared_ptr<Array>> ImportArray(ArrowArray* array, const ArrowSchema* schema);
// Reads a schema (does not release it). Nesting deeper than 64 levels is InvalidArgument.
Result<Field> ImportField(const ArrowSchema* schema);
// A schema exported by ExportSchema (a struct) as a BatchSchema; reads only.
Result<std::shared_ptr<BatchSchema>> ImportSchema(const ArrowSchema* schema);
// A struct array (as ExportRecordBatch or a stream's get_next makes) as a RecordBatch whose
// columns are its children (sliced by the struct's offset). Ownership as for ImportArray;
// InvalidArgument when the struct itself has nulls.
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array,
                                                       const ArrowSchema* schema);

}  // namespace pqsift
