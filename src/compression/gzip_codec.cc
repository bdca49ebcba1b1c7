#include <zlib.h>

#include <climits>
#include <string>

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

namespace {

// A page in pieces: inflate keeps its state (and its 32 KiB window) between calls and writes
// into the page, as far as the room it is given.
class GzipStream final : public PageStream {
 public:
  GzipStream(std::span<const uint8_t> in, std::span<uint8_t> out) : PageStream(out) {
    z_.next_in = const_cast<Bytef*>(in.data());
    z_.avail_in = static_cast<uInt>(in.size());
  }
  ~GzipStream() override {
    if (initialized_) inflateEnd(&z_);
  }
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // inflate keeps a pointer to z_: called once the stream is where it stays.
  Status Init() {
    // 15 + 32: a 32 KiB window, gzip or zlib header detected automatically.
    if (inflateInit2(&z_, 15 + 32) != Z_OK) return Status::Internal("GZIP: inflateInit2 failed");
    initialized_ = true;
    return Status::OK();
  }

 private:
  Status Produce(size_t target) override {
    for (;;) {
      if (filled_ >= target && target < size_) return Status::OK();
      if (filled_ == size_ && member_ended_ && z_.avail_in == 0) {
        done_ = true;
        return Status::OK();
      }
      // The stream ended, with no input left, short of the bytes needed: inflate would only
      // repeat Z_STREAM_END.
      if (member_ended_ && z_.avail_in == 0) {
        return Status::Corruption("GZIP: data decompresses to " + std::to_string(filled_) +
                                  " bytes, the page declares " + std::to_string(size_));
      }
      // A full page still has to reach the end of its stream: one byte of scratch room, which
      // must stay unused.
      uint8_t scratch = 0;
      const bool full = filled_ == size_;
      z_.next_out = full ? &scratch : output_.data() + filled_;
      z_.avail_out = full ? 1 : static_cast<uInt>(target - filled_);
      const uInt room = z_.avail_out;
      const uInt in_before = z_.avail_in;
      int rc = inflate(&z_, Z_NO_FLUSH);
      const size_t produced = room - z_.avail_out;
      if (full && produced > 0) {
        return Status::Corruption("GZIP: data decompresses to more than the page declares");
      }
      filled_ += produced;
      if (rc == Z_STREAM_END) {
        member_ended_ = true;
        // Some writers concatenate gzip members; continue with the next one if bytes remain.
        if (z_.avail_in > 0) {
          if (inflateReset(&z_) != Z_OK) {
            return Status::Corruption("GZIP: cannot continue after a member");
          }
          member_ended_ = false;
        }
        continue;
      }
      if (rc == Z_OK && (produced > 0 || z_.avail_in != in_before)) continue;
      if (rc == Z_OK || rc == Z_BUF_ERROR) {
        return Status::Corruption("GZIP: data decompresses to " + std::to_string(filled_) +
                                  " bytes, the page declares " + std::to_string(size_));
      }
      return Status::Corruption(std::string("GZIP: ") +
                                (z_.msg ? z_.msg : "invalid compressed data"));
    }
  }

  z_stream z_{};
  bool initialized_ = false;
  bool member_ended_ = false;
};

}  // namespace

Result<std::unique_ptr<PageStream>> MakeGzipStream(std::span<const uint8_t> in,
                                                   std::span<uint8_t> out) {
  if (in.size() > UINT_MAX || out.size() > UINT_MAX) {
    return Status::NotSupported("GZIP: pages over 4 GiB are not supported");
  }
  auto stream = std::make_unique<GzipStream>(in, out);
  PQSIFT_RETURN_IF_ERROR(stream->Init());
  return std::unique_ptr<PageStream>(std::move(stream));
}

Status CompressGzip(std::span<const uint8_t> in, int level, std::vector<uint8_t>& out) {
  if (in.size() > UINT_MAX / 2) {
    return Status::NotSupported("GZIP: pages over 2 GiB are not supported");
  }
  z_stream z{};
  // 15 + 16: a 32 KiB window with a gzip header (Compression.md: GZIP is RFC 1952).
  if (deflateInit2(&z, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::Internal("GZIP: deflateInit2 failed");
  }
  size_t start = out.size();
  out.resize(start + deflateBound(&z, static_cast<uLong>(in.size())));
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data() + start;
  z.avail_out = static_cast<uInt>(out.size() - start);
  int rc = deflate(&z, Z_FINISH);
  out.resize(start + z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return Status::Internal("GZIP: deflate did not finish");
  return Status::OK();
}

}  // namespace pqsift::compression
