// The header in front of a split-block bloom filter's bitset (BloomFilter.md).
#pragma once

#include <cstdint>
#include <span>

#include "pqsift/status.h"

namespace pqsift::format {

struct BloomFilterHeader {
  int32_t num_bytes = 0;
  // Each union's member id; the spec defines only 1 (BLOCK, XXHASH, UNCOMPRESSED). A reader
  // must treat anything else as "may contain".
  int16_t algorithm = 0;
  int16_t hash = 0;
  int16_t compression = 0;

  bool IsSupported() const { return algorithm == 1 && hash == 1 && compression == 1; }
};

// Decodes the header from the start of `bytes`; `*header_size` is the bytes it took. num_bytes
// must be positive (the bitset size is checked against the file by the caller).
Status DecodeBloomFilterHeader(std::span<const uint8_t> bytes, BloomFilterHeader& out,
                               size_t* header_size);

}  // namespace pqsift::format
