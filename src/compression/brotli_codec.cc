#include <brotli/decode.h>
#include <brotli/encode.h>

#include "compression/codecs.h"

namespace pqsift::compression {

Status DecompressBrotli(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t n = out.size();
  BrotliDecoderResult r = BrotliDecoderDecompress(in.size(), in.data(), &n, out.data());
  if (r != BROTLI_DECODER_RESULT_SUCCESS) {
    return Status::Corruption("BROTLI: invalid compressed data or larger than the page declares");
  }
  if (n != out.size()) {
    return Status::Corruption("BROTLI: data decompresses to " + std::to_string(n) +
                              " bytes, the page declares " + std::to_string(out.size()));
  }
  return Status::OK();
}

Status CompressBrotli(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out) {
  size_t start = out.size();
  size_t n = BrotliEncoderMaxCompressedSize(in.size());
  if (n == 0) n = in.size() + 1024;  // the bound is not computable for huge inputs
  out.resize(start + n);
  // Level 0 means the default; brotli's own default (11) is far too slow for pages, so the
  // default is 5, about zstd's speed with a better ratio.
  if (!BrotliEncoderCompress(level == 0 ? 5 : level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                             in.size(), in.data(), &n, out.data() + start)) {
    return Status::Internal("BROTLI: compression failed");
  }
  out.resize(start + n);
  return Status::OK();
}

}  // namespace pqsift::compression
