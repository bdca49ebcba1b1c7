// Iterates the pages of one column chunk held in memory: decodes each page header, and on
// request decompresses the page (or skips it without decompressing).
//
//   chunk bytes: [dictionary page]? [data page]* with each page = PageHeader (Thrift) + body
//
// Data page v1 bodies are compressed whole (repetition levels, definition levels, values);
// v2 pages store their levels uncompressed in front of the (optionally compressed) values.
// Pages of unknown type and index pages are skipped.
//
// Parquet modular encryption (PageReaderOptions::decryptor): each page header is a GCM module
// and each page body a GCM or CTR module (src/crypto/module.h), decrypted with the AAD of its
// kind and ordinal: the dictionary page (the first page, when there is one; tried as such
// first) and data pages numbered from 0 in chunk order. Next() decrypts the header, Read() the
// body; a page skipped undecompressed is not decrypted either. A buffer of some pages only
// comes with their ordinals (SetPageOrdinals); otherwise a Rebase continues with the page after
// the current one (the ordinals go on counting).
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compression/stream.h"
#include "crypto/module.h"
#include "encoding/byte_supply.h"
#include "format/page_header.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/parquet_file.h"
#include "pqsift/status.h"

namespace pqsift::column {

struct PageReaderOptions {
  // Verify each page's CRC when the header has one (a mismatch is Corruption).
  bool verify_crc = false;
  // A page declaring a larger uncompressed size is refused before anything is allocated, and
  // so is a page whose levels would take more memory (2 bytes per level, held whole).
  int64_t max_page_bytes = int64_t{512} << 20;
  // Read(kOnDemand) decompresses a data page as its values are read, and only as far as they
  // are, when its values take at least this many bytes and its codec streams
  // (compression/stream.h): a selective read of a large page stops paying where it stops.
  int64_t on_demand_page_bytes = int64_t{1} << 20;
  // Parquet modular encryption: the chunk's decryptor (null: plaintext pages) and the chunk's
  // place in the module AADs (ChunkPageOptions sets all three).
  std::shared_ptr<const crypto::ModuleDecryptor> decryptor;
  int32_t row_group_ordinal = 0;
  int32_t column_ordinal = 0;
};

// `options` for reading the pages of row group `g`'s chunk of leaf `column` of `md`: with its
// decryptor when the chunk is encrypted (the errors of format::FileDecryptor::ChunkDecryptor
// when its key is missing). `where` names the chunk.
Result<PageReaderOptions> ChunkPageOptions(PageReaderOptions options, const ParquetMetadata& md,
                                           size_t g, size_t column, std::string_view where);

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
  // Not null when the page is still arriving (PageReader::Read(kOnDemand)): `body` holds the
  // bytes decompressed so far, and `more` brings the rest, up to the declared size. Valid as
  // long as `body`.
  encoding::ByteSupply* more = nullptr;
};

// Whether Read may hand out a page whose body arrives as it is read; kSkipInto: on demand, for
// a reader that will keep little of the page in it (it skips most of it, or copies its values
// out): the bytes it passes over or copies out may be decompressed without being written into
// the page (ByteSupply::SkipOver, CopyOut, Walk; compression::PageStream::Discards).
enum class Arrival { kWhole, kOnDemand, kSkipInto };

class PageReader {
 public:
  // `chunk` holds the column chunk's bytes; `chunk_offset` is their offset in the file (for
  // error messages). `where` names the chunk in errors ("row group 2, column 'a.b'").
  PageReader(std::span<const uint8_t> chunk, uint64_t chunk_offset, CompressionCodec codec,
             std::string where, PageReaderOptions options = {});
  ~PageReader();
  PageReader(PageReader&&) noexcept;
  PageReader& operator=(PageReader&&) noexcept;

  // Moves to the next page and decodes its header. False at the end of the chunk.
  Result<bool> Next();
  // The current page's header. REQUIRES: the last Next() returned true.
  const format::PageHeader& header() const { return header_; }
  // Decompresses the current page (kOnDemand: perhaps only as it is read; see Page::more).
  // REQUIRES: the last Next() returned true.
  Result<Page> Read(Arrival arrival = Arrival::kWhole);
  // The error that stopped an arriving page (its decoder then found its data short); OK if none.
  Status arrival_status() const;
  // Bytes of arriving pages decompressed so far, over the reader's life.
  int64_t bytes_arrived() const;
  // Whether the current page arrived on demand and has now arrived whole (its stored bytes are
  // no longer read).
  bool arrived_whole() const;

  // A page passed over now and read later: a dictionary page is decoded only when a data page
  // needs it (chunks that fell back to PLAIN often carry a large dictionary no selected page uses).
  // It points into the chunk bytes it was marked in, which must outlive it (after a Rebase too).
  struct Mark {
    std::span<const uint8_t> stored;  // the page's body as stored
    uint64_t file_offset = 0;         // of its header, for messages
    format::PageHeader header;
    int32_t page_ordinal = 0;  // its data page ordinal (encrypted chunks' AADs)
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
    first_page_ = false;
  }

  // Encrypted chunks whose buffer holds only some data pages: their ordinals (their places in
  // the offset index), in buffer order; the data pages after them, if any, count on from the
  // last. Empty: the data pages are numbered as they come.
  void SetPageOrdinals(std::vector<int32_t> ordinals) {
    ordinals_ = std::move(ordinals);
    next_ordinal_index_ = 0;
  }

  // True when the chunk bytes hold no page after the current one: Next() will return false
  // without touching them.
  bool at_end() const { return pos_ >= chunk_.size(); }
  // Whether `bytes` lie in the chunk bytes (a page stored uncompressed and unencrypted is read
  // in place; any other page's body lives in the reader's own buffer).
  bool Stores(std::span<const uint8_t> bytes) const {
    const auto begin = reinterpret_cast<uintptr_t>(chunk_.data());
    const auto at = reinterpret_cast<uintptr_t>(bytes.data());
    return at >= begin && at < begin + chunk_.size();
  }

  // Where the current page starts in the file (its header), for messages.
  uint64_t page_file_offset() const { return chunk_offset_ + page_start_; }
  const std::string& where() const { return where_; }
  const PageReaderOptions& options() const { return options_; }

 private:
  Status Error(const std::string& what) const { return ErrorAt(page_file_offset(), what); }
  Status ErrorAt(uint64_t file_offset, const std::string& what) const;
  // DecodePage after decrypting `stored` (encrypted chunks); `stream` only for plaintext pages.
  Result<Page> ReadPage(const format::PageHeader& header, std::span<const uint8_t> stored,
                        uint64_t file_offset, Buffer* storage, int32_t page_ordinal,
                        std::unique_ptr<compression::PageStream>* stream = nullptr,
                        bool discards = false) const;
  // `stored` as plaintext; decompressed values go to `*storage` (at `storage_offset` when it
  // is already allocated to hold the decrypted page in front of them). With `stream`, a large
  // page of a streaming codec is not decompressed: `*stream` will, into `*storage`.
  Result<Page> DecodePage(const format::PageHeader& header, std::span<const uint8_t> stored,
                          uint64_t file_offset, Buffer* storage, size_t storage_offset,
                          std::unique_ptr<compression::PageStream>* stream = nullptr,
                          bool discards = false) const;
  // Ends the arriving page, if any, counting its bytes.
  void EndArrival();
  // Next() for an encrypted chunk: decrypts the header module at pos_.
  Status DecryptHeader(size_t* module_size);
  crypto::ModuleId Module(crypto::ModuleType type, int32_t page_ordinal) const {
    return {type, options_.row_group_ordinal, options_.column_ordinal, page_ordinal};
  }

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
  // The current page when it arrives on demand: its stream and the supply its decoders pull.
  class Arriving;
  std::unique_ptr<Arriving> arriving_;
  int64_t bytes_arrived_ = 0;  // by the pages before the current one
  // Encrypted chunks: the decrypted header (header_'s views point into it), whether the next
  // page is the chunk's first, and the data page ordinals of the current and the next page.
  Buffer header_plain_;
  bool first_page_ = true;
  int32_t page_ordinal_ = 0;
  int32_t next_page_ordinal_ = 0;
  std::vector<int32_t> ordinals_;  // SetPageOrdinals
  size_t next_ordinal_index_ = 0;
};

}  // namespace pqsift::column
