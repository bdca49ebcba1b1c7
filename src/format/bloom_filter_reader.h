// Loads the bloom filters of column chunks (format/bloom_filter.h) for the pruning stage.
//
// A chunk's filter lies where ColumnMetaData.bloom_filter_offset says, usually with the others
// between the last row group and the page indexes. With bloom_filter_length, header and bitset
// come in one read; without it, a prefix of kBloomFilterPrefixBytes (the whole filter, when it
// is small) and, once the header gives the bitset's size, the rest. Neighbouring filters are
// read together (ranges coalesced), and bytes the footer's tail read already holds are taken
// from there.
//
// A request that names the hashes it will probe reads less: the header, then only the 32-byte
// blocks those hashes fall in (a lookup of one value in 20 row groups reads 20 x ~100 bytes
// instead of 20 bitsets of 2 MiB). It gets the whole filter when that is small or the blocks
// would cover much of it.
//
// An encrypted chunk's filter (Parquet modular encryption) is two GCM modules, the header and
// the bitset, under the chunk's key (the file's FileDecryptor): read whole (a GCM module
// authenticates only whole, so no blocks), decrypted, then used like a plaintext one. Without
// the chunk's key it is absent.
//
// A filter that is absent, lies outside the file, is larger than kBloomFilterMaxBytes, does not
// decode, disagrees with its bloom_filter_length or uses an algorithm, hash or compression
// other than the spec's is unusable: nullopt, which means "every value may be present". Only
// the file failing is an error, and an encrypted filter's module failing authentication
// (Authentication naming the module: a changed or moved module is never taken as absent).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "format/bloom_filter.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::format {

// Bytes read at a filter's offset when the footer does not give its length: enough for the
// header and a bitset of up to this size minus the header, in one request.
inline constexpr uint64_t kBloomFilterPrefixBytes = uint64_t{64} * 1024;

// Bytes read first at a filter's offset when only some blocks are wanted: more than any
// header a writer produces (parquet-mr's and pqsift's take 15 to 20 bytes).
inline constexpr uint64_t kBloomFilterHeaderProbeBytes = 64;

struct BloomFilterRequest {
  size_t row_group = 0;
  int32_t leaf = 0;
  // The hashes the caller will probe; empty: it needs the whole filter. (Viewed, not owned.)
  std::span<const uint64_t> hashes;
};

struct LoadedBloomFilters {
  // One entry per request, in order: the chunk's filter (whole, or the blocks of the request's
  // hashes), or nullopt when it has none or it is unusable (and for the deferred requests, from
  // `complete` on).
  std::vector<std::optional<LoadedBloomFilter>> filters;
  // Requests [0, complete) are answered. The rest were deferred: their bitsets, whose sizes only
  // the headers told, would have passed `max_bytes` (ask again for them).
  size_t complete = 0;
};

// Loads the filters of `requests`, holding about `max_bytes` of bitsets learnt from headers at
// most, though never deferring the first `must_load` requests. Adds the bytes it read to
// `*bytes_read`. IOError only when the file fails.
Result<LoadedBloomFilters> LoadBloomFilters(const RandomAccessFile& file,
                                            const ParquetMetadata& metadata,
                                            std::span<const BloomFilterRequest> requests,
                                            uint64_t max_bytes, size_t must_load,
                                            uint64_t* bytes_read);

// Whether the filter of chunk (row_group, leaf) can be read: the chunk is plaintext, or
// encrypted and the file was opened with its key.
bool BloomFilterReadable(const ParquetMetadata& metadata, size_t row_group, int32_t leaf);

// For fetching a stage's evidence ahead, in one wave with other files' (PruningStage::Needs):
// the reads LoadBloomFilters(file, metadata, requests, max_bytes, must_load, ...) makes first
// (whole filters, prefixes, headers: coalesced as it reads them, without those the footer's
// tail holds), and, once those bytes are in memory (read through `file`, which then serves them
// without a request), the reads it makes second (the rest of a bitset, the blocks of the
// hashes). IOError only when the file fails.
std::vector<ByteRange> BloomFilterFirstReads(const RandomAccessFile& file,
                                             const ParquetMetadata& metadata,
                                             std::span<const BloomFilterRequest> requests);
Result<std::vector<ByteRange>> BloomFilterSecondReads(const RandomAccessFile& file,
                                                      const ParquetMetadata& metadata,
                                                      std::span<const BloomFilterRequest> requests,
                                                      uint64_t max_bytes, size_t must_load);

// The bytes a request may read before its header is known: its length from the footer, or the
// prefix. 0 when the chunk has no usable offset. For bounding how many filters load at once.
uint64_t BloomFilterReadEstimate(const RandomAccessFile& file, const ParquetMetadata& metadata,
                                 const BloomFilterRequest& request);

}  // namespace pqsift::format
