// The writer factory, the shared TextWriter, and the CSV, JSON Lines and none writers (the
// table writer is in table_writer.cc). Rendering rules: batch_writer.h.
#include "cli/output/batch_writer.h"

#include <cctype>
#include <cstring>

#include "arrow/builder.h"
#include "arrow/layout.h"
#include "cli/output/text_writer.h"
#include "variant/json.h"

namespace pqsift::cli {

BatchWriter::~BatchWriter() = default;

Status WriteEmptyResult(BatchWriter& writer, std::shared_ptr<const BatchSchema> schema) {
  if (schema == nullptr) return Status::InvalidArgument("output: no schema");
  RecordBatch batch;
  for (const Field& field : schema->fields) {
    PQSIFT_ASSIGN_OR_RETURN(auto column, MakeEmptyArray(field.type));
    batch.columns.push_back(std::move(column));
  }
  batch.schema = std::move(schema);
  return writer.Write(batch);
}

Status TextWriter::Prepare(const RecordBatch& batch, RenderStyle style) {
  if (batch.schema == nullptr) return Status::InvalidArgument("output: batch without a schema");
  const std::vector<Field>& fields = batch.schema->fields;
  if (fields.size() != batch.columns.size()) {
    return Status::InvalidArgument("output: " + std::to_string(batch.columns.size()) +
                                   " columns for " + std::to_string(fields.size()) + " fields");
  }
  if (has_schema_) {
    if (!(fields == fields_)) {
      return Status::InvalidArgument("output: a batch's columns differ from the first batch's");
    }
  } else {
    fields_ = fields;
    has_schema_ = true;
  }
  renderers_.clear();
  for (size_t i = 0; i < fields.size(); ++i) {
    const Array* column = batch.columns[i].get();
    std::string where = "output: column '" + fields[i].name + "'";
    if (column == nullptr || column->type == nullptr || fields[i].type == nullptr ||
        !(*column->type == *fields[i].type)) {
      return Status::InvalidArgument(where + " is missing or its type differs from the schema");
    }
    if (column->length != batch.num_rows) {
      return Status::InvalidArgument(where + " has " + std::to_string(column->length) +
                                     " rows, the batch " + std::to_string(batch.num_rows));
    }
    PQSIFT_RETURN_IF_ERROR(ValidateArrayLayout(*column).WithContext(where));
    renderers_.push_back(MakeRenderer(*column, style, options_));
  }
  return Status::OK();
}

Status TextWriter::Flush() {
  if (!buf_.empty()) {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  if (!out_) return Status::IOError("output: write failed");
  return Status::OK();
}

namespace {

class CsvWriter final : public TextWriter {
 public:
  using TextWriter::TextWriter;

  Status Write(const RecordBatch& batch) override {
    PQSIFT_RETURN_IF_ERROR(Prepare(batch, RenderStyle::kCsv));
    if (fields().empty()) return Status::OK();  // zero fields: nothing to write
    const char* eol = options_.csv_crlf ? "\r\n" : "\n";
    if (!header_done_) {
      header_done_ = true;
      if (options_.csv_header) {
        for (size_t c = 0; c < fields().size(); ++c) {
          if (c > 0) buf_ += options_.csv_delimiter;
          size_t start = buf_.size();
          buf_ += fields()[c].name;
          FinishField(start);
        }
        buf_ += eol;
      }
    }
    const auto& columns = renderers();
    // Only text and nested values can contain a quote, CR or LF; the other types' text
    // (digits, signs, '.', ':', ' ', letters of nan/inf/true/false, hex, base64) can contain
    // the delimiter only if it is one of those characters.
    const char d = options_.csv_delimiter;
    const bool plain_delimiter =
        !std::isalnum(static_cast<unsigned char>(d)) && std::strchr(".-+: =/", d) == nullptr;
    check_.clear();
    for (const Field& f : fields()) {
      const TypeId id = layout::ValueType(*f.type).id;
      // WKT text of a geometry has commas too.
      check_.push_back(!plain_delimiter || id == TypeId::kLargeString || layout::IsNested(id) ||
                       !layout::ValueType(*f.type).extension_name.empty());
    }
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      for (size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) buf_ += d;
        if (columns[c]->IsNull(row)) continue;  // NULL: empty, unquoted
        size_t start = buf_.size();
        columns[c]->Append(row, buf_);
        if (buf_.size() == start) {
          buf_ += "\"\"";  // an empty value, not NULL
        } else if (check_[c]) {
          FinishField(start);
        }
      }
      buf_ += eol;
      PQSIFT_RETURN_IF_ERROR(MaybeFlush());
    }
    return MaybeFlush();
  }

  Status Finish() override {
    PQSIFT_RETURN_IF_ERROR(Flush());
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("output: write failed");
  }

 private:
  // Quotes the field that starts at buf_[start] if it needs it (RFC 4180).
  void FinishField(size_t start) {
    const char delimiter = options_.csv_delimiter;
    size_t quotes = 0;
    bool special = false;
    for (size_t k = start; k < buf_.size(); ++k) {
      char ch = buf_[k];
      if (ch == '"') ++quotes;
      special |= ch == delimiter || ch == '"' || ch == '\n' || ch == '\r';
    }
    if (!special) return;
    scratch_.assign(buf_, start, std::string::npos);
    buf_.resize(start);
    buf_.reserve(start + scratch_.size() + quotes + 2);
    buf_ += '"';
    for (char ch : scratch_) {
      if (ch == '"') buf_ += '"';
      buf_ += ch;
    }
    buf_ += '"';
  }

  bool header_done_ = false;
  std::vector<bool> check_;  // per column: may need quoting
  std::string scratch_;
};

class JsonLinesWriter final : public TextWriter {
 public:
  using TextWriter::TextWriter;

  Status Write(const RecordBatch& batch) override {
    PQSIFT_RETURN_IF_ERROR(Prepare(batch, RenderStyle::kJson));
    if (keys_.size() != fields().size()) {
      keys_.clear();
      for (const Field& f : fields()) {
        std::string key;
        variant::AppendJsonString(key, f.name);
        key += ':';
        keys_.push_back(std::move(key));
      }
    }
    const auto& columns = renderers();
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      buf_ += '{';
      for (size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) buf_ += ',';
        buf_ += keys_[c];
        columns[c]->Append(row, buf_);
      }
      buf_ += "}\n";
      PQSIFT_RETURN_IF_ERROR(MaybeFlush());
    }
    return MaybeFlush();
  }

  Status Finish() override {
    PQSIFT_RETURN_IF_ERROR(Flush());
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("output: write failed");
  }

 private:
  std::vector<std::string> keys_;  // "name": per column, escaped once
};

class NoneWriter final : public BatchWriter {
 public:
  Status Write(const RecordBatch&) override { return Status::OK(); }
  Status Finish() override { return Status::OK(); }
};

}  // namespace

Result<std::unique_ptr<BatchWriter>> MakeBatchWriter(OutputFormat format, std::ostream& out,
                                                     const OutputOptions& options) {
  char d = options.csv_delimiter;
  if (d == '"' || d == '\r' || d == '\n' || d == '\0') {
    return Status::InvalidArgument("the CSV delimiter cannot be a quote, CR, LF or NUL");
  }
  if (options.table_max_rows < 0) {
    return Status::InvalidArgument("the table's maximum row count must be >= 0");
  }
  if (options.table_max_column_width < 4) {
    return Status::InvalidArgument("the table's maximum column width must be >= 4");
  }
  switch (format) {
    case OutputFormat::kCsv: return std::unique_ptr<BatchWriter>(new CsvWriter(out, options));
    case OutputFormat::kJsonLines:
      return std::unique_ptr<BatchWriter>(new JsonLinesWriter(out, options));
    case OutputFormat::kTable: return MakeTableWriter(out, options);
    case OutputFormat::kNone: return std::unique_ptr<BatchWriter>(new NoneWriter());
  }
  return Status::InvalidArgument("unknown output format");
}

}  // namespace pqsift::cli
