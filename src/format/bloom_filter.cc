#include "format/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>

#include "format/bloom_filter_header.h"
#include "format/metadata_encoder.h"

namespace pqsift::format {
namespace {

// BloomFilter.md: the eight salts of the multiplicative hashes, one per lane.
constexpr uint32_t kSalts[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

// The bit to set or test in lane `lane`: the top 5 bits of key * salt.
uint32_t LaneMask(uint32_t key, int lane) { return uint32_t{1} << ((key * kSalts[lane]) >> 27); }

size_t BlockIndex(uint64_t hash, size_t blocks) {
  return static_cast<size_t>(((hash >> 32) * blocks) >> 32);
}

bool BlockMightContain(const uint32_t* block, uint64_t hash) {
  const auto key = static_cast<uint32_t>(hash);
  for (int lane = 0; lane < 8; ++lane) {
    if ((block[lane] & LaneMask(key, lane)) == 0) return false;
  }
  return true;
}

bool ValidBitsetSize(int64_t num_bytes) {
  return num_bytes >= kBloomFilterMinBytes && num_bytes <= kBloomFilterMaxBytes &&
         num_bytes % kBloomFilterBlockBytes == 0;
}

}  // namespace

uint64_t BloomFilterHash(std::span<const uint8_t> plain) {
  return XXH64(plain.data(), plain.size(), 0);
}

int64_t OptimalBloomFilterBytes(int64_t ndv, double fpp) {
  assert(ndv >= 0 && fpp > 0 && fpp < 1);
  const double bits_per_value = -8.0 / std::log(1.0 - std::pow(fpp, 1.0 / 8));
  const double bytes = static_cast<double>(ndv) * bits_per_value / 8;
  if (!(bytes < static_cast<double>(kBloomFilterMaxBytes))) return kBloomFilterMaxBytes;
  const auto wanted = std::max<int64_t>(static_cast<int64_t>(std::ceil(bytes)), 1);
  return std::clamp<int64_t>(static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(wanted))),
                             kBloomFilterMinBytes, kBloomFilterMaxBytes);
}

Result<BloomFilterLayout> DecodeBloomFilterLayout(std::span<const uint8_t> bytes) {
  BloomFilterHeader header;
  BloomFilterLayout layout;
  PQSIFT_RETURN_IF_ERROR(DecodeBloomFilterHeader(bytes, header, &layout.header_size));
  if (!header.IsSupported()) {
    return Status::NotSupported("bloom filter with algorithm " + std::to_string(header.algorithm) +
                                ", hash " + std::to_string(header.hash) + ", compression " +
                                std::to_string(header.compression) +
                                " (only 1, 1, 1: BLOCK, XXHASH, UNCOMPRESSED)");
  }
  if (!ValidBitsetSize(header.num_bytes)) {
    return Status::Corruption("bloom filter bitset of " + std::to_string(header.num_bytes) +
                              " bytes: not a multiple of 32 between " +
                              std::to_string(kBloomFilterMinBytes) + " and " +
                              std::to_string(kBloomFilterMaxBytes));
  }
  layout.num_bytes = header.num_bytes;
  return layout;
}

SplitBlockBloomFilter::SplitBlockBloomFilter(int64_t num_bytes)
    : words_(static_cast<size_t>(num_bytes / 4), 0) {
  assert(ValidBitsetSize(num_bytes));
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::Parse(std::span<const uint8_t> bytes) {
  PQSIFT_ASSIGN_OR_RETURN(BloomFilterLayout layout, DecodeBloomFilterLayout(bytes));
  if (static_cast<uint64_t>(layout.total()) > bytes.size()) {
    return Status::Corruption(
        "bloom filter bitset of " + std::to_string(layout.num_bytes) + " bytes runs past the " +
        std::to_string(bytes.size() - layout.header_size) + " bytes that follow its header");
  }
  SplitBlockBloomFilter filter(layout.num_bytes);
  std::memcpy(filter.words_.data(), bytes.data() + layout.header_size,
              static_cast<size_t>(layout.num_bytes));  // little-endian lanes, as in memory
  return filter;
}

uint32_t* SplitBlockBloomFilter::Block(uint64_t hash) {
  return words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
}

const uint32_t* SplitBlockBloomFilter::Block(uint64_t hash) const {
  return words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
}

void SplitBlockBloomFilter::Insert(uint64_t hash) {
  uint32_t* block = Block(hash);
  const auto key = static_cast<uint32_t>(hash);
  for (int lane = 0; lane < 8; ++lane) block[lane] |= LaneMask(key, lane);
}

bool SplitBlockBloomFilter::MightContain(uint64_t hash) const {
  return BlockMightContain(Block(hash), hash);
}

void SplitBlockBloomFilter::AppendTo(std::vector<uint8_t>& out) const {
  BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(num_bytes());
  header.algorithm = 1;    // BLOCK
  header.hash = 1;         // XXHASH
  header.compression = 1;  // UNCOMPRESSED
  std::string encoded = MetadataEncoder().BloomFilterHeader(header).Take();
  out.insert(out.end(), encoded.begin(), encoded.end());
  const auto* bits = reinterpret_cast<const uint8_t*>(words_.data());
  out.insert(out.end(), bits, bits + num_bytes());
}

BloomFilterBlocks::BloomFilterBlocks(int64_t num_bytes)
    : num_blocks_(static_cast<uint64_t>(num_bytes / kBloomFilterBlockBytes)) {
  assert(ValidBitsetSize(num_bytes));
}

uint64_t BloomFilterBlockOf(uint64_t hash, int64_t num_bytes) {
  return BlockIndex(hash, static_cast<size_t>(num_bytes / kBloomFilterBlockBytes));
}

void BloomFilterBlocks::Add(uint64_t block, std::span<const uint8_t> bytes) {
  assert(block < num_blocks_ && bytes.size() == kBloomFilterBlockBytes);
  auto at = std::lower_bound(blocks_.begin(), blocks_.end(), block,
                             [](const auto& entry, uint64_t b) { return entry.first < b; });
  if (at != blocks_.end() && at->first == block) return;
  std::array<uint32_t, 8> lanes;
  std::memcpy(lanes.data(), bytes.data(), kBloomFilterBlockBytes);  // little-endian lanes
  blocks_.insert(at, {block, lanes});
}

bool BloomFilterBlocks::MightContain(uint64_t hash) const {
  const uint64_t block = BlockIndex(hash, num_blocks_);
  auto at = std::lower_bound(blocks_.begin(), blocks_.end(), block,
                             [](const auto& entry, uint64_t b) { return entry.first < b; });
  if (at == blocks_.end() || at->first != block) return true;  // not read: may contain
  return BlockMightContain(at->second.data(), hash);
}

}  // namespace pqsift::format
