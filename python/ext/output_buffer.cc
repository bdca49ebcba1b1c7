#include "output_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

namespace pqsift::python {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
// Buffers of at least this many bytes are mapped (below, malloc reuses freed memory anyway).
constexpr size_t kMapBytes = kHugePage;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

uint8_t* Map(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

// Mapped blocks whose columns were freed, kept for the next buffers: a process that converts
// scan after scan (Dask workers, notebooks, a loop over files) then writes its columns into
// memory it already touched instead of faulting in (and having the kernel zero) fresh pages,
// ~0.5 ms per MiB on a virtual machine. At most kKeptBytes in all (as src/common/memory.h keeps
// the engine's blocks); a block serves a buffer of at least half its size.
constexpr size_t kKeptBytes = size_t{1} << 30;

class KeptBlocks {
 public:
  // A kept block of at least `*capacity` bytes and at most twice that (its size in
  // `*capacity`), or null.
  uint8_t* Take(size_t* capacity) {
    std::lock_guard lock(mu_);
    auto it = blocks_.lower_bound(*capacity);
    if (it == blocks_.end() || it->first > 2 * *capacity) return nullptr;
    *capacity = it->first;
    uint8_t* data = it->second;
    bytes_ -= it->first;
    blocks_.erase(it);
    return data;
  }

  // Keeps the block when there is room; false: the caller unmaps it.
  bool Keep(uint8_t* data, size_t capacity) {
    std::lock_guard lock(mu_);
    if (bytes_ + capacity > kKeptBytes) return false;
    blocks_.emplace(capacity, data);
    bytes_ += capacity;
    return true;
  }

 private:
  std::mutex mu_;
  std::multimap<size_t, uint8_t*> blocks_;  // by capacity
  size_t bytes_ = 0;
};

KeptBlocks& Kept() {
  static auto* kept = new KeptBlocks();  // never destroyed: arrays may outlive static teardown
  return *kept;
}

}  // namespace

void OutputBuffer::Free(const Memory& memory) {
  if (memory.mapped) {
    if (!Kept().Keep(memory.data, memory.capacity)) munmap(memory.data, memory.capacity);
  } else {
    std::free(memory.data);
  }
}

OutputBuffer::~OutputBuffer() {
  if (memory_.data != nullptr) Free(memory_);
}

void OutputBuffer::Reserve(size_t bytes) {
  Memory& m = memory_;
  if (bytes <= m.capacity) return;
  if (bytes < kMapBytes) {
    void* grown = std::realloc(m.data, bytes);
    if (grown == nullptr) throw std::bad_alloc();
    m.data = static_cast<uint8_t*>(grown);
    m.capacity = bytes;
    return;
  }
  size_t capacity = RoundUp(bytes, kHugePage);
  if (m.mapped) {
    void* p = mremap(m.data, m.capacity, capacity, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
    m.data = static_cast<uint8_t*>(p);
  } else {
    uint8_t* p = Kept().Take(&capacity);
    if (p == nullptr) p = Map(capacity);
    if (m.size > 0) std::memcpy(p, m.data, m.size);
    std::free(m.data);
    m.data = p;
    m.mapped = true;
  }
  m.capacity = capacity;
}

void OutputBuffer::GrowCapacity(size_t bytes) {
  Reserve(std::max(memory_.size + bytes, memory_.capacity * 2));
}

OutputBuffer::Memory OutputBuffer::Release() {
  if (memory_.data == nullptr) Reserve(1);
  Memory out = memory_;
  memory_ = Memory{};
  return out;
}

}  // namespace pqsift::python
