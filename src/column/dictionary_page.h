// The dictionary page of a column chunk read on its own, as evidence for pruning: whether the
// footer proves that every data page of the chunk is dictionary-encoded (then the dictionary
// holds every non-null value of the chunk), where the dictionary page lies, and its entries
// decoded to the column's Arrow type.
//
//   chunk: [dictionary page][data page][data page]...
//          ^ dictionary_page_offset      ^ data_page_offset
//
// The footer gives no size for the dictionary page: it is everything before the first data page.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "column/page_reader.h"
#include "pqsift/array.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"

namespace pqsift::column {

// True only when the footer proves every data page of the chunk is dictionary-encoded
// (PLAIN_DICTIONARY or RLE_DICTIONARY):
//  - with encoding_stats: every DATA_PAGE / DATA_PAGE_V2 entry has a dictionary encoding (and
//    there is at least one);
//  - without: the encodings list holds a dictionary encoding and otherwise only level
//    encodings (RLE, BIT_PACKED; RLE not for BOOLEAN, where it is also a value encoding).
//    PLAIN in the list is ambiguous (old writers list it for the dictionary page itself, but a
//    data page that fell back to PLAIN lists it too), so it disproves nothing and proves nothing.
bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta);

// [dictionary_page_offset, data_page_offset), when the footer places a dictionary page before
// the data pages and the range lies inside the file; nullopt otherwise.
std::optional<ByteRange> DictionaryPageRange(const ColumnMetaData& meta, uint64_t file_size);

// Decodes the dictionary page at the start of `bytes` (`offset`: where they start in the file)
// into an array of the column's Arrow type (ArrowTypeForLeaf), one element per entry, no
// nulls. The entries are converted exactly as the scan converts dictionary-encoded values.
// Corruption when the first page is not a dictionary page or does not decode; ResourceExhausted
// for a page larger than options.max_page_bytes; the errors of ArrowTypeForLeaf. `where` names
// the chunk in messages.
Result<std::shared_ptr<Array>> ReadDictionaryPage(const ColumnDescriptor& column,
                                                  const ColumnMetaData& meta,
                                                  std::span<const uint8_t> bytes, uint64_t offset,
                                                  const std::string& where,
                                                  PageReaderOptions options = {});

}  // namespace pqsift::column
