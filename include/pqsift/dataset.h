// Datasets: many Parquet files read as one table.
//
// A dataset is named by paths: files, folders (every file below them, recursively, in sorted
// order; names starting with '.' or '_' are left out, as Hive, Spark and Arrow do) and glob
// patterns ('*' and '?' within a name, '[...]' classes, '**' for any number of folders:
// data/**/*.parquet). Folder names of the form key=value (hive partitioning) become columns,
// appended after the file columns: the value URL-decoded, __HIVE_DEFAULT_PARTITION__ read as
// NULL, the type inferred over all files as DuckDB does (BIGINT if every value is an integer,
// else DATE, else TIMESTAMP, else VARCHAR) or given.
//
// Files whose schemas differ are unified by name: a column a file lacks reads as NULL there, and
// a column stored with a narrower type in some files (int32 / int64, float / double) reads as
// the wider one. Any other difference is an error naming both files.
//
// The scan proves what it can before opening a file: a filter's conjuncts over partition
// columns are decided from the path alone (a file that cannot match is never opened), and a
// manifest (`WriteManifest`; `pqsift index`) holding each file's row count and per-column
// min/max/null counts skips files without reading their footers. Footers are kept in a
// process-wide cache keyed by path, size and modification time.
//
// Example:
//   auto dataset = Dataset::Discover({"events/"}, DatasetOptions{});
//   ScanOptions options;
//   options.filter = "day = DATE '2026-01-05' AND user_id = 42";
//   auto scanner = OpenDatasetScan(*dataset, options);  // then Next() as for any Scanner
//
// Thread safety: Dataset is immutable after Discover; the footer cache is thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pqsift/scan.h"
#include "pqsift/status.h"
#include "pqsift/storage.h"

namespace pqsift {

struct DatasetFile {
  std::string path;
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // modification time, nanoseconds since the epoch
  std::string version;   // a remote object's ETag (empty: none known)
  // False for a remote file named explicitly: size, mtime and version are learnt when it is
  // opened (asking before would cost a request each).
  bool known = true;
};

// The files `inputs` name, each input expanded in place (folders and globs in sorted order),
// listed through `storage` (null: Storage::Default()): local paths, s3:// prefixes and
// globs, http(s):// URLs named one by one. NotFound-style IOError for a path that does not
// exist or a glob that matches nothing.
Result<std::vector<DatasetFile>> ExpandPaths(const std::vector<std::string>& inputs,
                                             const std::shared_ptr<Storage>& storage = nullptr);

// Whether `path` matches `pattern` segment by segment ('/' separated): '**' matches any number
// of segments (none too), '*' any run of characters within a segment, '?' one, '[...]' a class.
bool GlobMatch(std::string_view pattern, std::string_view path);

enum class PartitionType { kInt64, kFloat64, kDate, kTimestamp, kString };

struct PartitionField {
  std::string name;
  PartitionType type = PartitionType::kString;
};

// "day:date,region:string,n:bigint" (types: bigint/int64, double/float64, date,
// timestamp, string/varchar). InvalidArgument naming the bad part.
Result<std::vector<PartitionField>> ParsePartitionSchema(std::string_view text);

// The folder value of a NULL partition key, as Hive and Spark write it (and PartitionedWriter,
// pqsift/writer.h, for NULL and the empty string).
inline constexpr std::string_view kHiveNullPartition = "__HIVE_DEFAULT_PARTITION__";

// The key=value folder names of `path` (not the file name), in order: value URL-decoded,
// nullopt for kHiveNullPartition.
std::vector<std::pair<std::string, std::optional<std::string>>> HiveSegments(std::string_view path);

struct DatasetOptions {
  bool hive_partitioning = true;                 // key=value folders become columns
  std::vector<PartitionField> partition_schema;  // types of these keys (others inferred)
  bool use_manifest = true;                      // use a fresh manifest when there is one
  // Where the paths are listed and opened (pqsift/storage.h); null: Storage::Default(). A
  // dataset's scan opens its files through it (ScanOptions::open.storage is not consulted).
  std::shared_ptr<Storage> storage;
};

class Dataset {
 public:
  // Expands the paths, reads the partition values of every file and types them. No file is
  // opened. InvalidArgument when files have different partition keys (naming two of them), or
  // a value does not parse as its given type.
  static Result<Dataset> Discover(const std::vector<std::string>& inputs,
                                  const DatasetOptions& options = {});

  const std::vector<DatasetFile>& files() const { return files_; }
  const std::vector<PartitionField>& partitions() const { return partitions_; }
  // partition_values()[f][p]: partition p of file f as written (nullopt: NULL).
  const std::vector<std::vector<std::optional<std::string>>>& partition_values() const {
    return values_;
  }
  const DatasetOptions& options() const { return options_; }
  // The folder a manifest for this dataset lives in: the one folder input, or the folder part
  // of a glob before its first wildcard; empty when the inputs name no single root.
  const std::string& root() const { return root_; }
  // A remote root (s3://...) is listed: whether the listing showed a manifest there (false:
  // none, so the scan does not ask for it). Local roots and unlisted ones: true (look).
  bool may_have_manifest() const { return may_have_manifest_; }

 private:
  std::vector<DatasetFile> files_;
  std::vector<PartitionField> partitions_;
  std::vector<std::vector<std::optional<std::string>>> values_;
  DatasetOptions options_;
  std::string root_;
  bool may_have_manifest_ = true;
};

// A byte range of one file: a scan of it reads the row groups whose midpoint (the middle of
// their column chunks' bytes) lies in [start, end), as parquet-java and DataFusion do, so
// splits that cut a file into disjoint ranges read each row group exactly once.
struct Split {
  std::string path;
  uint64_t start = 0;
  uint64_t end = 0;
  int64_t row_groups = 0;  // row groups the plan reads in it (PlanSplits)
  int64_t rows = 0;        // rows of those row groups
};

// "FILE:START:END" (the last two colons split; FILE may hold colons). InvalidArgument else.
Result<Split> ParseSplit(std::string_view text);

// Splits of about `target_bytes` of column data each over the row groups a scan with
// `options` would read (after file and row-group pruning), in file order; a row group is never
// cut, so a split may be larger than the target. Every row group the plan reads is in exactly
// one split. The columns of `options` do not change the splits; with `schema`, it receives the
// schema of a scan of the dataset with `options` (the same opening serves both).
Result<std::vector<Split>> PlanSplits(const Dataset& dataset, const ScanOptions& options,
                                      uint64_t target_bytes,
                                      std::shared_ptr<const BatchSchema>* schema = nullptr);

// What the footer statistics say about one leaf column in the row groups of a split (those whose
// midpoint lies in it), under the trust rules pruning uses: every value there lies in
// [min, max]. The bounds may be inexact (a truncated string) but always bound the values.
struct ColumnRange {
  // One-element arrays of the column's Arrow type; null when some row group has no trusted
  // bound (no statistics, an order pqsift does not trust, a float column that may hold NaN) or
  // the type has no bounds (nested, float16).
  std::shared_ptr<Array> min;
  std::shared_ptr<Array> max;
  bool may_have_nulls = true;  // some row group may hold NULL in the column (or does not say)
};

// Per split, the range of `column` (a dotted leaf path) over its row groups: the divisions of a
// dataframe indexed by a column the files are sorted by (pqsift.dask.read_parquet). Reads each
// file's footer once. InvalidArgument when a file lacks the column.
Result<std::vector<ColumnRange>> SplitColumnRanges(const std::vector<Split>& splits,
                                                   const std::string& column,
                                                   const OpenOptions& open = {});

// Opens a scan of the dataset: partition pruning and the manifest first (files they prove
// cannot match are never opened), then the footers of the other files (from the cache when
// fresh), their schemas unified with the partition columns, then a Scanner over them as over
// any files. ScanStats counts files_total, files_skipped_by_partition,
// files_skipped_by_manifest and footers_read. With options.prune false nothing is skipped.
// With `split`: only the row groups of split->path whose midpoint lies in its range.
Result<std::unique_ptr<Scanner>> OpenDatasetScan(const Dataset& dataset, const ScanOptions& options,
                                                 const Split* split = nullptr);

// The manifest file name, in the dataset's root folder.
inline constexpr std::string_view kManifestName = "_pqsift_manifest.parquet";

// Writes the manifest of `dataset` to `path`: per file its path (relative to the manifest's
// folder), size, mtime and row count, and per leaf column its min, max and null count over the
// file (from the footer's statistics under the trust rules). Reads every footer.
Status WriteManifest(const Dataset& dataset, const std::string& path);

// Drops every footer the process cached (tests; a long-running host after files changed in
// place without a new mtime).
void ClearFooterCache();

}  // namespace pqsift
