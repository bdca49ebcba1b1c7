// The scan executor: carries out the access plan built at Open (scan/planner.h).
//
//   Open: footers -> projection and filter binding (per file) -> access plan -> slices
//   Next: keep up to `threads + 1` slices in flight; when the oldest is done, cut it into batches
//
// A slice is the selected rows of a whole row group, or of a row range of a very large one (so
// memory stays bounded). A slice that needs the residual filter runs in two phases: first its
// filter columns are decoded window by window and the filter evaluated, which narrows the
// slice's selection to the matching rows; then the output columns are decoded for those rows
// only (the column readers skip the gaps without materialising them). Fully matched slices and
// scans without a filter go straight to the second phase. Column chunks are fetched once per row
// group and shared by its slices and phases.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include "arrow/select.h"
#include "arrow/widen.h"
#include "column/arrow_type.h"
#include "column/leaf_reader.h"
#include "column/nested.h"
#include "expr/binder.h"
#include "expr/evaluate.h"
#include "expr/substitute.h"
#include "format/page_index_store.h"
#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "scan/constant_array.h"
#include "scan/page_fetch.h"
#include "scan/planner.h"
#include "scan/scan_input.h"
#include "scan/thread_pool.h"

namespace pqsift {
namespace {

using Clock = std::chrono::steady_clock;

int64_t NanosSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// A column the scan decodes: an output column (a projected path, maybe a whole struct) or a
// filter column (one leaf), as one file stores it; or a constant: a partition column, or a
// column the file lacks (NULL).
struct DecodedColumn {
  std::string path;
  column::AssemblyNode plan;
  std::vector<int32_t> leaves;
  std::shared_ptr<const DataType> type;  // the scan's type: the file's is widened to it
  bool widen = false;                    // the file stores a narrower type (arrow/widen.h)
  std::optional<expr::Value> constant;   // set: not in the file; every row holds this value

  // The decoded (or constant) array of `rows` rows in the scan's type.
  Result<std::shared_ptr<Array>> Finish(std::shared_ptr<Array> decoded, int64_t rows) const {
    if (constant) return scan::MakeConstantArray(type, *constant, rows);
    if (widen) return WidenArray(*decoded, type);
    return decoded;
  }
};

struct FileEntry {
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
  std::vector<expr::Value> partition_values;  // per State::partition_columns
  std::string fully_matched_by;               // dataset-level proof that every row matches
  std::vector<uint8_t> excluded_row_groups;   // outside the scan's split
  std::vector<DecodedColumn> output_columns;  // per State::columns, as this file holds them
  // The filter as bound against the scan's schema (the same for every file), and for the
  // pruning stages with this file's constant columns substituted and its leaves resolved.
  std::optional<expr::BoundFilter> filter;
  std::optional<expr::BoundFilter> proof_filter;
  std::vector<DecodedColumn> filter_columns;  // filter->columns[k] is filter_columns[k]
  std::vector<int32_t> leaves;  // every leaf the scan reads: output and filter, sorted, once
  // The page indexes the planning loaded (its offset indexes say which pages a selection needs).
  std::unique_ptr<format::PageIndexStore> page_indexes;
};

// Pages and bytes of the opened column chunks that their offset index let the scan leave out.
struct FetchCounters {
  std::atomic<int64_t> pages_not_fetched{0};
  std::atomic<uint64_t> bytes_not_fetched{0};
};

// The column chunks of one row group, fetched on first use and shared by its slices.
class RowGroupData {
 public:
  // `rows`: the row group's selected rows (every read is inside them).
  RowGroupData(std::shared_ptr<const FileEntry> file, size_t row_group,
               const std::vector<int32_t>& leaves, prune::RowSelection rows,
               FetchCounters* counters)
      : file_(std::move(file)), row_group_(row_group), rows_(std::move(rows)), counters_(counters) {
    for (int32_t leaf : leaves) chunks_.emplace(leaf, std::make_unique<Chunk>());
  }

  const FileEntry& file() const { return *file_; }
  const RowGroup& row_group() const { return file_->metadata->file().row_groups[row_group_]; }

  std::string Where(int32_t leaf) const {
    return file_->file->name() + ": row group " + std::to_string(row_group_) + ", column '" +
           file_->metadata->schema().columns()[leaf].path + "'";
  }

  struct Fetched {
    std::span<const uint8_t> bytes;  // valid while `owner` lives
    std::shared_ptr<const void> owner;
    ByteRange range;
    std::vector<column::PageSpan> pages;  // empty: `bytes` is the whole chunk
  };

  Result<Fetched> Get(int32_t leaf) {
    Chunk& c = *chunks_.at(leaf);
    std::lock_guard<std::mutex> lock(c.mu);
    if (!c.status.ok()) return c.status;
    if (!c.owner) c.status = Fetch(leaf, c);
    if (!c.status.ok()) return c.status;
    return Fetched{c.bytes, c.owner, c.range, c.pages};
  }

 private:
  struct Chunk {
    std::mutex mu;
    std::span<const uint8_t> bytes;
    std::shared_ptr<const void> owner;
    ByteRange range;
    std::vector<column::PageSpan> pages;
    Status status;
  };

  Status Fetch(int32_t leaf, Chunk& c) {
    const ColumnChunk& chunk = row_group().columns[leaf];
    if (!chunk.meta_data) return Status::NotSupported(Where(leaf) + ": the column is encrypted");
    if (chunk.file_path) {
      return Status::NotSupported(Where(leaf) + ": column data in another file ('" +
                                  std::string(*chunk.file_path) + "')");
    }
    PQSIFT_ASSIGN_OR_RETURN(
        c.range, column::ColumnChunkRange(*chunk.meta_data, file_->file->size(), Where(leaf)));
    if (auto cached = file_->metadata->CachedBytes(c.range)) {
      // Read already, with the footer: no second request.
      c.bytes = *cached;
      c.owner = file_->metadata;
      return Status::OK();
    }
    std::optional<scan::PageFetch> pages = PlanFetch(leaf, c.range);
    Buffer bytes;
    if (pages) {
      PQSIFT_ASSIGN_OR_RETURN(bytes, ReadPages(*pages));
      c.pages = std::move(pages->pages);
      counters_->pages_not_fetched += pages->pages_not_fetched;
      counters_->bytes_not_fetched += pages->bytes_not_fetched;
    } else {
      PQSIFT_ASSIGN_OR_RETURN(bytes, ReadAroundCache(c.range));
    }
    auto buffer = std::make_shared<const Buffer>(std::move(bytes));
    c.bytes = buffer->span();
    c.owner = buffer;
    return Status::OK();
  }

 public:
  // Only the pages holding a selected row, when the chunk's offset index says where they are.
  std::optional<scan::PageFetch> PlanFetch(int32_t leaf, ByteRange range) const {
    const RowGroup& rg = row_group();
    if (rows_.SelectsAll(rg.num_rows) || !file_->page_indexes) return std::nullopt;
    const format::OffsetIndex* index = file_->page_indexes->offset_index(row_group_, leaf);
    if (index == nullptr) return std::nullopt;
    return scan::PlanPageFetch(range, *index, rg.num_rows, rows_);
  }

 private:
  // The pieces of `fetch` one after the other, read in its coalesced reads.
  Result<Buffer> ReadPages(const scan::PageFetch& fetch) {
    uint64_t total = 0;
    for (const ByteRange& p : fetch.pieces) total += p.length;
    Buffer out(total);
    uint64_t written = 0;
    size_t piece = 0;
    for (const ByteRange& read : fetch.reads) {
      PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadAroundCache(read));
      // The reads are the pieces coalesced, in order: each piece lies in the first read that
      // reaches past its start.
      for (; piece < fetch.pieces.size() && fetch.pieces[piece].end() <= read.end(); ++piece) {
        const ByteRange& p = fetch.pieces[piece];
        std::memcpy(out.mutable_data() + written, bytes.data() + (p.offset - read.offset),
                    p.length);
        written += p.length;
      }
    }
    return out;
  }

  // The last chunks of a file often end inside the bytes read with the footer: only the part
  // before them is read again, so no byte is fetched twice.
  Result<Buffer> ReadAroundCache(ByteRange range) {
    const ParquetMetadata& md = *file_->metadata;
    ByteRange cached = md.cached_range();
    if (range.offset < cached.offset && range.end() > cached.offset) {
      uint64_t head = cached.offset - range.offset;
      auto tail = md.CachedBytes({cached.offset, range.length - head});
      if (tail) {
        PQSIFT_ASSIGN_OR_RETURN(Buffer first, file_->file->Read({range.offset, head}));
        Buffer whole(range.length);
        std::memcpy(whole.mutable_data(), first.data(), head);
        std::memcpy(whole.mutable_data() + head, tail->data(), tail->size());
        return whole;
      }
    }
    return file_->file->Read(range);
  }

  std::shared_ptr<const FileEntry> file_;
  size_t row_group_;
  prune::RowSelection rows_;
  FetchCounters* counters_;
  std::map<int32_t, std::unique_ptr<Chunk>> chunks_;
};

struct ScanSlice {
  std::shared_ptr<RowGroupData> row_group;
  prune::RowSelection rows;     // row numbers within the row group
  bool needs_filter = false;    // evaluate the residual filter (the row group is not fully matched)
  prune::RowSelection matched;  // rows of `rows` proven to match: no residual filter for them
  bool first_of_row_group = false;
};

// The decoded columns of one slice: columns[c][w] is output column c of batch window w.
struct SliceResult {
  std::mutex mu;
  std::condition_variable done;
  int pending = 0;
  Status error;
  std::vector<std::vector<std::shared_ptr<Array>>> columns;
  int64_t rows = 0;  // selected rows (after the filter)
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

// Page counts of the readers a task used, added to the scan's totals when the task ends.
struct PageCounters {
  std::atomic<int64_t> decoded{0};
  std::atomic<int64_t> passed_over{0};
  void Add(const std::vector<std::unique_ptr<column::LeafReader>>& readers) {
    for (const auto& r : readers) {
      decoded += r->pages_decoded();
      passed_over += r->pages_passed_over();
    }
  }
};

// Opens one reader per leaf of `columns` on the row group's chunks.
Result<std::vector<std::unique_ptr<column::LeafReader>>> OpenReaders(
    RowGroupData& row_group, const std::vector<const DecodedColumn*>& columns,
    const column::PageReaderOptions& page_options) {
  const ParquetMetadata& md = *row_group.file().metadata;
  const RowGroup& rg = row_group.row_group();
  std::vector<std::unique_ptr<column::LeafReader>> readers;
  for (const DecodedColumn* column : columns) {
    if (column->constant) continue;
    for (int32_t leaf : column->leaves) {
      PQSIFT_ASSIGN_OR_RETURN(RowGroupData::Fetched chunk, row_group.Get(leaf));
      PQSIFT_ASSIGN_OR_RETURN(
          auto reader,
          column::LeafReader::Make(md.schema().columns()[leaf], *rg.columns[leaf].meta_data,
                                   chunk.bytes, chunk.range.offset, rg.num_rows,
                                   row_group.Where(leaf), page_options, std::move(chunk.pages)));
      readers.push_back(std::move(reader));
    }
  }
  return readers;
}

// Walks `selection` with every reader in step, in windows of at most `window_rows` selected
// rows: the gaps are skipped (not materialised), the ranges read. After each window,
// `on_window(pieces)` gets the row ranges the window covered; the readers then hold exactly
// those rows, ready to Flush.
template <typename OnWindow>
Status WalkSelection(const prune::RowSelection& selection, int64_t window_rows,
                     const std::vector<std::unique_ptr<column::LeafReader>>& readers,
                     const std::atomic<bool>& cancelled, OnWindow&& on_window) {
  int64_t position = 0;
  int64_t in_window = 0;
  std::vector<prune::RowRange> pieces;
  for (const prune::RowRange& range : selection.ranges()) {
    for (int64_t begin = range.begin; begin < range.end;) {
      if (cancelled.load(std::memory_order_relaxed)) return Status::Internal("cancelled");
      if (begin > position) {
        for (const auto& r : readers) PQSIFT_RETURN_IF_ERROR(r->SkipRecords(begin - position));
      }
      int64_t take = std::min(range.end - begin, window_rows - in_window);
      for (const auto& r : readers) PQSIFT_RETURN_IF_ERROR(r->ReadRecords(take));
      if (!pieces.empty() && pieces.back().end == begin) {
        pieces.back().end += take;
      } else {
        pieces.push_back({begin, begin + take});
      }
      begin += take;
      position = begin;
      in_window += take;
      if (in_window == window_rows) {
        PQSIFT_RETURN_IF_ERROR(on_window(pieces));
        pieces.clear();
        in_window = 0;
      }
    }
  }
  if (in_window > 0) PQSIFT_RETURN_IF_ERROR(on_window(pieces));
  return Status::OK();
}

// Follows the wanted rows along the windows of a superset of them being decoded, and gives the
// positions of the wanted rows inside each window.
class WantedRows {
 public:
  explicit WantedRows(const std::vector<prune::RowRange>& wanted) : wanted_(wanted) {}

  // `pieces`: the row ranges decoded into the next window, in order.
  std::vector<ElementRange> Within(const std::vector<prune::RowRange>& pieces) {
    std::vector<ElementRange> out;
    int64_t base = 0;  // position of the piece in the window
    for (const prune::RowRange& piece : pieces) {
      while (next_ < wanted_.size() && wanted_[next_].end <= piece.begin) ++next_;
      for (size_t k = next_; k < wanted_.size() && wanted_[k].begin < piece.end; ++k) {
        int64_t begin = base + std::max(wanted_[k].begin, piece.begin) - piece.begin;
        int64_t end = base + std::min(wanted_[k].end, piece.end) - piece.begin;
        if (!out.empty() && out.back().end == begin) {
          out.back().end = end;
        } else {
          out.push_back({begin, end});
        }
      }
      base += piece.length();
    }
    return out;
  }

 private:
  const std::vector<prune::RowRange>& wanted_;
  size_t next_ = 0;
};

// Flushes the readers of `column` (starting at `*next_reader`) and assembles its array of
// `rows` rows in the scan's type (a constant column has no readers).
Result<std::shared_ptr<Array>> FlushColumn(
    const DecodedColumn& column, const std::vector<std::unique_ptr<column::LeafReader>>& readers,
    size_t* next_reader, int64_t rows) {
  if (column.constant) return column.Finish(nullptr, rows);
  std::vector<column::LeafBatch> batches;
  for (size_t i = 0; i < column.leaves.size(); ++i) {
    batches.push_back(readers[(*next_reader)++]->Flush());
  }
  PQSIFT_ASSIGN_OR_RETURN(auto array, column::Assemble(column.plan, column.leaves, batches));
  return column.Finish(std::move(array), rows);
}

int64_t RowsOf(const std::vector<prune::RowRange>& pieces) {
  int64_t n = 0;
  for (const prune::RowRange& p : pieces) n += p.length();
  return n;
}

// The rows of `pieces` (consecutive row ranges holding mask.size() rows) whose mask byte is set.
void AppendMatches(const std::vector<prune::RowRange>& pieces, const std::vector<uint8_t>& mask,
                   std::vector<prune::RowRange>* out) {
  size_t k = 0;
  for (const prune::RowRange& piece : pieces) {
    for (int64_t row = piece.begin; row < piece.end; ++row, ++k) {
      if (mask[k] == 0) continue;
      if (!out->empty() && out->back().end == row) {
        ++out->back().end;
      } else {
        out->push_back({row, row + 1});
      }
    }
  }
}

}  // namespace

struct Scanner::State {
  ScanOptions options;
  std::vector<std::shared_ptr<const FileEntry>> files;
  // The columns the filter binds to and the projection resolves in (scan/scan_input.h); null
  // in `input`: the first file's, and then every file must hold every column read.
  std::shared_ptr<const Schema> tree;
  bool missing_columns_are_null = false;
  std::vector<std::string> partition_columns;
  scan::DatasetCounts dataset_counts;
  std::vector<DecodedColumn> columns;       // the output columns: path and the scan's type
  std::optional<expr::BoundFilter> filter;  // bound against `tree`
  std::shared_ptr<const BatchSchema> schema;
  prune::AccessPlan plan;
  std::vector<ScanSlice> slices;
  size_t next_slice = 0;
  std::deque<std::shared_ptr<SliceResult>> in_flight;
  std::deque<std::shared_ptr<RecordBatch>> ready;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  int64_t rows_returned = 0;
  bool limit_reached = false;
  uint64_t row_groups_read = 0;
  double plan_seconds = 0;
  PageCounters pages;
  FetchCounters fetches;
  std::atomic<int64_t> rows_decoded{0};
  std::atomic<int64_t> filter_nanos{0};
  std::atomic<int64_t> decode_nanos{0};
  std::unique_ptr<scan::ThreadPool> pool;  // last: destroyed first, joining the workers

  Status Project();
  Status BindFilter();
  Result<DecodedColumn> Resolve(const FileEntry& entry, const std::string& path,
                                const std::shared_ptr<const DataType>& type) const;
  Status Plan();
  Status LoadOffsetIndexes();
  void Launch(const ScanSlice& slice);
  void SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                           const std::shared_ptr<SliceResult>& result);
  Result<prune::RowSelection> EvaluateFilter(const ScanSlice& slice);
  Result<std::vector<std::shared_ptr<Array>>> DecodeColumn(const ScanSlice& slice,
                                                           const prune::RowSelection& rows,
                                                           size_t output_column);
  column::PageReaderOptions page_options() const {
    column::PageReaderOptions o;
    o.verify_crc = options.verify_crc;
    return o;
  }
  static void Finish(SliceResult& result, Status status);
};

Status Scanner::State::Project() {
  const Schema& tree_schema = *tree;
  std::vector<std::string> paths = options.columns;
  if (options.count_only) {
    paths.clear();
  } else if (paths.empty()) {
    for (int32_t child : tree_schema.root().children) {
      paths.emplace_back(tree_schema.nodes()[child].name);
    }
  }
  const std::string first = files.empty() ? "dataset" : files.front()->metadata->file_name();
  auto batch_schema = std::make_shared<BatchSchema>();
  for (const std::string& path : paths) {
    auto node = FindNode(tree_schema, path);
    if (!node.ok()) return node.status().WithContext(missing_columns_are_null ? "dataset" : first);
    DecodedColumn col;
    col.path = path;
    auto plan = column::PlanNode(tree_schema, *node, &col.leaves);
    if (!plan.ok()) return plan.status().WithContext(first + ": column '" + path + "'");
    col.type = plan->type;
    const SchemaNode& n = tree_schema.nodes()[*node];
    batch_schema->fields.push_back({path, col.type, n.repetition != Repetition::kRequired});
    columns.push_back(std::move(col));
  }
  for (const auto& entry : files) {
    auto file = std::const_pointer_cast<FileEntry>(entry);
    for (const DecodedColumn& col : columns) {
      PQSIFT_ASSIGN_OR_RETURN(DecodedColumn resolved, Resolve(*file, col.path, col.type));
      file->output_columns.push_back(std::move(resolved));
    }
  }
  schema = batch_schema;
  return Status::OK();
}

// Column `path` (of the scan's type `type`) as `entry`'s file holds it: a partition value, a
// column of the file (maybe of a narrower type), or, when the file lacks it, NULL.
Result<DecodedColumn> Scanner::State::Resolve(const FileEntry& entry, const std::string& path,
                                              const std::shared_ptr<const DataType>& type) const {
  DecodedColumn col;
  col.path = path;
  col.type = type;
  for (size_t p = 0; p < partition_columns.size(); ++p) {
    if (partition_columns[p] == path) {
      col.constant = entry.partition_values.at(p);
      return col;
    }
  }
  const Schema& file_schema = entry.metadata->schema();
  const std::string& first = files.front()->metadata->file_name();
  const std::string& name = entry.metadata->file_name();
  auto node = FindNode(file_schema, path);
  if (!node.ok()) {
    if (!missing_columns_are_null) {
      return Status::InvalidArgument("column '" + path + "' is in " + first + " but not in " +
                                     name);
    }
    col.constant = expr::Value::Null();
    return col;
  }
  auto plan = column::PlanNode(file_schema, *node, &col.leaves);
  if (!plan.ok()) return plan.status().WithContext(name + ": column '" + path + "'");
  col.plan = std::move(plan).value();
  if (!(*col.plan.type == *type)) {
    if (!CanWiden(*col.plan.type, *type)) {
      return Status::InvalidArgument("column '" + path + "' is " + type->ToString() +
                                     " in the scan (" + first + ") but " +
                                     col.plan.type->ToString() + " in " + name);
    }
    col.widen = true;
  }
  return col;
}

// Binds the filter once to the scan's schema, then resolves its columns in each file; the
// pruning stages get the filter with the file's constant columns substituted.
Status Scanner::State::BindFilter() {
  if (options.filter.empty()) return Status::OK();
  auto bound = expr::BindFilter(options.filter, *tree);
  if (!bound.ok()) {
    return bound.status().WithContext(
        missing_columns_are_null ? std::string("dataset") : files.front()->metadata->file_name());
  }
  filter = std::move(bound).value();
  for (const auto& e : files) {
    auto entry = std::const_pointer_cast<FileEntry>(e);
    std::vector<std::optional<expr::Value>> constants;
    for (const expr::ColumnRef& ref : filter->columns) {
      PQSIFT_ASSIGN_OR_RETURN(DecodedColumn col, Resolve(*entry, ref.path, ref.type));
      constants.push_back(col.constant);
      entry->filter_columns.push_back(std::move(col));
    }
    entry->filter = filter;
    entry->proof_filter = expr::SubstituteConstants(*filter, constants);
    // The stages read statistics of this file's leaves, in the file's own types.
    const Schema& file_schema = entry->metadata->schema();
    for (expr::ColumnRef& ref : entry->proof_filter->columns) {
      const ColumnDescriptor* leaf = file_schema.FindColumn(ref.path);
      if (leaf == nullptr) {
        ref.leaf = -1;  // no such leaf in the file: nothing known
        continue;
      }
      ref.leaf = static_cast<int32_t>(leaf - file_schema.columns().data());
      auto type = column::ArrowTypeForLeaf(*leaf);
      if (type.ok()) ref.type = *type;
    }
  }
  return Status::OK();
}

Status Scanner::State::Plan() {
  PQSIFT_RETURN_IF_ERROR(Project());
  PQSIFT_RETURN_IF_ERROR(BindFilter());

  auto start = Clock::now();
  std::vector<scan::PlanInput> inputs;
  for (const auto& entry : files) {
    auto file = std::const_pointer_cast<FileEntry>(entry);
    std::vector<int32_t>& leaves = file->leaves;
    for (const auto* list : {&file->output_columns, &file->filter_columns}) {
      for (const DecodedColumn& col : *list) {
        if (!col.constant) leaves.insert(leaves.end(), col.leaves.begin(), col.leaves.end());
      }
    }
    std::sort(leaves.begin(), leaves.end());
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    file->page_indexes = std::make_unique<format::PageIndexStore>(*file->file, *file->metadata);
    scan::PlanInput input{file->file.get(),
                          file->metadata.get(),
                          file->proof_filter ? &*file->proof_filter : nullptr,
                          file->page_indexes.get(),
                          file->leaves,
                          {},
                          {}};
    input.fully_matched_by = file->fully_matched_by;
    input.excluded_row_groups = file->excluded_row_groups;
    inputs.push_back(input);
  }
  scan::PlanOptions plan_options;
  plan_options.prune = options.prune;
  plan_options.limit = options.limit;
  PQSIFT_ASSIGN_OR_RETURN(plan, scan::BuildAccessPlan(inputs, plan_options));
  PQSIFT_RETURN_IF_ERROR(LoadOffsetIndexes());
  plan_seconds = static_cast<double>(NanosSince(start)) * 1e-9;

  // Slices: the selected rows of each row group, cut by rows when a row group is very large.
  constexpr int64_t kMaxSliceBytes = int64_t{128} << 20;
  for (size_t f = 0; f < files.size(); ++f) {
    auto file = std::const_pointer_cast<FileEntry>(files[f]);
    const std::vector<int32_t>& leaves = file->leaves;
    const FileMetaData& meta = file->metadata->file();
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      if (rg_plan.rows.empty()) continue;
      const RowGroup& rg = meta.row_groups[g];
      auto data = std::make_shared<RowGroupData>(file, g, leaves, rg_plan.rows, &fetches);
      bool needs_filter = file->filter.has_value() && !rg_plan.fully_matched;
      int64_t slice_rows = rg.num_rows;
      if (rg.total_byte_size > kMaxSliceBytes) {
        slice_rows = std::max<int64_t>(options.batch_size,
                                       rg.num_rows * kMaxSliceBytes / rg.total_byte_size);
        slice_rows =
            (slice_rows + options.batch_size - 1) / options.batch_size * options.batch_size;
      }
      bool first = true;
      for (int64_t begin = 0; begin < rg.num_rows; begin += slice_rows) {
        auto part = rg_plan.rows.Intersect(
            prune::RowSelection::FromRanges({{begin, std::min(rg.num_rows, begin + slice_rows)}}));
        if (part.empty()) continue;
        prune::RowSelection matched = rg_plan.matched_rows.Intersect(part);
        slices.push_back({data, std::move(part), needs_filter, std::move(matched), first});
        first = false;
      }
    }
  }
  return Status::OK();
}

// The offset indexes of the leaves read in row groups the plan reads only in part, for the
// fetches to take only the pages they need (the page-index stage loaded most already, in the
// same reads as the column indexes).
Status Scanner::State::LoadOffsetIndexes() {
  for (size_t f = 0; f < files.size(); ++f) {
    const FileEntry& file = *files[f];
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = 0; g < plan.files[f].row_groups.size(); ++g) {
      if (plan.files[f].row_groups[g].decision() != prune::Decision::kSelection) continue;
      for (int32_t leaf : file.leaves) requests.push_back({g, leaf, false});
    }
    uint64_t bytes_read = 0;
    PQSIFT_RETURN_IF_ERROR(file.page_indexes->Load(requests, &bytes_read));
  }
  return Status::OK();
}

void Scanner::State::Finish(SliceResult& result, Status status) {
  std::lock_guard<std::mutex> lock(result.mu);
  if (!status.ok() && result.error.ok()) result.error = std::move(status);
  if (--result.pending == 0) result.done.notify_all();
}

Result<std::vector<std::shared_ptr<Array>>> Scanner::State::DecodeColumn(
    const ScanSlice& slice, const prune::RowSelection& rows, size_t output_column) {
  const DecodedColumn& column = slice.row_group->file().output_columns[output_column];
  auto start = Clock::now();
  PQSIFT_ASSIGN_OR_RETURN(auto readers, OpenReaders(*slice.row_group, {&column}, page_options()));
  // Scattered rows: a skip and a read cost about as much as decoding kDenseGapRows rows, so
  // shorter gaps are decoded and their rows dropped afterwards. Only gaps inside the slice's
  // rows: pages outside them may not have been fetched.
  constexpr int64_t kDenseGapRows = 32;
  prune::RowSelection decode = rows.WithGapsFilled(kDenseGapRows).Intersect(slice.rows);
  const bool drop = decode.row_count() != rows.row_count();
  WantedRows wanted(rows.ranges());
  std::vector<std::shared_ptr<Array>> out;
  Status st = WalkSelection(drop ? decode : rows, options.batch_size, readers, *cancelled,
                            [&](const std::vector<prune::RowRange>& pieces) -> Status {
                              size_t next = 0;
                              PQSIFT_ASSIGN_OR_RETURN(
                                  auto array, FlushColumn(column, readers, &next, RowsOf(pieces)));
                              if (drop) array = SelectRanges(*array, wanted.Within(pieces));
                              out.push_back(std::move(array));
                              return Status::OK();
                            });
  pages.Add(readers);
  decode_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  return out;
}

// Phase one of a filtered slice: decodes the filter columns of the selected rows, window by
// window, and keeps the rows where the filter is TRUE.
Result<prune::RowSelection> Scanner::State::EvaluateFilter(const ScanSlice& slice) {
  auto start = Clock::now();
  const FileEntry& file = slice.row_group->file();
  std::vector<const DecodedColumn*> filter_columns;
  for (const DecodedColumn& col : file.filter_columns) filter_columns.push_back(&col);
  PQSIFT_ASSIGN_OR_RETURN(auto readers,
                          OpenReaders(*slice.row_group, filter_columns, page_options()));
  std::vector<prune::RowRange> matches;
  // Without proven rows (the common case) the slice's rows are used as they are: no copies of a
  // selection that may hold millions of ranges.
  const bool proven = !slice.matched.empty();
  prune::RowSelection unproven = proven ? slice.rows.Difference(slice.matched) : slice.rows;
  Status st =
      WalkSelection(unproven, options.batch_size, readers, *cancelled,
                    [&](const std::vector<prune::RowRange>& pieces) -> Status {
                      std::vector<std::shared_ptr<Array>> arrays;
                      std::vector<const Array*> inputs;
                      size_t next = 0;
                      int64_t n = RowsOf(pieces);
                      for (const DecodedColumn* col : filter_columns) {
                        PQSIFT_ASSIGN_OR_RETURN(auto array, FlushColumn(*col, readers, &next, n));
                        inputs.push_back(array.get());
                        arrays.push_back(std::move(array));
                      }
                      auto mask = expr::EvaluateFilter(*file.filter, inputs, n);
                      if (!mask.ok()) return mask.status().WithContext(file.file->name());
                      AppendMatches(pieces, *mask, &matches);
                      return Status::OK();
                    });
  pages.Add(readers);
  rows_decoded += unproven.row_count();
  filter_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  prune::RowSelection found = prune::RowSelection::FromRanges(std::move(matches));
  return proven ? found.Union(slice.matched) : found;
}

// Phase two: one task per output column over `rows`. Called with result->pending counting the
// caller; each task adds itself before the caller finishes.
void Scanner::State::SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                                         const std::shared_ptr<SliceResult>& result) {
  {
    std::lock_guard<std::mutex> lock(result->mu);
    result->rows = rows.row_count();
    result->pending += static_cast<int>(columns.size());
  }
  // A filtered slice counted the rows whose filter columns it decoded; proven rows are decoded
  // here first.
  if (!columns.empty()) {
    rows_decoded += slice.needs_filter ? slice.matched.row_count() : rows.row_count();
  }
  auto shared_rows = std::make_shared<const prune::RowSelection>(std::move(rows));
  for (size_t c = 0; c < columns.size(); ++c) {
    pool->Submit([this, slice, shared_rows, c, result, cancelled = cancelled] {
      if (cancelled->load()) return Finish(*result, Status::Internal("cancelled"));
      auto arrays = DecodeColumn(slice, *shared_rows, c);
      Status status = arrays.status();
      if (status.ok()) {
        std::lock_guard<std::mutex> lock(result->mu);
        result->columns[c] = std::move(arrays).value();
      }
      Finish(*result, std::move(status));
    });
  }
}

void Scanner::State::Launch(const ScanSlice& slice) {
  auto result = std::make_shared<SliceResult>();
  result->pending = 1;  // this launch; output column tasks add themselves
  result->columns.resize(columns.size());
  in_flight.push_back(result);
  if (slice.first_of_row_group) ++row_groups_read;
  if (!slice.needs_filter) {
    SubmitOutputColumns(slice, slice.rows, result);
    Finish(*result, Status::OK());
    return;
  }
  pool->Submit([this, slice, result, cancelled = cancelled] {
    if (cancelled->load()) return Finish(*result, Status::Internal("cancelled"));
    auto matches = EvaluateFilter(slice);
    Status status = matches.status();
    if (status.ok()) SubmitOutputColumns(slice, std::move(matches).value(), result);
    Finish(*result, std::move(status));
  });
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
  scan::ScanInput input;
  for (size_t i = 0; i < files.size(); ++i) {
    input.files.push_back({std::move(files[i]), std::move(metadata[i]), {}, {}, {}});
  }
  input.counts.files_total = input.files.size();
  input.counts.footers_read = input.files.size();
  return Open(std::move(input), options);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(scan::ScanInput input, const ScanOptions& options) {
  if (input.files.empty() && !input.schema) return Status::InvalidArgument("no files to scan");
  if (options.batch_size <= 0) return Status::InvalidArgument("batch size must be positive");
  auto state = std::make_unique<State>();
  state->options = options;
  for (scan::ScanFile& f : input.files) {
    if (f.partition_values.size() != input.partition_columns.size()) {
      return Status::InvalidArgument(
          "a file of the scan has " + std::to_string(f.partition_values.size()) +
          " partition values for " + std::to_string(input.partition_columns.size()) + " columns");
    }
    auto entry = std::make_shared<FileEntry>();
    entry->file = std::move(f.file);
    entry->metadata = std::move(f.metadata);
    entry->partition_values = std::move(f.partition_values);
    entry->fully_matched_by = std::move(f.fully_matched_by);
    entry->excluded_row_groups = std::move(f.excluded_row_groups);
    state->files.push_back(std::move(entry));
  }
  state->missing_columns_are_null = input.schema != nullptr;
  if (input.schema) {
    state->tree = std::move(input.schema);
  } else {
    // The first file's schema, kept alive by its metadata.
    const auto& first = state->files.front()->metadata;
    state->tree = std::shared_ptr<const Schema>(first, &first->schema());
  }
  state->partition_columns = std::move(input.partition_columns);
  state->dataset_counts = input.counts;
  PQSIFT_RETURN_IF_ERROR(state->Plan());
  state->pool = std::make_unique<scan::ThreadPool>(options.threads);
  return std::unique_ptr<Scanner>(new Scanner(std::move(state)));
}

std::shared_ptr<const BatchSchema> Scanner::schema() const { return state_->schema; }

Result<std::shared_ptr<RecordBatch>> Scanner::Next() {
  State& s = *state_;
  // With a filter and a limit, the scan must stop as soon as enough rows matched: decoding row
  // groups ahead would fetch data the answer does not need.
  const bool stop_early = s.options.limit >= 0 && !s.options.filter.empty();
  const size_t max_in_flight = stop_early ? 1 : static_cast<size_t>(s.pool->size()) + 1;
  if (s.options.limit == 0) return std::shared_ptr<RecordBatch>();
  for (;;) {
    if (!s.ready.empty()) {
      std::shared_ptr<RecordBatch> batch = std::move(s.ready.front());
      s.ready.pop_front();
      if (s.options.limit >= 0 && s.rows_returned + batch->num_rows >= s.options.limit) {
        // The last batch of a limited scan: trim it and stop.
        int64_t keep = s.options.limit - s.rows_returned;
        if (keep < batch->num_rows) {
          for (auto& column : batch->columns) {
            PQSIFT_ASSIGN_OR_RETURN(column, Slice(*column, 0, keep));
          }
          batch->num_rows = keep;
        }
        s.limit_reached = true;
        s.ready.clear();
        s.cancelled->store(true);
      }
      s.rows_returned += batch->num_rows;
      if (batch->num_rows == 0) continue;
      return batch;
    }
    if (s.limit_reached) return std::shared_ptr<RecordBatch>();
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
    if (result->columns.empty()) {
      // No columns projected: batches of rows without columns, so counts stay right.
      for (int64_t done = 0; done < result->rows; done += s.options.batch_size) {
        auto batch = std::make_shared<RecordBatch>();
        batch->schema = s.schema;
        batch->num_rows = std::min(s.options.batch_size, result->rows - done);
        s.ready.push_back(std::move(batch));
      }
      continue;
    }
    size_t windows = result->columns.front().size();
    for (size_t w = 0; w < windows; ++w) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = s.schema;
      batch->num_rows = result->columns.front()[w]->length;
      for (auto& col : result->columns) batch->columns.push_back(std::move(col[w]));
      s.ready.push_back(std::move(batch));
    }
  }
}

const prune::AccessPlan& Scanner::plan() const { return state_->plan; }

ScanEstimate Scanner::Estimate() const {
  ScanEstimate out;
  const State& s = *state_;
  for (size_t f = 0; f < s.files.size(); ++f) {
    const auto& file = *s.files[f];
    const auto& row_groups = file.metadata->file().row_groups;
    for (size_t g = 0; g < row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg = s.plan.files[f].row_groups[g];
      if (rg.rows.empty()) continue;
      ++out.row_groups_to_read;
      out.rows_to_read += rg.rows.row_count();
      for (int32_t leaf : file.leaves) {
        const ColumnChunk& chunk = row_groups[g].columns[leaf];
        if (!chunk.meta_data) continue;
        auto range = column::ColumnChunkRange(*chunk.meta_data, file.file->size(), "");
        if (!range.ok()) continue;
        // The bytes read with the footer reach the end of the file: only what lies before them
        // is still to read.
        ByteRange cached = file.metadata->cached_range();
        auto before_cache = [&](const ByteRange& r) {
          return r.offset >= cached.offset ? 0 : std::min(r.end(), cached.offset) - r.offset;
        };
        const format::OffsetIndex* index =
            rg.decision() == prune::Decision::kSelection && file.page_indexes
                ? file.page_indexes->offset_index(g, leaf)
                : nullptr;
        std::optional<scan::PageFetch> pages;
        if (index != nullptr && before_cache(*range) == range->length) {
          pages = scan::PlanPageFetch(*range, *index, row_groups[g].num_rows, rg.rows);
        }
        if (!pages) {
          out.bytes_to_read += before_cache(*range);
          continue;
        }
        for (const ByteRange& r : pages->reads) out.bytes_to_read += before_cache(r);
      }
    }
  }
  return out;
}

ScanStats Scanner::stats() const {
  const State& s = *state_;
  ScanStats out;
  out.files_total = s.dataset_counts.files_total;
  out.files_skipped_by_partition = s.dataset_counts.files_skipped_by_partition;
  out.files_skipped_by_manifest = s.dataset_counts.files_skipped_by_manifest;
  out.footers_read = s.dataset_counts.footers_read;
  for (const auto& f : s.files) {
    IoStats io = f->file->stats();
    out.files += 1;
    out.file_bytes += f->file->size();
    out.bytes_read += io.bytes_read;
    out.read_requests += io.read_requests;
    out.row_groups += f->metadata->num_row_groups();
    out.rows_total += f->metadata->num_rows();
  }
  for (const prune::FilePlan& file : s.plan.files) {
    for (const prune::RowGroupPlan& rg : file.row_groups) {
      if (rg.rows.empty()) ++out.row_groups_skipped;
      if (!rg.rows.empty() && rg.fully_matched) ++out.row_groups_fully_matched;
    }
  }
  out.row_groups_read = s.row_groups_read;
  out.pages_read = static_cast<uint64_t>(s.pages.decoded.load());
  out.pages_not_fetched = static_cast<uint64_t>(s.fetches.pages_not_fetched.load());
  out.bytes_not_fetched = s.fetches.bytes_not_fetched.load();
  out.pages_total =
      out.pages_read + static_cast<uint64_t>(s.pages.passed_over.load()) + out.pages_not_fetched;
  out.rows_decoded = s.rows_decoded.load();
  out.rows_returned = s.rows_returned;
  out.plan_seconds = s.plan_seconds;
  out.filter_seconds = static_cast<double>(s.filter_nanos.load()) * 1e-9;
  out.decode_seconds = static_cast<double>(s.decode_nanos.load()) * 1e-9;
  return out;
}

}  // namespace pqsift
