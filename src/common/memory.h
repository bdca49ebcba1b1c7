// Memory for the large byte blocks of a scan: fetched column chunks, decompressed pages, decoded
// columns.
//
// Why not plain malloc: a scan fills gigabytes of memory, and every first touch of a 4 KiB page
// is a page fault, and the C allocator hands freed blocks back to the system, so the next batch
// faults again. Here:
// - blocks of at least kCachedBlockBytes have power-of-two capacities: blocks under
//   kHugeBlockBytes are carved out of 2 MiB slabs, larger ones mapped on their own (2 MiB
//   aligned, so a system that backs anonymous memory with huge pages can);
// - freed blocks are kept by size class for the next Allocate, so a steady scan reuses warm
//   memory. Blocks under kHugeBlockBytes are always kept (the memory held is their peak in use);
//   larger ones up to kCacheLimitBytes in all, the rest go back to the system;
// - smaller blocks come from the C allocator.
// The blocks are not advised to use transparent huge pages (MADV_HUGEPAGE): on the virtual
// machines we measure on, memory the host has taken back (a guest's free memory is reported to
// the host seconds after it is freed) costs ~4.6 ms per 2 MiB huge page at its first touch
// (0.44 GB/s) against 2.2 GB/s in 4 KiB pages; only memory freed moments before is faster as
// huge pages (2.4-7.8 GB/s). A 20M-row scan of a one-row-group ZSTD file touches 1.3 GB: its
// first run took 2.3 s with huge pages, 1.3 s without (bench/results/memory.md).
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
