// Top-k: the first K rows of a scan in ORDER BY order (ScanOptions::order_by with limit K), in
// memory bounded by about 2K rows plus one batch.
//
//   inner scan: the output columns + the sort keys, row groups most promising first
//   (ScanOptions::read_order on the first key; a row group's slices too, where the key's page
//   index declares its pages in order: RowGroupSlicer::OrderWithin), a runtime filter on the first
//   key
//        |
//   candidates: batches as they come; once they hold K rows (and whenever they reach 2K + slack)
//   the best K are selected (arrow/sort.h SortFirstRows), the rest dropped, and the K-th row's
//   first key is published:
//        DESC: first key >= k-th (> when it is the only key: a row equal to the K-th cannot
//        displace it, ties keep the earlier row)        ASC: <= (or <)
//        NULLs pass while they sort first; a K-th that is NULL and sorts first leaves only NULLs
//        (multi-key) or nothing (one key) to compete; a NULL K-th sorting last publishes nothing
//        |
//   the scan proves that filter against each row group's (and loaded page's) statistics before
//   fetching it, so row groups that cannot beat the heap are never read
//        |
//   at the end: the best K in order, the hidden key columns dropped
//
// The inner scan is an Executor (scan/executor.h); pqsift::Scanner holds either one or a TopK.
// Thread safety: as Scanner (one thread at a time).
#pragma once

#include <memory>
#include <vector>

#include "arrow/sort.h"
#include "expr/order_by.h"
#include "pqsift/scan.h"
#include "scan/executor.h"
#include "scan/scan_input.h"

namespace pqsift::scan {

class TopK {
 public:
  // InvalidArgument: an ORDER BY that does not parse, a key that is not a sortable leaf column,
  // no limit, or a runtime filter of the caller's (top-k uses its own); Scanner::Open's errors.
  static Result<std::unique_ptr<TopK>> Open(ScanInput input, const ScanOptions& options);

  std::shared_ptr<const BatchSchema> schema() const { return schema_; }
  // The first call scans everything the runtime filter leaves; then the rows in order.
  Result<std::shared_ptr<RecordBatch>> Next();
  ScanStats stats() const;
  const Executor& inner() const { return *inner_; }
  void Cancel() { inner_->Cancel(); }  // Executor::Cancel: callable from any thread

 private:
  TopK() = default;
  Status Run();
  Status Consume(const RecordBatch& batch);
  // The best min(K, candidates) rows of the candidates, in order.
  Result<std::vector<RowRef>> Best() const;
  // Keeps only the best K candidates and publishes the K-th row's first key.
  Status Compact();
  Status Publish(const RowRef& kth);
  Status Emit(const std::vector<RowRef>& rows);

  std::vector<expr::OrderKey> keys_;
  std::vector<size_t> key_columns_;  // position of each key among the inner scan's columns
  size_t output_columns_ = 0;        // the first columns of the inner scan are the output
  int64_t k_ = 0;
  int64_t batch_size_ = 0;
  std::shared_ptr<RuntimeFilter> filter_;
  std::unique_ptr<Executor> inner_;
  std::shared_ptr<const BatchSchema> schema_;

  std::vector<std::vector<std::shared_ptr<Array>>> chunks_;  // candidates: chunks_[c][column]
  int64_t candidate_rows_ = 0;
  bool compacted_ = false;
  bool ran_ = false;
  std::vector<std::shared_ptr<RecordBatch>> output_;
  size_t next_output_ = 0;
  int64_t rows_returned_ = 0;
};

}  // namespace pqsift::scan
