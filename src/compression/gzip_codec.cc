#include <zlib.h>

#include <climits>

#include "compression/codecs.h"

namespace pqsift::compression {

Status DecompressGzip(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() > UINT_MAX || out.size() > UINT_MAX) {
    return Status::NotSupported("GZIP: pages over 4 GiB are not supported");
  }
  z_stream z{};
  // 15 + 32: a 32 KiB window, gzip or zlib header detected automatically.
  if (inflateInit2(&z, 15 + 32) != Z_OK) return Status::Internal("GZIP: inflateInit2 failed");
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  // inflate cannot reach the end of a stream with no room at all, so an empty page gets a
  // one-byte scratch area that must stay unused.
  uint8_t scratch = 0;
  z.next_out = out.empty() ? &scratch : out.data();
  z.avail_out = out.empty() ? 1 : static_cast<uInt>(out.size());
  Status st;
  for (;;) {
    int rc = inflate(&z, Z_FINISH);
    if (rc == Z_STREAM_END) {
      // Some writers concatenate gzip members; continue with the next one if bytes remain.
      if (z.avail_in == 0) break;
      if (inflateReset(&z) != Z_OK) {
        st = Status::Corruption("GZIP: cannot continue after a member");
        break;
      }
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_out == 0) {
      st = Status::Corruption("GZIP: data decompresses to more than the page declares");
    } else {
      st = Status::Corruption(std::string("GZIP: ") + (z.msg ? z.msg : "invalid compressed data"));
    }
    break;
  }
  size_t produced = (out.empty() ? 1 : out.size()) - z.avail_out;
  inflateEnd(&z);
  PQSIFT_RETURN_IF_ERROR(st);
  if (produced != out.size()) {
    return Status::Corruption("GZIP: data decompresses to " + std::to_string(produced) +
                              " bytes, the page declares " + std::to_string(out.size()));
  }
  return Status::OK();
}

}  // namespace pqsift::compression
