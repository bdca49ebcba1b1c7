// Resolving the columns a scan names in the files it reads: the projection (ScanOptions::columns),
// the filter's columns, the runtime filter's (and so ORDER BY's) columns.
//
// One rule for names everywhere: Schema::FindNode (the exact dotted path, else the one path equal
// to it ignoring case, as DuckDB resolves names); the filter binder uses the same. A column is
// resolved twice: once against the scan's schema (its type in the scan, ResolveOutputColumns /
// the binder), then in each file (ColumnResolver::Resolve): a file column (decoded, widened to the
// scan's type when the file stores a narrower one), a partition value, or, for a dataset whose
// file lacks the column, NULL; or the virtual row index (ScanOptions::row_index_column).
//
// Thread safety: none needed; used while the scan opens, on the caller's thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/binder.h"
#include "pqsift/runtime_filter.h"
#include "pqsift/scan.h"
#include "scan/planned_file.h"

namespace pqsift::scan {

// The output columns of a scan of `tree` (every top-level column when `paths` is empty), in the
// scan's types, and their batch schema. The virtual filename column (`filename_column`, empty:
// none) is dictionary-encoded there: dictionary<large_string>, one dictionary value per file
// under all its rows. InvalidArgument naming `where` for a name that resolves to no column (or
// to several).
Result<std::vector<DecodedColumn>> ResolveOutputColumns(const Schema& tree,
                                                        const std::vector<std::string>& paths,
                                                        const std::string& where,
                                                        std::shared_ptr<const BatchSchema>* schema,
                                                        const std::string& filename_column = {});

class ColumnResolver {
 public:
  // `partition_columns`: the scan's constant columns, in the order of each file's
  // partition_values. `missing_are_null`: a dataset (a column a file lacks is NULL); otherwise
  // every file must hold every column, named after the scan's first file `first_file`.
  // `row_index_column`: the name of the virtual row index (ScanOptions::row_index_column;
  // empty: none), resolved in every file as the row index, never as a file column.
  ColumnResolver(std::vector<std::string> partition_columns, bool missing_are_null,
                 std::string first_file, std::string row_index_column = {})
      : partition_columns_(std::move(partition_columns)),
        missing_are_null_(missing_are_null),
        first_file_(std::move(first_file)),
        row_index_column_(std::move(row_index_column)) {}

  // Column `path` (of the scan's type `type`) as `file` holds it. InvalidArgument when the file
  // lacks it (not a dataset) or stores a type that does not widen to `type`.
  Result<DecodedColumn> Resolve(const PlannedFile& file, const std::string& path,
                                const std::shared_ptr<const DataType>& type) const;

  // The scan's output columns (ResolveOutputColumns) in `file`: file->output_columns.
  Status ResolveOutputs(const std::vector<DecodedColumn>& columns, PlannedFile* file) const;

  // The filter (bound against the scan's schema) in `file`: its columns, the filter the pruning
  // stages prove (constants substituted, leaves and types the file's own), the slice filter.
  Status BindFilter(const expr::BoundFilter& filter, PlannedFile* file) const;

  // The runtime filter's columns in `file` (leaves, by the filter language's resolution);
  // `first`: the scan's first file once resolved (null for the first itself): every file must
  // hold them in the same type.
  Status BindRuntimeColumns(const RuntimeFilter& runtime, const PlannedFile* first,
                            PlannedFile* file) const;

 private:
  std::vector<std::string> partition_columns_;
  bool missing_are_null_;
  std::string first_file_;
  std::string row_index_column_;
};

}  // namespace pqsift::scan
