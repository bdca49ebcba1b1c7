// ZSTD_d_stableOutBuffer (PageStream decompresses straight into the page) is in the
// experimental part of the API, stable since zstd 1.4.4.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
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
// instead (a buffered output: each call may write anywhere), and can put the next bytes where
// its caller wants them (Out: PageStream's discards, pieces and read-outs). The
// input is fed a little at a time, about as much as the output still wanted takes at the ratio
// seen so far, so that output stops soon after the bytes asked for (within a block, 128 KiB at
// most) even on a page that compresses 1000 times.
class ZstdStream final : public PageStream {
 public:
  ZstdStream(std::span<const uint8_t> in, std::span<uint8_t> out, Context context, bool buffered)
      : PageStream(out), input_(in), context_(std::move(context)), buffered_(buffered) {
    in_ = {in.data(), 0, 0};
  }

 private:
  static constexpr size_t kFirstInput = size_t{4} << 10;
  static constexpr size_t kMinInput = 64;
  static constexpr size_t kMaxInput = size_t{64} << 10;

  // The input to give the next call for output up to `target`.
  size_t InputFor(size_t target) const {
    if (target == size_) return kMaxInput;  // to the end: as fast as it goes
    // Less than the whole frame at first: given it all, zstd decodes the frame in one go.
    if (filled_ == 0 || in_.pos == 0) return std::min(kFirstInput, input_.size() / 16 + 1);
    const double ratio = static_cast<double>(filled_) / static_cast<double>(in_.pos);
    const auto wanted = static_cast<double>(target - filled_) / ratio;
    return std::clamp(static_cast<size_t>(wanted) + 1, kMinInput, kMaxInput);
  }

  Status Produce(size_t target) override { return Run(target, nullptr); }
  Result<bool> Out(std::span<uint8_t> into) override {
    if (!buffered_) return false;
    PQSIFT_RETURN_IF_ERROR(Run(filled_ + into.size(), &into));
    return true;
  }

  // Output up to `target`: into the page (to `target` or a little past it; to the end, checked,
  // when target == size_), or with `into` (buffered streams only) into it, exactly up to
  // `target` (filled_ + into->size() < size_).
  Status Run(size_t target, const std::span<uint8_t>* into) {
    for (;;) {
      if (filled_ >= target && target < size_) return Status::OK();
      if (filled_ == size_ && frame_ended_ && in_.pos == input_.size()) {
        done_ = true;
        return Status::OK();
      }
      const size_t in_before = in_.pos;
      const size_t out_before = filled_;
      in_.size = std::min(input_.size(), in_.pos + InputFor(target));
      // A stable output is the same buffer at every call (zstd checks); `into` ends at `target`.
      ZSTD_outBuffer out = into == nullptr ? ZSTD_outBuffer{output_.data(), size_, filled_}
                                           : ZSTD_outBuffer{into->data(), into->size(),
                                                            into->size() - (target - filled_)};
      size_t rc = ZSTD_decompressStream(context_.get(), &out, &in_);
      filled_ = into == nullptr ? out.pos : target - (out.size - out.pos);
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
  Context context_;
  bool buffered_;
  ZSTD_inBuffer in_;
  bool frame_ended_ = false;
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
