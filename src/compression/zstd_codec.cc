#include <zstd.h>

#include "compression/codecs.h"

namespace pqsift::compression {

Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  // ZSTD_decompress handles several concatenated frames and never writes past the capacity.
  size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) return Status::Corruption(std::string("ZSTD: ") + ZSTD_getErrorName(n));
  if (n != out.size()) {
    return Status::Corruption("ZSTD: data decompresses to " + std::to_string(n) +
                              " bytes, the page declares " + std::to_string(out.size()));
  }
  return Status::OK();
}

}  // namespace pqsift::compression
