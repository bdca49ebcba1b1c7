// Memory for the large byte blocks of a scan: fetched column chunks, decompressed pages, decoded
// columns.
//
// Why not plain malloc: a scan fills gigabytes of memory, and every first touch of a 4 KiB page
// is a page fault, and the C allocator hands freed blocks back to the system, so the next batch
// faults again. Here:
// - blocks of at least kCachedBlockBytes have power-of-two capacities: blocks under
//   kHugeBlockBytes are carved out of 2 MiB slabs, larger ones mapped on their own, 2 MiB
//   aligned and advised as transparent huge pages (one fault per 2 MiB) while fresh memory
//   comes warm (below);
// - freed blocks are kept by size class for the next Allocate, so a steady scan reuses warm
//   memory. Blocks under kHugeBlockBytes are always kept (the memory held is their peak in use);
//   larger ones up to kCacheLimitBytes in all, the rest go back to the system;
// - smaller blocks come from the C allocator.
// Warm or cold: on the virtual machines we measure on, a guest's free memory is reported to the
// host seconds after it is freed. Memory freed moments before (by the run before, in benchmarks
// run back to back) is cleared at 7-8 GB/s as huge pages, against 2-3 GB/s in 4 KiB pages; memory
// the host has taken back costs ~4.6 ms per huge page (0.4 GB/s), and a scan that touches a lot
// of it ran up to twice as long as in 4 KiB pages (a one-row-group ZSTD file, 1.3 GB: 3.1 s
// against 1.9 s, bench/results/memory.md). So each new mapping's first huge page is timed when
// first touched: once one was cold, the rest of the process maps 4 KiB pages.
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
