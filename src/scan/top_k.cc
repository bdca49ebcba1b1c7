#include "scan/top_k.h"

#include <algorithm>
#include <map>

#include "arrow/layout.h"
#include "arrow/select.h"
#include "scan/runtime_check.h"

namespace pqsift::scan {
namespace {

// Candidates beyond 2K before they are cut back: fewer sorts when K is small.
constexpr int64_t kSlackRows = 4096;

bool Takeable(const DataType& type) {
  return !layout::IsNested(type.id) && type.id != TypeId::kNull;
}

}  // namespace

Result<std::unique_ptr<TopK>> TopK::Open(ScanInput input, const ScanOptions& options) {
  if (options.limit < 0) {
    return Status::InvalidArgument("ORDER BY needs a limit: only the first K rows are sorted");
  }
  if (options.runtime_filter) {
    return Status::InvalidArgument("ORDER BY brings its own runtime filter; pass none");
  }
  if (input.files.empty() && !input.schema) return Status::InvalidArgument("no files to scan");
  auto auto_keys = expr::ParseOrderBy(options.order_by);
  if (!auto_keys.ok()) return auto_keys.status().WithContext("ORDER BY");
  std::unique_ptr<TopK> top(new TopK());
  top->keys_ = *std::move(auto_keys);
  top->k_ = options.limit;
  top->batch_size_ = options.batch_size;
  // The scan's schema: the dataset's unified one, or the first file's.
  const Schema& schema = input.schema ? *input.schema : input.files.front().metadata->schema();
  for (const expr::OrderKey& key : top->keys_) {
    auto ref = ResolveLeafColumn(key.column, schema);
    if (!ref.ok()) return ref.status().WithContext("ORDER BY");
  }

  ScanOptions inner = options;
  inner.order_by.clear();
  inner.limit = -1;
  // The heap's rows come from many chunks, taken into one array: values, not dictionaries.
  inner.keep_dictionaries = false;
  if (inner.columns.empty()) {
    for (int32_t child : schema.root().children) {
      inner.columns.emplace_back(schema.nodes()[child].name);
    }
  }
  top->output_columns_ = inner.columns.size();
  for (const expr::OrderKey& key : top->keys_) {
    // The same column however it is spelled (Schema::FindNode): decoded once.
    const int32_t node = schema.FindNode(key.column);
    auto it = std::find_if(inner.columns.begin(), inner.columns.end(),
                           [&](const std::string& c) { return schema.FindNode(c) == node; });
    top->key_columns_.push_back(static_cast<size_t>(it - inner.columns.begin()));
    if (it == inner.columns.end()) inner.columns.push_back(key.column);
  }
  const expr::OrderKey& first = top->keys_.front();
  // A virtual first key (scan/virtual_columns.h) has no statistics to order row groups by or
  // to prove a runtime filter against: the heap alone decides.
  const int32_t first_node = schema.FindNode(first.column);
  const bool virtual_key =
      (!options.row_index_column.empty() &&
       schema.FindNode(options.row_index_column) == first_node) ||
      (!options.filename_column.empty() && schema.FindNode(options.filename_column) == first_node);
  if (!virtual_key) {
    top->filter_ = std::make_shared<RuntimeFilter>(std::vector<std::string>{first.column});
    inner.runtime_filter = top->filter_;
    inner.read_order = ReadOrder{first.column, first.descending, first.nulls_first};
  }
  PQSIFT_ASSIGN_OR_RETURN(top->inner_, Executor::Open(std::move(input), inner));

  auto out = std::make_shared<BatchSchema>();
  const BatchSchema& all = *top->inner_->schema();
  out->fields.assign(all.fields.begin(), all.fields.begin() + top->output_columns_);
  top->schema_ = std::move(out);
  return top;
}

Result<std::shared_ptr<RecordBatch>> TopK::Next() {
  if (!ran_) {
    ran_ = true;
    PQSIFT_RETURN_IF_ERROR(Run());
  }
  if (next_output_ == output_.size()) return std::shared_ptr<RecordBatch>();
  std::shared_ptr<RecordBatch> batch = std::move(output_[next_output_++]);
  rows_returned_ += batch->num_rows;
  return batch;
}

ScanStats TopK::stats() const {
  ScanStats s = inner_->stats();
  s.rows_returned = rows_returned_;
  return s;
}

Status TopK::Run() {
  if (k_ == 0) return Status::OK();
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, inner_->Next());
    if (batch == nullptr) break;
    PQSIFT_RETURN_IF_ERROR(Consume(*batch));
  }
  PQSIFT_ASSIGN_OR_RETURN(std::vector<RowRef> best, Best());
  return Emit(best);
}

Status TopK::Consume(const RecordBatch& batch) {
  if (batch.num_rows == 0) return Status::OK();
  chunks_.push_back(batch.columns);
  candidate_rows_ += batch.num_rows;
  if (candidate_rows_ >= k_ && (!compacted_ || candidate_rows_ >= 2 * k_ + kSlackRows)) {
    return Compact();
  }
  return Status::OK();
}

Result<std::vector<RowRef>> TopK::Best() const {
  std::vector<RowRef> rows;
  rows.reserve(static_cast<size_t>(candidate_rows_));
  for (size_t c = 0; c < chunks_.size(); ++c) {
    int64_t n = chunks_[c].front()->length;
    for (int64_t r = 0; r < n; ++r) rows.push_back({static_cast<uint32_t>(c), r});
  }
  std::vector<SortKey> keys;
  for (size_t k = 0; k < keys_.size(); ++k) {
    SortKey key;
    for (const auto& chunk : chunks_) key.chunks.push_back(chunk[key_columns_[k]]);
    key.descending = keys_[k].descending;
    key.nulls_first = keys_[k].nulls_first;
    keys.push_back(std::move(key));
  }
  PQSIFT_RETURN_IF_ERROR(SortFirstRows(keys, rows, static_cast<size_t>(k_)));
  return rows;
}

Status TopK::Compact() {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<RowRef> best, Best());
  PQSIFT_RETURN_IF_ERROR(Publish(best.back()));
  compacted_ = true;
  // The kept rows of each chunk, in chunk order (their order among themselves does not matter:
  // ties are broken by arrival, and chunk order is arrival order).
  std::map<uint32_t, std::vector<int64_t>> kept;
  for (const RowRef& r : best) kept[r.chunk].push_back(r.row);
  std::vector<std::vector<std::shared_ptr<Array>>> chunks;
  for (auto& [chunk, rows] : kept) {
    std::sort(rows.begin(), rows.end());
    std::vector<ElementRange> ranges;
    for (int64_t row : rows) {
      if (!ranges.empty() && ranges.back().end == row) {
        ++ranges.back().end;
      } else {
        ranges.push_back({row, row + 1});
      }
    }
    std::vector<std::shared_ptr<Array>> columns;
    for (const auto& column : chunks_[chunk]) columns.push_back(SelectRanges(*column, ranges));
    chunks.push_back(std::move(columns));
  }
  chunks_ = std::move(chunks);
  candidate_rows_ = static_cast<int64_t>(best.size());
  return Status::OK();
}

Status TopK::Publish(const RowRef& kth) {
  if (!filter_) return Status::OK();  // a virtual first key: nothing to publish to
  const Array& values = *chunks_[kth.chunk][key_columns_.front()];
  const expr::OrderKey& first = keys_.front();
  // With later keys, rows equal on the first key may still win on the next.
  const bool ties_compete = keys_.size() > 1;
  if (values.IsValid(kth.row)) {
    return first.descending
               ? filter_->PublishLowerBound(0, values, kth.row, ties_compete, first.nulls_first)
               : filter_->PublishUpperBound(0, values, kth.row, ties_compete, first.nulls_first);
  }
  if (!first.nulls_first) return Status::OK();  // every value beats a NULL that sorts last
  // The K best are all NULL: only NULLs can still compete, and only on later keys.
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> none, Slice(values, 0, 0));
  return filter_->PublishValueSet(0, *none, ties_compete);
}

Status TopK::Emit(const std::vector<RowRef>& rows) {
  if (rows.empty()) return Status::OK();
  bool takeable = true;
  for (size_t c = 0; c < output_columns_; ++c) takeable &= Takeable(*schema_->fields[c].type);
  auto column_chunks = [&](size_t c) {
    std::vector<std::shared_ptr<Array>> out;
    for (const auto& chunk : chunks_) out.push_back(chunk[c]);
    return out;
  };
  if (takeable) {
    std::vector<std::vector<std::shared_ptr<Array>>> columns;
    for (size_t c = 0; c < output_columns_; ++c) columns.push_back(column_chunks(c));
    for (size_t begin = 0; begin < rows.size(); begin += static_cast<size_t>(batch_size_)) {
      size_t end = std::min(rows.size(), begin + static_cast<size_t>(batch_size_));
      std::vector<RowRef> part(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                               rows.begin() + static_cast<std::ptrdiff_t>(end));
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = schema_;
      batch->num_rows = static_cast<int64_t>(part.size());
      for (const auto& chunks : columns) {
        PQSIFT_ASSIGN_OR_RETURN(auto array, TakeRows(chunks, part));
        batch->columns.push_back(std::move(array));
      }
      output_.push_back(std::move(batch));
    }
    return Status::OK();
  }
  // Nested output columns cannot be gathered row by row: one batch per run of rows that lie
  // next to each other in one chunk.
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin + 1;
    while (end < rows.size() && rows[end].chunk == rows[begin].chunk &&
           rows[end].row == rows[end - 1].row + 1) {
      ++end;
    }
    auto batch = std::make_shared<RecordBatch>();
    batch->schema = schema_;
    batch->num_rows = static_cast<int64_t>(end - begin);
    for (size_t c = 0; c < output_columns_; ++c) {
      PQSIFT_ASSIGN_OR_RETURN(
          auto array, Slice(*chunks_[rows[begin].chunk][c], rows[begin].row, batch->num_rows));
      batch->columns.push_back(std::move(array));
    }
    output_.push_back(std::move(batch));
    begin = end;
  }
  return Status::OK();
}

}  // namespace pqsift::scan
