#include "column/page_directory.h"

#include <algorithm>
#include <utility>

#include "format/page_header.h"

namespace pqsift::column {

size_t PageDirectory::data_pages() const {
  return static_cast<size_t>(std::count_if(pages_.begin(), pages_.end(),
                                           [](const PageInfo& p) { return p.is_data_page(); }));
}

int64_t PageDirectory::num_rows() const {
  int64_t total = 0;
  for (const PageInfo& p : pages_) {
    if (!p.is_data_page()) continue;
    if (p.num_rows < 0 || __builtin_add_overflow(total, p.num_rows, &total)) return -1;
  }
  return total;
}

// Adds pages one at a time to a directory; shared by the in-memory and the file walks.
class PageDirectoryBuilder {
 public:
  PageDirectoryBuilder(PageDirectory& out, bool flat, const std::string& where,
                       const PageDirectoryOptions& options)
      : out_(out), flat_(flat), where_(where), options_(options) {}

  // `bytes` starts at the page header at file offset `offset`; `left` is what the chunk holds
  // from there (at least bytes.size()). Adds the page and sets `*page_size` to its header and
  // body; or, when the header may extend past `bytes` (which hold less than the chunk and the
  // header limit allow), adds nothing and sets `*page_size` to 0: call again with more bytes.
  Status Add(std::span<const uint8_t> bytes, uint64_t offset, uint64_t left, uint64_t* page_size) {
    *page_size = 0;
    if (out_.pages_.size() >= options_.max_pages) {
      return Status::ResourceExhausted(where_ + ", page at offset " + std::to_string(offset) +
                                       ": the chunk has more than " +
                                       std::to_string(options_.max_pages) + " pages");
    }
    bool limited = bytes.size() >= options_.max_header_bytes;
    if (limited) bytes = bytes.first(options_.max_header_bytes);
    format::PageHeader h;
    size_t header_size = 0;
    Status st = format::DecodePageHeader(bytes, h, &header_size);
    if (!st.ok()) {
      if (!limited && bytes.size() < left) return Status::OK();  // perhaps cut short: read more
      std::string what = st.message();
      if (limited)
        what += " (page headers are read up to " + std::to_string(bytes.size()) + " bytes)";
      return Error(offset, what);
    }
    auto compressed = static_cast<uint64_t>(h.compressed_page_size);
    if (compressed > left - header_size) {
      return Error(offset, "page of " + std::to_string(compressed) +
                               " bytes overruns the column chunk (" +
                               std::to_string(left - header_size) + " bytes left)");
    }
    PageInfo p;
    p.offset = offset;
    p.header_size = static_cast<uint32_t>(header_size);
    p.compressed_size = h.compressed_page_size;
    p.uncompressed_size = h.uncompressed_page_size;
    p.type = h.type;
    if (h.crc) p.crc = static_cast<uint32_t>(*h.crc);
    const std::optional<Statistics>* stats = nullptr;
    switch (h.type) {
      case PageType::kDictionaryPage:
        p.encoding = h.dictionary_page_header->encoding;
        p.num_values = h.dictionary_page_header->num_values;
        p.dictionary_is_sorted = h.dictionary_page_header->is_sorted;
        break;
      case PageType::kDataPage:
        p.encoding = h.data_page_header->encoding;
        p.num_values = h.data_page_header->num_values;
        if (flat_) p.num_rows = p.num_values;
        stats = &h.data_page_header->statistics;
        break;
      case PageType::kDataPageV2: {
        const format::DataPageHeaderV2& v2 = *h.data_page_header_v2;
        p.encoding = v2.encoding;
        p.num_values = v2.num_values;
        p.num_nulls = v2.num_nulls;
        p.num_rows = v2.num_rows;
        p.v2_repetition_levels_bytes = v2.repetition_levels_byte_length;
        p.v2_definition_levels_bytes = v2.definition_levels_byte_length;
        p.v2_is_compressed = v2.is_compressed;
        stats = &v2.statistics;
        break;
      }
      default: break;  // index pages and unknown types: no values, no rows
    }
    if (p.is_data_page()) {
      p.first_row = next_row_;
      if (next_row_ >= 0 &&
          (p.num_rows < 0 || __builtin_add_overflow(next_row_, p.num_rows, &next_row_))) {
        next_row_ = -1;
      }
    }
    if (stats && *stats) p.statistics = Own(**stats);
    out_.pages_.push_back(p);
    *page_size = header_size + compressed;
    return Status::OK();
  }

 private:
  Status Error(uint64_t offset, const std::string& what) const {
    return Status::Corruption(where_ + ", page at offset " + std::to_string(offset) + ": " + what);
  }

  // A copy of `s` whose views point into the directory's storage.
  Statistics Own(const Statistics& s) {
    Statistics copy = s;
    for (std::optional<std::string_view>* v :
         {&copy.min, &copy.max, &copy.min_value, &copy.max_value}) {
      if (*v) *v = out_.storage_.emplace_back(**v);
    }
    return copy;
  }

  PageDirectory& out_;
  bool flat_;
  const std::string& where_;
  const PageDirectoryOptions& options_;
  int64_t next_row_ = 0;  // the next data page's first row; -1 once unknown
};

Status BuildPageDirectory(std::span<const uint8_t> chunk, uint64_t chunk_offset, bool flat,
                          const std::string& where, PageDirectory& out,
                          const PageDirectoryOptions& options) {
  PageDirectoryBuilder builder(out, flat, where, options);
  size_t pos = 0;
  while (pos < chunk.size()) {
    uint64_t page_size = 0;
    std::span<const uint8_t> rest = chunk.subspan(pos);
    PQSIFT_RETURN_IF_ERROR(builder.Add(rest, chunk_offset + pos, rest.size(), &page_size));
    // All of the chunk was given, so the builder never asks for more.
    pos += static_cast<size_t>(page_size);
  }
  return Status::OK();
}

Result<PageDirectory> BuildPageDirectory(std::span<const uint8_t> chunk, uint64_t chunk_offset,
                                         bool flat, const std::string& where,
                                         const PageDirectoryOptions& options) {
  PageDirectory out;
  PQSIFT_RETURN_IF_ERROR(BuildPageDirectory(chunk, chunk_offset, flat, where, out, options));
  return out;
}

Status ReadPageDirectory(const RandomAccessFile& file, ByteRange range, bool flat,
                         const std::string& where, PageDirectory& out,
                         const PageDirectoryOptions& options, uint64_t* bytes_read) {
  PQSIFT_RETURN_IF_ERROR(
      CheckRange(range.offset, range.length, file.size(), where + ": column chunk"));
  PageDirectoryBuilder builder(out, flat, where, options);
  const size_t window_bytes = std::max<size_t>(options.read_window, 1);
  const size_t header_bytes = std::max<size_t>(std::min(options.header_read, window_bytes), 1);
  Buffer window;
  uint64_t window_start = 0;
  uint64_t window_end = 0;  // empty
  uint64_t pos = range.offset;
  size_t want = window_bytes;
  bool grow = false;  // the last try found the header running past the window
  uint64_t read_so_far = 0;
  while (pos < range.end()) {
    uint64_t left = range.end() - pos;
    uint64_t need = std::min<uint64_t>(want, left);
    // A window read earlier serves the headers it holds (a header's first bytes are there); a
    // header it cuts short is read again from its start, with more bytes.
    const bool held = pos >= window_start && pos < window_end &&
                      window_end - pos >= std::min<uint64_t>(header_bytes, left);
    if (grow || !held) {
      if (options.max_bytes_read > 0 && read_so_far + need > options.max_bytes_read) {
        return Status::ResourceExhausted(where + ": page headers need more than " +
                                         std::to_string(options.max_bytes_read) +
                                         " bytes of reads");
      }
      PQSIFT_ASSIGN_OR_RETURN(window, file.Read({pos, need}));
      read_so_far += need;
      if (bytes_read) *bytes_read += need;
      window_start = pos;
      window_end = pos + need;
    }
    std::span<const uint8_t> bytes = window.span().subspan(pos - window_start, window_end - pos);
    uint64_t page_size = 0;
    PQSIFT_RETURN_IF_ERROR(builder.Add(bytes, pos, left, &page_size));
    if (page_size == 0) {
      // The header may go on past the window: read again from the page, twice as much (the
      // builder asks only while the chunk and the header limit allow more than `bytes`).
      want = std::min(std::max(want, bytes.size()) * 2, options.max_header_bytes);
      grow = true;
      continue;
    }
    grow = false;
    pos += page_size;
    // Small pages: the next window holds many headers; large ones: it would hold body.
    want = page_size < window_bytes ? window_bytes : header_bytes;
  }
  return Status::OK();
}

std::optional<format::OffsetIndex> OffsetIndexOf(const PageDirectory& directory,
                                                 int64_t row_group_rows) {
  if (directory.num_rows() != row_group_rows) return std::nullopt;
  format::OffsetIndex index;
  for (const PageInfo& page : directory.pages()) {
    if (!page.is_data_page() || page.num_rows == 0) continue;
    if (page.total_size() > static_cast<uint64_t>(INT32_MAX)) return std::nullopt;
    index.page_locations.push_back({static_cast<int64_t>(page.offset),
                                    static_cast<int32_t>(page.total_size()), page.first_row});
  }
  if (index.page_locations.empty()) return std::nullopt;
  return index;
}

std::vector<size_t> MatchOffsetIndex(const format::OffsetIndex& index, int64_t row_group_rows,
                                     PageDirectory& directory) {
  const std::vector<format::PageLocation>& locations = index.page_locations;
  std::vector<std::pair<int64_t, size_t>> by_offset;  // (offset, entry), sorted
  by_offset.reserve(locations.size());
  for (size_t i = 0; i < locations.size(); ++i) by_offset.emplace_back(locations[i].offset, i);
  std::sort(by_offset.begin(), by_offset.end());
  std::vector<bool> matched(locations.size(), false);
  for (PageInfo& page : directory.mutable_pages()) {
    page.offset_index.reset();
    auto offset = static_cast<int64_t>(page.offset);
    auto it =
        std::lower_bound(by_offset.begin(), by_offset.end(), std::make_pair(offset, size_t{0}));
    for (; it != by_offset.end() && it->first == offset; ++it) {
      if (matched[it->second]) continue;  // a second page at the same offset cannot be
      size_t i = it->second;
      matched[i] = true;
      OffsetIndexEntry e;
      e.entry = i;
      e.first_row = locations[i].first_row_index;
      int64_t end = i + 1 < locations.size() ? locations[i + 1].first_row_index : row_group_rows;
      int64_t rows = 0;
      e.num_rows = __builtin_sub_overflow(end, e.first_row, &rows) || rows < 0 ? -1 : rows;
      e.size_matches =
          locations[i].compressed_page_size >= 0 &&
          static_cast<uint64_t>(locations[i].compressed_page_size) == page.total_size();
      page.offset_index = e;
      break;
    }
  }
  std::vector<size_t> unmatched;
  for (size_t i = 0; i < locations.size(); ++i) {
    if (!matched[i]) unmatched.push_back(i);
  }
  return unmatched;
}

}  // namespace pqsift::column
