// Which bytes of a column chunk a row selection needs, from the chunk's offset index: the
// dictionary page (everything before the first data page) and the data pages holding a selected
// row. Pages without one are neither fetched nor decompressed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "column/leaf_reader.h"
#include "format/page_index.h"
#include "pqsift/io.h"
#include "prune/row_selection.h"

namespace pqsift::scan {

struct PageFetch {
  // The bytes to hold, in file order: the dictionary region (when not empty), then the needed
  // pages; concatenated they are a chunk buffer of `pages` for the LeafReader.
  std::vector<ByteRange> pieces;
  std::vector<column::PageSpan> pages;
  // The reads that fetch the pieces (neighbours closer than a small gap read together).
  std::vector<ByteRange> reads;
  int64_t pages_not_fetched = 0;
  uint64_t bytes_not_fetched = 0;  // of the chunk, outside `reads`
};

// The fetch of the pages of `chunk` (its byte range in the file) that hold a row of `rows`, or
// nullopt when every page is needed or the offset index does not describe the chunk (a location
// outside it, pages out of order or overlapping): then the chunk is read whole. Without
// `with_dictionary` the dictionary region is left out (the caller holds it). The dictionary
// region is one read of its own unless the first page fetched follows it.
std::optional<PageFetch> PlanPageFetch(ByteRange chunk, const format::OffsetIndex& index,
                                       int64_t num_rows, const prune::RowSelection& rows,
                                       bool with_dictionary = true);

// The dictionary region of `chunk` (everything before its first data page); empty when the
// offset index has no page or the chunk has no dictionary page.
ByteRange DictionaryRegion(ByteRange chunk, const format::OffsetIndex& index);

// The pages starting at or after row `from_row` that hold a row of `rows`, without the
// dictionary region: what a reader continued from an earlier slice (column::LeafReader::Continue)
// still needs. Possibly no page; nullopt only when the offset index does not describe the chunk.
std::optional<PageFetch> PlanPageFetchFrom(ByteRange chunk, const format::OffsetIndex& index,
                                           int64_t num_rows, const prune::RowSelection& rows,
                                           int64_t from_row);

}  // namespace pqsift::scan
