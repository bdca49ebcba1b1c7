// One file of a scan as the planning left it: its columns resolved (scan/column_resolver.h),
// its filter bound, its page indexes and dictionary pages loaded, the leaves it reads.
//
// Ownership and thread safety: the executor (scan/executor.h) builds each PlannedFile while it
// opens the scan, on the caller's thread, and never changes it afterwards; from then on it is
// shared as `std::shared_ptr<const PlannedFile>` by the row groups and slices of the scan and
// read from every worker thread. The two stores it owns are thread-safe where the workers use
// them (PageIndexStore's loaded indexes are read-only once planned; DictionaryStore's bytes are
// taken under its own lock).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "column/nested.h"
#include "expr/binder.h"
#include "expr/value.h"
#include "format/page_index_store.h"
#include "pqsift/array.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/row_selection.h"
#include "scan/dictionary_store.h"

namespace pqsift::scan {

// A column the scan decodes: an output column (a projected path, maybe a whole struct) or a
// filter column (one leaf), as one file stores it; or a constant: a partition column, or a
// column the file lacks (NULL).
struct DecodedColumn {
  std::string path;  // as the file names it
  column::AssemblyNode plan;
  std::vector<int32_t> leaves;
  std::shared_ptr<const DataType> type;  // the scan's type: the file's is widened to it
  bool widen = false;                    // the file stores a narrower type (arrow/widen.h)
  std::optional<expr::Value> constant;   // set: not in the file; every row holds this value
  // A non-null constant of a dictionary type: its one-entry dictionary, shared by the arrays of
  // every batch of the file.
  std::shared_ptr<Array> constant_dictionary;
  // The virtual row index (ScanOptions::row_index_column): no leaves; each row's array value is
  // its position in the file, made from the row numbers the slice decodes (RowIndexArray).
  bool row_index = false;

  // Whether `output`'s arrays are this column's: the same leaves, assembled and widened alike (a
  // runtime filter's column has no scan type: it is the file's).
  bool DecodesAs(const DecodedColumn& output) const;

  // The decoded (or constant) array of `rows` rows in the scan's type.
  Result<std::shared_ptr<Array>> Finish(std::shared_ptr<Array> decoded, int64_t rows) const;
};

// The filter a slice evaluates on its rows: the scan's filter, AND the runtime filter as it stood
// when the slice was launched. columns[k] decodes filter.columns[k]; the pointers are into the
// PlannedFile, which outlives every slice.
struct SliceFilter {
  expr::BoundFilter filter;
  std::vector<const DecodedColumn*> columns;
  // Per output column: the filter column that decodes it the same way (its decoded windows are
  // gathered instead of decoding it again), or -1.
  std::vector<int> output_from_filter;

  void MatchOutputColumns(const std::vector<DecodedColumn>& outputs);
  // Whether some output column is gathered from the filter's windows (then the filter keeps them,
  // and decodes every row of the slice).
  bool FeedsOutputs() const;
};

// The row index array of the rows `pieces` (row numbers within a row group whose first row is
// `first_row` in its file), in order: first_row + row for each row.
std::shared_ptr<Array> RowIndexArray(int64_t first_row, const std::vector<prune::RowRange>& pieces);

struct PlannedFile {
  size_t index = 0;  // in the scan's files
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
  std::vector<expr::Value> partition_values;  // per ScanInput::partition_columns
  std::string fully_matched_by;               // dataset-level proof that every row matches
  std::vector<uint8_t> excluded_row_groups;   // outside the scan's split
  std::string source;                         // ScanFile::source, never empty (not for messages)
  std::vector<DecodedColumn>
      output_columns;  // per output column of the scan, as this file holds it
  // The filter as bound against the scan's schema (the same for every file), and for the
  // pruning stages with this file's constant columns substituted and its leaves resolved.
  std::optional<expr::BoundFilter> filter;
  std::optional<expr::BoundFilter> proof_filter;
  std::vector<DecodedColumn> filter_columns;  // filter->columns[k] is filter_columns[k]
  std::vector<int32_t> leaves;  // every leaf the scan reads: output and filter, sorted, once
  // Per row group: the position in the file of its first row (the footer's row counts of the
  // row groups before it, whether the scan reads them or not).
  std::vector<int64_t> row_group_first_rows;
  // The page indexes the planning loaded (its offset indexes say which pages a selection needs).
  std::unique_ptr<format::PageIndexStore> page_indexes;
  // The runtime filter's columns in this file: runtime_refs[k] and runtime_columns[k] are
  // RuntimeFilter column k.
  std::vector<expr::ColumnRef> runtime_refs;
  std::vector<DecodedColumn> runtime_columns;
  std::shared_ptr<const SliceFilter> scan_filter;  // `filter` over filter_columns
  // The dictionary pages the planning fetched; their bytes are taken by the chunk fetches.
  std::unique_ptr<DictionaryStore> dictionaries;
};

}  // namespace pqsift::scan
