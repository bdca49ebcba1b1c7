// A page decompressed front to back, on demand: a reader that needs only the first rows of a
// large page (a selective query on a file with one page per column chunk) stops paying where it
// stops reading, in time and in memory touched.
//
// ZSTD and GZIP resume where they stopped (their libraries stream); every other codec
// decompresses the whole page at the first FillTo, as Decompress does. The checks are
// Decompress's: the page must decompress to exactly output.size() bytes, which is known only at
// the end, so a stream that holds more is Corruption (naming the codec) when the last bytes are
// asked for, and one that ends early when a request (or the step beyond it) reaches its end.
// Stricter in one case: ZSTD's streaming decoder refuses a block over 128 KiB (RFC 8878), which
// its one-shot decoder lets through.
//
// Ownership: `input` and `output` belong to the caller and must outlive the stream; the stream
// writes output bytes [0, filled()) and never beyond output.size().
// Thread safety: one thread at a time; a stream may move from thread to thread between calls.
// Errors: after one, the stream stays where it was and repeats the error.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::compression {

class PageStream {
 public:
  virtual ~PageStream() = default;

  // A stream of `input` (one page's compressed bytes, as Decompress takes them) into `output`.
  // NotSupported for LZO; for codecs Decompress does not know, FillTo's first call gives its
  // NotSupported. ResourceExhausted when a codec library cannot allocate its state.
  static Result<std::unique_ptr<PageStream>> Make(CompressionCodec codec,
                                                  std::span<const uint8_t> input,
                                                  std::span<uint8_t> output);

  // Makes at least the first min(want, size) output bytes available (it may make more: streams
  // advance in steps of about kStep bytes). Asking for the whole page checks the stream's end.
  Status FillTo(size_t want);

  // Output bytes available (decompressed) so far.
  size_t filled() const { return filled_; }
  size_t size() const { return size_; }
  // Whether the whole page is decompressed and its end checked.
  bool done() const { return done_; }
  // The error that stopped the stream (FillTo repeats it); OK while there is none.
  const Status& status() const { return error_; }

  // How far beyond the bytes asked for a stream goes at least, so that decoders that ask for a
  // few bytes at a time cost one codec call per step, not per value.
  static constexpr size_t kStep = size_t{256} << 10;

 protected:
  explicit PageStream(size_t size) : size_(size) {}
  // Decompresses at least up to output byte `target` (<= size()); when target == size(), to the
  // end of the stream, which it checks. Updates filled_ (and done_ at the end).
  virtual Status Produce(size_t target) = 0;

  size_t size_;
  size_t filled_ = 0;
  bool done_ = false;

 private:
  Status error_;  // the first error, repeated
};

// Whether PageStream decompresses pages of `codec` piece by piece (otherwise whole at once).
bool StreamsPieceByPiece(CompressionCodec codec);

}  // namespace pqsift::compression
