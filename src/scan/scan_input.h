// What a dataset scan hands the Scanner beyond open files: the dataset's schema (file columns
// unified over the files, then the partition columns), each file's partition values, what the
// dataset-level evidence already proved, and the counts of what it pruned before opening files.
//
// The Scanner binds the filter once against `schema` and resolves every column in each file
// by path: a file column is decoded (and widened to the dataset's type when the file stores a
// narrower one); a partition column, or a column the file lacks, is a constant: every row holds
// the partition value, or NULL. The pruning stages see the filter with those constants
// substituted (expr/substitute.h), so a partition value is evidence like an exact min = max.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "expr/value.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "pqsift/plan.h"
#include "pqsift/schema.h"

namespace pqsift::scan {

struct ScanFile {
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
  // One per ScanInput::partition_columns: this file's value (Value::Null() for NULL), in the
  // Value domain of the column's type.
  std::vector<expr::Value> partition_values;
  // Non-empty: dataset-level evidence (named here, e.g. "manifest") proved every row of the
  // file matches the filter, so no row group needs the residual filter.
  std::string fully_matched_by;
  // Row groups left out before any stage (a split reads only some); empty: none.
  std::vector<uint8_t> excluded_row_groups;
  // The path the file was opened from, as the dataset names it: a URL keeps its query string (a
  // signed URL's signature), so it is for reaching the file again (splits), never for messages,
  // which use file->name(). Empty: file->name().
  std::string source;
};

// Counts of the dataset layer, reported in ScanStats.
struct DatasetCounts {
  uint64_t files_total = 0;
  uint64_t files_skipped_by_partition = 0;
  uint64_t files_skipped_by_manifest = 0;
  uint64_t footers_read = 0;  // footers decoded for this scan (not taken from the cache)
  // A count(*) (ScanOptions::count_only) of files the evidence proved fully matched takes
  // their row counts from a fresh manifest: these files are never opened, their rows are
  // returned as such.
  uint64_t files_counted_by_manifest = 0;
  int64_t rows_counted_by_manifest = 0;
};

// A file of the dataset the dataset's evidence kept from being opened, for the access plan.
struct UnopenedFile {
  std::string path;
  uint64_t size = 0;
  FileFate fate = FileFate::kSkippedByPartition;
  std::string evidence;  // "day=2026-01-05", "manifest statistics"
};

struct ScanInput {
  std::vector<ScanFile> files;
  // The columns the filter binds to and the projection resolves in. Null: the first file's
  // schema, and every file must then hold every column the scan reads.
  std::shared_ptr<const Schema> schema;
  // Top-level leaves of `schema` that are partition columns, in the order of partition_values.
  std::vector<std::string> partition_columns;
  // True: `schema` is the first file's (with virtual columns added, scan/virtual_columns.h) and
  // every file must hold every column read, as without a schema.
  bool strict_columns = false;
  DatasetCounts counts;
  // The files pruned before opening, in dataset order (also counted in `counts`).
  std::vector<UnopenedFile> unopened;
  // The counters the files share (their round trips and network wait add up only there), and
  // what opening the files and reading their footers cost; null: each file's own counts.
  std::shared_ptr<IoCounters> io;
  IoStats footer_io;
};

}  // namespace pqsift::scan
