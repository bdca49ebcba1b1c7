// The virtual columns of a scan (ScanOptions::row_index_column, ScanOptions::filename_column):
// columns no file stores, appended to the scan's schema so the projection, the filter and
// ORDER BY name them like any other.
//
//   row index   BIGINT, resolved in every file as a DecodedColumn without leaves
//               (DecodedColumn::row_index): its arrays are made from the row numbers a slice
//               decodes plus its row group's first row in the file (PlannedFile), so it is exact
//               whatever the stages, LIMIT, top-k or a split left out. Filters on it are proved
//               by the "row positions" stage (prune/row_position_stage.cc).
//   filename    VARCHAR, a constant per file: a partition column whose value is the file's
//               path (RedactUrl: no user info or query string, they may hold secrets), so a filter
//               on it is decided as partition values are, by the dataset before any footer is read
//               (dataset/dataset_scan.cc) and by every stage after. In the output batches it is
//               dictionary-encoded (ResolveOutputColumns): the file's name once, an int32 index
//               per row; filters see the plain VARCHAR.
//
// A dataset scan adds both to its unified schema itself (and the filename to its partition
// values, to prove filters on it before opening files); a scan of plain files gets them here
// (PrepareVirtualColumns, called by every Scanner::Open).
//
// Thread safety: plain functions, used while a scan opens.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/schema.h"
#include "pqsift/status.h"
#include "scan/scan_input.h"

namespace pqsift::scan {

struct VirtualColumn {
  enum class Kind { kRowIndex, kFilename };
  Kind kind;
  std::string name;
};

// The virtual columns `options` asks for, in schema order (row index, then filename).
std::vector<VirtualColumn> VirtualColumnsOf(const ScanOptions& options);

// The schema element of a virtual column (its name a view into `column`): an optional INT64, or
// an optional BYTE_ARRAY annotated STRING (never NULL, typed as a dataset's partition columns).
SchemaElement VirtualColumnElement(const VirtualColumn& column);

// InvalidArgument when `schema` has a top-level field named like a virtual column of `options`
// (case-insensitively, as names resolve), naming `file`.
Status CheckNoNameClash(const Schema& schema, const ScanOptions& options, const std::string& file);

// `first`'s schema with the virtual columns of `options` appended (the result keeps `first`
// alive). REQUIRES: VirtualColumnsOf(options) is not empty.
Result<std::shared_ptr<const Schema>> SchemaWithVirtualColumns(
    std::shared_ptr<const ParquetMetadata> first, const ScanOptions& options);

// Readies `input` for the virtual columns of `options` (nothing when it asks for none): no file
// may have a column of their names; a scan of plain files (no input->schema) gets the first
// file's schema with them appended (input->strict_columns keeps its rule: every file holds
// every column read); the filename becomes a partition column whose value is each file's name,
// unless the dataset made it one already.
Status PrepareVirtualColumns(const ScanOptions& options, ScanInput* input);

}  // namespace pqsift::scan
