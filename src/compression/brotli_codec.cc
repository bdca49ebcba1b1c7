#include <brotli/decode.h>

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

}  // namespace pqsift::compression
