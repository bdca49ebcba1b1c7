// The page index of a column chunk (PageIndex.md): the ColumnIndex (per-page bounds and null
// information) and the OffsetIndex (per-page location and first row). Both are stored outside
// the footer and decoded on demand.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::format {

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;  // including the page header
  int64_t first_row_index = 0;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;  // empty when absent
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string_view> min_values;  // views into the decoded bytes
  std::vector<std::string_view> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts;
  std::vector<int64_t> repetition_level_histograms;
  std::vector<int64_t> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
};

// Decode from the bytes at offset_index_offset / column_index_offset. The lists of one index
// must have one entry per page (Corruption otherwise); page locations must have increasing
// first_row_index, non-negative offsets and sizes. `bytes` must outlive a ColumnIndex.
Status DecodeOffsetIndex(std::span<const uint8_t> bytes, OffsetIndex& out);
Status DecodeColumnIndex(std::span<const uint8_t> bytes, ColumnIndex& out);

}  // namespace pqsift::format
