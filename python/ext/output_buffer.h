// Memory for a column's values that numpy then takes over without a copy (columns.h).
//
// A scan's columns are written once, in memory touched for the first time. A large buffer is
// anonymous memory that grows by mremap without copying (not advised to use transparent huge
// pages: on a virtual machine a cold huge page costs ~4.6 ms at its first touch, 4 KiB pages
// ~0.5 ms per MiB, src/common/memory.h); a small one is malloc'd. Freed mapped buffers are kept
// (up to 1 GiB in the process) for the next ones: converting scan after scan, a process reuses
// memory it already touched.
//
// Thread safety: one thread at a time; the Memory handed over may be freed on any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqsift::python {

class OutputBuffer {
 public:
  // What Release hands over; Free gives it back to the system.
  struct Memory {
    uint8_t* data = nullptr;
    size_t size = 0;      // bytes written
    size_t capacity = 0;  // bytes reserved (mapped or allocated)
    bool mapped = false;
  };
  static void Free(const Memory& memory);

  OutputBuffer() = default;
  ~OutputBuffer();
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // Room for `bytes` in total (address space: pages are touched only when written). Throws
  // std::bad_alloc.
  void Reserve(size_t bytes);
  // `bytes` more at the end, uninitialised; grows at least geometrically. (Inline: an object
  // column calls it once per row.)
  uint8_t* Grow(size_t bytes) {
    if (memory_.size + bytes > memory_.capacity) GrowCapacity(bytes);
    uint8_t* out = memory_.data + memory_.size;
    memory_.size += bytes;
    return out;
  }
  size_t size() const { return memory_.size; }
  uint8_t* data() { return memory_.data; }
  // The memory, now the caller's (never null, even when empty); the buffer is empty again.
  Memory Release();

 private:
  void GrowCapacity(size_t bytes);

  Memory memory_;
};

}  // namespace pqsift::python
