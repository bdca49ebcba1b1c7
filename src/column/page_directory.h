// The page directory of one column chunk: where each page is and what its header says, built by
// decoding page headers only (no page is decompressed or decoded).
//
//   chunk bytes: [page header (Thrift) + body]*   ->   PageDirectory: one PageInfo per page
//
// Contract:
// - Pages are listed in chunk order, every one of them, whatever its type (dictionary, data v1,
//   data v2, index, types this version does not know). Each header is decoded with
//   format::DecodePageHeader; its declared body must fit in what is left of the chunk.
// - Row facts come from the headers alone: a v2 data page gives num_rows; a v1 data page gives
//   its rows only in a flat column (max_repetition_level == 0, where every level is a row).
//   `first_row` is known while every data page before it gave its rows. Nothing is guessed:
//   unknown is -1.
// - The directory owns what it holds: header statistics are copied into it, so it never points
//   into the chunk bytes it was built from (the caller may drop them). It is move-only.
// - Hostile input: a header that does not decode, a page overrunning the chunk, more pages
//   than `max_pages` or a header longer than `max_header_bytes` stop the walk with an error
//   "<where>, page at offset <file offset>: <what>". The pages before the bad one stay in the
//   directory (for listing tools); the Result-returning forms drop them.
// - Row counts are summed without overflow (an overflowing sum leaves the rows unknown).
// - The offset index (PageIndex.md) is not trusted by the walk; MatchOffsetIndex compares it
//   with the walked pages afterwards.
//
// Thread safety: a built directory is immutable and may be read from any thread.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/page_index.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::column {

// What the offset index says about one page it lists.
struct OffsetIndexEntry {
  size_t entry = 0;          // index in OffsetIndex::page_locations
  int64_t first_row = 0;     // page_locations[entry].first_row_index
  int64_t num_rows = -1;     // up to the next entry's first row (the last: the row group's end)
  bool size_matches = true;  // its compressed_page_size == header_size + compressed_size
};

struct PageInfo {
  uint64_t offset = 0;            // the page header's first byte, in the file
  uint32_t header_size = 0;       // bytes of the Thrift header
  int32_t compressed_size = 0;    // the body after the header, as stored
  int32_t uncompressed_size = 0;  // as declared
  PageType type = PageType::kDataPage;
  std::optional<Encoding> encoding;  // data and dictionary pages
  int64_t num_values = -1;           // data pages: levels (values with nulls); dictionary: entries
  int64_t num_nulls = -1;            // v2 header's num_nulls; -1 otherwise
  int64_t num_rows = -1;   // see the contract; -1 unknown (and for pages that hold no rows)
  int64_t first_row = -1;  // in the row group; -1 unknown (and for pages that hold no rows)
  std::optional<uint32_t> crc;
  std::optional<Statistics> statistics;  // the header's; views into the directory's storage
  std::optional<bool> dictionary_is_sorted;
  // v2 data pages: the level lengths (stored uncompressed) and whether the values are compressed.
  int32_t v2_repetition_levels_bytes = 0;
  int32_t v2_definition_levels_bytes = 0;
  bool v2_is_compressed = true;
  // Set by MatchOffsetIndex when the offset index lists a page at this offset.
  std::optional<OffsetIndexEntry> offset_index;

  bool is_data_page() const { return type == PageType::kDataPage || type == PageType::kDataPageV2; }
  uint64_t total_size() const { return header_size + static_cast<uint64_t>(compressed_size); }
  uint64_t end() const { return offset + total_size(); }  // one past the body, in the file
};

class PageDirectory {
 public:
  PageDirectory() = default;
  PageDirectory(PageDirectory&&) = default;
  PageDirectory& operator=(PageDirectory&&) = default;
  PageDirectory(const PageDirectory&) = delete;  // statistics views point into storage_
  PageDirectory& operator=(const PageDirectory&) = delete;

  const std::vector<PageInfo>& pages() const { return pages_; }
  std::vector<PageInfo>& mutable_pages() { return pages_; }
  size_t data_pages() const;
  // The sum of the data pages' rows, or -1 when some data page's rows are unknown.
  int64_t num_rows() const;

 private:
  friend class PageDirectoryBuilder;
  std::vector<PageInfo> pages_;
  std::deque<std::string> storage_;  // statistics bytes; a deque never moves its elements
};

struct PageDirectoryOptions {
  // A header longer than this is refused (Corruption); with ReadPageDirectory it bounds how
  // far a header is read.
  size_t max_header_bytes = size_t{16} << 20;
  // A chunk with more pages is refused (ResourceExhausted): a page takes a few hundred bytes here
  // and as few as ~10 bytes of the file.
  size_t max_pages = size_t{1} << 20;
  // ReadPageDirectory reads headers in windows of this size (grown for longer headers) ...
  size_t read_window = size_t{64} << 10;
  // ... except after a page at least that large, when the next header is read with this many
  // bytes first (a window would hold mostly body).
  size_t header_read = size_t{4} << 10;
  // ReadPageDirectory stops (ResourceExhausted) once it has read more than this many bytes:
  // a walk meant to spare the page bodies gives up on chunks of pages so small that their
  // headers cost about what the bodies do. 0: no limit.
  uint64_t max_bytes_read = 0;
};

// Walks the chunk held in `chunk`, whose first byte is at `chunk_offset` in the file. `flat`:
// the column's max_repetition_level is 0. `where` names the chunk in errors
// ("file.parquet: row group 2, column 'a.b'"). On error `out` holds the pages before the bad one.
Status BuildPageDirectory(std::span<const uint8_t> chunk, uint64_t chunk_offset, bool flat,
                          const std::string& where, PageDirectory& out,
                          const PageDirectoryOptions& options = {});
Result<PageDirectory> BuildPageDirectory(std::span<const uint8_t> chunk, uint64_t chunk_offset,
                                         bool flat, const std::string& where,
                                         const PageDirectoryOptions& options = {});

// The same, reading only the headers of the chunk at `range` of `file`: bounded reads of
// `read_window` bytes while pages are small (each byte read about once), one read of
// `header_read` bytes per header once they are large (a header that goes on is read again,
// twice as far, up to `max_header_bytes`). `range` is checked against the file. `*bytes_read`,
// when given, adds the bytes read.
Status ReadPageDirectory(const RandomAccessFile& file, ByteRange range, bool flat,
                         const std::string& where, PageDirectory& out,
                         const PageDirectoryOptions& options = {}, uint64_t* bytes_read = nullptr);

// The directory's data pages as an offset index (PageIndex.md's page locations: offset and size
// of header + body, first row), for a chunk whose footer places none; nullopt when some data
// page's rows are unknown, the pages do not add up to `row_group_rows`, or a page is larger
// than an offset index can say. Pages that hold no rows are left out, as writers do.
std::optional<format::OffsetIndex> OffsetIndexOf(const PageDirectory& directory,
                                                 int64_t row_group_rows);

// Marks each page the offset index lists (same file offset) with its entry, and returns the
// entries that match no page of the directory (in index order). `row_group_rows` ends the
// last entry's rows. Never an error: the index is only compared, not believed.
std::vector<size_t> MatchOffsetIndex(const format::OffsetIndex& index, int64_t row_group_rows,
                                     PageDirectory& directory);

}  // namespace pqsift::column
