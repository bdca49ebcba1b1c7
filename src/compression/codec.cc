#include "compression/codec.h"

#include <cstring>

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

}  // namespace pqsift::compression
