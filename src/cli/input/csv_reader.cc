#include "cli/input/csv_reader.h"

#include <cstring>
#include <set>

namespace pqsift::cli {
namespace {

using CsvField = TextField;

// Splits the input into records of fields, reading it in blocks. Field views are valid until
// the next call to Next.
class RecordSource {
 public:
  RecordSource(std::istream& in, std::string name, char delimiter)
      : in_(in), name_(std::move(name)), delimiter_(delimiter), buffer_(kBlock) {}

  // The next record's fields; false at the end of the input.
  Result<bool> Next(std::vector<CsvField>& fields) {
    for (;;) {
      auto parsed = Parse(fields);
      if (!parsed.ok()) return parsed.status();
      if (*parsed != Outcome::kNeedMore) return *parsed == Outcome::kRecord;
      if (!Fill()) {
        return Status::IOError(name_ + ": read failed");
      }
    }
  }

  int64_t records() const { return records_; }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;
  enum class Outcome { kRecord, kEnd, kNeedMore };

  // Moves the unparsed rest to the front and reads more after it (growing the buffer when one
  // record fills it). False when the stream failed (not at its end).
  bool Fill() {
    size_t rest = end_ - pos_;
    if (pos_ > 0) std::memmove(buffer_.data(), buffer_.data() + pos_, rest);
    pos_ = 0;
    end_ = rest;
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    in_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    end_ += static_cast<size_t>(in_.gcount());
    if (in_.eof()) {
      eof_ = true;
      return true;
    }
    return static_cast<bool>(in_);
  }

  Status Error(const std::string& what) const {
    // records_ counts the header too: it is the number of the data record being parsed.
    return Status::InvalidArgument(name_ + ": record " + std::to_string(records_) + ": " + what);
  }

  // Parses one record from [pos_, end_): kNeedMore when it may continue past end_.
  Result<Outcome> Parse(std::vector<CsvField>& fields) {
    fields.clear();
    scratch_.clear();
    // Quoted fields are unescaped into scratch_; their views are made once it stops growing.
    std::vector<std::pair<size_t, size_t>> quoted;  // (field, offset in scratch_)
    // Every line is a record (a blank line is one NULL field: how a one-column CSV writes
    // NULL), except that the input may end without a line break.
    size_t p = pos_;
    if (p == end_) {
      if (!eof_) return Outcome::kNeedMore;
      pos_ = p;
      return Outcome::kEnd;
    }
    const char* b = buffer_.data();
    for (;;) {
      if (p < end_ && b[p] == '"') {
        size_t start = scratch_.size();
        ++p;
        for (;;) {
          const void* q = std::memchr(b + p, '"', end_ - p);
          if (q == nullptr) {
            if (!eof_) return Outcome::kNeedMore;
            return Error("a quoted field is not closed");
          }
          size_t at = static_cast<const char*>(q) - b;
          scratch_.append(b + p, at - p);
          if (at + 1 == end_ && !eof_) return Outcome::kNeedMore;
          if (at + 1 < end_ && b[at + 1] == '"') {
            scratch_.push_back('"');
            p = at + 2;
            continue;
          }
          p = at + 1;
          break;
        }
        quoted.emplace_back(fields.size(), start);
        fields.push_back({std::string_view(),
                          scratch_.size() == start ? FieldKind::kEmptyQuoted : FieldKind::kValue});
        // The view's length is right; its pointer is set below, once scratch_ stops moving.
        fields.back().text = std::string_view(scratch_.data(), scratch_.size() - start);
        if (p < end_ && b[p] == '\r') ++p;
        if (p < end_ && b[p] != delimiter_ && b[p] != '\n') {
          return Error("unexpected character after a closing quote");
        }
      } else {
        size_t q = p;
        while (q < end_ && b[q] != delimiter_ && b[q] != '\n') ++q;
        if (q == end_ && !eof_) return Outcome::kNeedMore;
        size_t len = q - p;
        if (len > 0 && b[p + len - 1] == '\r' && (q == end_ || b[q] == '\n')) --len;
        fields.push_back(
            {std::string_view(b + p, len), len == 0 ? FieldKind::kNull : FieldKind::kValue});
        p = q;
      }
      if (p < end_ && b[p] == delimiter_) {
        ++p;
        if (p == end_ && !eof_) return Outcome::kNeedMore;
        if (p == end_) {  // a last field that is empty
          fields.push_back({std::string_view(), FieldKind::kNull});
          break;
        }
        continue;
      }
      if (p < end_) ++p;  // the '\n'
      break;
    }
    for (auto [field, offset] : quoted) {
      fields[field].text = std::string_view(scratch_.data() + offset, fields[field].text.size());
    }
    pos_ = p;
    ++records_;
    return Outcome::kRecord;
  }

  std::istream& in_;
  std::string name_;
  char delimiter_;
  std::vector<char> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  std::string scratch_;
  int64_t records_ = 0;
};

// The records read for inference, kept compactly until they are converted.
struct Sample {
  struct Entry {
    size_t offset;
    uint32_t size;
    FieldKind kind;
  };
  std::string bytes;
  std::vector<Entry> fields;  // records * columns entries
  size_t next = 0;            // the next record to hand out

  void Add(const std::vector<CsvField>& record) {
    for (const CsvField& f : record) {
      fields.push_back({bytes.size(), static_cast<uint32_t>(f.text.size()), f.kind});
      bytes.append(f.text);
    }
  }
};

}  // namespace

struct CsvReader::State {
  std::unique_ptr<RecordSource> source;
  std::string name;
  CsvOptions options;
  std::shared_ptr<BatchSchema> schema;
  std::vector<TextColumn> columns;
  Sample sample;
  std::vector<CsvField> record;
  bool done = false;

  Status Add(const std::vector<CsvField>& fields, int64_t record_number) {
    if (fields.size() != columns.size()) {
      return Status::InvalidArgument(name + ": record " + std::to_string(record_number) + " has " +
                                     std::to_string(fields.size()) + " fields, the header " +
                                     std::to_string(columns.size()));
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      if (!columns[c].Append(fields[c])) {
        const Field& field = schema->fields[c];
        return Status::InvalidArgument(
            name + ": record " + std::to_string(record_number) + ", column '" + field.name +
            "': '" + std::string(fields[c].text) + "' is not a valid " + field.type->ToString() +
            " (give the column's type with --schema)");
      }
    }
    return Status::OK();
  }
};

CsvReader::CsvReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
CsvReader::~CsvReader() = default;

std::shared_ptr<const BatchSchema> CsvReader::schema() const { return state_->schema; }

Result<std::unique_ptr<CsvReader>> CsvReader::Open(std::istream& in, const std::string& name,
                                                   const CsvOptions& options) {
  if (options.batch_rows < 1) return Status::InvalidArgument("batch_rows must be at least 1");
  auto s = std::make_unique<State>();
  s->name = name;
  s->options = options;
  s->source = std::make_unique<RecordSource>(in, name, options.delimiter);

  // The header.
  std::vector<CsvField> header;
  PQSIFT_ASSIGN_OR_RETURN(bool has_header, s->source->Next(header));
  if (!has_header) return Status::InvalidArgument(name + ": no header row");
  s->schema = std::make_shared<BatchSchema>();
  std::set<std::string> seen;
  for (const CsvField& f : header) {
    std::string column(f.text);
    if (column.empty()) column = "column" + std::to_string(s->schema->fields.size());
    if (!seen.insert(column).second) {
      std::string message = name;
      message += ": the header names column '" + column + "' twice";
      return Status::InvalidArgument(message);
    }
    s->schema->fields.push_back(Field{column, nullptr, true});
  }

  // Given types.
  std::vector<std::shared_ptr<const DataType>> given(header.size());
  PQSIFT_ASSIGN_OR_RETURN(auto schema_list, ParseSchemaList(options.schema));
  for (auto& [column, type] : schema_list) {
    size_t index = 0;
    while (index < header.size() && s->schema->fields[index].name != column) ++index;
    if (index == header.size()) {
      std::string message = "--schema names column '" + column + "', which ";
      message += name;
      message += " does not have";
      return Status::InvalidArgument(message);
    }
    given[index] = type;
  }

  // Inference over the first records, which are kept for the first batches.
  std::vector<TypeInference> inference(header.size());
  while (s->source->records() - 1 < options.infer_rows) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, s->source->Next(s->record));
    if (!more) {
      s->done = true;
      break;
    }
    if (s->record.size() != header.size()) {
      return Status::InvalidArgument(name + ": record " + std::to_string(s->source->records() - 1) +
                                     " has " + std::to_string(s->record.size()) +
                                     " fields, the header " + std::to_string(header.size()));
    }
    for (size_t c = 0; c < header.size(); ++c) inference[c].See(s->record[c]);
    s->sample.Add(s->record);
  }
  for (size_t c = 0; c < header.size(); ++c) {
    s->schema->fields[c].type = given[c] ? given[c] : inference[c].Type();
    s->columns.emplace_back(s->schema->fields[c].type);
  }
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(s)));
}

Result<std::shared_ptr<RecordBatch>> CsvReader::Next() {
  State& s = *state_;
  const size_t width = s.columns.size();
  int64_t rows = 0;
  // First the sampled records, then the rest of the input.
  const size_t sampled = width == 0 ? 0 : s.sample.fields.size() / width;
  std::vector<CsvField> record(width);
  while (rows < s.options.batch_rows && s.sample.next < sampled) {
    for (size_t c = 0; c < width; ++c) {
      const Sample::Entry& e = s.sample.fields[s.sample.next * width + c];
      record[c] = {std::string_view(s.sample.bytes.data() + e.offset, e.size), e.kind};
    }
    ++s.sample.next;
    PQSIFT_RETURN_IF_ERROR(s.Add(record, static_cast<int64_t>(s.sample.next)));
    ++rows;
  }
  if (s.sample.next == sampled && sampled > 0) s.sample = Sample{};  // free it
  while (rows < s.options.batch_rows && !s.done) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, s.source->Next(s.record));
    if (!more) {
      s.done = true;
      break;
    }
    PQSIFT_RETURN_IF_ERROR(s.Add(s.record, s.source->records() - 1));
    ++rows;
  }
  if (rows == 0) return std::shared_ptr<RecordBatch>();
  auto batch = std::make_shared<RecordBatch>();
  batch->schema = s.schema;
  batch->num_rows = rows;
  for (TextColumn& column : s.columns) batch->columns.push_back(column.Finish());
  return batch;
}

}  // namespace pqsift::cli
