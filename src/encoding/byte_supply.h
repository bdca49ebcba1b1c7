// Page bytes that arrive front to back while they are decoded: a large page decompressed on
// demand (compression/stream.h, through column/page_reader.h), so that a reader that stops
// early never decompresses the rest.
//
// A decoder given a supply with its data (ValueDecoder::SetArrivingData) holds the bytes that
// have arrived, and asks for more when it reaches their end. The bytes never move: views into
// them (ByteViews) stay valid as more arrive.
//
// Thread safety: as the decoder that uses it (one thread at a time).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>

namespace pqsift::encoding {

class ByteSupply {
 public:
  virtual ~ByteSupply() = default;
  // Makes the `n` bytes from `at` available, or as many of them as the page has; `at` lies in
  // the bytes available so far or at their end. Returns the new end of the available bytes,
  // never before the old. A supply that fails (a corrupt stream) stops growing: its decoder
  // then finds its data too short, and the supply's owner reports the cause.
  virtual const uint8_t* Grow(const uint8_t* at, size_t n) = 0;
  // Where the bytes end once all have arrived: a bound on what Grow can bring (a supply that
  // fails stops short of it).
  virtual const uint8_t* end() const = 0;
  // Grow for bytes the decoder passes over unread (values it skips): the supply may bring its
  // end past the `n` bytes from `at` without making them available, so they hold anything
  // afterwards (bytes before `at` stay as they were). A large page skipped into is then never
  // written where it is skipped (compression::PageStream::DiscardTo).
  virtual const uint8_t* SkipOver(const uint8_t* at, size_t n) { return Grow(at, n); }

  // For a decoder that copies bytes out and keeps no view into them (fixed-width values):
  // copies the bytes from `at` into `into` (as many as the page has, or a failing supply
  // brings: `*copied`), perhaps without their being written where they lie, so that they hold
  // anything there afterwards (those before `at` stay as they were). Returns the new end of the
  // available bytes. The default copies them after Grow.
  virtual const uint8_t* CopyOut(const uint8_t* at, std::span<uint8_t> into, size_t* copied) {
    const uint8_t* end = Grow(at, into.size());
    *copied = std::min(static_cast<size_t>(end - at), into.size());
    if (*copied > 0) std::memcpy(into.data(), at, *copied);
    return end;
  }

  // For a decoder that reads bytes once, front to back, and keeps no view into them (the
  // lengths of byte arrays it skips): hands the bytes from `at` on to
  // `take`, piece by piece, each valid during its call only and perhaps not where the bytes
  // lie, `limit` bytes at most (fewer where the page ends, or a failing supply stops). `take`
  // returns how many bytes of the piece it took; fewer than the piece's size ends the walk,
  // and the bytes from there on are then available as after Grow. Returns the new end of the
  // available bytes. The bytes taken hold anything afterwards (those before `at` stay as they
  // were). The default hands the bytes in place.
  using Take = std::function<size_t(std::span<const uint8_t> piece)>;
  virtual const uint8_t* Walk(const uint8_t* at, size_t limit, const Take& take);
};

inline const uint8_t* ByteSupply::Walk(const uint8_t* at, size_t limit, const Take& take) {
  // In steps of 64 KiB: few calls, each over bytes still in cache.
  constexpr size_t kStep = size_t{64} << 10;
  for (;;) {
    const uint8_t* end = Grow(at, std::min(kStep, limit));
    const auto piece = std::min(static_cast<size_t>(end - at), limit);
    const size_t took = take({at, piece});
    at += took;
    limit -= took;
    if (took < piece || limit == 0 || end == this->end() || piece == 0) return end;
  }
}

}  // namespace pqsift::encoding
