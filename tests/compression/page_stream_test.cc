// PageStream against Decompress: filled piece by piece in random steps, every codec gives the
// bytes Decompress gives; ZSTD and GZIP stop soon after the bytes asked for; and on corrupt
// input (truncated, wrong declared size, concatenated frames, garbage) a stream fails exactly
// when Decompress fails, only once the bad part is asked for, and repeats its error. The
// compressed pages come from the libraries directly (as in codec_test.cc) and from Compress.
#include "compression/stream.h"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compression/codec.h"
#include "compression/library_compress.h"

namespace pqsift::compression {
namespace {

using testing::Bytes;
using testing::Deflate;
using testing::GzipCompress;
constexpr size_t kStep = PageStream::kStep;
constexpr size_t kMiB = size_t{1} << 20;

// Text-like rows (a few fields, numbers from a small range): compresses about 4 to 8 times.
Bytes Text(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  const char* names[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};
  while (s.size() < n) {
    s += "row " + std::to_string(rng() % 100000) + ", name " + names[rng() % 6] + ", value " +
         std::to_string(rng() % 1000) + "." + std::to_string(rng() % 100) + "\n";
  }
  s.resize(n);
  return {s.begin(), s.end()};
}

// Little-endian 32-bit numbers in a repeating pattern (a column of codes cycling through a few
// thousand values): compresses far better than text, 50 times or more.
Bytes Numbers(size_t n, uint32_t seed) {
  Bytes b(n);
  for (size_t i = 0; i + 4 <= n; i += 4) {
    const uint32_t v = static_cast<uint32_t>(i / 4 % 5000 * 37 + seed);
    std::memcpy(&b[i], &v, 4);
  }
  for (size_t i = n / 4 * 4; i < n; ++i) b[i] = static_cast<uint8_t>(i);
  return b;
}

Bytes Concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Bytes ZstdCompress(const Bytes& in, int level = 3) {
  Bytes out(ZSTD_compressBound(in.size()));
  size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), level);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

Bytes ZstdDefault(const Bytes& in) { return ZstdCompress(in); }

// A frame without its content size in the header (a streaming writer's), with a checksum.
Bytes ZstdStreamCompress(const Bytes& in) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
  Bytes out(ZSTD_compressBound(in.size()) + 64);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  size_t rc = ZSTD_compressStream2(c, &output, &input, ZSTD_e_end);
  EXPECT_EQ(rc, 0u);
  ZSTD_freeCCtx(c);
  out.resize(output.pos);
  return out;
}

Bytes ZlibCompress(const Bytes& in) { return Deflate(in, 15); }

Bytes CompressWith(CompressionCodec codec, const Bytes& in) {
  Bytes out;
  EXPECT_TRUE(Compress(codec, 0, in, out).ok()) << CodecName(codec);
  return out;
}

// Decompress's verdict and bytes for `packed` into `size` bytes.
struct Whole {
  Status status;
  Bytes bytes;
};
Whole DecompressWhole(CompressionCodec codec, const Bytes& packed, size_t size) {
  Whole w{Status::OK(), Bytes(size)};
  w.status = Decompress(codec, packed, w.bytes);
  return w;
}

// An output area with guard bytes after the page: the stream must never write there.
constexpr size_t kGuard = 64;
constexpr uint8_t kGuardByte = 0xA5;
struct Output {
  explicit Output(size_t size) : size(size), area(size + kGuard, kGuardByte) {}
  std::span<uint8_t> page() { return {area.data(), size}; }
  bool GuardIntact() const {
    return std::all_of(area.begin() + static_cast<ptrdiff_t>(size), area.end(),
                       [](uint8_t b) { return b == kGuardByte; });
  }
  size_t size;
  Bytes area;
};

// A request size: mostly small (a decoder asking for a few values), sometimes about a step,
// sometimes a large jump.
size_t RandomIncrement(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0: return rng() % 64;
    case 1: return rng() % 4096;
    case 2: return rng() % (2 * kStep);
    default: return rng() % (3 * kMiB);
  }
}

// Fills a stream of `packed` in random increments, checking after every call the contract
// against Decompress: the bytes available are Decompress's, filled() only grows, stays within
// size() and covers what was asked, done() comes with the whole page (for ZSTD and GZIP only
// when asked for it). With `discards`, a third of the calls are DiscardTo instead: the bytes it
// passes over are not compared, the bytes kept after them are. Returns the stream's final
// status (after asking for the whole page), which must match Decompress's ok-ness.
Status FillRandomly(CompressionCodec codec, const Bytes& packed, size_t size, uint32_t seed,
                    PageStream::Discards discards = PageStream::Discards::kNo) {
  Whole whole = DecompressWhole(codec, packed, size);
  Output out(size);
  auto made = PageStream::Make(codec, packed, out.page(), discards);
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  if (!made.ok()) return made.status();
  PageStream& stream = **made;
  EXPECT_EQ(stream.size(), size);
  EXPECT_EQ(stream.filled(), 0u);
  EXPECT_FALSE(stream.done());
  std::mt19937 rng(seed);
  size_t want = 0;
  size_t checked = 0;  // output bytes already compared with Decompress's (or passed over)
  bool discarded = false;
  Status st;
  for (int calls = 0; st.ok() && !stream.done(); ++calls) {
    want = calls > 10000 ? size : std::min(size, want + RandomIncrement(rng));
    const size_t before = stream.filled();
    const bool discard =
        discards == PageStream::Discards::kAllowed && want < size && rng() % 3 == 0;
    st = discard ? stream.DiscardTo(want) : stream.FillTo(want);
    SCOPED_TRACE((discard ? "DiscardTo(" : "FillTo(") + std::to_string(want) + ") of " +
                 std::to_string(size));
    EXPECT_GE(stream.filled(), before);
    EXPECT_LE(stream.filled(), size);
    EXPECT_TRUE(out.GuardIntact());
    if (st.ok()) {
      EXPECT_GE(stream.filled(), want);
      EXPECT_TRUE(want < size || stream.done());
    } else {
      EXPECT_FALSE(stream.done());
    }
    EXPECT_TRUE(!stream.done() || stream.filled() == size);
    // A piece-by-piece stream checks the end only when asked for it (or within a step of it).
    if (StreamsPieceByPiece(codec) && want + 2 * kStep <= size && before + 2 * kStep <= size) {
      EXPECT_FALSE(stream.done());
    }
    if (discard) checked = stream.filled();  // the bytes passed over hold anything
    if (whole.status.ok() && stream.filled() > checked) {
      EXPECT_EQ(0, std::memcmp(out.area.data() + checked, whole.bytes.data() + checked,
                               stream.filled() - checked))
          << "bytes [" << checked << ", " << stream.filled() << ") differ";
    }
    checked = stream.filled();
    if (discard) discarded = true;
  }
  EXPECT_EQ(st.ok(), whole.status.ok())
      << "stream: " << st.ToString() << ", Decompress: " << whole.status.ToString();
  if (st.ok()) {
    EXPECT_TRUE(stream.done());
    EXPECT_EQ(stream.filled(), size);
    if (!discarded) {
      EXPECT_TRUE(std::equal(whole.bytes.begin(), whole.bytes.end(), out.area.begin()));
    }
  } else {
    EXPECT_EQ(st.code(), whole.status.code()) << st.ToString();
    // The error is repeated, whatever is asked, and the stream stays where it was.
    const size_t at = stream.filled();
    EXPECT_EQ(stream.FillTo(0), st);
    EXPECT_EQ(stream.FillTo(size), st);
    EXPECT_EQ(stream.FillTo(at / 2), st);
    EXPECT_EQ(stream.filled(), at);
    EXPECT_FALSE(stream.done());
  }
  return st;
}

const CompressionCodec kCodecs[] = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kZstd,         CompressionCodec::kBrotli, CompressionCodec::kLz4Raw,
};

TEST(PageStream, EveryCodecFilledInRandomStepsGivesDecompressBytes) {
  for (CompressionCodec codec : kCodecs) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, 5 * kMiB + 123}) {
      for (int shape = 0; shape < 2; ++shape) {
        if (n < 2 * kMiB && shape == 1) continue;
        Bytes raw = shape == 0 ? Text(n, static_cast<uint32_t>(n)) : Numbers(n, 3);
        Bytes packed = CompressWith(codec, raw);
        if (n >= kMiB && codec != CompressionCodec::kUncompressed) {
          ASSERT_LT(packed.size() * 2, raw.size()) << CodecName(codec);  // it compresses
        }
        for (uint32_t seed = 1; seed <= (n > kMiB ? 3u : 10u); ++seed) {
          SCOPED_TRACE(CodecName(codec) + " " + std::to_string(n) + " shape " +
                       std::to_string(shape) + " seed " + std::to_string(seed));
          EXPECT_TRUE(FillRandomly(codec, packed, n, seed).ok());
          EXPECT_TRUE(FillRandomly(codec, packed, n, seed, PageStream::Discards::kAllowed).ok());
        }
      }
    }
  }
}

TEST(PageStream, OneCallForTheWholePage) {
  for (CompressionCodec codec : kCodecs) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, 3 * kMiB}) {
      Bytes raw = Text(n, 9);
      Bytes packed = CompressWith(codec, raw);
      Output out(n);
      auto made = PageStream::Make(codec, packed, out.page());
      ASSERT_TRUE(made.ok());
      ASSERT_TRUE((*made)->FillTo(n).ok()) << CodecName(codec) << " " << n;
      EXPECT_TRUE((*made)->done());
      EXPECT_EQ((*made)->filled(), n);
      EXPECT_TRUE(std::equal(raw.begin(), raw.end(), out.area.begin()));
      EXPECT_TRUE(out.GuardIntact());
      // Asking again, or for more than the page, changes nothing.
      EXPECT_TRUE((*made)->FillTo(n + 100).ok());
      EXPECT_TRUE((*made)->FillTo(0).ok());
      EXPECT_EQ((*made)->filled(), n);
    }
  }
}

TEST(PageStream, OnlyZstdAndGzipStreamPieceByPiece) {
  for (CompressionCodec codec : kCodecs) {
    EXPECT_EQ(StreamsPieceByPiece(codec),
              codec == CompressionCodec::kZstd || codec == CompressionCodec::kGzip);
  }
  Bytes out(4);
  EXPECT_EQ(PageStream::Make(CompressionCodec::kLzo, Bytes{1, 2}, out).status().code(),
            StatusCode::kNotSupported);
}

// Codecs that cannot resume decompress the whole page at the first call, whatever it asks.
TEST(PageStream, OtherCodecsDecompressWholeAtTheFirstCall) {
  Bytes raw = Text(kMiB, 4);
  for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                 CompressionCodec::kBrotli, CompressionCodec::kLz4Raw}) {
    Bytes packed = CompressWith(codec, raw);
    Bytes out(raw.size());
    auto made = PageStream::Make(codec, packed, out);
    ASSERT_TRUE(made.ok());
    ASSERT_TRUE((*made)->FillTo(1).ok());
    EXPECT_EQ((*made)->filled(), raw.size()) << CodecName(codec);
    EXPECT_TRUE((*made)->done());
    EXPECT_EQ(out, raw);
  }
}

// The compressed pages of the piece-by-piece tests: ZSTD with and without the content size in
// the frame header, GZIP and zlib.
struct StreamCase {
  std::string name;
  CompressionCodec codec;
  Bytes (*compress)(const Bytes&);
};
const StreamCase kStreamCases[] = {
    {"zstd", CompressionCodec::kZstd, ZstdDefault},
    {"zstd_streamed", CompressionCodec::kZstd, ZstdStreamCompress},
    {"gzip", CompressionCodec::kGzip, GzipCompress},
    {"zlib", CompressionCodec::kGzip, ZlibCompress},
};

// A small request on a large page decompresses little: about the request and a step or two
// (ZSTD feeds its input 64 KiB at a time, which text expands to a few hundred KiB).
TEST(PageStream, ZstdAndGzipStopSoonAfterTheBytesAskedFor) {
  const size_t n = 8 * kMiB;
  Bytes raw = Text(n, 5);
  for (const StreamCase& c : kStreamCases) {
    Bytes packed = c.compress(raw);
    Bytes out(n);
    auto made = PageStream::Make(c.codec, packed, out);
    ASSERT_TRUE(made.ok());
    PageStream& stream = **made;
    size_t asked = 0;
    for (size_t k : {size_t{1}, size_t{100}, size_t{5000}, kStep + 1, 3 * kStep, 3 * kMiB}) {
      ASSERT_TRUE(stream.FillTo(k).ok()) << c.name << " " << k;
      asked = std::max(asked, k);
      EXPECT_GE(stream.filled(), k);
      EXPECT_LE(stream.filled(), asked + 3 * kStep) << c.name << " FillTo(" << k << ")";
      EXPECT_LT(stream.filled(), n / 2) << c.name;
      EXPECT_FALSE(stream.done()) << c.name;
      EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<ptrdiff_t>(stream.filled()),
                             raw.begin()));
    }
    ASSERT_TRUE(stream.FillTo(n).ok());
    EXPECT_TRUE(stream.done());
    EXPECT_EQ(out, raw);
  }
}

// A stream that may discard, skipped far into a page: ZSTD passes over the skipped bytes
// without writing them into the page (they keep what was there), then keeps the rest, the
// same bytes as Decompress; GZIP (and a ZSTD frame with a window over 8 MiB) writes them.
TEST(PageStream, DiscardToPassesOverBytesWithoutWritingThem) {
  const size_t n = 12 * kMiB;  // over 8 MiB: a frame with windowLog 24 then has a 16 MiB window
  Bytes raw = Text(n, 12);
  ZSTD_CCtx* big_window = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(big_window, ZSTD_c_windowLog, 24);
  Bytes wide(ZSTD_compressBound(n));
  size_t wide_size = ZSTD_compress2(big_window, wide.data(), wide.size(), raw.data(), n);
  ZSTD_freeCCtx(big_window);
  ASSERT_FALSE(ZSTD_isError(wide_size));
  wide.resize(wide_size);
  struct Case {
    std::string name;
    CompressionCodec codec;
    Bytes packed;
    bool writes_skipped;
  };
  const Case cases[] = {
      {"zstd", CompressionCodec::kZstd, ZstdDefault(raw), false},
      {"zstd_streamed", CompressionCodec::kZstd, ZstdStreamCompress(raw), false},
      {"zstd 16 MiB window", CompressionCodec::kZstd, wide, true},
      {"gzip", CompressionCodec::kGzip, GzipCompress(raw), true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (size_t first : {size_t{0}, size_t{1000}}) {
      Output out(n);
      auto made = PageStream::Make(c.codec, c.packed, out.page(), PageStream::Discards::kAllowed);
      ASSERT_TRUE(made.ok());
      PageStream& stream = **made;
      if (first > 0) {
        ASSERT_TRUE(stream.FillTo(first).ok());
      }
      const size_t kept = stream.filled();
      const size_t skip_to = 9 * kMiB + 5;
      ASSERT_TRUE(stream.DiscardTo(skip_to).ok());
      EXPECT_GE(stream.filled(), skip_to);
      if (!c.writes_skipped) {
        EXPECT_EQ(stream.filled(), skip_to);  // exactly, not a step more
      }
      ASSERT_TRUE(stream.DiscardTo(skip_to - 1).ok());  // behind: nothing to do
      ASSERT_TRUE(stream.FillTo(skip_to + 10).ok());
      ASSERT_TRUE(stream.FillTo(n).ok());
      EXPECT_TRUE(stream.done());
      EXPECT_TRUE(
          std::equal(raw.begin(), raw.begin() + static_cast<ptrdiff_t>(kept), out.area.begin()));
      EXPECT_TRUE(std::equal(raw.begin() + static_cast<ptrdiff_t>(skip_to), raw.end(),
                             out.area.begin() + static_cast<ptrdiff_t>(skip_to)));
      const bool untouched = std::all_of(out.area.begin() + static_cast<ptrdiff_t>(kept),
                                         out.area.begin() + static_cast<ptrdiff_t>(skip_to),
                                         [](uint8_t b) { return b == kGuardByte; });
      EXPECT_EQ(untouched, !c.writes_skipped);
      EXPECT_TRUE(out.GuardIntact());
    }
  }
  // Discarding to the end keeps the last bytes: the end is checked.
  Bytes packed = ZstdDefault(raw);
  Output out(n);
  auto made =
      PageStream::Make(CompressionCodec::kZstd, packed, out.page(), PageStream::Discards::kAllowed);
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE((*made)->DiscardTo(n + 7).ok());
  EXPECT_TRUE((*made)->done());
  EXPECT_EQ(Bytes(out.area.begin(), out.area.begin() + static_cast<ptrdiff_t>(n)), raw);
}

// Text of `n` bytes compressed by `c`, and a stream of it that may discard, its first `first`
// bytes filled (null, a failure reported, if that fails), into `out`.
struct DiscardingCase {
  DiscardingCase(const StreamCase& c, size_t n, uint32_t seed, size_t first)
      : raw(Text(n, seed)), packed(c.compress(raw)), out(n) {
    auto made = PageStream::Make(c.codec, packed, out.page(), PageStream::Discards::kAllowed);
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    if (made.ok() && (*made)->FillTo(first).ok()) stream = std::move(made).value();
  }
  Bytes raw;
  Bytes packed;
  Output out;
  std::unique_ptr<PageStream> stream;
};

// Pieces (NextPiece) for a reader that passes over bytes it must see: a ZSTD stream that may
// discard hands out the page's bytes in scratch pieces, writes none of them into the page, and,
// where the reader stops part way into a piece, the rest of that piece (KeepRestOfPiece), so the
// page reads on from there; streams that cannot hand out pieces say so (an empty piece).
TEST(PageStream, PiecesPassOverBytesAndKeepWhereTheReaderStops) {
  const size_t n = 3 * kMiB + 11;
  for (const StreamCase& c : kStreamCases) {
    SCOPED_TRACE(c.name);
    DiscardingCase d(c, n, 14, 100);
    ASSERT_NE(d.stream, nullptr);
    PageStream& stream = *d.stream;
    const Bytes& raw = d.raw;
    Output& out = d.out;
    const size_t kept = stream.filled();
    const size_t stop = 2 * kMiB + 7;  // the reader stops passing over here
    auto piece = stream.NextPiece(n - 1);
    ASSERT_TRUE(piece.ok());
    if (c.codec == CompressionCodec::kGzip) {
      EXPECT_TRUE(piece->empty());
      EXPECT_EQ(stream.filled(), kept);
      continue;
    }
    size_t at = kept;
    for (; !piece->empty(); piece = stream.NextPiece(n - 1)) {
      ASSERT_TRUE(piece.ok());
      EXPECT_LE(piece->size(), PageStream::kPiece);
      EXPECT_EQ(stream.filled(), at + piece->size());
      ASSERT_TRUE(
          std::equal(piece->begin(), piece->end(), raw.begin() + static_cast<ptrdiff_t>(at)));
      if (at + piece->size() > stop) {
        stream.KeepRestOfPiece(stop - at);
        break;
      }
      at += piece->size();
    }
    const size_t there = stream.filled();
    ASSERT_GT(there, stop);
    ASSERT_TRUE(stream.FillTo(n).ok());
    EXPECT_TRUE(stream.done());
    EXPECT_TRUE(
        std::equal(raw.begin(), raw.begin() + static_cast<ptrdiff_t>(kept), out.area.begin()));
    EXPECT_TRUE(std::all_of(out.area.begin() + static_cast<ptrdiff_t>(kept),
                            out.area.begin() + static_cast<ptrdiff_t>(stop),
                            [](uint8_t b) { return b == kGuardByte; }));
    EXPECT_TRUE(std::equal(raw.begin() + static_cast<ptrdiff_t>(stop), raw.end(),
                           out.area.begin() + static_cast<ptrdiff_t>(stop)));
    EXPECT_TRUE(out.GuardIntact());
    // The last byte never comes in a piece: FillTo checks the end there.
    Output other(n);
    auto again = PageStream::Make(c.codec, d.packed, other.page(), PageStream::Discards::kAllowed);
    ASSERT_TRUE(again.ok());
    ASSERT_TRUE((*again)->DiscardTo(n - 1).ok());
    auto none = (*again)->NextPiece(n);
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
  }
  // A stream made without discards hands out no piece.
  Bytes packed = ZstdDefault(Text(n, 14));
  Output out(n);
  auto made = PageStream::Make(CompressionCodec::kZstd, packed, out.page());
  ASSERT_TRUE(made.ok());
  auto piece = (*made)->NextPiece(kMiB);
  ASSERT_TRUE(piece.ok());
  EXPECT_TRUE(piece->empty());
}

// ReadOut: a ZSTD stream that may discard decompresses the next bytes straight into the
// caller's memory, never into the page; a stream that cannot says so and does nothing; the
// last step of the page is never read out (FillTo takes it whole, and checks the end).
TEST(PageStream, ReadOutGoesStraightToTheCallerNotThePage) {
  const size_t n = 3 * kMiB + 5;
  for (const StreamCase& c : kStreamCases) {
    SCOPED_TRACE(c.name);
    DiscardingCase d(c, n, 15, 10);
    ASSERT_NE(d.stream, nullptr);
    const size_t kept = d.stream->filled();
    Bytes into(kMiB + 3, 0);
    auto read = d.stream->ReadOut(into);
    ASSERT_TRUE(read.ok());
    if (c.codec == CompressionCodec::kGzip) {
      EXPECT_FALSE(*read);
      EXPECT_EQ(d.stream->filled(), kept);
      continue;
    }
    ASSERT_TRUE(*read);
    EXPECT_EQ(d.stream->filled(), kept + into.size());
    EXPECT_TRUE(std::equal(into.begin(), into.end(), d.raw.begin() + static_cast<ptrdiff_t>(kept)));
    const size_t after = d.stream->filled();
    EXPECT_TRUE(std::all_of(d.out.area.begin() + static_cast<ptrdiff_t>(kept),
                            d.out.area.begin() + static_cast<ptrdiff_t>(after),
                            [](uint8_t b) { return b == kGuardByte; }));
    // Within a step of the end: refused, nothing done.
    Bytes rest(n - after - kStep);
    read = d.stream->ReadOut(rest);
    ASSERT_TRUE(read.ok());
    EXPECT_FALSE(*read);
    EXPECT_EQ(d.stream->filled(), after);
    ASSERT_TRUE(d.stream->FillTo(n).ok());
    EXPECT_TRUE(d.stream->done());
    EXPECT_TRUE(std::equal(d.raw.begin() + static_cast<ptrdiff_t>(after), d.raw.end(),
                           d.out.area.begin() + static_cast<ptrdiff_t>(after)));
    EXPECT_TRUE(d.out.GuardIntact());
  }
}

// Data that compresses far better than text (here over 1000 times): GZIP still stops within a
// step of the request; ZSTD's first request may go far past it (its first input, 1/16 of the
// page, holds millions of bytes), and after it, fed input at the ratio seen, ZSTD stops within a
// step and a block (128 KiB); never less than asked, and the bytes are right.
TEST(PageStream, HighlyCompressibleDataFilledInSmallSteps) {
  const size_t n = 16 * kMiB;
  Bytes raw = Numbers(n, 1);
  for (const StreamCase& c : kStreamCases) {
    Bytes packed = c.compress(raw);
    ASSERT_LT(packed.size() * 50, n) << c.name;
    Bytes out(n);
    auto made = PageStream::Make(c.codec, packed, out);
    ASSERT_TRUE(made.ok());
    size_t first = 0;  // what ZSTD's first request brought
    for (size_t k : {size_t{1}, size_t{100}, kStep + 1, 3 * kMiB, n - 1, n}) {
      ASSERT_TRUE((*made)->FillTo(k).ok()) << c.name << " " << k;
      EXPECT_GE((*made)->filled(), k);
      if (c.codec == CompressionCodec::kGzip && k < n - kStep) {
        EXPECT_LE((*made)->filled(), k + kStep) << c.name << " " << k;
      }
      if (c.codec == CompressionCodec::kZstd && k < n - kStep) {
        if (k == 1) first = (*made)->filled();
        EXPECT_LE((*made)->filled(), std::max(first, k + kStep + (size_t{128} << 10)))
            << c.name << " " << k;
      }
      EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<ptrdiff_t>((*made)->filled()),
                             raw.begin()));
    }
    EXPECT_TRUE((*made)->done());
    EXPECT_EQ(out, raw);
  }
}

// GZIP gives inflate just the room asked for: it stops within a step of the request however
// well the data compresses.
TEST(PageStream, GzipStopsWithinAStepEvenOnHighlyCompressibleData) {
  const size_t n = 16 * kMiB;
  Bytes raw(n, 'x');
  Bytes packed = GzipCompress(raw);
  Bytes out(n);
  auto made = PageStream::Make(CompressionCodec::kGzip, packed, out);
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE((*made)->FillTo(10).ok());
  EXPECT_EQ((*made)->filled(), kStep);
  ASSERT_TRUE((*made)->FillTo(kStep + 1).ok());
  EXPECT_EQ((*made)->filled(), 2 * kStep);
  ASSERT_TRUE((*made)->FillTo(n - kStep / 2).ok());  // within a step of the end: to the end
  EXPECT_TRUE((*made)->done());
  EXPECT_EQ(out, raw);
}

// The stream of a GZIP page declared longer than its data ends before the page is full: that is
// Corruption, as Decompress says, not a loop waiting for inflate (which repeats Z_STREAM_END).
TEST(PageStream, GzipEndingShortOfTheDeclaredSizeIsCorruptionNotALoop) {
  Bytes raw = Text(1000, 1);
  Bytes packed = GzipCompress(raw);
  for (size_t declared : {raw.size() + 1, raw.size() + 2 * kStep + 5}) {
    Bytes out(declared);
    auto made = PageStream::Make(CompressionCodec::kGzip, packed, out);
    ASSERT_TRUE(made.ok());
    // The data ends within the first step, which FillTo decompresses whatever it is asked.
    Status st = (*made)->FillTo(10);
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    EXPECT_EQ(st.message(), "GZIP: data decompresses to 1000 bytes, the page declares " +
                                std::to_string(declared));
    EXPECT_EQ(st, DecompressWhole(CompressionCodec::kGzip, packed, declared).status);
    EXPECT_EQ((*made)->FillTo(1), st);
  }
}

// A ZSTD frame out of spec: one RLE block of 128 KiB + 1 bytes, where RFC 8878 caps a block's
// content at Block_Maximum_Size (128 KiB here). libzstd's one-shot decoder, which Decompress
// uses, does not check it; its streaming decoder does. So on such frames PageStream is stricter
// than Decompress (the one difference the decompress fuzz target allows); 128 KiB is fine for both.
TEST(PageStream, ZstdBlockOverTheMaximumSizeIsCorruptionForTheStreamOnly) {
  for (size_t n : {size_t{128} << 10, (size_t{128} << 10) + 1}) {
    const uint32_t header = static_cast<uint32_t>(n << 3 | 1 << 1 | 1);  // last, RLE, n bytes
    // Magic, a frame header without content size and with a 2 MiB window, the block.
    Bytes frame = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x58};
    for (int shift : {0, 8, 16}) frame.push_back(static_cast<uint8_t>(header >> shift));
    frame.push_back('x');
    Whole whole = DecompressWhole(CompressionCodec::kZstd, frame, n);
    EXPECT_TRUE(whole.status.ok()) << whole.status.ToString();
    EXPECT_EQ(whole.bytes, Bytes(n, 'x'));
    Bytes out(n);
    auto made = PageStream::Make(CompressionCodec::kZstd, frame, out);
    ASSERT_TRUE(made.ok());
    Status st = (*made)->FillTo(n);
    if (n == size_t{128} << 10) {
      EXPECT_TRUE(st.ok()) << st.ToString();
      EXPECT_EQ(out, whole.bytes);
    } else {
      EXPECT_EQ(st, Status::Corruption("ZSTD: Data corruption detected"));
    }
  }
}

// A stream with this declared size over `packed`, compared with Decompress (FillRandomly), with
// a few fill orders; and timed: corrupt input fails fast, it never loops.
void ExpectAgreesWithDecompress(const StreamCase& c, const Bytes& packed, size_t size,
                                const std::string& what) {
  SCOPED_TRACE(c.name + ": " + what + " (" + std::to_string(packed.size()) + " bytes into " +
               std::to_string(size) + ")");
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    (void)FillRandomly(c.codec, packed, size, seed);
    (void)FillRandomly(c.codec, packed, size, seed, PageStream::Discards::kAllowed);
    // And straight to the whole page.
    Whole whole = DecompressWhole(c.codec, packed, size);
    Output out(size);
    auto made = PageStream::Make(c.codec, packed, out.page());
    ASSERT_TRUE(made.ok());
    Status st = (*made)->FillTo(size);
    EXPECT_EQ(st.ok(), whole.status.ok()) << st.ToString() << " / " << whole.status.ToString();
    if (!st.ok()) {
      EXPECT_EQ(st.code(), StatusCode::kCorruption);
      EXPECT_NE(st.message().find(c.codec == CompressionCodec::kZstd ? "ZSTD" : "GZIP"),
                std::string::npos)
          << st.message();
      EXPECT_EQ((*made)->FillTo(size), st);
    } else {
      EXPECT_EQ(std::vector<uint8_t>(out.area.begin(), out.area.begin() + size), whole.bytes);
    }
    EXPECT_TRUE(out.GuardIntact());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20.0);
}

class PageStreamCorrupt : public ::testing::TestWithParam<StreamCase> {};

TEST_P(PageStreamCorrupt, WrongDeclaredSizesAreCorruptionAtTheEnd) {
  const StreamCase& c = GetParam();
  for (size_t n : {size_t{1}, size_t{1000}, 3 * kMiB + 7}) {
    Bytes raw = Text(n, 6);
    Bytes packed = c.compress(raw);
    ExpectAgreesWithDecompress(c, packed, n, "right size");
    ExpectAgreesWithDecompress(c, packed, n - 1, "declared 1 byte too small");
    ExpectAgreesWithDecompress(c, packed, n + 1, "declared 1 byte too large");
    EXPECT_FALSE(DecompressWhole(c.codec, packed, n + 1).status.ok());
    EXPECT_TRUE(n == 1 || !DecompressWhole(c.codec, packed, n - 1).status.ok());
    if (n < 2 * kMiB) continue;
    // A wrong size is seen only at the end: the first bytes come as for the right size. (But
    // a ZSTD frame that records its content size fails at once when the page is smaller.)
    const bool sized_frame = c.compress == ZstdDefault;
    for (size_t declared : {n - 1, n + 1, n + kStep, n - kStep}) {
      Bytes out(declared);
      auto made = PageStream::Make(c.codec, packed, out);
      ASSERT_TRUE(made.ok());
      if (sized_frame && declared < n) {
        Status st = (*made)->FillTo(1);
        EXPECT_EQ(st.code(), StatusCode::kCorruption) << declared << " " << st.ToString();
        EXPECT_EQ((*made)->FillTo(declared), st);
        continue;
      }
      EXPECT_TRUE((*made)->FillTo(1000).ok()) << declared;
      EXPECT_TRUE((*made)->FillTo(kMiB).ok()) << declared;
      EXPECT_TRUE(std::equal(out.begin(), out.begin() + kMiB, raw.begin()));
      Status st = (*made)->FillTo(declared);
      EXPECT_EQ(st.code(), StatusCode::kCorruption) << declared << " " << st.ToString();
      EXPECT_EQ((*made)->FillTo(declared), st);
      EXPECT_EQ((*made)->FillTo(1), st);
    }
  }
}

TEST_P(PageStreamCorrupt, TruncatedInputFailsOnlyWhereTheBytesRunOut) {
  const StreamCase& c = GetParam();
  for (size_t n : {size_t{1000}, 4 * kMiB}) {
    Bytes raw = Text(n, 7);
    Bytes packed = c.compress(raw);
    for (size_t keep : {packed.size() / 2, packed.size() - 1, size_t{5}, size_t{0}}) {
      Bytes cut(packed.begin(), packed.begin() + static_cast<ptrdiff_t>(keep));
      ExpectAgreesWithDecompress(c, cut, n, "truncated to " + std::to_string(keep));
      EXPECT_FALSE(DecompressWhole(c.codec, cut, n).status.ok());
    }
    if (n < kMiB) continue;
    // Half the input holds the first third of the page or so: asking for that much succeeds.
    Bytes half(packed.begin(), packed.begin() + static_cast<ptrdiff_t>(packed.size() / 2));
    Bytes out(n);
    auto made = PageStream::Make(c.codec, half, out);
    ASSERT_TRUE(made.ok());
    EXPECT_TRUE((*made)->FillTo(100).ok());
    EXPECT_TRUE((*made)->FillTo(n / 4).ok());
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<ptrdiff_t>(n / 4), raw.begin()));
    Status st = (*made)->FillTo(n);
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
    EXPECT_EQ((*made)->FillTo(n), st);
    EXPECT_EQ((*made)->FillTo(0), st);
  }
}

TEST_P(PageStreamCorrupt, ConcatenatedFramesDecodeToTheConcatenation) {
  const StreamCase& c = GetParam();
  for (size_t n : {size_t{1000}, 2 * kMiB + 3}) {
    Bytes a = Text(n, 8), b = Numbers(n / 2 + 1, 9), e = {};
    Bytes packed = Concat(c.compress(a), c.compress(b));
    Bytes expected = Concat(a, b);
    ExpectAgreesWithDecompress(c, packed, expected.size(), "two frames");
    ExpectAgreesWithDecompress(c, packed, expected.size() - 1, "two frames, 1 byte too small");
    ExpectAgreesWithDecompress(c, packed, expected.size() + 1, "two frames, 1 byte too large");
    ExpectAgreesWithDecompress(c, packed, a.size(), "two frames, the first's size");
    ExpectAgreesWithDecompress(c, Concat(packed, c.compress(e)), expected.size(),
                               "two frames and an empty one");
    ExpectAgreesWithDecompress(c, Concat(c.compress(e), packed), expected.size(),
                               "an empty frame and two frames");
    EXPECT_TRUE(FillRandomly(c.codec, packed, expected.size(), 11).ok());
    Bytes out(expected.size());
    auto made = PageStream::Make(c.codec, packed, out);
    ASSERT_TRUE(made.ok());
    ASSERT_TRUE((*made)->FillTo(expected.size()).ok());
    EXPECT_EQ(out, expected);
  }
}

TEST_P(PageStreamCorrupt, GarbageAndTrailingGarbage) {
  const StreamCase& c = GetParam();
  std::mt19937 rng(12);
  Bytes garbage(5000);
  for (uint8_t& g : garbage) g = static_cast<uint8_t>(rng());
  for (size_t size : {size_t{1}, size_t{5000}, 2 * kMiB}) {
    ExpectAgreesWithDecompress(c, garbage, size, "garbage");
  }
  ExpectAgreesWithDecompress(c, Bytes(100, 0), 100, "zeros");
  ExpectAgreesWithDecompress(c, Bytes{}, 100, "no input");
  for (size_t n : {size_t{1000}, 2 * kMiB}) {
    Bytes raw = Text(n, 13);
    Bytes packed = c.compress(raw);
    for (size_t tail : {size_t{1}, size_t{3}, size_t{4}, size_t{8}, size_t{100}}) {
      ExpectAgreesWithDecompress(
          c, Concat(packed, Bytes(garbage.begin(), garbage.begin() + static_cast<ptrdiff_t>(tail))),
          n, "trailing garbage of " + std::to_string(tail));
      ExpectAgreesWithDecompress(c, Concat(packed, Bytes(tail, 0)), n,
                                 "trailing zeros: " + std::to_string(tail));
    }
    // Bytes flipped and cut at random places: the stream agrees with Decompress every time.
    for (int i = 0; i < 20; ++i) {
      Bytes bad = packed;
      if (i % 3 == 2) {
        bad.resize(rng() % bad.size());
      } else {
        bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      }
      ExpectAgreesWithDecompress(c, bad, n, "mutation " + std::to_string(i));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PageStream, PageStreamCorrupt, ::testing::ValuesIn(kStreamCases),
                         [](const ::testing::TestParamInfo<StreamCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace pqsift::compression
