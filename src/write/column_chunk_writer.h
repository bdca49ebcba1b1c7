// Writes one column chunk of one row group: converts Arrow values to the leaf's physical
// values, encodes them into pages (cut by rows and bytes), compresses each page, and tracks
// statistics and the page index as it goes. The chunk's pages stay in memory until Finish
// hands them over with the chunk's metadata; a writer is made per chunk.
//
//   chunk = [dictionary page] data page*      page = PageHeader (Thrift compact) + body
//   v1 data page body (compressed whole) = [definition levels: RLE, 4-byte length] values
//   v2 data page body = [definition levels: RLE] compressed values (the header has the sizes)
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/page_index.h"
#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"
#include "pqsift/writer.h"
#include "write/leaf_spec.h"

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
};

// A finished chunk: its bytes (to be written in this order) and metadata whose offsets count
// from the chunk's first byte (the file writer adds the chunk's position).
struct FinishedChunk {
  std::vector<uint8_t> dictionary_page;  // header + body; empty when there is none
  std::vector<uint8_t> data_pages;
  ColumnMetaData metadata;  // path_in_schema left empty; views into the strings given to Finish
  std::vector<format::PageLocation> pages;  // one per data page
  std::optional<std::string> column_index;  // the encoded ColumnIndex; none when not written
  std::optional<SortingColumn> sorted;      // how the chunk's rows are sorted (column_idx 0)
  std::vector<uint8_t> bloom_filter;        // header + bitset; empty when not asked for
};

class ColumnChunkWriter {
 public:
  virtual ~ColumnChunkWriter() = default;

  // REQUIRES: options are valid (page_rows, page_bytes >= 1). NotSupported when
  // options.encoding is not defined for the leaf's physical type.
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const LeafSpec& spec, bool nullable,
                                                         const ChunkOptions& options);

  // Appends rows [offset, offset + length) of `array` (relative to its own offset).
  // REQUIRES: array has the type the spec was made for and passes ValidateArrayLayout.
  // InvalidArgument for a value that cannot be stored (a binary value of 4 GiB or more).
  virtual Status Write(const Array& array, int64_t offset, int64_t length) = 0;

  // Ends the last page and hands the chunk over. Bound bytes referred to by the metadata are
  // appended to `strings` (a deque: its elements never move). REQUIRES: called once, last.
  virtual Status Finish(FinishedChunk& out, std::deque<std::string>& strings) = 0;

  virtual int64_t num_rows() const = 0;
  // Bytes held now (pages finished so far, and the dictionary): for memory accounting.
  virtual size_t buffered_bytes() const = 0;
};

}  // namespace pqsift::write
