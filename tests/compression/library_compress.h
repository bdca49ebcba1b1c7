// Pages compressed with the codec libraries directly (not through compression::Compress), so the
// codec tests check our decompression against the libraries' own output.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <vector>

namespace pqsift::compression::testing {

using Bytes = std::vector<uint8_t>;

// DEFLATE at level 6; window_bits 15 + 16: gzip (RFC 1952); 15: zlib (RFC 1950), which GZIP
// pages also accept.
inline Bytes Deflate(const Bytes& in, int window_bits) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&z, in.size()) + 32);
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline Bytes GzipCompress(const Bytes& in) { return Deflate(in, 15 + 16); }

}  // namespace pqsift::compression::testing
