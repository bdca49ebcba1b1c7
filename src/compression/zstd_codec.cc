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
