#include "retained_arenas.h"

#include <Python.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace pqsift::python {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kRegion = size_t{64} << 20;  // arenas are cut from regions of this size

struct Pool {
  std::mutex mu;
  size_t arena_size = 0;    // pymalloc's arena size, learnt from the first request
  std::vector<void*> free;  // arenas pymalloc released, reused before cutting new ones
  uint8_t* next = nullptr;  // the uncut rest of the current region
  uint8_t* end = nullptr;
};

Pool& ThePool() {
  static auto* pool = new Pool();  // lives as long as the arenas it handed out: forever
  return *pool;
}

void* MapAligned(size_t bytes) {
  // Over-map by a huge page and trim, so the region starts on a huge page boundary (where the
  // system backs anonymous memory with huge pages on its own, THP "always", it can).
  void* raw =
      mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* start = static_cast<uint8_t*>(raw);
  size_t head = (kHugePage - reinterpret_cast<uintptr_t>(start) % kHugePage) % kHugePage;
  uint8_t* aligned = start + head;
  if (head > 0) munmap(start, head);
  size_t tail = kHugePage - head;
  if (tail > 0) munmap(aligned + bytes, tail);
  return aligned;
}

void* Alloc(void*, size_t size) {
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  if (pool.arena_size == 0) pool.arena_size = size;
  if (size != pool.arena_size || size > kRegion) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  if (!pool.free.empty()) {
    void* p = pool.free.back();
    pool.free.pop_back();
    return p;
  }
  if (pool.next == nullptr || static_cast<size_t>(pool.end - pool.next) < size) {
    void* region = MapAligned(kRegion);
    if (region == nullptr) return nullptr;
    pool.next = static_cast<uint8_t*>(region);
    pool.end = pool.next + kRegion;
  }
  void* p = pool.next;
  pool.next += size;
  return p;
}

void Free(void*, void* ptr, size_t size) {
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  if (size != pool.arena_size || size > kRegion) {
    munmap(ptr, size);
    return;
  }
  // Also arenas the previous allocator made before this one was installed: same size, and
  // never unmapped here, so reusing them is as good as reusing ours.
  pool.free.push_back(ptr);
}

}  // namespace

void UseRetainedArenas() {
  static std::once_flag once;
  std::call_once(once, [] {
    PyObjectArenaAllocator allocator{nullptr, Alloc, Free};
    PyObject_SetArenaAllocator(&allocator);
  });
}

}  // namespace pqsift::python
