// Page compression and decompression, one entry point each for every Parquet codec
// (Compression.md). Each codec is a thin wrapper over a Debian library, in its own file
// (codecs.h lists them).
//
// Pages declare their uncompressed size in the page header, so callers allocate the output and
// a codec must fill it exactly: producing fewer or more bytes is Corruption. No codec
// allocates from sizes found in the input (the output span is the bound), so a decompression
// bomb cannot grow past what the caller allowed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::compression {

// Decompresses `input` into exactly `output.size()` bytes. NotSupported for LZO and unknown
// codecs; Corruption (naming the codec) for malformed input or a size mismatch.
Status Decompress(CompressionCodec codec, std::span<const uint8_t> input,
                  std::span<uint8_t> output);

// Refuses, before the caller allocates the output, a declared uncompressed size that `input`
// cannot decompress to (a decompression bomb, or a corrupt page header): the size a stream
// records itself (SNAPPY's preamble, ZSTD frame headers) must be the declared one, and no
// stream may declare more than its codec can expand its bytes to (LZ4 about 255 times, DEFLATE
// 1032, a ZSTD block 32768). Corruption naming the codec and both sizes. BROTLI records no size
// and has no useful bound: its output is bounded only by the caller's limit.
Status CheckDecompressedSize(CompressionCodec codec, std::span<const uint8_t> input,
                             uint64_t declared);

// Compresses `input` with `codec` and appends the result to `out` (what Decompress takes back).
// `level` is the codec's compression level (ZSTD 1..22, GZIP 1..9, BROTLI 0..11); 0 means the
// codec's default; codecs without levels ignore it. The deprecated LZ4 (Hadoop framing) and LZO
// are NotSupported (LZ4_RAW replaces LZ4); InvalidArgument for a level out of range.
Status Compress(CompressionCodec codec, int level, std::span<const uint8_t> input,
                std::vector<uint8_t>& out);

// InvalidArgument unless Compress accepts `level` for `codec` (checked once, up front, by
// writers, so that no page fails half-way through a file).
Status CheckCompressionLevel(CompressionCodec codec, int level);

}  // namespace pqsift::compression
