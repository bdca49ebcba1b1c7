// The shared part of the text writers: checking each batch against the first one, and a
// reusable output buffer written to the stream in large blocks.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/output/batch_writer.h"
#include "cli/output/value_renderer.h"

namespace pqsift::cli {

class TextWriter : public BatchWriter {
 public:
  TextWriter(std::ostream& out, const OutputOptions& options) : out_(out), options_(options) {}

 protected:
  // Checks `batch` (columns present, num_rows long, ValidateArrayLayout, same names and types
  // as the first batch) and makes one renderer per column in `style`. The first batch sets
  // fields().
  Status Prepare(const RecordBatch& batch, RenderStyle style);
  const std::vector<Field>& fields() const { return fields_; }
  bool has_schema() const { return has_schema_; }
  const std::vector<std::unique_ptr<ValueRenderer>>& renderers() const { return renderers_; }

  // Writes buf_ out once it is larger than the block size / unconditionally.
  Status MaybeFlush() { return buf_.size() >= kBlockSize ? Flush() : Status::OK(); }
  Status Flush();

  static constexpr size_t kBlockSize = size_t{1} << 20;
  std::ostream& out_;
  const OutputOptions options_;
  std::string buf_;

 private:
  bool has_schema_ = false;
  std::vector<Field> fields_;
  std::vector<std::unique_ptr<ValueRenderer>> renderers_;
};

std::unique_ptr<BatchWriter> MakeTableWriter(std::ostream& out, const OutputOptions& options);

}  // namespace pqsift::cli
