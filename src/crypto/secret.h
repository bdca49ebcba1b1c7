// Key material: bytes wiped when freed, never printed.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "crypto/cipher.h"

namespace pqsift::crypto {

class SecretBytes {
 public:
  SecretBytes() = default;
  explicit SecretBytes(std::string_view bytes) : bytes_(bytes.begin(), bytes.end()) {}
  SecretBytes(const SecretBytes& other) = default;
  SecretBytes(SecretBytes&& other) noexcept : bytes_(std::move(other.bytes_)) {
    other.bytes_.clear();
  }
  SecretBytes& operator=(const SecretBytes& other) {
    if (this != &other) {
      Clear();
      bytes_ = other.bytes_;
    }
    return *this;
  }
  SecretBytes& operator=(SecretBytes&& other) noexcept {
    if (this != &other) {
      Clear();
      bytes_ = std::move(other.bytes_);
      other.bytes_.clear();
    }
    return *this;
  }
  ~SecretBytes() { Clear(); }

  std::span<const uint8_t> span() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }
  bool operator==(const SecretBytes& other) const { return bytes_ == other.bytes_; }

  void Clear() {
    Wipe(bytes_.data(), bytes_.size());
    bytes_.clear();
  }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace pqsift::crypto
