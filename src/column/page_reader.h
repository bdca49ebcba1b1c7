// Iterates the pages of one column chunk held in memory: decodes each page header, and on
// request decompresses the page (or skips it without decompressing).
//
//   chunk bytes: [dictionary page]? [data page]* with each page = PageHeader (Thrift) + body
//
// Data page v1 bodies are compressed whole (repetition levels, definition levels, values);
// v2 pages store their levels uncompressed in front of the (optionally compressed) values.
// Pages of unknown type and index pages are skipped.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "format/page_header.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::column {

struct PageReaderOptions {
  // Verify each page's CRC when the header has one (a mismatch is Corruption).
  bool verify_crc = false;
  // A page declaring a larger uncompressed size is refused before anything is allocated, and
  // so is a page whose levels would take more memory (2 bytes per level, held whole).
  int64_t max_page_bytes = int64_t{512} << 20;
};

// One decompressed page. Spans point into the page reader's buffers: valid until the next
// call to Next/Read/Skip on the reader.
struct Page {
  PageType type = PageType::kDataPage;
  int64_t num_values = 0;  // levels in the page (values including nulls); dictionary: entries
  int64_t num_rows = -1;   // v2 pages only; -1 when the header does not say
  int64_t num_nulls = -1;  // v2 pages only
  Encoding encoding = Encoding::kPlain;
  // v1: the level encodings; the levels are at the start of `body`.
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  bool is_v2 = false;
  std::span<const uint8_t> repetition_levels;  // v2 only
  std::span<const uint8_t> definition_levels;  // v2 only
  std::span<const uint8_t> body;  // v1: levels + values; v2: values; dictionary: the entries
};

class PageReader {
 public:
  // `chunk` holds the column chunk's bytes; `chunk_offset` is their offset in the file (for
  // error messages). `where` names the chunk in errors ("row group 2, column 'a.b'").
  PageReader(std::span<const uint8_t> chunk, uint64_t chunk_offset, CompressionCodec codec,
             std::string where, PageReaderOptions options = {});

  // Moves to the next page and decodes its header. False at the end of the chunk.
  Result<bool> Next();
  // The current page's header. REQUIRES: the last Next() returned true.
  const format::PageHeader& header() const { return header_; }
  // Decompresses the current page. REQUIRES: the last Next() returned true.
  Result<Page> Read();

  // A page passed over now and read later: a dictionary page is decoded only when a data page
  // needs it (chunks that fell back to PLAIN often carry a large dictionary no selected page uses).
  // It points into the chunk bytes it was marked in, which must outlive it (after a Rebase too).
  struct Mark {
    std::span<const uint8_t> stored;  // the page's body as stored
    uint64_t file_offset = 0;         // of its header, for messages
    format::PageHeader header;
  };
  // The current page. REQUIRES: the last Next() returned true.
  Mark MarkPage() const;
  // Decompresses a marked page into `*storage` (not the current page's buffer, which stays valid).
  Result<Page> ReadMarked(const Mark& mark, Buffer* storage) const;

  // The next pages come from `chunk` (at `chunk_offset` in the file), read from its start; the
  // current page stays valid (its decompressed body is kept; a stored body still points into
  // the old bytes, which the caller keeps alive while the page is in use).
  void Rebase(std::span<const uint8_t> chunk, uint64_t chunk_offset) {
    chunk_ = chunk;
    chunk_offset_ = chunk_offset;
    pos_ = 0;
  }

  // Where the current page starts in the file (its header), for messages.
  uint64_t page_file_offset() const { return chunk_offset_ + page_start_; }
  const std::string& where() const { return where_; }
  const PageReaderOptions& options() const { return options_; }

 private:
  Status Error(const std::string& what) const { return ErrorAt(page_file_offset(), what); }
  Status ErrorAt(uint64_t file_offset, const std::string& what) const;
  Result<Page> ReadPage(const format::PageHeader& header, std::span<const uint8_t> stored,
                        uint64_t file_offset, Buffer* storage) const;

  std::span<const uint8_t> chunk_;
  uint64_t chunk_offset_;
  CompressionCodec codec_;
  std::string where_;
  PageReaderOptions options_;

  size_t pos_ = 0;         // start of the next page's header
  size_t page_start_ = 0;  // the current page's header
  size_t body_start_ = 0;  // the current page's body
  format::PageHeader header_;
  Buffer decompressed_;
};

}  // namespace pqsift::column
