#include "format/bloom_filter_reader.h"

#include <algorithm>

#include "io/coalesce.h"

namespace pqsift::format {
namespace {

// Filters closer than this are read together: the bytes between them (other columns' filters,
// usually) cost less than another request.
constexpr uint64_t kMaxGap = uint64_t{64} * 1024;

// A footer-given length longer than the largest filter plus a generous header is not a filter.
constexpr int64_t kMaxFilterLength = kBloomFilterMaxBytes + int64_t{64} * 1024;

const ColumnMetaData* ChunkMetadata(const ParquetMetadata& metadata, const BloomFilterRequest& r) {
  const std::vector<RowGroup>& row_groups = metadata.file().row_groups;
  if (r.row_group >= row_groups.size()) return nullptr;
  const RowGroup& rg = row_groups[r.row_group];
  if (r.leaf < 0 || static_cast<size_t>(r.leaf) >= rg.columns.size()) return nullptr;
  const std::optional<ColumnMetaData>& meta = rg.columns[r.leaf].meta_data;
  return meta ? &*meta : nullptr;
}

// What to read first for a chunk's filter: the whole of it when the footer gives its length
// (`*whole` set), else the prefix. nullopt: no filter, or one the footer places outside the file.
std::optional<ByteRange> FirstRange(const ColumnMetaData* meta, uint64_t file_size, bool* whole) {
  if (meta == nullptr || !meta->bloom_filter_offset) return std::nullopt;
  const int64_t offset = *meta->bloom_filter_offset;
  if (offset < 0 || static_cast<uint64_t>(offset) >= file_size) return std::nullopt;
  const auto start = static_cast<uint64_t>(offset);
  *whole = meta->bloom_filter_length.has_value();
  if (!*whole) return ByteRange{start, std::min(kBloomFilterPrefixBytes, file_size - start)};
  const int32_t length = *meta->bloom_filter_length;
  if (length <= 0 || length > kMaxFilterLength) return std::nullopt;
  if (!CheckRange(start, static_cast<uint64_t>(length), file_size, "bloom filter").ok()) {
    return std::nullopt;
  }
  return ByteRange{start, static_cast<uint64_t>(length)};
}

// Reads a set of ranges in coalesced blocks (or takes them from the footer's tail read) and
// hands out views of each.
class RangeReader {
 public:
  RangeReader(const RandomAccessFile& file, const ParquetMetadata& metadata)
      : file_(file), metadata_(metadata) {}

  Status Read(std::vector<ByteRange> ranges, uint64_t* bytes_read) {
    blocks_ = io::CoalesceRanges(std::move(ranges), kMaxGap);
    buffers_.clear();
    for (const ByteRange& block : blocks_) {
      if (auto cached = metadata_.CachedBytes(block)) {
        buffers_.push_back(Buffer::CopyOf(*cached));  // read with the footer already
        continue;
      }
      PQSIFT_ASSIGN_OR_RETURN(Buffer read, file_.Read(block));
      *bytes_read += block.length;
      buffers_.push_back(std::move(read));
    }
    return Status::OK();
  }

  // REQUIRES: `range` was among those read (views stay valid until the next Read).
  std::span<const uint8_t> View(const ByteRange& range) const {
    auto it = std::upper_bound(
        blocks_.begin(), blocks_.end(), range.offset,
        [](uint64_t offset, const ByteRange& block) { return offset < block.offset; });
    size_t b = static_cast<size_t>(it - blocks_.begin()) - 1;  // the block holding `range`
    return buffers_[b].span().subspan(range.offset - blocks_[b].offset, range.length);
  }

 private:
  const RandomAccessFile& file_;
  const ParquetMetadata& metadata_;
  std::vector<ByteRange> blocks_;
  std::vector<Buffer> buffers_;
};

std::optional<SplitBlockBloomFilter> ParseOrNothing(std::span<const uint8_t> bytes) {
  Result<SplitBlockBloomFilter> filter = SplitBlockBloomFilter::Parse(bytes);
  if (!filter.ok()) return std::nullopt;
  return std::move(filter).value();
}

}  // namespace

uint64_t BloomFilterReadEstimate(const RandomAccessFile& file, const ParquetMetadata& metadata,
                                 const BloomFilterRequest& request) {
  bool whole = false;
  std::optional<ByteRange> range =
      FirstRange(ChunkMetadata(metadata, request), file.size(), &whole);
  return range ? range->length : 0;
}

Result<LoadedBloomFilters> LoadBloomFilters(const RandomAccessFile& file,
                                            const ParquetMetadata& metadata,
                                            std::span<const BloomFilterRequest> requests,
                                            uint64_t max_bytes, size_t must_load,
                                            uint64_t* bytes_read) {
  LoadedBloomFilters loaded;
  loaded.filters.resize(requests.size());
  loaded.complete = requests.size();
  std::vector<std::optional<SplitBlockBloomFilter>>& out = loaded.filters;
  std::vector<std::optional<ByteRange>> first(requests.size());
  std::vector<bool> whole(requests.size());
  std::vector<ByteRange> ranges;
  for (size_t i = 0; i < requests.size(); ++i) {
    bool is_whole = false;
    first[i] = FirstRange(ChunkMetadata(metadata, requests[i]), file.size(), &is_whole);
    whole[i] = is_whole;
    if (first[i]) ranges.push_back(*first[i]);
  }
  if (ranges.empty()) return loaded;
  RangeReader prefixes(file, metadata);
  PQSIFT_RETURN_IF_ERROR(prefixes.Read(std::move(ranges), bytes_read));

  // Filters whose prefix holds only part of the bitset: the rest, read in a second pass.
  struct Rest {
    size_t request;
    ByteRange range;
  };
  std::vector<Rest> rests;
  uint64_t rest_bytes = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!first[i]) continue;
    std::span<const uint8_t> bytes = prefixes.View(*first[i]);
    Result<BloomFilterLayout> layout = DecodeBloomFilterLayout(bytes);
    if (!layout.ok()) continue;
    const auto total = static_cast<uint64_t>(layout->total());
    if (total <= bytes.size()) {
      out[i] = ParseOrNothing(bytes.first(total));
      continue;
    }
    if (whole[i]) continue;  // longer than the footer says: not trusted
    ByteRange rest{first[i]->end(), total - bytes.size()};
    if (!CheckRange(rest.offset, rest.length, file.size(), "bloom filter").ok()) continue;
    if (i >= must_load && rest_bytes + rest.length > max_bytes) {
      // Too much at once (filters of many row groups, or hostile headers all claiming large
      // bitsets over the same bytes): this request and the later ones wait for another call.
      loaded.complete = i;
      for (size_t later = i; later < requests.size(); ++later) out[later].reset();
      break;
    }
    rest_bytes += rest.length;
    rests.push_back({i, rest});
  }
  if (rests.empty()) return loaded;
  std::vector<ByteRange> rest_ranges;
  for (const Rest& r : rests) rest_ranges.push_back(r.range);
  RangeReader remainders(file, metadata);
  PQSIFT_RETURN_IF_ERROR(remainders.Read(std::move(rest_ranges), bytes_read));
  for (const Rest& r : rests) {
    std::span<const uint8_t> head = prefixes.View(*first[r.request]);
    std::span<const uint8_t> tail = remainders.View(r.range);
    std::vector<uint8_t> joined(head.begin(), head.end());
    joined.insert(joined.end(), tail.begin(), tail.end());
    out[r.request] = ParseOrNothing(joined);
  }
  return loaded;
}

}  // namespace pqsift::format
