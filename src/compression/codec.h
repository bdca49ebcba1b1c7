// Page decompression, one entry point for every Parquet codec (Compression.md). Each codec is
// a thin wrapper over a Debian library, in its own file (codecs.h lists them).
//
// Pages declare their uncompressed size in the page header, so callers allocate the output and
// a codec must fill it exactly: producing fewer or more bytes is Corruption. No codec
// allocates from sizes found in the input (the output span is the bound), so a decompression
// bomb cannot grow past what the caller allowed.
#pragma once

#include <cstdint>
#include <span>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::compression {

// Decompresses `input` into exactly `output.size()` bytes. NotSupported for LZO and unknown
// codecs; Corruption (naming the codec) for malformed input or a size mismatch.
Status Decompress(CompressionCodec codec, std::span<const uint8_t> input,
                  std::span<uint8_t> output);

}  // namespace pqsift::compression
