// Test and fuzz support for pages whose bytes arrive while they are decoded
// (encoding/byte_supply.h): a copy of a page revealed front to back, with its unrevealed bytes
// poisoned under AddressSanitizer, so a decoder that reads a byte it did not ask for faults;
// and an exact-size copy of a page, for the reference decoder that gets it whole.
//
// Used by the decoder fuzz targets (decoder_targets.cc) and tests/encoding/arriving_data_test.cc.
// Thread safety: one thread at a time.
#pragma once

#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "encoding/byte_supply.h"

namespace pqsift::fuzz {

// An exact-size heap copy of `bytes`, so that the sanitizers see any read past its end.
struct ExactCopy {
  explicit ExactCopy(std::span<const uint8_t> bytes)
      : data(std::make_unique<uint8_t[]>(bytes.size())), size(bytes.size()) {
    if (!bytes.empty()) std::memcpy(data.get(), bytes.data(), bytes.size());
  }
  std::span<const uint8_t> span() const { return {data.get(), size}; }
  std::unique_ptr<uint8_t[]> data;
  size_t size;
};

// A copy of a page revealed front to back. Each Grow (and SkipOver) reveals what is asked (or the
// rest) plus `extra()` bytes; no more than `limit` bytes ever arrive (a truncated page, or a stream
// that fails part way). A request that does not start inside the revealed bytes or at their end
// calls `misplaced()` and reveals nothing.
class ArrivingBytes : public encoding::ByteSupply {
 public:
  ArrivingBytes(std::span<const uint8_t> page, std::function<size_t()> extra,
                std::function<void()> misplaced, size_t limit = std::numeric_limits<size_t>::max())
      : bytes_(std::make_unique<uint8_t[]>(page.size() + 1)),
        size_(page.size()),
        limit_(std::min(limit, page.size())),
        extra_(std::move(extra)),
        misplaced_(std::move(misplaced)) {
    if (!page.empty()) std::memcpy(bytes_.get(), page.data(), page.size());
    ASAN_POISON_MEMORY_REGION(bytes_.get(), size_ + 1);
  }
  ~ArrivingBytes() override { ASAN_UNPOISON_MEMORY_REGION(bytes_.get(), size_ + 1); }
  ArrivingBytes(const ArrivingBytes&) = delete;
  ArrivingBytes& operator=(const ArrivingBytes&) = delete;

  // The bytes there at the start: `first` of them (no more than the limit).
  std::span<const uint8_t> Start(size_t first) {
    Reveal(std::min(first, limit_));
    return {bytes_.get(), revealed_};
  }

  const uint8_t* Grow(const uint8_t* at, size_t n) override {
    const std::optional<size_t> offset = Request(at);
    if (!offset) return bytes_.get() + revealed_;
    const size_t want = n > limit_ - *offset ? limit_ : *offset + n;
    Reveal(std::min(limit_, want + std::min(extra_(), limit_ - want)));
    return bytes_.get() + revealed_;
  }
  const uint8_t* end() const override { return bytes_.get() + size_; }

  // Passes over the `n` bytes from `at` (ByteSupply::SkipOver): those not revealed yet are
  // overwritten and stay poisoned, so a decoder that reads a byte it skipped over decodes
  // garbage (or faults under AddressSanitizer); then `extra()` bytes more are revealed.
  const uint8_t* SkipOver(const uint8_t* at, size_t n) override {
    const std::optional<size_t> offset = Request(at);
    if (!offset) return bytes_.get() + revealed_;
    const size_t to = n > limit_ - *offset ? limit_ : *offset + n;
    if (to > revealed_) PassOver(to - revealed_);
    Reveal(std::min(limit_, to + std::min(extra_(), limit_ - to)));
    return bytes_.get() + revealed_;
  }

  // Copies out the bytes from `at` (ByteSupply::CopyOut) as a stream that discards does: the
  // bytes there, then the rest (up to the limit) from a copy; those are overwritten and stay
  // poisoned.
  const uint8_t* CopyOut(const uint8_t* at, std::span<uint8_t> into, size_t* copied) override {
    *copied = 0;
    const std::optional<size_t> offset = Request(at);
    if (!offset) return bytes_.get() + revealed_;
    const size_t there = std::min(into.size(), revealed_ - *offset);
    if (there > 0) std::memcpy(into.data(), at, there);
    const size_t n = std::min(into.size() - there, limit_ - revealed_);
    uint8_t* next = bytes_.get() + revealed_;
    ASAN_UNPOISON_MEMORY_REGION(next, n);
    if (n > 0) std::memcpy(into.data() + there, next, n);
    ASAN_POISON_MEMORY_REGION(next, n);
    PassOver(n);
    *copied = there + n;
    return bytes_.get() + revealed_;
  }

  // Walks over the bytes from `at` (ByteSupply::Walk) as a stream that discards does: the bytes
  // there in place, then pieces of `extra()` + 1 bytes from a copy; the bytes `take` passes over
  // are overwritten and stay poisoned, the rest of the last piece is revealed.
  const uint8_t* Walk(const uint8_t* at, size_t limit, const Take& take) override {
    const std::optional<size_t> offset = Request(at);
    if (!offset) return bytes_.get() + revealed_;
    const size_t stop = limit > limit_ - std::min(*offset, limit_) ? limit_ : *offset + limit;
    if (*offset < revealed_) {
      const size_t there = std::min(revealed_, stop) - *offset;
      if (take({at, there}) < there) return bytes_.get() + revealed_;
    }
    while (revealed_ < stop) {
      const size_t n = std::min(stop - revealed_, extra_() + 1);
      uint8_t* next = bytes_.get() + revealed_;
      ASAN_UNPOISON_MEMORY_REGION(next, n);
      std::vector<uint8_t> piece(next, next + n);
      ASAN_POISON_MEMORY_REGION(next, n);
      const size_t took = take(piece);
      PassOver(took);
      if (took < n) {
        Reveal(revealed_ + n - took);
        break;
      }
    }
    return bytes_.get() + revealed_;
  }

  // Everything the supply will ever give (the whole page unless limited).
  void RevealAll() { Reveal(limit_); }

  size_t revealed() const { return revealed_; }
  size_t size() const { return size_; }
  int calls() const { return calls_; }
  // SkipOver calls that passed over bytes not revealed yet, and pieces Walk handed out.
  int skips() const { return skips_; }

 private:
  // A request from `at`: its offset, or nullopt (after calling misplaced()) when `at` is not
  // inside the revealed bytes or at their end.
  std::optional<size_t> Request(const uint8_t* at) {
    ++calls_;
    const auto begin = reinterpret_cast<uintptr_t>(bytes_.get());
    const auto where = reinterpret_cast<uintptr_t>(at);
    if (where < begin || where > begin + revealed_) {
      misplaced_();
      return std::nullopt;
    }
    return where - begin;
  }
  // The next `n` bytes are passed over unrevealed: overwritten, and left poisoned.
  void PassOver(size_t n) {
    uint8_t* passed = bytes_.get() + revealed_;
    ASAN_UNPOISON_MEMORY_REGION(passed, n);
    std::memset(passed, 0xEE, n);
    ASAN_POISON_MEMORY_REGION(passed, n);
    revealed_ += n;
    ++skips_;
  }
  void Reveal(size_t to) {
    if (to <= revealed_) return;
    ASAN_UNPOISON_MEMORY_REGION(bytes_.get() + revealed_, to - revealed_);
    revealed_ = to;
  }

  std::unique_ptr<uint8_t[]> bytes_;
  size_t size_;
  size_t limit_;
  std::function<size_t()> extra_;
  std::function<void()> misplaced_;
  size_t revealed_ = 0;
  int calls_ = 0;
  int skips_ = 0;
};

}  // namespace pqsift::fuzz
