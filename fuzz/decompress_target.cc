// Target "decompress": every codec's Decompress into an output of a given size, as the page
// reader calls it with the page header's uncompressed size; then the same page through a
// PageStream filled in steps, which must agree with Decompress: both fail (with the same code),
// or both succeed with the same bytes (one exception, for ZSTD, in CheckStream); and once more
// through a stream made to discard (PageStream::Discards::kAllowed), a step in four passing
// over its bytes (DiscardTo), one taking them in pieces (NextPiece), one reading them out
// (ReadOut): the bytes it keeps, hands out and reads out are Decompress's, and it fails as
// Decompress does.
//
//   byte 0:    bits 0-2 the codec (CompressionCodec, mod 8); bits 3-7 the fill plan: 0 asks for
//              the whole page at once, p > 0 asks in steps of (b + 1) << (p - 1) bytes (at most
//              16 MiB), b taken in turn from the compressed bytes
//   bytes 1-3: the declared uncompressed size (little-endian, up to 16 MiB)
//   rest:      the compressed bytes
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "compression/codec.h"
#include "compression/stream.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

namespace pqsift::fuzz {
namespace {

// Calls of FillTo before the last, for the whole page: bounds the time of tiny steps.
constexpr int kMaxSteps = 4096;

// The stream over `compressed` into `declared` bytes, filled by `plan`, against Decompress's
// verdict `whole` and bytes `expected`.
void CheckStream(CompressionCodec codec, unsigned plan, std::span<const uint8_t> compressed,
                 size_t declared, const Status& whole, const uint8_t* expected, bool discards) {
  using compression::PageStream;
  auto output = std::make_unique<uint8_t[]>(declared);
  auto made =
      PageStream::Make(codec, compressed, {output.get(), declared},
                       discards ? PageStream::Discards::kAllowed : PageStream::Discards::kNo);
  if (!made.ok()) {
    if (whole.ok() || made.status().code() != whole.code()) __builtin_trap();
    return;
  }
  PageStream& stream = **made;
  if (stream.size() != declared || stream.filled() != 0 || stream.done()) __builtin_trap();
  const unsigned shift = plan == 0 ? 0 : std::min(plan - 1, 24u);
  size_t want = 0;
  size_t checked = 0;  // output bytes compared with Decompress's so far (or passed over)
  bool discarded = false;
  Status st;
  for (int step = 0; st.ok() && !stream.done(); ++step) {
    if (plan == 0 || step >= kMaxSteps) {
      want = declared;
    } else {
      const size_t b = compressed.empty() ? 0 : compressed[step % compressed.size()];
      want = std::min(declared, want + ((b + 1) << shift));
    }
    const size_t before = stream.filled();
    // 1: DiscardTo, 2: NextPiece, 3: ReadOut
    const int how = discards && want < declared ? step % 4 : 0;
    if (how == 3) {
      std::vector<uint8_t> into(want > before ? want - before : 0);
      auto read = stream.ReadOut(into);
      st = read.status();
      if (read.ok() && *read) {
        if (stream.filled() != want) __builtin_trap();
        if (whole.ok() && !into.empty() &&
            std::memcmp(into.data(), expected + before, into.size()) != 0) {
          __builtin_trap();  // bytes other than Decompress's
        }
      } else if (read.ok()) {
        if (stream.filled() != before) __builtin_trap();  // refused: nothing done
        st = stream.FillTo(want);
      }
    } else if (how == 1) {
      st = stream.DiscardTo(want);
    } else if (how == 2) {
      auto piece = stream.NextPiece(want);
      st = piece.status();
      if (piece.ok()) {
        if (piece->size() > PageStream::kPiece || stream.filled() != before + piece->size()) {
          __builtin_trap();
        }
        if (whole.ok() && !piece->empty() &&
            std::memcmp(piece->data(), expected + before, piece->size()) != 0) {
          __builtin_trap();  // a piece of bytes other than Decompress's
        }
        if (piece->empty()) st = stream.FillTo(want);  // a stream that cannot
      }
    } else {
      st = stream.FillTo(want);
    }
    if (how != 0) {
      checked = stream.filled();  // passed over: the output there holds anything
      discarded = true;
    }
    if (stream.filled() < before || stream.filled() > declared) __builtin_trap();
    if (stream.done() && stream.filled() != declared) __builtin_trap();
    if (st.ok() && how != 2 && (stream.filled() < want || (want == declared && !stream.done()))) {
      __builtin_trap();  // FillTo makes the bytes asked for available
    }
    if (whole.ok()) {
      if (std::memcmp(output.get() + checked, expected + checked, stream.filled() - checked) != 0) {
        __builtin_trap();  // bytes other than Decompress's
      }
      checked = stream.filled();
    }
  }
  // libzstd's one-shot decoder (Decompress) does not check that a block decompresses to at most
  // Block_Maximum_Size (RFC 8878: 128 KiB or the window), its streaming decoder does: a frame out
  // of spec that way is Corruption for the stream alone
  // (regressions/decompress/zstd-*-block-of-128KiB-plus-1-*).
  const bool zstd_stricter = codec == CompressionCodec::kZstd && whole.ok() &&
                             st.message() == "ZSTD: Data corruption detected";
  if (st.ok() != whole.ok() && !zstd_stricter) __builtin_trap();  // they disagree
  if (!st.ok()) {
    if (st.code() != (zstd_stricter ? StatusCode::kCorruption : whole.code())) __builtin_trap();
    // The error is repeated, and the stream stays where it was.
    const size_t at = stream.filled();
    if (!(stream.FillTo(0) == st) || !(stream.FillTo(declared) == st) || stream.filled() != at ||
        stream.done()) {
      __builtin_trap();
    }
  } else if (declared > 0 && !discarded && std::memcmp(output.get(), expected, declared) != 0) {
    __builtin_trap();
  }
}

}  // namespace

void FuzzDecompress(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const uint8_t first = in.Byte();
  const auto codec = static_cast<CompressionCodec>(first % 8);
  const unsigned plan = first >> 3;
  const size_t declared = in.U16() | size_t{in.Byte()} << 16;
  // Exact-size copies: the sanitizers see a read past the input or a write past the output.
  std::span<const uint8_t> rest = in.Rest();
  auto compressed = std::make_unique<uint8_t[]>(rest.size());
  std::copy(rest.begin(), rest.end(), compressed.get());
  auto output = std::make_unique<uint8_t[]>(declared);
  Status st =
      compression::Decompress(codec, {compressed.get(), rest.size()}, {output.get(), declared});
  if (!st.ok() && st.code() != StatusCode::kCorruption && st.code() != StatusCode::kNotSupported) {
    __builtin_trap();  // malformed input is Corruption, an unknown codec NotSupported
  }
  for (bool discards : {false, true}) {
    CheckStream(codec, plan, {compressed.get(), rest.size()}, declared, st, output.get(), discards);
  }
}

}  // namespace pqsift::fuzz
