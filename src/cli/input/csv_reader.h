// Reading CSV (RFC 4180, a header row) into record batches, streaming: the input is read in
// blocks and turned into batches of `batch_rows` rows; only the first `infer_rows` records are
// held at once (to infer the types), so memory stays bounded whatever the file's size.
//
// Fields: separated by `delimiter`, optionally quoted with '"' (a quote inside is doubled;
// quoted fields may hold delimiters and line breaks). Records end with LF or CRLF. An empty
// unquoted field is NULL (as pqsift's own CSV output writes NULL); an empty quoted field is an
// empty string in string columns and NULL in others.
//
// Types, per column: given in `schema` ("id:int64,ts:timestamp_us,...", see ParseColumnType),
// else inferred from the first `infer_rows` records (TypeInference, text_values.h). A later
// value that does not parse as its column's type is an error naming the record and column.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/input/text_values.h"
#include "pqsift/array.h"
#include "pqsift/arrow_export.h"
#include "pqsift/status.h"

namespace pqsift::cli {

struct CsvOptions {
  char delimiter = ',';
  int64_t batch_rows = int64_t{64} * 1024;
  int64_t infer_rows = 100'000;  // records sampled for type inference
  std::string schema;            // "name:type,..." for some or all columns; others are inferred
};

class CsvReader : public BatchReader {
 public:
  // Reads the header and infers the types. `in` must outlive the reader; `name` is used in
  // errors. InvalidArgument for a bad schema, a schema naming an unknown column, no header, or
  // duplicate column names.
  static Result<std::unique_ptr<CsvReader>> Open(std::istream& in, const std::string& name,
                                                 const CsvOptions& options);
  ~CsvReader() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  // InvalidArgument naming the record (1 = the first after the header) and the column for a
  // value that does not parse as its type or a record with the wrong number of fields.
  Result<std::shared_ptr<RecordBatch>> Next() override;

 private:
  struct State;
  explicit CsvReader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pqsift::cli
