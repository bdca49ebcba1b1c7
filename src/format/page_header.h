// Page headers (PageHeader with its data v1, data v2 and dictionary variants), decoded from
// the Thrift bytes that precede each page in a column chunk.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::format {

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // the IDL default
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

// Decodes one PageHeader from the start of `bytes`; on success `*header_size` is the number of
// bytes it took. Checks: required fields present, page sizes and counts not negative, the
// variant header matching `type` present (for data and dictionary pages), v2 level lengths
// within the compressed size. Statistics views point into `bytes`.
Status DecodePageHeader(std::span<const uint8_t> bytes, PageHeader& out, size_t* header_size);

}  // namespace pqsift::format
