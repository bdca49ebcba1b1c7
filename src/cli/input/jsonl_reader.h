// Reading JSON Lines (one JSON object per line; blank lines skipped) into record batches,
// streaming: lines are read one at a time and turned into batches of `batch_rows` rows; only
// the first `infer_rows` objects are held at once (to infer the types), so memory stays
// bounded whatever the file's size.
//
// Columns are the keys of the sampled objects, in the order first seen; a key missing from an
// object is NULL, as is JSON null. Types, per column: given in `schema` (top-level columns,
// ParseColumnType), else inferred from the sample:
//   numbers, booleans and strings: as CSV text (TypeInference, text_values.h), except that a
//     JSON string is never a boolean or a number (it may be a date or timestamp);
//   objects: struct of their keys (the union over the sample, in first-seen order, each
//     nullable);  arrays: large_list<element> of their elements' type;
//   a column whose values are of different kinds (e.g. numbers and objects), or objects without
//     keys: string, holding the values' JSON text;
//   a column named in `variant_columns` or `shred`: VARIANT, any JSON value (jsonl_variant.h).
// A later value that does not fit its column's type (a key not in the struct is ignored) is an
// error naming the line and the column.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>

#include "cli/input/text_values.h"
#include "pqsift/array.h"
#include "pqsift/arrow_export.h"
#include "pqsift/status.h"

namespace pqsift::cli {

struct JsonLinesOptions {
  int64_t batch_rows = int64_t{64} * 1024;
  int64_t infer_rows = 100'000;  // objects sampled for type inference
  std::string schema;            // "name:type,..." for some top-level columns; others inferred
  // Top-level columns written as VARIANT (jsonl_variant.h), shredded as `shred` says for them
  // ("col:a:int64,b:string;col2:"), else by the types their sampled objects' fields hold. A
  // column named in `shred` is a variant column too.
  std::vector<std::string> variant_columns;
  std::string shred;
};

class JsonLinesReader : public BatchReader {
 public:
  // Reads the sample and infers the types. `in` must outlive the reader; `name` is used in
  // errors. InvalidArgument for a line that is not a JSON object, a bad schema, or a schema
  // naming a column the sample does not have.
  static Result<std::unique_ptr<JsonLinesReader>> Open(std::istream& in, const std::string& name,
                                                       const JsonLinesOptions& options);
  ~JsonLinesReader() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  Result<std::shared_ptr<RecordBatch>> Next() override;

 private:
  struct State;
  explicit JsonLinesReader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pqsift::cli
