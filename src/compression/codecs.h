// The codec wrappers behind Decompress (codec.h). Same contract: fill `out` exactly.
#pragma once

#include <cstdint>
#include <span>

#include "pqsift/status.h"

namespace pqsift::compression {

Status DecompressSnappy(std::span<const uint8_t> in, std::span<uint8_t> out);
// GZIP and zlib streams, including several concatenated gzip members.
Status DecompressGzip(std::span<const uint8_t> in, std::span<uint8_t> out);
Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out);
Status DecompressBrotli(std::span<const uint8_t> in, std::span<uint8_t> out);
// LZ4_RAW: one raw LZ4 block.
Status DecompressLz4Raw(std::span<const uint8_t> in, std::span<uint8_t> out);
// LZ4 (deprecated): Hadoop's framing, with fallbacks for writers that used a raw block or the
// LZ4 frame format instead.
Status DecompressLz4Hadoop(std::span<const uint8_t> in, std::span<uint8_t> out);

}  // namespace pqsift::compression
