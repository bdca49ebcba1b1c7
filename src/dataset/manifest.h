// The dataset manifest (`pqsift index`): a small Parquet file in the dataset's root folder,
// one row per (file, leaf column):
//
//   path      string  the file, relative to the manifest's folder
//   size      int64   the file's size and modification time when indexed: an entry is used
//   mtime_ns  int64   only while both still match (fresh); a changed file is opened as usual
//   num_rows  int64
//   column    string  the leaf's dotted path
//   min, max  binary  file-level bounds (nullable: unknown), a kind byte then the value
//   null_count int64  (nullable: unknown)
//   nan       bool    the column may hold NaN the bounds do not cover
//
// The bounds are the footer's row-group statistics under the trust rules (prune/statistics.h),
// merged over the row groups: a file-level claim as safe as the row-group ones. The key-value
// metadata `pqsift.schema` holds the dataset's unified schema (a Thrift FileMetaData without
// row groups, hex), so a scan can bind its filter without opening any data file.
#pragma once

#include <string>
#include <vector>

#include "expr/value.h"
#include "pqsift/dataset.h"
#include "scan/scan_input.h"

namespace pqsift::dataset {

// Uses the dataset's manifest, when there is a readable one, to skip files still in `keep`
// whose entry is fresh and whose statistics (with their partition values) prove no row can
// match `filter`; files they prove fully matched get proven[f] = "manifest". Counts skipped
// files in counts->files_skipped_by_manifest. A missing, unreadable or outdated manifest (or
// a filter that does not bind to its schema) prunes nothing: it is evidence, never required.
// When the manifest holds a fresh entry for every file of the dataset and no other, *schema is
// set to its record of the dataset's schema (the union over all files): then no footer needs
// reading for the schema. An empty `filter` only reads that. (*fresh_rows)[f] is set to file
// f's row count where its entry is fresh (left as is elsewhere).
// `partitions`: the scan's constant columns (the dataset's partitions, then the filename
// column when the scan has one), file f's values in partition_values[f]; `row_index_column`:
// the virtual row index (empty: none), whose values in a file are 0 .. num_rows - 1.
Status PruneWithManifest(const Dataset& dataset, const std::string& filter,
                         const std::vector<PartitionField>& partitions,
                         std::string_view row_index_column,
                         const std::vector<std::vector<expr::Value>>& partition_values,
                         std::vector<bool>* keep, std::vector<std::string>* proven,
                         scan::DatasetCounts* counts,
                         std::shared_ptr<const ParquetMetadata>* schema,
                         std::vector<int64_t>* fresh_rows);

}  // namespace pqsift::dataset
