// Writes one column chunk of one row group: converts Arrow values to the leaf's physical
// values, encodes them into pages (cut by rows and bytes), compresses each page, and tracks
// statistics and the page index as it goes. The chunk's pages stay in memory until Finish
// hands them over with the chunk's metadata; a writer is made per chunk.
//
//   chunk = [dictionary page] data page*      page = PageHeader (Thrift compact) + body
//   v1 data page body (compressed whole) = [repetition levels] [definition levels] values
//     (levels: RLE with a 4-byte length, present when the leaf's maximum level is above 0)
//   encrypted chunk (ChunkOptions::encryptor): page = header module + page module
//     (crypto/module.h), compressed_page_size and the offset index counting stored bytes
//   v2 data page body = [repetition levels] [definition levels] compressed values (levels RLE
//     and uncompressed, their sizes in the header)
//
// Pages end only between records (rows), so that the offset index's first_row_index of every
// page is a record start, as PageIndex.md requires; a page holds at least one record.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "crypto/module.h"
#include "format/page_index.h"
#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"
#include "pqsift/writer.h"
#include "write/leaf_spec.h"
#include "write/shredder.h"

namespace pqsift::write {

struct ChunkOptions {
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int level = 0;  // REQUIRES: valid for the codec (compression::CheckCompressionLevel)
  int64_t page_rows = 20'000;
  int64_t page_bytes = int64_t{1} << 20;
  bool dictionary = true;
  int64_t dictionary_page_bytes = int64_t{1} << 20;
  bool page_index = true;
  int32_t truncate_bytes = 64;  // 0: never
  bool data_page_v2 = false;
  bool page_checksums = false;  // PageHeader.crc: CRC-32 of the stored page bytes
  // Every data page in this encoding instead of dictionary / PLAIN.
  std::optional<Encoding> encoding;
  // A bloom filter of the chunk's values. REQUIRES: not for BOOLEAN, 0 < fpp < 1, ndv >= 0.
  std::optional<BloomFilterOptions> bloom_filter;
  // Parquet modular encryption: every page header and page a module under this encryptor, with
  // these ordinals in its AAD (data pages count from 0 in the chunk). nullptr: plaintext.
  // (The chunk's bloom filter, page index and metadata are encrypted by the file writer.)
  std::shared_ptr<const crypto::ModuleEncryptor> encryptor;
  int32_t row_group_ordinal = 0;
  int32_t column_ordinal = 0;
};

// A finished chunk: its bytes (to be written in this order) and metadata whose offsets count
// from the chunk's first byte (the file writer adds the chunk's position).
struct FinishedChunk {
  std::vector<uint8_t> dictionary_page;          // header + body; empty when there is none
  std::vector<std::vector<uint8_t>> data_pages;  // one buffer per page, in order
  ColumnMetaData metadata;  // path_in_schema left empty; views into the strings given to Finish
  std::vector<format::PageLocation> pages;  // one per data page
  // Per data page: its BYTE_ARRAY values' bytes (SizeStatistics); empty for other types.
  std::vector<int64_t> page_unencoded_bytes;
  std::optional<std::string> column_index;  // the encoded ColumnIndex; none when not written
  std::optional<SortingColumn> sorted;      // how the chunk's rows are sorted (column_idx 0)
  std::vector<uint8_t> bloom_filter;        // header + bitset; empty when not asked for
};

class ColumnChunkWriter {
 public:
  virtual ~ColumnChunkWriter() = default;

  // A leaf with these maximum levels (a flat column: repetition 0, definition 0 or 1).
  // REQUIRES: options are valid (page_rows, page_bytes >= 1). NotSupported when
  // options.encoding is not defined for the leaf's physical type.
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const LeafSpec& spec, int16_t max_def,
                                                         int16_t max_rep,
                                                         const ChunkOptions& options);

  // A flat column: appends rows [offset, offset + length) of `array` (relative to its own
  // offset), one level entry per row, valid slots defined. REQUIRES: max_rep is 0, max_def at
  // most 1; array has the type the spec was made for and passes ValidateArrayLayout.
  // InvalidArgument for a value that cannot be stored (a binary value of 4 GiB or more).
  virtual Status Write(const Array& array, int64_t offset, int64_t length) = 0;
  // A leaf of a nested column: appends the records of `leaf` (shredder.h). REQUIRES: its
  // levels are within the maximums given to Make; errors as Write.
  virtual Status WriteShredded(const ShreddedLeaf& leaf) = 0;

  // Ends the last page and hands the chunk over. Bound bytes referred to by the metadata are
  // appended to `strings` (a deque: its elements never move). REQUIRES: called once, last.
  virtual Status Finish(FinishedChunk& out, std::deque<std::string>& strings) = 0;

  virtual int64_t num_rows() const = 0;  // records
  // Bytes held now (pages finished so far, and the dictionary): for memory accounting.
  virtual size_t buffered_bytes() const = 0;
};

}  // namespace pqsift::write
