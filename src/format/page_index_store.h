// The page indexes of one file, loaded on demand and kept: the offset index and column index of
// the column chunks a scan asked for.
//
// Indexes live outside the footer, usually all together between the last row group and the
// footer (all column indexes, then all offset indexes). Load() reads every requested index not
// loaded yet in as few reads as that layout allows (neighbouring ranges coalesced), and takes
// bytes the footer's tail read already holds from there without reading them again.
//
// An index that is absent, lies outside the file, does not decode or disagrees with its row
// group (page rows not adding up, a column index with another page count) is treated as absent:
// pruning without it only reads more, never less. Only the file failing is an error, and an
// encrypted chunk's index module failing authentication (Authentication naming the module: a
// changed or moved module is never taken as absent). Without the chunk's key it is absent.
//
// Thread safety: Load() during planning, from one thread; the getters from any thread after.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "crypto/module.h"
#include "format/page_index.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::format {

// The pages of one column chunk as rows: page i holds rows [first_row(i), end_row(i)).
struct PageRows {
  const OffsetIndex* index = nullptr;
  int64_t num_rows = 0;  // of the row group
  size_t pages() const { return index->page_locations.size(); }
  int64_t first_row(size_t i) const { return index->page_locations[i].first_row_index; }
  int64_t end_row(size_t i) const { return i + 1 < pages() ? first_row(i + 1) : num_rows; }
};

class PageIndexStore {
 public:
  // `file` and `metadata` must outlive the store.
  PageIndexStore(const RandomAccessFile& file, const ParquetMetadata& metadata)
      : file_(file), metadata_(metadata) {}

  struct Request {
    size_t row_group = 0;
    int32_t leaf = 0;
    bool column_index = false;  // the column index too (the offset index always)
  };
  // Loads what `requests` ask for and is not loaded yet, in one wave of coalesced reads; adds
  // the bytes it read to `*bytes_read`. IOError only when the file fails.
  Status Load(std::span<const Request> requests, uint64_t* bytes_read);
  // The reads Load(requests) would make now (none for what the footer's tail read holds), so
  // a planner can fetch them for many files in one wave before Load runs.
  std::vector<ByteRange> ReadsFor(std::span<const Request> requests) const;

  // An offset index made from the chunk's page headers (column/page_directory.h) for a chunk
  // whose footer places none, kept as if the file had it: the scan then fetches only the pages
  // a selection needs, and cuts slices at page starts. Ignored when the chunk has an offset
  // index of its own, or when `index` does not cover the row group's rows.
  void Adopt(size_t row_group, int32_t leaf, OffsetIndex index);

  // The usable offset index of a chunk, or null (absent, unusable or not loaded).
  const OffsetIndex* offset_index(size_t row_group, int32_t leaf) const;
  // The usable column index of a chunk (only with a usable offset index), or null.
  const ColumnIndex* column_index(size_t row_group, int32_t leaf) const;

 private:
  // The decryptor of an encrypted chunk whose key is known; null otherwise.
  std::shared_ptr<const crypto::ModuleDecryptor> ChunkDecryptor(size_t row_group,
                                                                int32_t leaf) const;
  struct Entry {
    bool offset_tried = false;
    bool column_tried = false;
    std::unique_ptr<OffsetIndex> offset;
    std::unique_ptr<ColumnIndex> column;
  };
  using Key = std::pair<size_t, int32_t>;
  struct Wanted {
    Key key;
    bool column_index;
    std::optional<ByteRange> range;  // absent: the footer places no usable index
  };
  // The indexes `requests` ask for that were not tried yet, each once.
  std::vector<Wanted> WantedBy(std::span<const Request> requests) const;
  // Their ranges coalesced.
  std::vector<ByteRange> Blocks(const std::vector<Wanted>& wanted) const;

  const RandomAccessFile& file_;
  const ParquetMetadata& metadata_;
  std::map<Key, Entry> entries_;
  std::vector<Buffer> bytes_;  // what the column indexes point into
};

}  // namespace pqsift::format
