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

#include <cstddef>
#include <cstdint>

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
};

}  // namespace pqsift::encoding
