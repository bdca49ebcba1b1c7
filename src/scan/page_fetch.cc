#include "scan/page_fetch.h"

#include "io/coalesce.h"

namespace pqsift::scan {
namespace {

// A gap this small between two needed pages is read rather than paying for another request.
constexpr uint64_t kMaxGap = uint64_t{16} * 1024;

// Every page inside the chunk, in file order, none overlapping the next.
bool LocationsInside(ByteRange chunk, const std::vector<format::PageLocation>& pages) {
  uint64_t next_free = chunk.offset;
  for (const format::PageLocation& p : pages) {
    auto offset = static_cast<uint64_t>(p.offset);
    auto size = static_cast<uint64_t>(p.compressed_page_size);
    if (size == 0 || offset < next_free || offset > chunk.end() || size > chunk.end() - offset) {
      return false;
    }
    next_free = offset + size;
  }
  return true;
}

// The pages from row `from_row` on holding a row of `rows`, after the dictionary region when
// `with_dictionary`.
std::optional<PageFetch> PlanPages(ByteRange chunk, const format::OffsetIndex& index,
                                   int64_t num_rows, const prune::RowSelection& rows,
                                   int64_t from_row, bool with_dictionary) {
  const std::vector<format::PageLocation>& pages = index.page_locations;
  if (pages.empty() || !LocationsInside(chunk, pages)) return std::nullopt;
  PageFetch out;
  uint64_t dictionary_end = static_cast<uint64_t>(pages.front().offset);
  if (with_dictionary && dictionary_end > chunk.offset) {
    out.pieces.push_back({chunk.offset, dictionary_end - chunk.offset});
  }
  const std::vector<prune::RowRange>& ranges = rows.ranges();
  auto range = ranges.begin();
  for (size_t i = 0; i < pages.size(); ++i) {
    int64_t first = pages[i].first_row_index;
    int64_t end = i + 1 < pages.size() ? pages[i + 1].first_row_index : num_rows;
    while (range != ranges.end() && range->end <= first) ++range;
    bool needed = first >= from_row && range != ranges.end() && range->begin < end;
    if (!needed) {
      ++out.pages_not_fetched;
      continue;
    }
    out.pieces.push_back({static_cast<uint64_t>(pages[i].offset),
                          static_cast<uint64_t>(pages[i].compressed_page_size)});
    out.pages.push_back({first, end - first, static_cast<int32_t>(i)});
  }
  // The dictionary region is read with the pages only when the first of them follows it: a
  // gap after it holds pages of other slices (read by them), and a read of the region alone is
  // the same range for every slice, so a wave started for an earlier slice serves it
  // (RowGroupData::StartPrefetch) and the chunk keeps it once read (RowGroupData::Get).
  const bool dictionary = !out.pieces.empty() && out.pieces.front().offset == chunk.offset &&
                          dictionary_end > chunk.offset;
  if (dictionary && (out.pieces.size() == 1 || out.pieces[1].offset != dictionary_end)) {
    out.reads.push_back(out.pieces.front());
    std::vector<ByteRange> rest =
        io::CoalesceRanges({out.pieces.begin() + 1, out.pieces.end()}, kMaxGap);
    out.reads.insert(out.reads.end(), rest.begin(), rest.end());
  } else {
    out.reads = io::CoalesceRanges(out.pieces, kMaxGap);
  }
  uint64_t read = 0;
  for (const ByteRange& r : out.reads) read += r.length;
  out.bytes_not_fetched = chunk.length - read;
  return out;
}

}  // namespace

std::optional<PageFetch> PlanPageFetch(ByteRange chunk, const format::OffsetIndex& index,
                                       int64_t num_rows, const prune::RowSelection& rows,
                                       bool with_dictionary) {
  std::optional<PageFetch> fetch = PlanPages(chunk, index, num_rows, rows, 0, with_dictionary);
  if (fetch && fetch->pages_not_fetched == 0) return std::nullopt;
  return fetch;
}

std::optional<PageFetch> PlanPageFetchFrom(ByteRange chunk, const format::OffsetIndex& index,
                                           int64_t num_rows, const prune::RowSelection& rows,
                                           int64_t from_row) {
  return PlanPages(chunk, index, num_rows, rows, from_row, false);
}

ByteRange DictionaryRegion(ByteRange chunk, const format::OffsetIndex& index) {
  if (index.page_locations.empty() || !LocationsInside(chunk, index.page_locations)) return {};
  return {chunk.offset, static_cast<uint64_t>(index.page_locations.front().offset) - chunk.offset};
}

}  // namespace pqsift::scan
