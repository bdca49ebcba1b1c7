// Splitting one fuzzer input into the parameters of a target: a few leading bytes choose
// options (a type, a codec, counts), the rest is the data under test. Reading past the end
// gives zeros, so every input, however short, is a valid set of parameters.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace pqsift::fuzz {

class FuzzInput {
 public:
  explicit FuzzInput(std::span<const uint8_t> data) : data_(data) {}

  uint8_t Byte() { return pos_ < data_.size() ? data_[pos_++] : 0; }
  uint32_t U16() { return Byte() | uint32_t{Byte()} << 8; }
  uint32_t U32() { return U16() | U16() << 16; }
  // The next `n` bytes, or fewer at the end.
  std::span<const uint8_t> Bytes(size_t n) {
    n = std::min(n, data_.size() - pos_);
    std::span<const uint8_t> out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  std::span<const uint8_t> Rest() { return Bytes(data_.size() - pos_); }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace pqsift::fuzz
