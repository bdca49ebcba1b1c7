// ArrowBuffer (64-byte aligned growable bytes) and the bitmap helpers of bit_util.h.
#include <algorithm>
#include <bit>
#include <cstring>

#include "arrow/bit_util.h"
#include "common/memory.h"
#include "pqsift/array.h"

namespace pqsift {
ArrowBuffer::~ArrowBuffer() {
  if (owner_ == nullptr) memory::Free({data_, capacity_});
}

std::shared_ptr<ArrowBuffer> ArrowBuffer::View(const uint8_t* data, size_t size,
                                               std::shared_ptr<const void> owner) {
  auto buffer = std::make_shared<ArrowBuffer>();
  // A view must have an owner so owns_memory() is false; an empty owner gets a placeholder.
  buffer->owner_ = owner ? std::move(owner) : std::make_shared<int>(0);
  buffer->data_ = const_cast<uint8_t*>(data);  // read-only by contract
  buffer->size_ = size;
  buffer->capacity_ = size;
  return buffer;
}

void ArrowBuffer::Reserve(size_t capacity) {
  if (capacity <= capacity_ && owner_ == nullptr) return;
  memory::Block block = memory::Allocate(std::max({capacity, capacity_ * 2, size_t{64}}));
  if (size_ > 0) std::memcpy(block.data, data_, size_);
  if (owner_ == nullptr) memory::Free({data_, capacity_});
  owner_ = nullptr;  // a view becomes an owned copy
  data_ = block.data;
  capacity_ = block.capacity;
}

void ArrowBuffer::Resize(size_t size) {
  Reserve(size);
  size_ = size;
}

void ArrowBuffer::Append(const void* bytes, size_t n) {
  if (n == 0) return;
  Reserve(size_ + n);
  std::memcpy(data_ + size_, bytes, n);
  size_ += n;
}

namespace bit_util {

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0) return 0;
  int64_t count = 0;
  int64_t i = offset;
  int64_t end = offset + length;
  // Leading bits up to a byte boundary, then 8 bytes at a time, then the tail.
  while (i < end && (i & 7) != 0) count += GetBit(bits, i++);
  while (end - i >= 64) {
    uint64_t word;
    std::memcpy(&word, bits + (i >> 3), 8);
    count += std::popcount(word);
    i += 64;
  }
  while (end - i >= 8) {
    count += std::popcount(static_cast<unsigned>(bits[i >> 3]));
    i += 8;
  }
  while (i < end) count += GetBit(bits, i++);
  return count;
}

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  int64_t i = offset;
  int64_t end = offset + length;
  while (i < end && (i & 7) != 0) SetBitTo(bits, i++, value);
  if (end - i >= 8) {
    int64_t bytes = (end - i) / 8;
    std::memset(bits + (i >> 3), value ? 0xff : 0, static_cast<size_t>(bytes));
    i += bytes * 8;
  }
  while (i < end) SetBitTo(bits, i++, value);
}

void CopyBits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
              int64_t dst_offset) {
  if (length <= 0) return;
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    int64_t bytes = length / 8;
    std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(bytes));
    for (int64_t k = bytes * 8; k < length; ++k) {
      SetBitTo(dst, dst_offset + k, GetBit(src, src_offset + k));
    }
    return;
  }
  for (int64_t k = 0; k < length; ++k) {
    SetBitTo(dst, dst_offset + k, GetBit(src, src_offset + k));
  }
}

}  // namespace bit_util
}  // namespace pqsift
