#include "compression/codec.h"

#include <snappy.h>
#include <zstd.h>

#include <cstring>
#include <string>

#include "compression/codecs.h"

namespace pqsift::compression {

Status Decompress(CompressionCodec codec, std::span<const uint8_t> input,
                  std::span<uint8_t> output) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      if (input.size() != output.size()) {
        return Status::Corruption("uncompressed page holds " + std::to_string(input.size()) +
                                  " bytes but declares " + std::to_string(output.size()));
      }
      if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
      return Status::OK();
    case CompressionCodec::kSnappy: return DecompressSnappy(input, output);
    case CompressionCodec::kGzip: return DecompressGzip(input, output);
    case CompressionCodec::kZstd: return DecompressZstd(input, output);
    case CompressionCodec::kBrotli: return DecompressBrotli(input, output);
    case CompressionCodec::kLz4Raw: return DecompressLz4Raw(input, output);
    case CompressionCodec::kLz4: return DecompressLz4Hadoop(input, output);
    case CompressionCodec::kLzo: break;
  }
  return Status::NotSupported("compression codec " + CodecName(codec) + " is not supported");
}

namespace {

// The most output a stream of `input` bytes can give, from the codec's longest match per input
// byte, with room for headers; 0: no bound.
uint64_t MaxExpansion(CompressionCodec codec, uint64_t input) {
  switch (codec) {
    case CompressionCodec::kUncompressed: return input;
    case CompressionCodec::kLz4:
    case CompressionCodec::kLz4Raw: return input * 256 + 1024;
    case CompressionCodec::kGzip: return input * 1032 + 1024;
    case CompressionCodec::kZstd: return input * 32768 + (uint64_t{1} << 17);
    default: return 0;
  }
}

Status SizeMismatch(CompressionCodec codec, uint64_t recorded, uint64_t declared) {
  return Status::Corruption(CodecName(codec) + ": the data records " + std::to_string(recorded) +
                            " uncompressed bytes, the page declares " + std::to_string(declared));
}

}  // namespace

Status CheckDecompressedSize(CompressionCodec codec, std::span<const uint8_t> input,
                             uint64_t declared) {
  if (codec == CompressionCodec::kSnappy) {
    size_t recorded = 0;
    if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(input.data()), input.size(),
                                       &recorded)) {
      return Status::Corruption("SNAPPY: invalid compressed data (no length preamble)");
    }
    return recorded == declared ? Status::OK() : SizeMismatch(codec, recorded, declared);
  }
  if (codec == CompressionCodec::kZstd) {
    // The first frame's header records its size (ZSTD_compress always writes it); a page is
    // usually one frame, and then that size is the page's.
    unsigned long long recorded = ZSTD_getFrameContentSize(input.data(), input.size());
    if (recorded == ZSTD_CONTENTSIZE_ERROR) {
      return Status::Corruption("ZSTD: invalid compressed data (no valid frame header)");
    }
    if (recorded != ZSTD_CONTENTSIZE_UNKNOWN) {
      const bool one_frame =
          ZSTD_findFrameCompressedSize(input.data(), input.size()) == input.size();
      if (recorded > declared || (one_frame && recorded != declared)) {
        return SizeMismatch(codec, recorded, declared);
      }
    }
  }
  const uint64_t bound = MaxExpansion(codec, input.size());
  if (bound > 0 && declared > bound) {
    return Status::Corruption(CodecName(codec) + ": the page declares " + std::to_string(declared) +
                              " uncompressed bytes, more than " + std::to_string(input.size()) +
                              " compressed bytes can hold (at most " + std::to_string(bound) +
                              "): a decompression bomb or a corrupt header");
  }
  return Status::OK();
}

Status CheckCompressionLevel(CompressionCodec codec, int level) {
  int max_level = 0;  // codecs without levels accept only 0
  switch (codec) {
    case CompressionCodec::kZstd: max_level = ZSTD_maxCLevel(); break;
    case CompressionCodec::kGzip: max_level = 9; break;
    case CompressionCodec::kBrotli: max_level = 11; break;
    default: break;
  }
  if (level < 0 || level > max_level) {
    return Status::InvalidArgument(
        "compression level " + std::to_string(level) + " is out of range for " + CodecName(codec) +
        (max_level == 0 ? " (it has no levels)" : " (1.." + std::to_string(max_level) + ")"));
  }
  return Status::OK();
}

Status Compress(CompressionCodec codec, int level, std::span<const uint8_t> input,
                std::vector<uint8_t>& out) {
  PQSIFT_RETURN_IF_ERROR(CheckCompressionLevel(codec, level));
  switch (codec) {
    case CompressionCodec::kUncompressed:
      out.insert(out.end(), input.begin(), input.end());
      return Status::OK();
    case CompressionCodec::kSnappy: return CompressSnappy(input, out);
    case CompressionCodec::kGzip: return CompressGzip(input, level, out);
    case CompressionCodec::kZstd: return CompressZstd(input, level, out);
    case CompressionCodec::kBrotli: return CompressBrotli(input, level, out);
    case CompressionCodec::kLz4Raw: return CompressLz4Raw(input, out);
    default: break;
  }
  return Status::NotSupported("writing " + CodecName(codec) + " pages is not supported" +
                              (codec == CompressionCodec::kLz4 ? " (use LZ4_RAW)" : ""));
}

}  // namespace pqsift::compression
