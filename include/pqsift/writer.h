// Writing Arrow-layout record batches (array.h, the batches a Scanner returns) to a Parquet file
// that every engine can read and prune.
//
// Every file carries, by default:
//  - per column chunk: statistics in min_value/max_value (ColumnOrder TYPE_DEFINED_ORDER),
//    null_count, is_min_value_exact/is_max_value_exact, nan_count for floats; byte-array bounds
//    longer than `statistics_truncate_bytes` are cut to a shorter lower bound (a prefix) and
//    upper bound (a prefix with its last byte incremented; left out when none exists), with the
//    exact flags false; encoding_stats;
//  - a column index (per-page bounds, null pages, null counts) and an offset index (page
//    locations, first row of each page) for every column chunk, stored together before the
//    footer (PageIndex.md);
//  - pages small enough for page-level pruning: a page ends after `page_rows` rows or once it
//    holds about `page_bytes` encoded bytes, whichever comes first. 20,000 rows is a few
//    hundred KiB of typical numeric data (well under DuckDB's and Arrow's 1 MiB page target), so
//    a one-million-row group has about 50 pages per column: a selective predicate on a sorted or
//    clustered column reads a fiftieth of the chunk, and the per-page overhead (a header of
//    ~30 bytes, one column index entry, one offset index entry) stays negligible;
//  - sorting_columns on every row group: the columns whose values the writer saw never decrease
//    (or never increase) from row to row in that row group, with their nulls all first or all
//    last (NaN makes a float column unsorted); a claim checked on every value, never assumed
//    (with `sort_by`: the sort keys instead);
//  - on request (`bloom_filters`), a split-block bloom filter per column chunk of the chosen
//    columns (BloomFilter.md), all stored together before the page indexes, so readers can
//    skip row groups whose filter proves an equality's value absent;
//  - on request (`encryption`), Parquet modular encryption of the footer and of all or some
//    columns (every module of theirs), readable by parquet-java, Arrow and arrow-rs;
//  - dictionary encoding (RLE_DICTIONARY data pages, PLAIN dictionary page) when the chunk's
//    first page is smaller with it than in PLAIN (else PLAIN throughout, with no dictionary
//    page), falling back to PLAIN for the rest of the chunk once the dictionary page would
//    exceed `dictionary_page_bytes`. Booleans are PLAIN.
// Data pages are v1 (or v2 with `data_page_v2`) with RLE repetition and definition levels; see
// leaf_spec.h for how each flat Arrow type is stored. Nested columns (struct, large_list, map, at
// any depth, nullable at every level) are stored as Parquet groups of leaves (src/write/
// shredder.h: a struct as a group, a list as the 3-level LIST, a map as MAP with key_value),
// reading back as the same Arrow type; every leaf is a column chunk with its own statistics,
// page index and options (column_encodings and bloom_filters name a leaf by its dotted path,
// e.g. "l.list.element"; a flat column's path is its name). A page holds whole rows: its
// first_row_index in the offset index is a row (PageIndex.md), and null counts count level
// entries below the leaf's maximum definition level.
//
// Streaming, bounded memory: Write encodes and compresses the batch's values at once, so the
// batch need only live during the call. The writer holds at most one row group's encoded pages
// per column (plus each chunk's dictionary), writes the row group when it reaches
// `row_group_rows`, and keeps only its small metadata (footer entries and page indexes) until
// Close. Peak memory is about one compressed row group, whatever the file's size.
//
// Example:
//   auto file = OpenLocalWritableFile("out.parquet");
//   if (!file.ok()) return file.status();
//   auto writer = ParquetWriter::Open(std::move(*file), batch_schema, WriterOptions{});
//   if (!writer.ok()) return writer.status();
//   for (...) PQSIFT_RETURN_IF_ERROR((*writer)->Write(batch));
//   PQSIFT_RETURN_IF_ERROR((*writer)->Close());
//
// Thread safety: a writer is used by one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift {

// How one column's bloom filters are sized: for `ndv` distinct values at a false-positive rate of
// `fpp` (BloomFilter.md's formula, rounded up to a power of two between 32 bytes and 128 MiB).
struct BloomFilterOptions {
  int64_t ndv = 0;    // 0: the number of distinct values each row group actually holds
  double fpp = 0.01;  // in (0, 1)
};

// Writing a file with Parquet modular encryption (WriterOptions::encryption).
//
// The footer key encrypts the footer ("PARE" file) or, with `plaintext_footer`, signs it (a
// "PAR1" file whose plaintext columns older readers still read). Columns: with no entry in
// `columns`, every column is encrypted with the footer key ("uniform encryption"); otherwise
// exactly the listed ones (by leaf path, as WriterOptions::bloom_filters names them), each with
// its own key, or with the footer key when its key is empty; the others stay plaintext.
// An encrypted column's page headers, pages, dictionary page, column and offset index and bloom
// filter are modules under its key; its metadata too when its key is not the footer's, or the
// footer is plaintext (then the plaintext copy loses its statistics, Encryption.md 5.5).
//
// Keys (16, 24 or 32 raw bytes) never land in the file: only the key metadata given, if any.
// This struct wipes its keys when destroyed; the writer keeps its own wiped copies.
struct ColumnEncryption {
  std::string key;           // empty: the footer key
  std::string key_metadata;  // stored in the column's crypto metadata when not empty
};

struct EncryptionOptions {
  std::string footer_key;
  std::string footer_key_metadata;  // stored for the footer key when not empty
  std::map<std::string, ColumnEncryption> columns;
  bool plaintext_footer = false;
  // The AAD prefix (the file's identity, e.g. "table.part0"), stored in the file unless
  // `store_aad_prefix` is false: readers must then supply it (DecryptionOptions::aad_prefix).
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;
  // AES_GCM_CTR_V1 (pages under AES-CTR, not authenticated, every other module GCM) instead of
  // AES_GCM_V1 (every module GCM).
  bool ctr = false;

  EncryptionOptions() = default;
  EncryptionOptions(const EncryptionOptions&) = default;
  EncryptionOptions(EncryptionOptions&&) = default;
  EncryptionOptions& operator=(const EncryptionOptions&) = default;
  EncryptionOptions& operator=(EncryptionOptions&&) = default;
  ~EncryptionOptions();
};

struct WriterOptions {
  CompressionCodec compression = CompressionCodec::kSnappy;
  int compression_level = 0;  // 0: the codec's default (ZSTD 1..22, GZIP 1..9, BROTLI 0..11)
  int64_t row_group_rows = 1'000'000;
  int64_t page_rows = 20'000;             // a data page ends after this many rows ...
  int64_t page_bytes = int64_t{1} << 20;  // ... or about this many encoded bytes
  bool dictionary = true;
  int64_t dictionary_page_bytes = int64_t{1} << 20;  // past this, PLAIN for the rest of the chunk
  bool page_index = true;                  // column index and offset index for every chunk
  int32_t statistics_truncate_bytes = 64;  // byte-array bounds longer than this are cut; 0: never
  // Data pages v2 (levels uncompressed before the values, row and null counts in the header,
  // so readers can skip a page without decompressing it); off by default, as some older
  // readers accept only v1.
  bool data_page_v2 = false;
  // A CRC-32 of each page's stored bytes in its header (PageHeader.crc), which readers verify
  // on request (ScanOptions::verify_crc, `--verify-crc`).
  bool page_checksums = false;
  // Per leaf column (by name; nested leaves by dotted path): every data page in this encoding
  // (PLAIN, RLE for booleans, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
  // BYTE_STREAM_SPLIT) instead of dictionary / PLAIN. Open fails with NotSupported for an encoding
  // the column's physical type does not have, InvalidArgument for a column the schema does not
  // have.
  std::map<std::string, Encoding> column_encodings;
  // Rows sorted within each row group by these columns (first key first; stable), declared as
  // the row group's sorting_columns. Open fails with NotSupported when the schema has a nested
  // column. Floats sort with NaN above every number. The writer then
  // holds one row group of input rows (the batches' arrays, shared, not copied) until it is
  // complete: memory grows by about one row group of Arrow data.
  struct SortBy {
    std::string column;
    bool descending = false;
    bool nulls_first = false;
  };
  std::vector<SortBy> sort_by;
  // Per leaf column (by name; nested leaves by dotted path): a bloom filter in every row group.
  // Open fails with InvalidArgument for a column the schema does not have or options out of range,
  // NotSupported for a boolean column (the spec defines no hash for its bit-packed PLAIN form). The
  // writer keeps each chunk's distinct hashes until the row group ends (8 bytes per distinct
  // value), and the filters until Close (up to 64 MiB; beyond that they are written after their row
  // group).
  std::map<std::string, BloomFilterOptions> bloom_filters;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  std::string created_by;  // empty: "pqsift version <version>"
  // Parquet modular encryption (EncryptionOptions above): nullptr writes a plaintext file. Open
  // fails with InvalidArgument for a key that is not 16, 24 or 32 bytes or a column the schema does
  // not have; Write and Close with InvalidArgument past 32,767 row groups or pages in a chunk (the
  // module AADs count them in 2-byte shorts). With encryption, page_checksums are not written
  // for encrypted columns (their GCM tags authenticate the pages).
  std::shared_ptr<const EncryptionOptions> encryption;
};

class ParquetWriter {
 public:
  // Starts a file with `schema` (the "PAR1" magic is written at once). InvalidArgument for
  // options out of range (a page or row group of fewer than one row, a bad compression level);
  // NotSupported for a column type the writer cannot store (leaf_spec.h) or a codec it cannot
  // write (LZO, the deprecated LZ4: use LZ4_RAW). A top-level dictionary column (the scan's
  // filename column) is stored as a column of its values, dictionary-encoded as any other.
  static Result<std::unique_ptr<ParquetWriter>> Open(std::unique_ptr<WritableFile> file,
                                                     std::shared_ptr<const BatchSchema> schema,
                                                     const WriterOptions& options = {});
  ~ParquetWriter();

  // Appends the rows of `batch`. InvalidArgument when its columns do not match the schema
  // (count, types, nullability) or fail ValidateArrayLayout, a nested column has a null under a
  // non-nullable field or list offsets out of range, or a value cannot be stored (a binary
  // value of 4 GiB or more); IOError from the file. After an error the writer is
  // unusable (Close returns the same error and leaves the file incomplete). InvalidArgument
  // after Close.
  Status Write(const RecordBatch& batch);

  // Writes the last row group, the page indexes and the footer, and closes the file.
  // InvalidArgument when called again.
  Status Close();

  int64_t num_rows() const;        // rows written so far
  int64_t num_row_groups() const;  // row groups completed so far

 private:
  struct State;
  explicit ParquetWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// A hive-partitioned dataset: each row goes to ROOT/k1=v1[/k2=v2...]/part-N.parquet by its
// values of the partition columns, which the files leave out (as Hive, Spark, DuckDB's
// PARTITION_BY and Polars' partition_by do); `pqsift scan ROOT` reads them back from the folder
// names, and a filter on them skips whole folders unopened.
//
// Folder names: integers, booleans (true/false), floats (the shortest text that reads back),
// decimals, strings, dates (YYYY-MM-DD) and timestamps (YYYY-MM-DD HH:MM:SS[.f], an instant
// as its UTC time); the characters Hive escapes (controls, " # % ' * / : = ? \ { [ ] ^ and
// DEL) as %XX; NULL and the empty string as __HIVE_DEFAULT_PARTITION__ (as Hive and Spark).
// Each file is written by a ParquetWriter with the same options, its schema the batch schema
// without the partition columns. At most `max_open_files` files are open at once (each holds
// up to a row group of rows in memory), and they hold at most `max_buffered_rows` rows in all:
// when another file is needed, or past that, the one written least recently is finished, and
// its partition's later rows go to its next part file.
//
// Thread safety: one thread at a time. Errors: as ParquetWriter's, with the file's path; after
// one the writer is unusable.
struct PartitionedWriteOptions {
  std::vector<std::string> partition_by;  // column names of the schema, outermost folder first
  size_t max_open_files = 64;
  // Rows the open files hold in memory at most, summed (each holds its unfinished row group):
  // past it, the least recently written files are finished first, so many partitions of few
  // rows each do not hold a row group's memory apiece.
  int64_t max_buffered_rows = 4'000'000;
  // Files are named PREFIX-N.parquet (N from 0 in each folder).
  std::string file_prefix = "part";
  // Add to a dataset already there (`root` may hold files): a name that exists is skipped for
  // the next N, so nothing is overwritten. Writers adding to one root side by side (the
  // partitions of a Dask to_parquet) give each its own file_prefix.
  bool append = false;
};

class PartitionedWriter {
 public:
  // Errors of Open do not name `root` (callers add it, as for ParquetWriter); those of Write
  // and Close name the part file. InvalidArgument when `root` exists and is not an empty folder
  // (unless appending), a file_prefix that is empty, holds a '/' or starts with '.' or '_', a
  // partition column whose name starts with '.' or '_' (readers leave such names out), a
  // partition column is not in `schema`, is named twice, or leaves no column for the files;
  // NotSupported for a partition column of a type with no folder text (binary, nested, time of
  // day); ParquetWriter::Open's errors for the files' schema (checked here, before any file is
  // made).
  static Result<std::unique_ptr<PartitionedWriter>> Open(std::string root,
                                                         std::shared_ptr<const BatchSchema> schema,
                                                         PartitionedWriteOptions partitioning,
                                                         WriterOptions options = {});
  ~PartitionedWriter();

  // Appends the rows of `batch` (whose schema is the one given to Open) to their partitions'
  // files, making folders and files as partitions appear.
  Status Write(const RecordBatch& batch);
  // Finishes every open file.
  Status Close();

  int64_t num_rows() const;   // rows written so far
  int64_t num_files() const;  // files made so far
  const std::string& root() const;

 private:
  struct State;
  explicit PartitionedWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pqsift
