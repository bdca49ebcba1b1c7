// The split-block bloom filter (SBBF) of BloomFilter.md: one per column chunk, answering "is
// this value definitely absent from the chunk?". Built by the writer, parsed and probed by the
// bloom-filter pruning stage.
//
//   bloom filter data = BloomFilterHeader (Thrift compact: numBytes, BLOCK, XXHASH,
//                       UNCOMPRESSED) | bitset of numBytes bytes
//   bitset = blocks of 256 bits, each eight little-endian 32-bit lanes
//
// A value is hashed with XXH64 (seed 0) over its PLAIN encoding (BloomFilterHash). The upper 32
// bits of the hash pick a block ((hash >> 32) * blocks >> 32); the lower 32 bits, multiplied by
// eight salts, pick one bit in each lane (the top 5 bits of each product). Insert sets those
// eight bits; a value whose eight bits are not all set was never inserted.
//
// Thread safety: a filter is a value; const methods may be called from several threads.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "pqsift/status.h"

namespace pqsift::format {

// Bitset sizes pqsift writes and accepts. The spec fixes no bounds; these are those of the
// reference implementations (parquet-mr, Arrow): 128 MiB holds over 100 million distinct
// values at a 1% false-positive rate, far more than a row group has.
inline constexpr int64_t kBloomFilterMinBytes = 32;
inline constexpr int64_t kBloomFilterMaxBytes = int64_t{128} << 20;
inline constexpr int64_t kBloomFilterBlockBytes = 32;

// XXH64 with seed 0 of `plain`: the PLAIN encoding of one value (BYTE_ARRAY: the bytes without
// their length prefix; FIXED_LEN_BYTE_ARRAY: the bytes).
uint64_t BloomFilterHash(std::span<const uint8_t> plain);

// The hash of a fixed-width value (INT32, INT64, FLOAT, DOUBLE): of its little-endian bytes,
// which are its PLAIN encoding.
template <typename T>
requires std::is_arithmetic_v<T> uint64_t BloomFilterHashOf(T value) {
  static_assert(std::endian::native == std::endian::little);
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  return BloomFilterHash(bytes);
}

// Bitset bytes for `ndv` distinct values at false-positive rate `fpp` (BloomFilter.md:
// -8 / ln(1 - fpp^(1/8)) bits per value), rounded up to a power of two and clamped to
// [kBloomFilterMinBytes, kBloomFilterMaxBytes]. REQUIRES: ndv >= 0, 0 < fpp < 1.
int64_t OptimalBloomFilterBytes(int64_t ndv, double fpp);

// Where the bitset of a filter lies, from its header.
struct BloomFilterLayout {
  size_t header_size = 0;  // bytes of the Thrift header, before the bitset
  int64_t num_bytes = 0;   // of the bitset: a multiple of 32 in [min, max] bytes
  int64_t total() const { return static_cast<int64_t>(header_size) + num_bytes; }
};

// Decodes the header at the start of `bytes` (the bitset need not follow yet). Corruption for a
// malformed header or a bitset size outside [kBloomFilterMinBytes, kBloomFilterMaxBytes] or not
// whole blocks; NotSupported for an algorithm, hash or compression other than BLOCK, XXHASH,
// UNCOMPRESSED (a reader must then treat every value as possibly present).
Result<BloomFilterLayout> DecodeBloomFilterLayout(std::span<const uint8_t> bytes);

class SplitBlockBloomFilter {
 public:
  // An empty filter (no value inserted). REQUIRES: num_bytes is a multiple of 32 in
  // [kBloomFilterMinBytes, kBloomFilterMaxBytes].
  explicit SplitBlockBloomFilter(int64_t num_bytes);

  // The filter at the start of `bytes` (header and bitset): DecodeBloomFilterLayout's errors,
  // and Corruption when the bitset is longer than the bytes given.
  static Result<SplitBlockBloomFilter> Parse(std::span<const uint8_t> bytes);

  void Insert(uint64_t hash);
  // False only if no value of this hash was inserted.
  bool MightContain(uint64_t hash) const;

  int64_t num_bytes() const { return static_cast<int64_t>(words_.size()) * 4; }
  // Appends the header and the bitset: what bloom_filter_offset points to.
  void AppendTo(std::vector<uint8_t>& out) const;

 private:
  uint32_t* Block(uint64_t hash);
  const uint32_t* Block(uint64_t hash) const;

  std::vector<uint32_t> words_;  // blocks of 8 lanes
};

// The block `hash` falls in, in a bitset of `num_bytes` (a multiple of kBloomFilterBlockBytes):
// its bytes start at block * kBloomFilterBlockBytes in the bitset.
uint64_t BloomFilterBlockOf(uint64_t hash, int64_t num_bytes);

// Some blocks of a filter: those a known set of hashes falls in. Probing a filter for a few values
// needs only their blocks, 32 bytes each, not the whole bitset (a 1M-value filter is 2 MiB).
// MightContain is exact for a hash whose block was added and true for any other.
class BloomFilterBlocks {
 public:
  // For a filter whose bitset has `num_bytes` bytes. REQUIRES: as SplitBlockBloomFilter's.
  explicit BloomFilterBlocks(int64_t num_bytes);

  // REQUIRES: `bytes` are the kBloomFilterBlockBytes of block `block` < the filter's blocks.
  void Add(uint64_t block, std::span<const uint8_t> bytes);
  bool MightContain(uint64_t hash) const;
  int64_t num_bytes() const { return static_cast<int64_t>(num_blocks_) * kBloomFilterBlockBytes; }

 private:
  uint64_t num_blocks_;
  std::vector<std::pair<uint64_t, std::array<uint32_t, 8>>> blocks_;  // sorted by block
};

// What the loader hands out for a chunk: the whole filter, or the blocks a probe needs.
class LoadedBloomFilter {
 public:
  explicit LoadedBloomFilter(SplitBlockBloomFilter whole) : whole_(std::move(whole)) {}
  explicit LoadedBloomFilter(BloomFilterBlocks blocks) : blocks_(std::move(blocks)) {}
  bool MightContain(uint64_t hash) const {
    return whole_ ? whole_->MightContain(hash) : blocks_->MightContain(hash);
  }
  int64_t num_bytes() const { return whole_ ? whole_->num_bytes() : blocks_->num_bytes(); }
  bool whole() const { return whole_.has_value(); }

 private:
  std::optional<SplitBlockBloomFilter> whole_;
  std::optional<BloomFilterBlocks> blocks_;
};

}  // namespace pqsift::format
