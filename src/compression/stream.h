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
// Bytes the reader does not keep: a reader that enters a large page far past its start (the one
// row a selective query needs in a 13M-row page) must decompress everything before it, but need
// not keep it; one that copies values out as it decodes them (PLAIN fixed-width) needs them in
// the page no more than a moment. A stream made with `Discards::kAllowed` keeps its window apart
// from the page (ZSTD: in its context, a few MB) and can pass bytes over (DiscardTo), hand them
// out in scratch pieces (NextPiece) or put them straight where the reader wants them (ReadOut)
// without writing them into the page, so that a 100 MB page is allocated but barely touched.
// Bytes it does keep cost one copy more (out of the codec's window), so a reader asks for it
// only when it will keep little.
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
  // NotSupported. ResourceExhausted when a codec library cannot allocate its state. `discards`:
  // whether DiscardTo and NextPiece may leave bytes unwritten ("Skipping into a page" above).
  enum class Discards { kNo, kAllowed };
  static Result<std::unique_ptr<PageStream>> Make(CompressionCodec codec,
                                                  std::span<const uint8_t> input,
                                                  std::span<uint8_t> output,
                                                  Discards discards = Discards::kNo);

  // Makes at least the first min(want, size) output bytes available (it may make more: streams
  // advance in steps of about kStep bytes). Asking for the whole page checks the stream's end.
  Status FillTo(size_t want);

  // Brings the stream to output byte min(to, size) without keeping the bytes from filled() on:
  // afterwards filled() is at least that, and output bytes [old filled(), to) hold anything
  // (a stream made without Discards::kAllowed, or one that cannot, writes them as FillTo
  // does). The stream's end is checked only by FillTo(size()).
  Status DiscardTo(size_t to);

  // For a reader that must see the bytes it passes over (the lengths of byte arrays it skips):
  // like DiscardTo, but the next bytes, up to output byte `to` (< size()), come back in a piece
  // of scratch, valid until the next call, instead of being written into the output; filled()
  // moves past them. At most kPiece bytes; empty (nothing done) when the stream cannot, made
  // without Discards::kAllowed or of a codec that does not stream: FillTo then.
  Result<std::span<const uint8_t>> NextPiece(size_t to);
  // Like NextPiece into the caller's memory: the next into.size() bytes go to `into` instead of
  // the output (filled() moves past them), when they end more than kStep bytes before the end;
  // false (nothing done) when the stream cannot, or they would not (FillTo takes such a rest
  // whole).
  Result<bool> ReadOut(std::span<uint8_t> into);
  // Writes the bytes of the last piece from its byte `from` on into the output, where they
  // belong: the reader stopped passing over bytes there and reads on.
  void KeepRestOfPiece(size_t from);
  static constexpr size_t kPiece = size_t{128} << 10;

  // Output bytes decompressed so far (the discarded ones included).
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
  explicit PageStream(std::span<uint8_t> output) : output_(output), size_(output.size()) {}
  // Decompresses at least up to output byte `target` (<= size()); when target == size(), to the
  // end of the stream, which it checks. Updates filled_ (and done_ at the end).
  virtual Status Produce(size_t target) = 0;
  // The one primitive of a stream that may discard: decompresses the next into.size() bytes
  // (ending before size()) into `into` instead of the output, and moves filled_ past them;
  // false, nothing done, when the stream cannot. DiscardTo, NextPiece and ReadOut go through it.
  virtual Result<bool> Out(std::span<uint8_t> /*into*/) { return false; }

  std::span<uint8_t> output_;
  size_t size_;
  size_t filled_ = 0;
  bool done_ = false;

 private:
  // Out into the first min(kPiece, to - filled_) bytes of the scratch (made at the first use);
  // the bytes, or empty when the stream cannot. REQUIRES: filled_ < to < size_.
  Result<std::span<const uint8_t>> OutToScratch(size_t to);

  std::unique_ptr<uint8_t[]> scratch_;
  size_t piece_ = 0;  // bytes of the last piece NextPiece handed out
  Status error_;      // the first error, repeated
};

// Whether PageStream decompresses pages of `codec` piece by piece (otherwise whole at once).
bool StreamsPieceByPiece(CompressionCodec codec);

}  // namespace pqsift::compression
