// The scan executor: splits the files' row groups into slices, decodes each slice's columns as
// tasks on the thread pool (one task per output column), and hands batches out in file order.
//
//   Open: footers -> projection (PlanNode per output column) -> slices
//   Next: keep up to `threads + 1` slices in flight; when the oldest is done, cut it into batches
//
// A slice is a whole row group, or a row range of a very large one (so memory stays bounded):
// its readers skip to the range's start, which passes over earlier pages without decompressing
// them where the page headers allow. Column chunks are fetched once per row group and shared
// by its slices.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include "column/leaf_reader.h"
#include "column/nested.h"
#include "pqsift/scan.h"
#include "scan/thread_pool.h"

namespace pqsift {
namespace {

struct OutputColumn {
  std::string path;
  column::AssemblyNode plan;
  std::vector<int32_t> leaves;
};

struct FileEntry {
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
};

// The column chunks of one row group, fetched on first use and shared by its slices.
class RowGroupData {
 public:
  RowGroupData(std::shared_ptr<const FileEntry> file, size_t row_group,
               const std::vector<int32_t>& leaves)
      : file_(std::move(file)), row_group_(row_group) {
    for (int32_t leaf : leaves) chunks_.emplace(leaf, std::make_unique<Chunk>());
  }

  const FileEntry& file() const { return *file_; }
  const RowGroup& row_group() const { return file_->metadata->file().row_groups[row_group_]; }
  size_t index() const { return row_group_; }

  std::string Where(int32_t leaf) const {
    return file_->file->name() + ": row group " + std::to_string(row_group_) + ", column '" +
           file_->metadata->schema().columns()[leaf].path + "'";
  }

  struct Fetched {
    std::span<const uint8_t> bytes;  // valid while `owner` lives
    std::shared_ptr<const void> owner;
    ByteRange range;
  };

  Result<Fetched> Get(int32_t leaf) {
    Chunk& c = *chunks_.at(leaf);
    std::lock_guard<std::mutex> lock(c.mu);
    if (!c.status.ok()) return c.status;
    if (c.owner) return Fetched{c.bytes, c.owner, c.range};
    const ColumnChunk& chunk = row_group().columns[leaf];
    if (!chunk.meta_data) {
      c.status = Status::NotSupported(Where(leaf) + ": the column is encrypted");
      return c.status;
    }
    if (chunk.file_path) {
      c.status = Status::NotSupported(Where(leaf) + ": column data in another file ('" +
                                      std::string(*chunk.file_path) + "')");
      return c.status;
    }
    auto range = column::ColumnChunkRange(*chunk.meta_data, file_->file->size(), Where(leaf));
    if (!range.ok()) {
      c.status = range.status();
      return c.status;
    }
    c.range = *range;
    if (auto cached = file_->metadata->CachedBytes(*range)) {
      // Read already, with the footer: no second request.
      c.bytes = *cached;
      c.owner = file_->metadata;
      return Fetched{c.bytes, c.owner, c.range};
    }
    auto bytes = file_->file->Read(*range);
    if (!bytes.ok()) {
      c.status = bytes.status();
      return c.status;
    }
    auto buffer = std::make_shared<const Buffer>(std::move(bytes).value());
    c.bytes = buffer->span();
    c.owner = buffer;
    return Fetched{c.bytes, c.owner, c.range};
  }

 private:
  struct Chunk {
    std::mutex mu;
    std::span<const uint8_t> bytes;
    std::shared_ptr<const void> owner;
    ByteRange range;
    Status status;
  };
  std::shared_ptr<const FileEntry> file_;
  size_t row_group_;
  std::map<int32_t, std::unique_ptr<Chunk>> chunks_;
};

struct ScanSlice {
  std::shared_ptr<RowGroupData> row_group;
  int64_t start = 0;
  int64_t rows = 0;
};

// The decoded columns of one slice: columns[c][w] is output column c of batch window w.
struct SliceResult {
  std::mutex mu;
  std::condition_variable done;
  int pending = 0;
  Status error;
  std::vector<std::vector<std::shared_ptr<Array>>> columns;
  int64_t rows = 0;
};

Result<int32_t> FindNode(const Schema& schema, const std::string& path) {
  int32_t node = 0;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t dot = path.find('.', pos);
    std::string_view part = std::string_view(path).substr(
        pos, dot == std::string::npos ? std::string::npos : dot - pos);
    int32_t found = -1;
    for (int32_t child : schema.nodes()[node].children) {
      if (schema.nodes()[child].name == part) {
        found = child;
        break;
      }
    }
    if (found < 0) return Status::InvalidArgument("no column '" + path + "'");
    node = found;
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return node;
}

}  // namespace

struct Scanner::State {
  ScanOptions options;
  std::vector<std::shared_ptr<const FileEntry>> files;
  std::vector<OutputColumn> columns;
  std::shared_ptr<const BatchSchema> schema;
  std::vector<ScanSlice> slices;
  size_t next_slice = 0;
  std::deque<std::shared_ptr<SliceResult>> in_flight;
  std::deque<std::shared_ptr<RecordBatch>> ready;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  int64_t rows_returned = 0;
  uint64_t row_groups_read = 0;
  std::unique_ptr<scan::ThreadPool> pool;  // last: destroyed first, joining the workers

  Status Plan();
  void Launch(const ScanSlice& slice);
  static Result<std::vector<std::shared_ptr<Array>>> DecodeColumn(
      const ScanSlice& slice, const OutputColumn& column, int64_t batch_size,
      const std::atomic<bool>& cancelled, const column::PageReaderOptions& page_options);
};

Status Scanner::State::Plan() {
  const ParquetMetadata& first = *files.front()->metadata;
  const Schema& file_schema = first.schema();
  std::vector<std::string> paths = options.columns;
  if (paths.empty()) {
    for (int32_t child : file_schema.root().children) {
      paths.emplace_back(file_schema.nodes()[child].name);
    }
  }
  auto batch_schema = std::make_shared<BatchSchema>();
  for (const std::string& path : paths) {
    auto node = FindNode(file_schema, path);
    if (!node.ok()) return node.status().WithContext(first.file_name());
    OutputColumn col;
    col.path = path;
    auto plan = column::PlanNode(file_schema, *node, &col.leaves);
    if (!plan.ok()) return plan.status().WithContext(first.file_name() + ": column '" + path + "'");
    col.plan = std::move(plan).value();
    const SchemaNode& n = file_schema.nodes()[*node];
    batch_schema->fields.push_back({path, col.plan.type, n.repetition != Repetition::kRequired});
    columns.push_back(std::move(col));
  }
  // Every other file must give the projected columns the same leaves and types.
  for (size_t f = 1; f < files.size(); ++f) {
    const ParquetMetadata& md = *files[f]->metadata;
    for (const OutputColumn& col : columns) {
      std::vector<int32_t> leaves;
      auto node = FindNode(md.schema(), col.path);
      auto plan = node.ok() ? column::PlanNode(md.schema(), *node, &leaves)
                            : Result<column::AssemblyNode>(node.status());
      if (!plan.ok() || plan->type->ToString() != col.plan.type->ToString() ||
          leaves != col.leaves) {
        return Status::InvalidArgument("column '" + col.path + "' differs between " +
                                       first.file_name() + " and " + md.file_name());
      }
    }
  }
  schema = batch_schema;

  // Slices: whole row groups, cut by rows when a row group is very large.
  constexpr int64_t kMaxSliceBytes = int64_t{128} << 20;
  int64_t budget = options.limit;
  std::vector<int32_t> all_leaves;
  for (const OutputColumn& col : columns)
    all_leaves.insert(all_leaves.end(), col.leaves.begin(), col.leaves.end());
  for (const auto& file : files) {
    const FileMetaData& meta = file->metadata->file();
    for (size_t g = 0; g < meta.row_groups.size() && budget != 0; ++g) {
      const RowGroup& rg = meta.row_groups[g];
      if (rg.num_rows == 0) continue;
      auto data = std::make_shared<RowGroupData>(file, g, all_leaves);
      int64_t rows = budget < 0 ? rg.num_rows : std::min(rg.num_rows, budget);
      if (budget > 0) budget -= rows;
      int64_t slice_rows = rows;
      if (rg.total_byte_size > kMaxSliceBytes) {
        slice_rows = std::max<int64_t>(options.batch_size,
                                       rg.num_rows * kMaxSliceBytes / rg.total_byte_size);
        slice_rows =
            (slice_rows + options.batch_size - 1) / options.batch_size * options.batch_size;
      }
      for (int64_t start = 0; start < rows; start += slice_rows) {
        slices.push_back({data, start, std::min(slice_rows, rows - start)});
      }
    }
  }
  return Status::OK();
}

Result<std::vector<std::shared_ptr<Array>>> Scanner::State::DecodeColumn(
    const ScanSlice& slice, const OutputColumn& column, int64_t batch_size,
    const std::atomic<bool>& cancelled, const column::PageReaderOptions& page_options) {
  const ParquetMetadata& md = *slice.row_group->file().metadata;
  const RowGroup& rg = slice.row_group->row_group();
  std::vector<std::unique_ptr<column::LeafReader>> readers;
  for (int32_t leaf : column.leaves) {
    PQSIFT_ASSIGN_OR_RETURN(RowGroupData::Fetched chunk, slice.row_group->Get(leaf));
    PQSIFT_ASSIGN_OR_RETURN(
        auto reader,
        column::LeafReader::Make(md.schema().columns()[leaf], *rg.columns[leaf].meta_data,
                                 chunk.bytes, chunk.range.offset, rg.num_rows,
                                 slice.row_group->Where(leaf), page_options));
    PQSIFT_RETURN_IF_ERROR(reader->SkipRecords(slice.start));
    readers.push_back(std::move(reader));
  }
  std::vector<std::shared_ptr<Array>> out;
  std::vector<column::LeafBatch> batches(readers.size());
  for (int64_t done = 0; done < slice.rows; done += batch_size) {
    if (cancelled.load(std::memory_order_relaxed)) return Status::Internal("cancelled");
    int64_t n = std::min(batch_size, slice.rows - done);
    for (size_t i = 0; i < readers.size(); ++i) {
      PQSIFT_RETURN_IF_ERROR(readers[i]->ReadRecords(n));
      batches[i] = readers[i]->Flush();
    }
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> array,
                            column::Assemble(column.plan, column.leaves, batches));
    out.push_back(std::move(array));
  }
  return out;
}

void Scanner::State::Launch(const ScanSlice& slice) {
  auto result = std::make_shared<SliceResult>();
  result->pending = static_cast<int>(columns.size());
  result->columns.resize(columns.size());
  result->rows = slice.rows;
  in_flight.push_back(result);
  if (slice.start == 0) ++row_groups_read;
  column::PageReaderOptions page_options;
  page_options.verify_crc = options.verify_crc;
  for (size_t c = 0; c < columns.size(); ++c) {
    pool->Submit([this, slice, c, result, page_options, cancelled = cancelled] {
      Result<std::vector<std::shared_ptr<Array>>> arrays =
          cancelled->load()
              ? Result<std::vector<std::shared_ptr<Array>>>(Status::Internal("cancelled"))
              : DecodeColumn(slice, columns[c], options.batch_size, *cancelled, page_options);
      std::lock_guard<std::mutex> lock(result->mu);
      if (arrays.ok()) {
        result->columns[c] = std::move(arrays).value();
      } else if (result->error.ok()) {
        result->error = arrays.status();
      }
      if (--result->pending == 0) result->done.notify_all();
    });
  }
}

Scanner::Scanner(std::unique_ptr<State> state) : state_(std::move(state)) {}

Scanner::~Scanner() {
  if (state_) state_->cancelled->store(true);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(const std::vector<std::string>& paths,
                                               const ScanOptions& options) {
  if (paths.empty()) return Status::InvalidArgument("no files to scan");
  std::vector<std::shared_ptr<RandomAccessFile>> files;
  std::vector<std::shared_ptr<const ParquetMetadata>> metadata;
  for (const std::string& path : paths) {
    PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenLocalFile(path));
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> md,
                            ReadParquetMetadata(*file, options.open));
    files.push_back(std::move(file));
    metadata.push_back(std::move(md));
  }
  return Open(std::move(files), std::move(metadata), options);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(
    std::vector<std::shared_ptr<RandomAccessFile>> files,
    std::vector<std::shared_ptr<const ParquetMetadata>> metadata, const ScanOptions& options) {
  if (files.empty() || files.size() != metadata.size()) {
    return Status::InvalidArgument(
        "Scanner::Open needs one metadata per file, and at least one file");
  }
  if (options.batch_size <= 0) return Status::InvalidArgument("batch size must be positive");
  auto state = std::make_unique<State>();
  state->options = options;
  for (size_t i = 0; i < files.size(); ++i) {
    state->files.push_back(std::make_shared<const FileEntry>(FileEntry{files[i], metadata[i]}));
  }
  PQSIFT_RETURN_IF_ERROR(state->Plan());
  state->pool = std::make_unique<scan::ThreadPool>(options.threads);
  return std::unique_ptr<Scanner>(new Scanner(std::move(state)));
}

std::shared_ptr<const BatchSchema> Scanner::schema() const { return state_->schema; }

Result<std::shared_ptr<RecordBatch>> Scanner::Next() {
  State& s = *state_;
  const size_t max_in_flight = static_cast<size_t>(s.pool->size()) + 1;
  for (;;) {
    if (!s.ready.empty()) {
      std::shared_ptr<RecordBatch> batch = std::move(s.ready.front());
      s.ready.pop_front();
      s.rows_returned += batch->num_rows;
      return batch;
    }
    while (s.in_flight.size() < max_in_flight && s.next_slice < s.slices.size()) {
      s.Launch(s.slices[s.next_slice++]);
    }
    if (s.in_flight.empty()) return std::shared_ptr<RecordBatch>();
    std::shared_ptr<SliceResult> result = s.in_flight.front();
    {
      std::unique_lock<std::mutex> lock(result->mu);
      result->done.wait(lock, [&] { return result->pending == 0; });
    }
    s.in_flight.pop_front();
    if (!result->error.ok()) {
      s.cancelled->store(true);
      return result->error;
    }
    size_t windows = result->columns.empty() ? 0 : result->columns.front().size();
    for (size_t w = 0; w < windows; ++w) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = s.schema;
      batch->num_rows = result->columns.front()[w]->length;
      for (auto& col : result->columns) batch->columns.push_back(std::move(col[w]));
      s.ready.push_back(std::move(batch));
    }
    if (result->columns.empty()) {
      // No columns projected: batches of rows without columns, so counts stay right.
      for (int64_t done = 0; done < result->rows; done += s.options.batch_size) {
        auto batch = std::make_shared<RecordBatch>();
        batch->schema = s.schema;
        batch->num_rows = std::min(s.options.batch_size, result->rows - done);
        s.ready.push_back(std::move(batch));
      }
    }
  }
}

ScanStats Scanner::stats() const {
  ScanStats out;
  for (const auto& f : state_->files) {
    IoStats io = f->file->stats();
    out.files += 1;
    out.file_bytes += f->file->size();
    out.bytes_read += io.bytes_read;
    out.read_requests += io.read_requests;
    out.row_groups += f->metadata->num_row_groups();
  }
  out.row_groups_read = state_->row_groups_read;
  out.rows_returned = state_->rows_returned;
  return out;
}

}  // namespace pqsift
