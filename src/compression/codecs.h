// The codec wrappers behind Decompress and Compress (codec.h). Decompress* fill `out` exactly;
// Compress* append to `out`, REQUIRES: the level is valid for the codec (CheckCompressionLevel).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "compression/stream.h"
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

// The codecs whose libraries stream (stream.h). REQUIRES: output is not empty. `discards`:
// PageStream::Discards::kAllowed.
Result<std::unique_ptr<PageStream>> MakeZstdStream(std::span<const uint8_t> in,
                                                   std::span<uint8_t> out, bool discards);
Result<std::unique_ptr<PageStream>> MakeGzipStream(std::span<const uint8_t> in,
                                                   std::span<uint8_t> out);

Status CompressSnappy(std::span<const uint8_t> in, std::vector<uint8_t>& out);
Status CompressGzip(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out);
Status CompressZstd(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out);
Status CompressBrotli(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out);
Status CompressLz4Raw(std::span<const uint8_t> in, std::vector<uint8_t>& out);

}  // namespace pqsift::compression
