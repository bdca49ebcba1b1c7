#include <zstd.h>

#include <memory>

#include "compression/codecs.h"

namespace pqsift::compression {

namespace {

// One decompression context per thread, made at its first page and kept: ZSTD_decompress makes
// and frees one per call, about 100 KB set up again for every page (a file of small pages
// decompresses thousands of them per second per thread).
struct ContextDeleter {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

ZSTD_DCtx* ThreadContext() {
  thread_local std::unique_ptr<ZSTD_DCtx, ContextDeleter> context(ZSTD_createDCtx());
  return context.get();
}

}  // namespace

Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  ZSTD_DCtx* context = ThreadContext();
  if (context == nullptr)
    return Status::ResourceExhausted("ZSTD: no memory for a decompression context");
  // ZSTD_decompressDCtx handles several concatenated frames and never writes past the capacity;
  // it resets the context's state for each call.
  size_t n = ZSTD_decompressDCtx(context, out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) return Status::Corruption(std::string("ZSTD: ") + ZSTD_getErrorName(n));
  if (n != out.size()) {
    return Status::Corruption("ZSTD: data decompresses to " + std::to_string(n) +
                              " bytes, the page declares " + std::to_string(out.size()));
  }
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
