// LZ4_RAW is one raw block. The deprecated LZ4 codec was written three ways over the years:
// Hadoop's framing (parquet-mr), a raw block (old parquet-cpp) and the LZ4 frame format; we try
// them in that order, each bounded by the output span.
#include <lz4.h>
#include <lz4frame.h>

#include <climits>

#include "compression/codecs.h"

namespace pqsift::compression {
namespace {

uint32_t LoadBE32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | static_cast<uint32_t>(p[3]);
}

bool RawBlock(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() > INT_MAX || out.size() > INT_MAX) return false;
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()),
                              reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                              static_cast<int>(out.size()));
  return n >= 0 && static_cast<size_t>(n) == out.size();
}

// Hadoop framing: a sequence of [u32 BE uncompressed size][u32 BE compressed size][block].
bool HadoopFramed(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t produced = 0;
  while (!in.empty()) {
    if (in.size() < 8) return false;
    uint32_t raw = LoadBE32(in.data());
    uint32_t packed = LoadBE32(in.data() + 4);
    in = in.subspan(8);
    if (packed > in.size() || raw > out.size() - produced) return false;
    if (!RawBlock(in.subspan(0, packed), out.subspan(produced, raw))) return false;
    produced += raw;
    in = in.subspan(packed);
  }
  return produced == out.size();
}

bool Frame(std::span<const uint8_t> in, std::span<uint8_t> out) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
  size_t produced = 0;
  size_t consumed = 0;
  bool ok = false;
  while (consumed < in.size()) {
    size_t dst = out.size() - produced;
    size_t src = in.size() - consumed;
    size_t hint =
        LZ4F_decompress(ctx, out.data() + produced, &dst, in.data() + consumed, &src, nullptr);
    if (LZ4F_isError(hint)) break;
    produced += dst;
    consumed += src;
    if (hint == 0) {
      ok = consumed == in.size() && produced == out.size();
      break;
    }
    if (dst == 0 && src == 0) break;  // no progress
  }
  LZ4F_freeDecompressionContext(ctx);
  return ok;
}

}  // namespace

Status DecompressLz4Raw(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (!RawBlock(in, out)) {
    return Status::Corruption("LZ4_RAW: invalid data or not exactly the declared " +
                              std::to_string(out.size()) + " bytes");
  }
  return Status::OK();
}

Status DecompressLz4Hadoop(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (HadoopFramed(in, out) || RawBlock(in, out) || Frame(in, out)) return Status::OK();
  return Status::Corruption(
      "LZ4: data is neither Hadoop-framed, a raw block nor an LZ4 frame "
      "of the declared " +
      std::to_string(out.size()) + " bytes");
}

Status CompressLz4Raw(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  if (in.size() > LZ4_MAX_INPUT_SIZE) {
    return Status::NotSupported("LZ4_RAW: pages over 2 GiB are not supported");
  }
  size_t start = out.size();
  out.resize(start + LZ4_compressBound(static_cast<int>(in.size())));
  int n = LZ4_compress_default(reinterpret_cast<const char*>(in.data()),
                               reinterpret_cast<char*>(out.data() + start),
                               static_cast<int>(in.size()), static_cast<int>(out.size() - start));
  if (n <= 0 && !in.empty()) return Status::Internal("LZ4_RAW: compression failed");
  out.resize(start + static_cast<size_t>(n));
  return Status::OK();
}

}  // namespace pqsift::compression
