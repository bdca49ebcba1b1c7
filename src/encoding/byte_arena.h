// Append-only byte storage whose allocations never move: for values a decoder or encoder
// builds and hands out as ByteViews (DELTA_BYTE_ARRAY values, dictionary entries).
// Thread safety: used by one thread at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace pqsift::encoding {

class ByteArena {
 public:
  // n bytes that stay at the same address until Reset() or destruction.
  uint8_t* Allocate(size_t n) {
    if (n > left_) {
      const size_t size = std::max(n, next_chunk_);
      next_chunk_ = std::min(next_chunk_ * 2, kMaxChunk);
      chunks_.push_back({std::make_unique_for_overwrite<uint8_t[]>(size), size});
      cur_ = chunks_.back().bytes.get();
      left_ = size;
    }
    uint8_t* p = cur_;
    cur_ += n;
    left_ -= n;
    used_ += n;
    return p;
  }
  // Invalidates every allocation; keeps the newest chunk for reuse.
  void Reset() {
    if (chunks_.size() > 1) chunks_.erase(chunks_.begin(), chunks_.end() - 1);
    cur_ = chunks_.empty() ? nullptr : chunks_.back().bytes.get();
    left_ = chunks_.empty() ? 0 : chunks_.back().size;
    used_ = 0;
  }
  size_t bytes_used() const { return used_; }

 private:
  static constexpr size_t kMaxChunk = size_t{1} << 20;
  struct Chunk {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size;
  };
  std::vector<Chunk> chunks_;
  uint8_t* cur_ = nullptr;
  size_t left_ = 0;
  size_t next_chunk_ = 4096;
  size_t used_ = 0;
};

}  // namespace pqsift::encoding
