// PartitionedWriter (pqsift/writer.h): rows split by their partition values into one
// ParquetWriter per partition folder. A batch is cut into runs of consecutive rows with the same
// folder; each folder's runs are gathered (SelectRanges) into one batch of the data columns for
// its file. The folder text is what dataset/partition.cc reads back (UrlDecode, the NULL
// partition), so a written dataset scans as the table it came from.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <list>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/layout.h"
#include "arrow/select.h"
#include "common/value_format.h"
#include "pqsift/dataset.h"
#include "pqsift/writer.h"

namespace pqsift {
namespace {

// The characters Hive's FileUtils.escapePathName escapes, and '%' itself.
bool NeedsEscape(unsigned char c) {
  return c < 0x20 || c == 0x7F || std::strchr("\"#%'*/:=?\\{[]^", c) != nullptr;
}

void AppendEscaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (NeedsEscape(c)) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
}

bool HasFolderText(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal128:
    case TypeId::kLargeString:
    case TypeId::kDate32:
    case TypeId::kTimestamp: return true;
    case TypeId::kDictionary: return type.value_type != nullptr && HasFolderText(*type.value_type);
    default: return false;
  }
}

// `text` escaped; Hive and Spark write the empty string as the NULL partition ("k=" names no
// value).
void AppendFolderText(std::string& out, std::string_view text) {
  if (text.empty()) {
    out += kHiveNullPartition;
  } else {
    AppendEscaped(out, text);
  }
}

// Element `i` of `a` as folder text (escaped), or the NULL partition's name; `scratch` holds
// the text of formatted values (reused from row to row). REQUIRES: HasFolderText(*a.type).
void AppendFolderValue(std::string& out, const Array& a, int64_t i, std::string& scratch) {
  if (!a.IsValid(i)) {
    out += kHiveNullPartition;
    return;
  }
  std::string& text = scratch;
  text.clear();
  switch (a.type->id) {
    case TypeId::kBoolean:
      out += bit_util::GetBit(a.buffers[1]->data(), a.offset + i) ? "true" : "false";
      return;
    case TypeId::kInt8: out += std::to_string(layout::LoadValue<int8_t>(a, i)); return;
    case TypeId::kInt16: out += std::to_string(layout::LoadValue<int16_t>(a, i)); return;
    case TypeId::kInt32: out += std::to_string(layout::LoadValue<int32_t>(a, i)); return;
    case TypeId::kInt64: out += std::to_string(layout::LoadValue<int64_t>(a, i)); return;
    case TypeId::kUInt8: out += std::to_string(layout::LoadValue<uint8_t>(a, i)); return;
    case TypeId::kUInt16: out += std::to_string(layout::LoadValue<uint16_t>(a, i)); return;
    case TypeId::kUInt32: out += std::to_string(layout::LoadValue<uint32_t>(a, i)); return;
    case TypeId::kUInt64: out += std::to_string(layout::LoadValue<uint64_t>(a, i)); return;
    case TypeId::kFloat32: AppendFloat(text, layout::LoadValue<float>(a, i)); break;
    case TypeId::kFloat64: AppendDouble(text, layout::LoadValue<double>(a, i)); break;
    case TypeId::kDecimal128: {
      std::span<const uint8_t, 16> bytes(a.buffers[1]->data() + (a.offset + i) * 16, 16);
      AppendDecimal128(text, bytes, a.type->scale);
      break;
    }
    case TypeId::kDate32: AppendDate(text, layout::LoadValue<int32_t>(a, i)); break;
    case TypeId::kTimestamp:
      // An instant as its UTC time: the reader types a folder with a zone as text.
      AppendTimestamp(text, layout::LoadValue<int64_t>(a, i), a.type->unit, /*utc_adjusted=*/false);
      break;
    case TypeId::kLargeString: {
      const auto* offsets = a.buffers[1]->as<int64_t>() + a.offset;
      AppendFolderText(out, {reinterpret_cast<const char*>(a.buffers[2]->data()) + offsets[i],
                             static_cast<size_t>(offsets[i + 1] - offsets[i])});
      return;
    }
    case TypeId::kDictionary:
      AppendFolderValue(out, *a.dictionary, layout::DictionaryIndex(a, i), scratch);
      return;
    default: break;
  }
  AppendFolderText(out, text);
}

}  // namespace

struct PartitionedWriter::State {
  std::string root;
  std::shared_ptr<const BatchSchema> schema;       // the batches'
  std::shared_ptr<const BatchSchema> file_schema;  // without the partition columns
  std::vector<size_t> key_columns;                 // in partition_by order
  std::vector<size_t> data_columns;
  std::vector<std::string> key_names;  // escaped, as the folder names start
  PartitionedWriteOptions partitioning;
  WriterOptions options;

  struct Partition {
    std::unique_ptr<ParquetWriter> writer;  // null while no file is open
    int64_t parts = 0;                      // files made so far
    int64_t rows_in_file = 0;               // rows written to the open file
    std::list<std::string>::iterator recent;
  };
  std::unordered_map<std::string, Partition> partitions;  // by folder (relative to root)
  std::list<std::string> recently_written;                // open files, most recent first
  int64_t rows = 0;
  int64_t files = 0;
  Status error;
  bool closed = false;

  Status Fail(Status st) {
    error = st;
    return st;
  }

  // The open writer of `folder`, opening its next part file (and finishing the least recently
  // written file when max_open_files are open).
  Result<ParquetWriter*> WriterOf(const std::string& folder) {
    Partition& p = partitions[folder];
    if (p.writer) {
      recently_written.splice(recently_written.begin(), recently_written, p.recent);
      return p.writer.get();
    }
    if (recently_written.size() >= std::max<size_t>(partitioning.max_open_files, 1)) {
      PQSIFT_RETURN_IF_ERROR(FinishOldest());
    }
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(root) / folder, ec);
    if (ec) return Status::IOError(root + "/" + folder + ": cannot create: " + ec.message());
    // Appending: names already taken (by earlier writes) are passed over, never overwritten.
    while (partitioning.append && std::filesystem::exists(PathOf(folder, p.parts), ec)) ++p.parts;
    const std::string path = PathOf(folder, p.parts);
    PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, OpenLocalWritableFile(path));
    auto writer = ParquetWriter::Open(std::move(file), file_schema, options);
    if (!writer.ok()) return writer.status().WithContext(path);
    p.writer = std::move(*writer);
    ++p.parts;
    ++files;
    recently_written.push_front(folder);
    p.recent = recently_written.begin();
    return p.writer.get();
  }

  // Finishes the file written least recently (its footer written, its memory freed).
  Status FinishOldest() {
    const std::string oldest = recently_written.back();
    Partition& old = partitions[oldest];
    Status st = old.writer->Close();
    if (!st.ok()) return st.WithContext(PathOf(oldest, old.parts - 1));
    old.writer.reset();
    old.rows_in_file = 0;
    recently_written.pop_back();
    return Status::OK();
  }

  // The rows the open files hold in memory: each its unfinished row group.
  int64_t BufferedRows() {
    const int64_t row_group = std::max<int64_t>(options.row_group_rows, 1);
    int64_t held = 0;
    for (const std::string& folder : recently_written) {
      held += partitions[folder].rows_in_file % row_group;
    }
    return held;
  }

  // After `rows` more rows went to `folder`'s open file: the oldest files finished while the
  // open files hold more than the budget (the file just written stays open).
  Status Wrote(const std::string& folder, int64_t rows) {
    partitions[folder].rows_in_file += rows;
    while (recently_written.size() > 1 && BufferedRows() > partitioning.max_buffered_rows) {
      PQSIFT_RETURN_IF_ERROR(FinishOldest());
    }
    return Status::OK();
  }

  std::string PathOf(const std::string& folder, int64_t part) const {
    return (std::filesystem::path(root) / folder /
            (partitioning.file_prefix + "-" + std::to_string(part) + ".parquet"))
        .string();
  }

  // The folder of row `i`: "k1=v1/k2=v2" (`scratch` as AppendFolderValue's).
  void FolderOf(const RecordBatch& batch, int64_t i, std::string& out, std::string& scratch) const {
    out.clear();
    for (size_t k = 0; k < key_columns.size(); ++k) {
      if (k > 0) out += '/';
      out += key_names[k];
      out += '=';
      AppendFolderValue(out, *batch.columns[key_columns[k]], i, scratch);
    }
  }
};

PartitionedWriter::PartitionedWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
PartitionedWriter::~PartitionedWriter() = default;

Result<std::unique_ptr<PartitionedWriter>> PartitionedWriter::Open(
    std::string root, std::shared_ptr<const BatchSchema> schema,
    PartitionedWriteOptions partitioning, WriterOptions options) {
  if (partitioning.partition_by.empty()) {
    return Status::InvalidArgument("partitioned write: no partition column given");
  }
  auto state = std::make_unique<State>();
  auto file_schema = std::make_shared<BatchSchema>();
  std::vector<bool> is_key(schema->fields.size(), false);
  for (const std::string& name : partitioning.partition_by) {
    size_t found = schema->fields.size();
    for (size_t c = 0; c < schema->fields.size(); ++c) {
      if (schema->fields[c].name == name) found = c;
    }
    if (found == schema->fields.size()) {
      return Status::InvalidArgument("partition column '" + name + "' is not a column");
    }
    if (is_key[found]) {
      return Status::InvalidArgument("partition column '" + name + "' is named twice");
    }
    if (!HasFolderText(*schema->fields[found].type)) {
      return Status::NotSupported("partition column '" + name + "' is " +
                                  schema->fields[found].type->ToString() +
                                  ", which has no folder name (integers, booleans, floats, "
                                  "decimals, strings, dates and timestamps have)");
    }
    is_key[found] = true;
    state->key_columns.push_back(found);
    std::string escaped;
    AppendEscaped(escaped, name);
    state->key_names.push_back(std::move(escaped));
  }
  for (size_t c = 0; c < schema->fields.size(); ++c) {
    if (is_key[c]) continue;
    state->data_columns.push_back(c);
    file_schema->fields.push_back(schema->fields[c]);
  }
  if (file_schema->fields.empty()) {
    return Status::InvalidArgument(
        "partitioned write: every column is a partition column, leaving none for the files");
  }
  // Readers (pqsift, Hive, Spark, Arrow) pass over names starting with '.' or '_': such a
  // folder or file would be written and never read back.
  auto hidden = [](const std::string& name) { return name[0] == '.' || name[0] == '_'; };
  if (partitioning.file_prefix.empty() || partitioning.file_prefix.find('/') != std::string::npos ||
      hidden(partitioning.file_prefix)) {
    return Status::InvalidArgument("partitioned write: file prefix '" + partitioning.file_prefix +
                                   "' is empty, holds a '/' or starts with '.' or '_' (readers "
                                   "leave such files out)");
  }
  for (const std::string& name : partitioning.partition_by) {
    if (!name.empty() && hidden(name)) {
      return Status::InvalidArgument("partition column '" + name +
                                     "' starts with '.' or '_': readers leave such folders out");
    }
  }
  std::error_code ec;
  if (std::filesystem::exists(root, ec)) {
    if (!std::filesystem::is_directory(root, ec)) return Status::InvalidArgument("not a folder");
    if (!partitioning.append && !std::filesystem::is_empty(root, ec)) {
      return Status::InvalidArgument("exists and is not an empty folder");
    }
  }
  // The files' options checked before any folder is made: a writer over a file of our own.
  {
    std::vector<uint8_t> discarded;
    auto probe =
        ParquetWriter::Open(MakeMemoryWritableFile(root, &discarded), file_schema, options);
    if (!probe.ok()) return probe.status();
  }
  std::filesystem::create_directories(root, ec);
  if (ec) return Status::IOError("cannot create the folder: " + ec.message());
  state->root = std::move(root);
  state->schema = std::move(schema);
  state->file_schema = std::move(file_schema);
  state->partitioning = std::move(partitioning);
  state->options = std::move(options);
  return std::unique_ptr<PartitionedWriter>(new PartitionedWriter(std::move(state)));
}

Status PartitionedWriter::Write(const RecordBatch& batch) {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.closed) return Status::InvalidArgument("partitioned write: Write after Close");
  if (batch.columns.size() != s.schema->fields.size()) {
    return s.Fail(Status::InvalidArgument(
        "partitioned write: the batch has " + std::to_string(batch.columns.size()) +
        " columns, the schema " + std::to_string(s.schema->fields.size())));
  }
  // The partition columns are read here, before a ParquetWriter checks the rest.
  for (size_t k : s.key_columns) {
    const Array& column = *batch.columns[k];
    if (!(*column.type == *s.schema->fields[k].type) || column.length != batch.num_rows) {
      return s.Fail(Status::InvalidArgument("partitioned write: column '" +
                                            s.schema->fields[k].name +
                                            "' does not match the schema"));
    }
    Status layout = ValidateArrayLayout(column);
    if (!layout.ok()) return s.Fail(layout);
  }
  // Runs of rows with one folder, gathered by folder in the order folders first appear.
  std::vector<std::string> order;
  std::unordered_map<std::string, std::vector<ElementRange>> runs;
  std::string folder;
  std::string previous;
  std::string scratch;
  std::vector<ElementRange>* run_of_previous = nullptr;  // the runs of `previous`'s folder
  for (int64_t i = 0; i < batch.num_rows; ++i) {
    s.FolderOf(batch, i, folder, scratch);
    if (run_of_previous != nullptr && folder == previous) {
      run_of_previous->back().end = i + 1;
      continue;
    }
    auto [it, fresh] = runs.try_emplace(folder);
    if (fresh) order.push_back(folder);
    it->second.push_back({i, i + 1});
    run_of_previous = &it->second;
    previous.swap(folder);
  }
  for (const std::string& key : order) {
    const std::vector<ElementRange>& ranges = runs[key];
    RecordBatch part;
    part.schema = s.file_schema;
    const bool whole =
        ranges.size() == 1 && ranges[0].begin == 0 && ranges[0].end == batch.num_rows;
    for (size_t c : s.data_columns) {
      part.columns.push_back(whole ? batch.columns[c] : SelectRanges(*batch.columns[c], ranges));
    }
    part.num_rows = 0;
    for (const ElementRange& r : ranges) part.num_rows += r.end - r.begin;
    auto writer = s.WriterOf(key);
    if (!writer.ok()) return s.Fail(writer.status());
    Status st = (*writer)->Write(part);
    if (!st.ok()) return s.Fail(st.WithContext(s.PathOf(key, s.partitions[key].parts - 1)));
    s.rows += part.num_rows;
    st = s.Wrote(key, part.num_rows);
    if (!st.ok()) return s.Fail(st);
  }
  return Status::OK();
}

Status PartitionedWriter::Close() {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.closed) return Status::InvalidArgument("partitioned write: Close called again");
  s.closed = true;
  while (!s.recently_written.empty()) {
    Status st = s.FinishOldest();
    if (!st.ok()) return s.Fail(st);
  }
  return Status::OK();
}

int64_t PartitionedWriter::num_rows() const { return state_->rows; }
int64_t PartitionedWriter::num_files() const { return state_->files; }
const std::string& PartitionedWriter::root() const { return state_->root; }

}  // namespace pqsift
