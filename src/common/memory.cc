#include "common/memory.h"

#include <sys/mman.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace pqsift::memory {
namespace {

// Under AddressSanitizer every block comes from the C allocator, so that overflows and uses
// after free of pooled blocks are still caught.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooling = false;
#else
constexpr bool kPooling = true;
#endif

size_t RoundUp(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// Whether fresh memory still comes warm (see the header): cleared, for the rest of the process,
// by the first huge page whose first touch took longer than kColdHugePage.
std::atomic<bool> huge_pages_warm{true};
// A warm huge page is cleared in ~0.3 ms (7-8 GB/s), a cold one in ~4.6 ms (0.4 GB/s).
constexpr std::chrono::microseconds kColdHugePage{1500};

// Asks for huge pages for the fresh memory [data, data + length) while fresh memory comes warm,
// and times the first touch of its first aligned huge page (writing a 0 there: its bytes are
// unspecified anyway): if it was cold, the rest of the range, and every range after it in the
// process, keep 4 KiB pages.
void AdviseHugePages(uint8_t* data, size_t length) {
  if (!huge_pages_warm.load(std::memory_order_relaxed)) return;
  if (madvise(data, length, MADV_HUGEPAGE) != 0) return;  // advice only: no THP, small pages
  // The first huge page of the range: the first kHugeBlockBytes-aligned 2 MiB inside it.
  const auto address = reinterpret_cast<uintptr_t>(data);
  const size_t skip = RoundUp(address, kHugeBlockBytes) - address;
  if (length < skip || length - skip < kHugeBlockBytes) return;
  uint8_t* first = data + skip;
  const auto start = std::chrono::steady_clock::now();
  *reinterpret_cast<volatile uint8_t*>(first) = 0;  // fresh bytes: unspecified anyway
  if (std::chrono::steady_clock::now() - start > kColdHugePage) {
    huge_pages_warm.store(false, std::memory_order_relaxed);
    const size_t rest = length - skip - kHugeBlockBytes;
    if (rest > 0) madvise(first + kHugeBlockBytes, rest, MADV_NOHUGEPAGE);
  }
}

// Maps `length` bytes (a multiple of kHugeBlockBytes) at a kHugeBlockBytes-aligned address: the
// kernel only backs aligned 2 MiB ranges with huge pages. Over-maps by one huge page and unmaps
// the slack.
uint8_t* MapHugeAligned(size_t length) {
  size_t mapped = length + kHugeBlockBytes;
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  auto* start = static_cast<uint8_t*>(p);
  auto address = reinterpret_cast<uintptr_t>(p);
  size_t head = RoundUp(address, kHugeBlockBytes) - address;
  uint8_t* data = start + head;
  if (head > 0) munmap(start, head);
  size_t tail = mapped - head - length;
  if (tail > 0) munmap(data + length, tail);
  AdviseHugePages(data, length);
  return data;
}

// Freed blocks by size class (capacity 2^k), reused before asking the system. Blocks under
// kHugeBlockBytes are carved out of huge-page slabs and always kept (the memory held is the peak
// in use); larger blocks are kept up to kCacheLimitBytes and otherwise unmapped.
class BlockCache {
 public:
  Block Allocate(size_t capacity) {
    std::lock_guard lock(mutex_);
    std::vector<uint8_t*>& list = free_[ClassOf(capacity)];
    if (list.empty()) {
      if (capacity >= kHugeBlockBytes) return {MapHugeAligned(capacity), capacity};
      Carve(capacity, list);
    } else if (capacity >= kHugeBlockBytes) {
      cached_huge_bytes_ -= capacity;
    }
    uint8_t* data = list.back();
    list.pop_back();
    return {data, capacity};
  }

  void Free(Block block) {
    std::lock_guard lock(mutex_);
    if (block.capacity >= kHugeBlockBytes) {
      if (cached_huge_bytes_ + block.capacity > kCacheLimitBytes) {
        munmap(block.data, block.capacity);
        return;
      }
      cached_huge_bytes_ += block.capacity;
    }
    free_[ClassOf(block.capacity)].push_back(block.data);
  }

 private:
  static size_t ClassOf(size_t capacity) { return static_cast<size_t>(std::countr_zero(capacity)); }

  // Splits one huge page into blocks of `capacity` bytes.
  static void Carve(size_t capacity, std::vector<uint8_t*>& list) {
    uint8_t* slab = MapHugeAligned(kHugeBlockBytes);
    for (size_t at = 0; at < kHugeBlockBytes; at += capacity) list.push_back(slab + at);
  }

  std::mutex mutex_;
  std::array<std::vector<uint8_t*>, 64> free_;
  size_t cached_huge_bytes_ = 0;
};

BlockCache& Cache() {
  // Never destroyed: blocks freed while other static objects are torn down still find it.
  static auto* cache = new BlockCache();
  return *cache;
}

}  // namespace

Block Allocate(size_t size) {
  if (size == 0) return {};
  if (size > (SIZE_MAX >> 2)) throw std::bad_alloc();  // no rounding below can overflow
  if (size < kCachedBlockBytes || !kPooling) {
    size_t capacity = RoundUp(size, kAlignment);
    void* p = std::aligned_alloc(kAlignment, capacity);
    if (p == nullptr) throw std::bad_alloc();
    return {static_cast<uint8_t*>(p), capacity};
  }
  // Power-of-two classes make freed blocks reusable across sizes; the untouched tail of a block
  // costs address space, not memory.
  return Cache().Allocate(std::bit_ceil(size));
}

bool Pooling() { return kPooling; }

void Free(Block block) {
  if (block.data == nullptr) return;
  if (block.capacity < kCachedBlockBytes || !kPooling) {
    std::free(block.data);
    return;
  }
  Cache().Free(block);
}

}  // namespace pqsift::memory

namespace pqsift {

void TuneAllocatorForScans() {
#if defined(__GLIBC__)
  // Setting either option also turns off glibc's sliding mmap threshold, so both are set:
  // blocks up to glibc's largest threshold (32 MiB) come from the heaps, and heaps are trimmed
  // only when 1 GiB at their top is free.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace pqsift
