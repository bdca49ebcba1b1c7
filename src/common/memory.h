// Memory for the large byte blocks of a scan: fetched column chunks, decompressed pages, decoded
// columns.
//
// Why not plain malloc: a scan fills gigabytes of memory, and every first touch of a 4 KiB page
// is a page fault. On virtual machines a fault costs around 10 µs, so a 1 GB scan spent seconds
// in the kernel, and the C allocator hands freed blocks back to the system, so the next batch
// faults again. Here:
// - blocks of at least kCachedBlockBytes have power-of-two capacities and live in memory advised
//   as transparent huge pages (one fault per 2 MiB; where the kernel gives none, ordinary pages):
//   blocks under kHugeBlockBytes are carved out of 2 MiB slabs, larger ones mapped on their own;
// - freed blocks are kept by size class for the next Allocate, so a steady scan reuses warm
//   memory. Blocks under kHugeBlockBytes are always kept (the memory held is their peak in use);
//   larger ones up to kCacheLimitBytes in all, the rest go back to the system;
// - smaller blocks come from the C allocator.
// Under AddressSanitizer all blocks come from the C allocator (pooling would hide faults).
// Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqsift::memory {

inline constexpr size_t kAlignment = 64;  // every block is at least this aligned (Arrow padding)
inline constexpr size_t kCachedBlockBytes = size_t{64} << 10;
inline constexpr size_t kHugeBlockBytes = size_t{2} << 20;
inline constexpr size_t kCacheLimitBytes = size_t{1} << 30;

struct Block {
  uint8_t* data = nullptr;
  size_t capacity = 0;  // usable bytes, >= the size asked for; pass it back to Free
};

// A block of at least `size` uninitialised bytes, kAlignment aligned (kHugeBlockBytes aligned from
// that size on, when pooling). Throws std::bad_alloc when the system has no memory. Allocate(0) is
// an empty block.
Block Allocate(size_t size);

// Returns a block from Allocate. Free of an empty block does nothing.
void Free(Block block);

// False in sanitizer builds, where every block comes from the C allocator.
bool Pooling();

}  // namespace pqsift::memory
