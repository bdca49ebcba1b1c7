#include "output_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP, plain pages
  return static_cast<uint8_t*>(p);
}

}  // namespace

void OutputBuffer::Free(const Memory& memory) {
  if (memory.mapped) {
    munmap(memory.data, memory.capacity);
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
    madvise(p, capacity, MADV_HUGEPAGE);
    m.data = static_cast<uint8_t*>(p);
  } else {
    uint8_t* p = Map(capacity);
    if (m.size > 0) std::memcpy(p, m.data, m.size);
    std::free(m.data);
    m.data = p;
    m.mapped = true;
  }
  m.capacity = capacity;
}

uint8_t* OutputBuffer::Grow(size_t bytes) {
  Memory& m = memory_;
  if (m.size + bytes > m.capacity) Reserve(std::max(m.size + bytes, m.capacity * 2));
  uint8_t* out = m.data + m.size;
  m.size += bytes;
  return out;
}

OutputBuffer::Memory OutputBuffer::Release() {
  if (memory_.data == nullptr) Reserve(1);
  Memory out = memory_;
  memory_ = Memory{};
  return out;
}

}  // namespace pqsift::python
