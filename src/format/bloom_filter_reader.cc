#include "format/bloom_filter_reader.h"

#include <algorithm>
#include <functional>

#include "crypto/module.h"
#include "format/file_decryptor.h"
#include "format/metadata_internals.h"
#include "io/coalesce.h"

namespace pqsift::format {
namespace {

// Filters closer than this are read together: the bytes between them (other columns' filters,
// usually) cost less than another request.
constexpr uint64_t kMaxGap = uint64_t{64} * 1024;
// Headers and blocks read for a few hashes are read together only when this close: reading the
// bitset between them would defeat the purpose.
constexpr uint64_t kMaxBlockGap = 4096;

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

// An encrypted chunk's filter is two modules (header, bitset) under the chunk's key: its
// decryptor, or null for a plaintext chunk. `*usable` is false for an encrypted chunk whose key
// the file was not opened with (its filter is then absent: never misread).
std::shared_ptr<const crypto::ModuleDecryptor> ChunkDecryptor(const ParquetMetadata& metadata,
                                                              const BloomFilterRequest& r,
                                                              bool* usable) {
  *usable = true;
  const std::vector<RowGroup>& row_groups = metadata.file().row_groups;
  if (r.row_group >= row_groups.size() || r.leaf < 0 ||
      static_cast<size_t>(r.leaf) >= row_groups[r.row_group].columns.size() ||
      !row_groups[r.row_group].columns[r.leaf].is_encrypted) {
    return nullptr;
  }
  *usable = false;
  if (DecryptorOf(metadata) == nullptr) return nullptr;
  auto d = DecryptorOf(metadata)->ChunkDecryptor(r.row_group, static_cast<size_t>(r.leaf), "");
  if (!d.ok() || *d == nullptr) return nullptr;
  *usable = true;
  return *d;
}

// The chunk's metadata when its filter can be read (plaintext, or encrypted with its key).
const ColumnMetaData* ReadableChunkMetadata(const ParquetMetadata& metadata,
                                            const BloomFilterRequest& r) {
  bool usable = false;
  ChunkDecryptor(metadata, r, &usable);
  return usable ? ChunkMetadata(metadata, r) : nullptr;
}

// Where the modules of a chunk's filter are, for their AADs.
crypto::ModuleId FilterModule(const ParquetMetadata& metadata, const BloomFilterRequest& r,
                              crypto::ModuleType type) {
  return {type, DecryptorOf(metadata)->RowGroupOrdinal(r.row_group), r.leaf, 0};
}

// A filter as stored: its header (plain, or decrypted from its module) and the bytes it takes
// in the file (header and bitset, or their two modules).
struct StoredFilter {
  BloomFilterLayout layout;  // of the plaintext filter
  uint64_t stored_bytes = 0;
  std::vector<uint8_t> header;  // the decrypted header (encrypted filters only)
};

bool IsAuthentication(const Status& st) { return st.code() == StatusCode::kAuthentication; }

// The stored filter from its first bytes. nullopt when unusable; Authentication when a module
// fails it (a changed or moved module is an error, never "absent").
Result<std::optional<StoredFilter>> StoredFilterOf(const crypto::ModuleDecryptor* d,
                                                   const crypto::ModuleId& header_id,
                                                   std::span<const uint8_t> bytes) {
  StoredFilter out;
  if (d == nullptr) {
    Result<BloomFilterLayout> layout = DecodeBloomFilterLayout(bytes);
    if (!layout.ok()) return std::optional<StoredFilter>();
    out.layout = *layout;
    out.stored_bytes = static_cast<uint64_t>(layout->total());
    return std::optional<StoredFilter>(std::move(out));
  }
  Result<size_t> header_size = d->ModuleSizeAt(bytes, header_id);
  if (!header_size.ok()) return std::optional<StoredFilter>();
  Result<Buffer> header = d->Decrypt(header_id, bytes.first(*header_size));
  if (!header.ok()) {
    if (IsAuthentication(header.status())) return header.status();
    return std::optional<StoredFilter>();
  }
  Result<BloomFilterLayout> layout = DecodeBloomFilterLayout(header->span());
  if (!layout.ok() || layout->header_size != header->size()) return std::optional<StoredFilter>();
  out.layout = *layout;
  out.header.assign(header->span().begin(), header->span().end());
  out.stored_bytes = *header_size + d->Overhead(crypto::ModuleType::kBloomFilterBitset) +
                     static_cast<uint64_t>(layout->num_bytes);
  return std::optional<StoredFilter>(std::move(out));
}

// The whole filter from its `stored` bytes (StoredFilterOf's stored_bytes of them).
Result<std::optional<SplitBlockBloomFilter>> WholeFilterOf(const crypto::ModuleDecryptor* d,
                                                           const crypto::ModuleId& bitset_id,
                                                           const StoredFilter& filter,
                                                           std::span<const uint8_t> stored) {
  std::vector<uint8_t> plain;
  if (d != nullptr) {
    const size_t bitset_module = d->Overhead(bitset_id.type) + filter.layout.num_bytes;
    Result<Buffer> bitset = d->Decrypt(bitset_id, stored.last(bitset_module));
    if (!bitset.ok()) {
      if (IsAuthentication(bitset.status())) return bitset.status();
      return std::optional<SplitBlockBloomFilter>();
    }
    plain = filter.header;
    plain.insert(plain.end(), bitset->span().begin(), bitset->span().end());
    stored = plain;
  }
  Result<SplitBlockBloomFilter> parsed = SplitBlockBloomFilter::Parse(stored);
  if (!parsed.ok()) return std::optional<SplitBlockBloomFilter>();
  return std::optional<SplitBlockBloomFilter>(std::move(parsed).value());
}

// A filter this small is read whole even for a few hashes: its blocks would cost as much.
constexpr uint64_t kSmallFilterBytes = 4096;

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
  RangeReader(const RandomAccessFile& file, const ParquetMetadata& metadata, uint64_t max_gap)
      : file_(file), metadata_(metadata), max_gap_(max_gap) {}

  Status Read(std::vector<ByteRange> ranges, uint64_t* bytes_read) {
    blocks_ = io::CoalesceRanges(std::move(ranges), max_gap_);
    buffers_.clear();
    buffers_.resize(blocks_.size());
    // The blocks not read with the footer, side by side: one wave.
    std::vector<ByteRange> to_read;
    std::vector<size_t> where;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      if (auto cached = metadata_.CachedBytes(blocks_[b])) {
        buffers_[b] = Buffer::CopyOf(*cached);
        continue;
      }
      to_read.push_back(blocks_[b]);
      where.push_back(b);
    }
    if (to_read.empty()) return Status::OK();
    PQSIFT_ASSIGN_OR_RETURN(std::vector<Buffer> read, file_.ReadRanges(to_read));
    for (size_t r = 0; r < to_read.size(); ++r) {
      *bytes_read += to_read[r].length;
      buffers_[where[r]] = std::move(read[r]);
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
  uint64_t max_gap_;
  std::vector<ByteRange> blocks_;
  std::vector<Buffer> buffers_;
};

}  // namespace

bool BloomFilterReadable(const ParquetMetadata& metadata, size_t row_group, int32_t leaf) {
  bool usable = false;
  ChunkDecryptor(metadata, {row_group, leaf, {}}, &usable);
  return usable;
}

uint64_t BloomFilterReadEstimate(const RandomAccessFile& file, const ParquetMetadata& metadata,
                                 const BloomFilterRequest& request) {
  bool whole = false;
  std::optional<ByteRange> range =
      FirstRange(ReadableChunkMetadata(metadata, request), file.size(), &whole);
  if (!range) return 0;
  bool usable = false;
  const bool encrypted = ChunkDecryptor(metadata, request, &usable) != nullptr;
  if (!encrypted && !request.hashes.empty() && range->length > kSmallFilterBytes) {
    return std::min(range->length,
                    kBloomFilterHeaderProbeBytes + request.hashes.size() * kBloomFilterBlockBytes);
  }
  return range->length;
}

namespace {

// The distinct blocks of a bitset of `num_bytes` that `hashes` fall in, ascending.
std::vector<uint64_t> BlocksOf(std::span<const uint64_t> hashes, int64_t num_bytes) {
  std::vector<uint64_t> blocks;
  for (uint64_t hash : hashes) blocks.push_back(BloomFilterBlockOf(hash, num_bytes));
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

}  // namespace

namespace {

// The first pass for each request: what it reads first (the whole filter, a prefix, or only
// the header when it names few hashes), and those reads coalesced as the loader makes them.
// Encrypted chunks come with their decryptor: a GCM module authenticates only whole, so their
// filters are always read whole (no blocks).
struct FirstPass {
  std::vector<std::optional<ByteRange>> first;
  std::vector<bool> whole, header_only;
  std::vector<std::shared_ptr<const crypto::ModuleDecryptor>> decryptors;
  std::vector<ByteRange> ranges, header_ranges;  // not coalesced yet
};

FirstPass PlanFirstPass(const RandomAccessFile& file, const ParquetMetadata& metadata,
                        std::span<const BloomFilterRequest> requests) {
  FirstPass p;
  p.first.resize(requests.size());
  p.whole.resize(requests.size());
  p.header_only.resize(requests.size());
  p.decryptors.resize(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    bool is_whole = false;
    p.first[i] = FirstRange(ReadableChunkMetadata(metadata, requests[i]), file.size(), &is_whole);
    p.whole[i] = is_whole;
    if (!p.first[i]) continue;
    bool usable = false;
    p.decryptors[i] = ChunkDecryptor(metadata, requests[i], &usable);
    if (!p.decryptors[i] && !requests[i].hashes.empty() && p.first[i]->length > kSmallFilterBytes) {
      p.header_only[i] = true;
      p.first[i]->length = std::min(p.first[i]->length, kBloomFilterHeaderProbeBytes);
    }
    (p.header_only[i] ? p.header_ranges : p.ranges).push_back(*p.first[i]);
  }
  return p;
}

// What the second pass reads for a request: the rest of its bitset, or some of its blocks.
struct Second {
  size_t request;
  StoredFilter stored;
  std::vector<ByteRange> ranges;  // the rest (one range) or the blocks (one per block)
  std::vector<uint64_t> blocks;   // empty: `ranges` is the rest of the whole filter
};

// The first pass read: each request's filter when its first read held all of it (into `out`,
// when given), else what its second read must fetch; deferring, from the first request past
// `must_load` whose second read would pass `max_bytes`, that one and the rest (`*complete`).
// Authentication when an encrypted filter's module fails it.
Result<std::vector<Second>> PlanSecondPass(
    const RandomAccessFile& file, const ParquetMetadata& metadata,
    std::span<const BloomFilterRequest> requests, const FirstPass& p,
    const std::function<std::span<const uint8_t>(size_t)>& prefix_of, uint64_t max_bytes,
    size_t must_load, std::vector<std::optional<LoadedBloomFilter>>* out, size_t* complete) {
  std::vector<Second> seconds;
  uint64_t second_bytes = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!p.first[i]) continue;
    std::span<const uint8_t> bytes = prefix_of(i);
    const crypto::ModuleDecryptor* d = p.decryptors[i].get();
    PQSIFT_ASSIGN_OR_RETURN(std::optional<StoredFilter> stored,
                            StoredFilterOf(d,
                                           d ? FilterModule(metadata, requests[i],
                                                            crypto::ModuleType::kBloomFilterHeader)
                                             : crypto::ModuleId{},
                                           bytes));
    if (!stored) continue;
    const uint64_t total = stored->stored_bytes;
    if (total <= bytes.size()) {
      if (out != nullptr) {
        const crypto::ModuleId bitset_id =
            d ? FilterModule(metadata, requests[i], crypto::ModuleType::kBloomFilterBitset)
              : crypto::ModuleId{};
        PQSIFT_ASSIGN_OR_RETURN(auto filter,
                                WholeFilterOf(d, bitset_id, *stored, bytes.first(total)));
        if (filter) (*out)[i].emplace(std::move(*filter));
      }
      continue;
    }
    // Longer than the footer says: not trusted.
    if (p.whole[i] &&
        total > static_cast<uint64_t>(*ChunkMetadata(metadata, requests[i])->bloom_filter_length)) {
      continue;
    }
    if (!CheckRange(p.first[i]->offset, total, file.size(), "bloom filter").ok()) continue;
    Second second{i, std::move(*stored), {}, {}};
    const BloomFilterLayout& layout = second.stored.layout;
    if (p.header_only[i]) {
      second.blocks = BlocksOf(requests[i].hashes, layout.num_bytes);
      // Blocks covering much of the bitset: read it whole (one request, no per-block seeks).
      if (second.blocks.size() * kBloomFilterBlockBytes * 8 >=
          static_cast<uint64_t>(layout.num_bytes)) {
        second.blocks.clear();
      }
    }
    const uint64_t bitset = p.first[i]->offset + layout.header_size;  // (plaintext filters)
    for (uint64_t block : second.blocks) {
      second.ranges.push_back({bitset + block * kBloomFilterBlockBytes, kBloomFilterBlockBytes});
    }
    if (second.blocks.empty()) second.ranges.push_back({p.first[i]->end(), total - bytes.size()});
    uint64_t length = 0;
    for (const ByteRange& r : second.ranges) length += r.length;
    if (i >= must_load && second_bytes + length > max_bytes) {
      // Too much at once (filters of many row groups, or hostile headers all claiming large
      // bitsets over the same bytes): this request and the later ones wait for another call.
      *complete = i;
      if (out != nullptr) {
        for (size_t later = i; later < requests.size(); ++later) (*out)[later].reset();
      }
      break;
    }
    second_bytes += length;
    seconds.push_back(std::move(second));
  }
  return seconds;
}

// The reads a RangeReader makes for `ranges` (coalesced, those held with the footer left out).
void AppendReads(const ParquetMetadata& metadata, std::vector<ByteRange> ranges, uint64_t max_gap,
                 std::vector<ByteRange>* out) {
  for (const ByteRange& block : io::CoalesceRanges(std::move(ranges), max_gap)) {
    if (!metadata.CachedBytes(block)) out->push_back(block);
  }
}

}  // namespace

std::vector<ByteRange> BloomFilterFirstReads(const RandomAccessFile& file,
                                             const ParquetMetadata& metadata,
                                             std::span<const BloomFilterRequest> requests) {
  FirstPass p = PlanFirstPass(file, metadata, requests);
  std::vector<ByteRange> out;
  AppendReads(metadata, std::move(p.ranges), kMaxGap, &out);
  AppendReads(metadata, std::move(p.header_ranges), kMaxBlockGap, &out);
  return out;
}

Result<std::vector<ByteRange>> BloomFilterSecondReads(const RandomAccessFile& file,
                                                      const ParquetMetadata& metadata,
                                                      std::span<const BloomFilterRequest> requests,
                                                      uint64_t max_bytes, size_t must_load) {
  FirstPass p = PlanFirstPass(file, metadata, requests);
  if (p.ranges.empty() && p.header_ranges.empty()) return std::vector<ByteRange>{};
  uint64_t unused = 0;
  RangeReader whole_prefixes(file, metadata, kMaxGap);
  RangeReader headers(file, metadata, kMaxBlockGap);
  PQSIFT_RETURN_IF_ERROR(whole_prefixes.Read(p.ranges, &unused));
  PQSIFT_RETURN_IF_ERROR(headers.Read(p.header_ranges, &unused));
  auto prefix_of = [&](size_t i) {
    return (p.header_only[i] ? headers : whole_prefixes).View(*p.first[i]);
  };
  size_t complete = requests.size();
  PQSIFT_ASSIGN_OR_RETURN(std::vector<Second> seconds,
                          PlanSecondPass(file, metadata, requests, p, prefix_of, max_bytes,
                                         must_load, nullptr, &complete));
  std::vector<ByteRange> rest_ranges, block_ranges;
  for (const Second& s : seconds) {
    std::vector<ByteRange>& to = s.blocks.empty() ? rest_ranges : block_ranges;
    to.insert(to.end(), s.ranges.begin(), s.ranges.end());
  }
  std::vector<ByteRange> out;
  AppendReads(metadata, std::move(rest_ranges), kMaxGap, &out);
  AppendReads(metadata, std::move(block_ranges), kMaxBlockGap, &out);
  return out;
}

Result<LoadedBloomFilters> LoadBloomFilters(const RandomAccessFile& file,
                                            const ParquetMetadata& metadata,
                                            std::span<const BloomFilterRequest> requests,
                                            uint64_t max_bytes, size_t must_load,
                                            uint64_t* bytes_read) {
  LoadedBloomFilters loaded;
  loaded.filters.resize(requests.size());
  loaded.complete = requests.size();
  std::vector<std::optional<LoadedBloomFilter>>& out = loaded.filters;
  FirstPass p = PlanFirstPass(file, metadata, requests);
  if (p.ranges.empty() && p.header_ranges.empty()) return loaded;
  RangeReader whole_prefixes(file, metadata, kMaxGap);
  RangeReader headers(file, metadata, kMaxBlockGap);
  PQSIFT_RETURN_IF_ERROR(whole_prefixes.Read(p.ranges, bytes_read));
  PQSIFT_RETURN_IF_ERROR(headers.Read(p.header_ranges, bytes_read));
  auto prefix_of = [&](size_t i) {
    return (p.header_only[i] ? headers : whole_prefixes).View(*p.first[i]);
  };
  PQSIFT_ASSIGN_OR_RETURN(std::vector<Second> seconds,
                          PlanSecondPass(file, metadata, requests, p, prefix_of, max_bytes,
                                         must_load, &out, &loaded.complete));
  if (seconds.empty()) return loaded;
  std::vector<ByteRange> rest_ranges, block_ranges;
  for (const Second& s : seconds) {
    std::vector<ByteRange>& to = s.blocks.empty() ? rest_ranges : block_ranges;
    to.insert(to.end(), s.ranges.begin(), s.ranges.end());
  }
  RangeReader rests(file, metadata, kMaxGap);
  RangeReader blocks_read(file, metadata, kMaxBlockGap);
  PQSIFT_RETURN_IF_ERROR(rests.Read(std::move(rest_ranges), bytes_read));
  PQSIFT_RETURN_IF_ERROR(blocks_read.Read(std::move(block_ranges), bytes_read));
  for (const Second& s : seconds) {
    if (!s.blocks.empty()) {
      BloomFilterBlocks blocks(s.stored.layout.num_bytes);
      for (size_t b = 0; b < s.blocks.size(); ++b) {
        blocks.Add(s.blocks[b], blocks_read.View(s.ranges[b]));
      }
      out[s.request].emplace(std::move(blocks));
      continue;
    }
    std::span<const uint8_t> head = prefix_of(s.request);
    std::span<const uint8_t> tail = rests.View(s.ranges[0]);
    std::vector<uint8_t> joined(head.begin(), head.end());
    joined.insert(joined.end(), tail.begin(), tail.end());
    const crypto::ModuleDecryptor* d = p.decryptors[s.request].get();
    PQSIFT_ASSIGN_OR_RETURN(
        auto filter,
        WholeFilterOf(
            d,
            d ? FilterModule(metadata, requests[s.request], crypto::ModuleType::kBloomFilterBitset)
              : crypto::ModuleId{},
            s.stored, std::span<const uint8_t>(joined).first(s.stored.stored_bytes)));
    if (filter) out[s.request].emplace(std::move(*filter));
  }
  return loaded;
}

}  // namespace pqsift::format
