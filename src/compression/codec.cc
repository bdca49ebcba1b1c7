#include "compression/codec.h"

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
