// ZSTD_d_stableOutBuffer (PageStream decompresses straight into the page) is in the
// experimental part of the API, stable since zstd 1.4.4.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "compression/codecs.h"

namespace pqsift::compression {

namespace {

// One decompression context per thread, made at its first page and kept: ZSTD_decompress makes
// and frees one per call, about 100 KB set up again for every page (a file of small pages
// decompresses thousands of them per second per thread).
struct ContextDeleter {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

using Context = std::unique_ptr<ZSTD_DCtx, ContextDeleter>;

ZSTD_DCtx* ThreadContext() {
  thread_local Context context(ZSTD_createDCtx());
  return context.get();
}

Status Declared(size_t got, size_t declared) {
  return Status::Corruption("ZSTD: data decompresses to " + std::to_string(got) +
                            " bytes, the page declares " + std::to_string(declared));
}

Status LongerThanDeclared(size_t declared) {
  return Status::Corruption("ZSTD: data decompresses to more than the " + std::to_string(declared) +
                            " bytes the page declares");
}

// A page in pieces: the context of its own keeps the frame's state between calls. By default it
// writes straight into the page (a stable output buffer: the page is the window, no copy through
// the context). A stream that may discard (PageStream::Discards) keeps its window in the context
// instead (a buffered output: each call may write anywhere): the bytes it discards go through a
// small scratch buffer, and the bytes it keeps are copied from the window into the page. The
// input is fed a little at a time, about as much as the output still wanted takes at the ratio
// seen so far, so that output stops soon after the bytes asked for (within a block, 128 KiB at
// most) even on a page that compresses 1000 times.
class ZstdStream final : public PageStream {
 public:
  ZstdStream(std::span<const uint8_t> in, std::span<uint8_t> out, Context context, bool buffered)
      : PageStream(out.size()),
        input_(in),
        output_(out.data()),
        context_(std::move(context)),
        buffered_(buffered) {
    in_ = {in.data(), 0, 0};
  }

 private:
  static constexpr size_t kFirstInput = size_t{4} << 10;
  static constexpr size_t kMinInput = 64;
  static constexpr size_t kMaxInput = size_t{64} << 10;
  // Discarded bytes pass through this much scratch at a time (a block at most: about one call).
  static constexpr size_t kScratch = kPiece;

  // The input to give the next call for output up to `target`.
  size_t InputFor(size_t target) const {
    if (target == size_) return kMaxInput;  // to the end: as fast as it goes
    // Less than the whole frame at first: given it all, zstd decodes the frame in one go.
    if (filled_ == 0 || in_.pos == 0) return std::min(kFirstInput, input_.size() / 16 + 1);
    const double ratio = static_cast<double>(filled_) / static_cast<double>(in_.pos);
    const auto wanted = static_cast<double>(target - filled_) / ratio;
    return std::clamp(static_cast<size_t>(wanted) + 1, kMinInput, kMaxInput);
  }

  Status Produce(size_t target) override { return Run(target, Mode::kKeep); }
  Status Discard(size_t target) override {
    return Run(target, buffered_ ? Mode::kDiscard : Mode::kKeep);
  }
  Result<std::span<const uint8_t>> Piece(size_t target) override {
    if (!buffered_) return std::span<const uint8_t>();
    PQSIFT_RETURN_IF_ERROR(Run(target, Mode::kPiece));
    return std::span<const uint8_t>(scratch_.get(), piece_);
  }

  Result<bool> Out(std::span<uint8_t> into) override {
    if (!buffered_) return false;
    into_ = into;
    Status st = Run(filled_ + into.size(), Mode::kInto);
    into_ = {};
    PQSIFT_RETURN_IF_ERROR(st);
    return true;
  }

  void KeepRestOfPiece(size_t from) override {
    if (from >= piece_) return;
    std::memcpy(output_ + filled_ - (piece_ - from), scratch_.get() + from, piece_ - from);
  }

  // kKeep: into the page, up to `target` or a little past it (to the end, checked, when target
  // == size_). Buffered streams only: kDiscard: through the scratch, exactly up to `target`
  // (< size_); kPiece: the same, but stopping when the scratch is full (piece_ bytes); kInto:
  // into into_, exactly up to `target` (filled_ + into_.size()).
  enum class Mode { kKeep, kDiscard, kPiece, kInto };
  Status Run(size_t target, Mode mode) {
    piece_ = 0;
    for (;;) {
      if (filled_ >= target && target < size_) return Status::OK();
      if (mode == Mode::kPiece && piece_ == kScratch) return Status::OK();
      if (filled_ == size_ && frame_ended_ && in_.pos == input_.size()) {
        done_ = true;
        return Status::OK();
      }
      const size_t in_before = in_.pos;
      const size_t out_before = filled_;
      in_.size = std::min(input_.size(), in_.pos + InputFor(target));
      // A stable output is the same buffer at every call (zstd checks).
      ZSTD_outBuffer out{output_, size_, filled_};
      if (mode == Mode::kInto) {
        out = {into_.data(), into_.size(), into_.size() - (target - filled_)};
      } else if (mode != Mode::kKeep) {
        if (scratch_ == nullptr) scratch_ = std::make_unique<uint8_t[]>(kScratch);
        if (piece_ == kScratch) piece_ = 0;  // discarding: the scratch again
        out = {scratch_.get(), piece_ + std::min(kScratch - piece_, target - filled_), piece_};
      }
      size_t rc = ZSTD_decompressStream(context_.get(), &out, &in_);
      if (mode == Mode::kKeep) {
        filled_ = out.pos;
      } else if (mode == Mode::kInto) {
        filled_ = target - (into_.size() - out.pos);
      } else {
        filled_ += out.pos - piece_;
        piece_ = out.pos;
      }
      if (ZSTD_isError(rc)) {
        if (ZSTD_getErrorCode(rc) == ZSTD_error_dstSize_tooSmall) return LongerThanDeclared(size_);
        return Status::Corruption(std::string("ZSTD: ") + ZSTD_getErrorName(rc));
      }
      frame_ended_ = rc == 0;
      if (in_.pos == in_before && filled_ == out_before) {
        // Nothing moved: the input is all used, or the page is full and input remains.
        if (in_.pos < input_.size()) return LongerThanDeclared(size_);
        return Declared(filled_, size_);
      }
    }
  }

  std::span<const uint8_t> input_;
  uint8_t* output_;
  Context context_;
  bool buffered_;
  ZSTD_inBuffer in_;
  bool frame_ended_ = false;
  std::unique_ptr<uint8_t[]> scratch_;
  size_t piece_ = 0;         // bytes of the scratch the last Run wrote
  std::span<uint8_t> into_;  // Mode::kInto's destination
};

// A buffered stream's window is allocated by zstd (the frame's window, or its content size if
// smaller); above this, discarding would cost more memory than the page it saves.
constexpr uint64_t kMaxBufferedWindow = uint64_t{8} << 20;

// Whether the first frame of `in` declares a window a buffered stream may hold.
bool SmallWindow(std::span<const uint8_t> in) {
  ZSTD_frameHeader header;
  if (ZSTD_getFrameHeader(&header, in.data(), in.size()) != 0) return false;
  return header.frameType == ZSTD_frame && header.windowSize <= kMaxBufferedWindow;
}

}  // namespace

Result<std::unique_ptr<PageStream>> MakeZstdStream(std::span<const uint8_t> in,
                                                   std::span<uint8_t> out, bool discards) {
  Context context(ZSTD_createDCtx());
  if (context == nullptr)
    return Status::ResourceExhausted("ZSTD: no memory for a decompression context");
  const bool buffered = discards && SmallWindow(in);
  // A stable output: the page is the window (nothing is allocated for one), so frames may
  // declare any window. A buffered one: the first frame's window is small (checked above); a
  // later frame of the page may declare any too, its window bounded by the page's size in
  // what zstd writes (it stops where the page ends).
  for (auto [parameter, value] : {std::pair{ZSTD_d_stableOutBuffer, buffered ? 0 : 1},
                                  std::pair{ZSTD_d_windowLogMax, ZSTD_WINDOWLOG_MAX}}) {
    size_t rc = ZSTD_DCtx_setParameter(context.get(), parameter, value);
    if (ZSTD_isError(rc)) return Status::Internal(std::string("ZSTD: ") + ZSTD_getErrorName(rc));
  }
  return std::unique_ptr<PageStream>(new ZstdStream(in, out, std::move(context), buffered));
}

Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  ZSTD_DCtx* context = ThreadContext();
  if (context == nullptr)
    return Status::ResourceExhausted("ZSTD: no memory for a decompression context");
  // ZSTD_decompressDCtx handles several concatenated frames and never writes past the capacity;
  // it resets the context's state for each call.
  size_t n = ZSTD_decompressDCtx(context, out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) return Status::Corruption(std::string("ZSTD: ") + ZSTD_getErrorName(n));
  if (n != out.size()) return Declared(n, out.size());
  return Status::OK();
}

Status CompressZstd(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out) {
  size_t start = out.size();
  out.resize(start + ZSTD_compressBound(in.size()));
  size_t n = ZSTD_compress(out.data() + start, out.size() - start, in.data(), in.size(),
                           level == 0 ? ZSTD_CLEVEL_DEFAULT : level);
  if (ZSTD_isError(n)) return Status::Internal(std::string("ZSTD: ") + ZSTD_getErrorName(n));
  out.resize(start + n);
  return Status::OK();
}

}  // namespace pqsift::compression
