#include <snappy.h>

#include "compression/codecs.h"

namespace pqsift::compression {

Status DecompressSnappy(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const auto* src = reinterpret_cast<const char*>(in.data());
  size_t length = 0;
  if (!snappy::GetUncompressedLength(src, in.size(), &length)) {
    return Status::Corruption("SNAPPY: invalid compressed data");
  }
  if (length != out.size()) {
    return Status::Corruption("SNAPPY: data decompresses to " + std::to_string(length) +
                              " bytes, the page declares " + std::to_string(out.size()));
  }
  if (!snappy::RawUncompress(src, in.size(), reinterpret_cast<char*>(out.data()))) {
    return Status::Corruption("SNAPPY: invalid compressed data");
  }
  return Status::OK();
}

Status CompressSnappy(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  size_t start = out.size();
  out.resize(start + snappy::MaxCompressedLength(in.size()));
  size_t n = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(in.data()), in.size(),
                      reinterpret_cast<char*>(out.data() + start), &n);
  out.resize(start + n);
  return Status::OK();
}

}  // namespace pqsift::compression
