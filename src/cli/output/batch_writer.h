// Writing scan results as text: CSV, JSON Lines, an aligned table for terminals, or nothing;
// or as a Parquet file (MakeParquetBatchWriter).
//
// Rendering decisions (the same for every batch and every run):
//  - CSV (RFC 4180): a header row of column names, then one record per row. A field is
//    quoted when it contains the delimiter, a double quote, CR or LF; quotes inside are
//    doubled. NULL is an empty unquoted field; an empty non-null value (empty string or
//    binary) is written "" so the two stay distinguishable. Strings are written as their raw
//    bytes. Nested values (list, struct, map) are their JSON text (as in JSON Lines), quoted.
//    Records end with "\n" (RFC 4180's "\r\n" with csv_crlf). A batch with no columns
//    writes nothing (a CSV record cannot have zero fields), not even the header; a result
//    with no rows is its header row (WriteEmptyResult).
//  - JSON Lines: one object per row, keys the column names in order, NULL as null. Numbers
//    are JSON numbers, except where a JSON reader (most parse numbers into doubles) would
//    lose exactness: int64 / uint64 values beyond +-(2^53 - 1), and every decimal with
//    precision above 15, are strings holding the exact digits. Decimals of precision <= 15
//    are numbers (15 significant digits survive a round trip through a double). The choice
//    for decimals depends on the type, not the value, so a column has one JSON type; ints
//    stay numbers whenever exact. With json_exact_numbers = true everything numeric is
//    written as an (exact) JSON number instead, as DuckDB does.
//    Floats: shortest round-trip text; NaN and infinities are not JSON numbers and are
//    written as the strings "NaN", "Infinity", "-Infinity". Float16 as its float value.
//    Strings are JSON strings (UTF-8 unescaped except '"', '\', control characters;
//    invalid UTF-8 bytes become U+FFFD). Binary and fixed_size_binary: "0x..." hex
//    (FormatHex) or base64 (binary_as_base64). Dates "YYYY-MM-DD", times "HH:MM:SS[.f]",
//    timestamps "YYYY-MM-DD HH:MM:SS[.f]" with "+00" when the type has a timezone (the
//    value is an instant, printed in UTC), all strings (value_format.h). Lists are arrays,
//    structs objects; maps whose key type is a string are objects ({"k": v}, duplicate keys
//    kept in order), other maps arrays of {"key": k, "value": v} objects. A variant
//    (arrow.parquet.variant) is its JSON value (variant/json.h: numbers always exact JSON
//    numbers, binary always base64), in CSV and tables its JSON text.
//  - Table: the first table_max_rows rows, columns padded to their widest cell (capped at
//    table_max_column_width code points; longer cells are cut and end in "…"), a header line
//    of names, one of types, a rule, numbers right-aligned, NULL as "NULL", strings with
//    control characters and invalid UTF-8 escaped (FormatText), nested values as JSON. Ends
//    with "... (M more rows)" when rows were left out, else "(N rows)". Nothing is printed
//    until Finish (the widths depend on every shown row).
//  - None: writes nothing (for timing the scan itself).
// Every scalar goes through the shared text forms of common/value_format.h.
//
// Writers buffer output in a reusable string and write it to the stream in large blocks; a
// stream failure is an IOError. Every batch passed to Write must have the same column names
// and types as the first (InvalidArgument otherwise) and pass ValidateArrayLayout (the
// writer reads the buffers without further checks, so offsets must be monotonic and within
// range, as ValidateArray guarantees).
//
// Thread safety: a writer is used from one thread. The batch need only live during Write.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift::cli {

enum class OutputFormat { kCsv, kJsonLines, kTable, kNone };

struct OutputOptions {
  bool binary_as_base64 = false;    // binary values as base64 instead of "0x" hex
  bool json_exact_numbers = false;  // JSON: every number as a JSON number (see above)
  char csv_delimiter = ',';         // not '"', CR or LF
  bool csv_header = true;
  bool csv_crlf = false;
  int64_t table_max_rows = 40;          // >= 0
  int32_t table_max_column_width = 40;  // >= 4
};

class BatchWriter {
 public:
  virtual ~BatchWriter();
  virtual Status Write(const RecordBatch& batch) = 0;
  // Writes whatever is still buffered (the whole table for kTable) and flushes the stream.
  // REQUIRES: called once, after the last Write.
  virtual Status Finish() = 0;
};

// `out` must outlive the writer. InvalidArgument for options out of range.
Result<std::unique_ptr<BatchWriter>> MakeBatchWriter(OutputFormat format, std::ostream& out,
                                                     const OutputOptions& options);

// A result without rows, written as one batch of no rows with `schema`'s columns: CSV writes its
// header row, the table its header lines and "(0 rows)", as DuckDB's COPY and its tables do;
// JSON Lines nothing. For a scan whose batches never came (every row filtered out or pruned).
Status WriteEmptyResult(BatchWriter& writer, std::shared_ptr<const BatchSchema> schema);

// Writes the batches to a Parquet file at `path` (pqsift/writer.h, default options); every
// batch must have `schema`. Errors name the path; NotSupported for columns the writer cannot
// store yet (nested types).
Result<std::unique_ptr<BatchWriter>> MakeParquetBatchWriter(
    const std::string& path, std::shared_ptr<const BatchSchema> schema);

}  // namespace pqsift::cli
