// Scanning Parquet files into Arrow-layout record batches.
//
// A Scanner reads the projected columns of one or more files, row group by row group, and
// returns batches in file order. Row groups (and within them, columns) are decoded in
// parallel on a pool of `threads` workers; at most a few row groups are decoded ahead of the
// consumer, so memory stays bounded however large the files are.
//
// Example:
//   ScanOptions options;
//   options.columns = {"id", "s.a"};
//   auto scanner = Scanner::Open({"data.parquet"}, options);
//   if (!scanner.ok()) return scanner.status();
//   for (;;) {
//     auto batch = (*scanner)->Next();
//     if (!batch.ok()) return batch.status();
//     if (*batch == nullptr) break;  // the end
//     Use(**batch);
//   }
//
// Thread safety: a Scanner is used by one thread at a time (it runs its own workers inside).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/arrow_export.h"
#include "pqsift/parquet_file.h"
#include "pqsift/status.h"

namespace pqsift {

struct ScanOptions {
  // Dotted paths of the columns to return ("id", "s.a" for a struct field, "tags" for a whole
  // list). A group returns all its fields. Empty: every top-level field.
  std::vector<std::string> columns;
  int64_t batch_size = 64 * 1024;  // rows per batch at most
  int threads = 0;                 // decoding threads; 0: one per core
  int64_t limit = -1;              // stop after this many rows; -1: no limit
  bool verify_crc = false;         // check page CRCs where written (a mismatch is an error)
  OpenOptions open;
};

// What a scan cost and produced so far. Exact: every byte read goes through the counted I/O.
struct ScanStats {
  uint64_t files = 0;
  uint64_t file_bytes = 0;  // total size of the files
  uint64_t bytes_read = 0;  // footers and column chunks
  uint64_t read_requests = 0;
  uint64_t row_groups = 0;  // in the files
  uint64_t row_groups_read = 0;
  int64_t rows_returned = 0;
};

class Scanner : public BatchReader {
 public:
  // Opens every file and reads its footer. InvalidArgument for an unknown column or files whose
  // projected columns have different types; the errors of ReadParquetMetadata otherwise.
  static Result<std::unique_ptr<Scanner>> Open(const std::vector<std::string>& paths,
                                               const ScanOptions& options);
  // Scans files that are already open (their metadata read).
  static Result<std::unique_ptr<Scanner>> Open(
      std::vector<std::shared_ptr<RandomAccessFile>> files,
      std::vector<std::shared_ptr<const ParquetMetadata>> metadata, const ScanOptions& options);

  ~Scanner() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  // The next batch in file order, or nullptr at the end.
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ScanStats stats() const;

 private:
  struct State;
  explicit Scanner(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pqsift
