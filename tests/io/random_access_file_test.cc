// The I/O layer: local and memory files, range checks, and exact read accounting (bytes and
// requests, failed reads included; out-of-range reads refused before anything is read).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pqsift/io.h"
#include "testing/files.h"

namespace pqsift {
namespace {

std::string Str(const Buffer& b) { return std::string(pqsift::testing::AsChars(b.span())); }

// A temporary file holding `bytes`, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& bytes) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("pqsift_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string Digits(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('0' + i % 10);
  return s;
}

TEST(CheckRangeTest, InsideAndAtTheEdges) {
  EXPECT_TRUE(CheckRange(0, 0, 0, "x").ok());
  EXPECT_TRUE(CheckRange(0, 10, 10, "x").ok());
  EXPECT_TRUE(CheckRange(10, 0, 10, "x").ok());  // empty range at the end
  EXPECT_TRUE(CheckRange(3, 7, 10, "x").ok());
}

TEST(CheckRangeTest, OutsideIsOutOfRangeNamingWhat) {
  Status st = CheckRange(5, 6, 10, "column chunk 3 of row group 0");
  EXPECT_EQ(st, Status::OutOfRange(
                    "column chunk 3 of row group 0 [5, 5+6) lies outside the file of 10 bytes"));
  EXPECT_EQ(CheckRange(11, 0, 10, "x").code(), StatusCode::kOutOfRange);
  EXPECT_EQ(CheckRange(0, 11, 10, "x").code(), StatusCode::kOutOfRange);
}

TEST(CheckRangeTest, OverflowingOffsetsAreOutOfRange) {
  EXPECT_EQ(CheckRange(UINT64_MAX, 1, 100, "x").code(), StatusCode::kOutOfRange);
  EXPECT_EQ(CheckRange(1, UINT64_MAX, 100, "x").code(), StatusCode::kOutOfRange);
  EXPECT_EQ(CheckRange(50, UINT64_MAX - 10, 100, "x").code(), StatusCode::kOutOfRange);  // wraps
  EXPECT_EQ(CheckRange(UINT64_MAX, UINT64_MAX, UINT64_MAX, "x").code(), StatusCode::kOutOfRange);
  EXPECT_TRUE(CheckRange(UINT64_MAX - 1, 1, UINT64_MAX, "x").ok());
  EXPECT_TRUE(CheckRange(0, UINT64_MAX, UINT64_MAX, "x").ok());
}

TEST(BufferTest, CopyOfAndMovesKeepTheData) {
  std::string s = "hello";
  Buffer a = Buffer::CopyOf(pqsift::testing::AsBytes(s));
  s[0] = 'j';  // a copy, not a view
  EXPECT_EQ(Str(a), "hello");
  const uint8_t* data = a.data();
  Buffer b = std::move(a);
  EXPECT_EQ(b.data(), data);  // moving keeps data() stable
  EXPECT_EQ(b.size(), 5u);
  Buffer empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_TRUE(Buffer::CopyOf({}).span().empty());
  EXPECT_EQ(Buffer(0).data(), nullptr);
}

TEST(LocalFileTest, ReadsAndCountsExactly) {
  TempFile tmp(Digits(1000));
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const RandomAccessFile& f = **file;
  EXPECT_EQ(f.name(), tmp.path());
  EXPECT_EQ(f.size(), 1000u);
  EXPECT_EQ(f.stats().bytes_read, 0u);
  EXPECT_EQ(f.stats().read_requests, 0u);

  auto a = f.Read({0, 10});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(Str(*a), "0123456789");
  auto b = f.Read({995, 5});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Str(*b), "56789");
  auto whole = f.Read({0, 1000});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(Str(*whole), Digits(1000));
  EXPECT_EQ(f.stats().bytes_read, 1015u);
  EXPECT_EQ(f.stats().read_requests, 3u);

  // An empty read is a request of zero bytes.
  auto empty = f.Read({1000, 0});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(f.stats().read_requests, 4u);
  EXPECT_EQ(f.stats().bytes_read, 1015u);
}

TEST(LocalFileTest, ReadRangesReturnsThemInOrderAndCountsEach) {
  TempFile tmp(Digits(100));
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok());
  std::vector<ByteRange> ranges = {{90, 3}, {0, 2}, {45, 0}, {10, 5}, {0, 2}};
  auto out = (*file)->ReadRanges(ranges);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 5u);
  EXPECT_EQ(Str((*out)[0]), "012");
  EXPECT_EQ(Str((*out)[1]), "01");
  EXPECT_EQ(Str((*out)[2]), "");
  EXPECT_EQ(Str((*out)[3]), "01234");
  EXPECT_EQ(Str((*out)[4]), "01");
  EXPECT_EQ((*file)->stats().read_requests, 5u);  // the default implementation: one each
  EXPECT_EQ((*file)->stats().bytes_read, 12u);

  auto none = (*file)->ReadRanges({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ((*file)->stats().read_requests, 5u);
}

TEST(LocalFileTest, OutOfRangeReadsFailBeforeReading) {
  TempFile tmp(Digits(100));
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok());
  const RandomAccessFile& f = **file;
  auto r = f.Read({95, 6});
  EXPECT_EQ(r.status(), Status::OutOfRange(tmp.path() +
                                           ": read [95, 95+6) lies outside the file of 100 bytes"));
  EXPECT_EQ(f.Read({UINT64_MAX, 2}).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(f.Read({101, 0}).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(f.stats().read_requests, 0u);
  EXPECT_EQ(f.stats().bytes_read, 0u);

  // One bad range refuses the whole batch before any read.
  std::vector<ByteRange> ranges = {{0, 10}, {50, 60}};
  auto batch = f.ReadRanges(ranges);
  EXPECT_EQ(batch.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(batch.status().message().find("[50, 50+60)"), std::string::npos);
  EXPECT_EQ(f.stats().read_requests, 0u);
  EXPECT_EQ(f.stats().bytes_read, 0u);
}

TEST(LocalFileTest, MissingFileIsIOErrorNamingThePath) {
  std::string path =
      (std::filesystem::temp_directory_path() / "pqsift_no_such_file.parquet").string();
  auto file = OpenLocalFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status(), Status::IOError(path + ": cannot open: No such file or directory"));
}

TEST(LocalFileTest, DirectoryIsInvalidArgument) {
  std::string dir = std::filesystem::temp_directory_path().string();
  auto file = OpenLocalFile(dir);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status(), Status::InvalidArgument(dir + ": is a directory, not a Parquet file"));
}

TEST(LocalFileTest, FifoIsRefusedWithoutBlocking) {
  // Opening a FIFO for reading blocks until a writer appears; a path given to pqsift must not
  // hang it. (A pipe cannot be read with pread anyway.)
  std::string path = (std::filesystem::temp_directory_path() /
                      ("pqsift_io_test_fifo_" + std::to_string(::getpid())))
                         .string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  auto done = std::make_shared<std::atomic<bool>>(false);
  auto status = std::make_shared<Status>();
  std::thread opener([path, done, status] {
    auto file = OpenLocalFile(path);
    *status = file.status();
    done->store(true);
  });
  for (int i = 0; i < 200 && !done->load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  bool blocked = !done->load();
  if (blocked) {
    // Unblock the open (a writer arrives) so the thread can end.
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  opener.join();
  std::filesystem::remove(path);
  EXPECT_FALSE(blocked) << "OpenLocalFile blocked on a FIFO";
  EXPECT_EQ(*status, Status::InvalidArgument(path + ": is not a regular file"));
}

TEST(LocalFileTest, EmptyFile) {
  TempFile tmp("");
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->size(), 0u);
  EXPECT_TRUE((*file)->Read({0, 0}).ok());
  EXPECT_EQ((*file)->Read({0, 1}).status().code(), StatusCode::kOutOfRange);
}

TEST(LocalFileTest, FileThatShrankAfterOpeningIsAnIOError) {
  TempFile tmp(Digits(100));
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok());
  std::filesystem::resize_file(tmp.path(), 10);
  auto r = (*file)->Read({50, 10});  // inside the size known at open, past the real end
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
  EXPECT_EQ(r.status().message(), tmp.path() +
                                      ": unexpected end of file at offset 50 (the file changed "
                                      "while open?)");
  // A failed read still counts.
  EXPECT_EQ((*file)->stats().read_requests, 1u);
  EXPECT_EQ((*file)->stats().bytes_read, 10u);
}

TEST(LocalFileTest, ConcurrentReadsAreCorrectAndCountedExactly) {
  TempFile tmp(Digits(10000));
  auto file = OpenLocalFile(tmp.path());
  ASSERT_TRUE(file.ok());
  const RandomAccessFile& f = **file;
  constexpr int kThreads = 4;
  constexpr int kReads = 500;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kReads; ++i) {
        uint64_t offset = static_cast<uint64_t>((t * 997 + i * 31) % 9000);
        auto r = f.Read({offset, 7});
        if (!r.ok() || Str(*r) != Digits(10000).substr(offset, 7)) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(f.stats().read_requests, uint64_t{kThreads} * kReads);
  EXPECT_EQ(f.stats().bytes_read, uint64_t{kThreads} * kReads * 7);
}

TEST(MemoryFileTest, CopiesItsBytesAndCounts) {
  std::string bytes = "abcdefgh";
  auto f = MakeMemoryFile("mem", pqsift::testing::AsBytes(bytes));
  bytes[0] = 'X';
  EXPECT_EQ(f->name(), "mem");
  EXPECT_EQ(f->size(), 8u);
  auto r = f->Read({0, 3});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Str(*r), "abc");
  std::vector<ByteRange> ranges = {{6, 2}, {1, 1}};
  auto rr = f->ReadRanges(ranges);
  ASSERT_TRUE(rr.ok());
  EXPECT_EQ(Str((*rr)[0]), "gh");
  EXPECT_EQ(Str((*rr)[1]), "b");
  EXPECT_EQ(f->stats().read_requests, 3u);
  EXPECT_EQ(f->stats().bytes_read, 6u);
  EXPECT_EQ(f->Read({7, 2}).status(),
            Status::OutOfRange("mem: read [7, 7+2) lies outside the file of 8 bytes"));
  EXPECT_EQ(f->stats().read_requests, 3u);
}

TEST(MemoryFileTest, EmptyMemoryFile) {
  auto f = MakeMemoryFile("empty", {});
  EXPECT_EQ(f->size(), 0u);
  EXPECT_TRUE(f->Read({0, 0}).ok());
  EXPECT_FALSE(f->Read({0, 1}).ok());
}

// A store that merges reads (as a remote one does): records the requests it is asked for.
class MergingFile final : public RandomAccessFile {
 public:
  MergingFile(std::string bytes, uint64_t max_merged)
      : RandomAccessFile("merging", bytes.size()), bytes_(std::move(bytes)), max_(max_merged) {}
  uint64_t max_merged_read() const override { return max_; }
  mutable std::vector<std::pair<ByteRange, size_t>> requests;  // range, pieces

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return Status::OK();
  }
  void DoStartReads(std::vector<ScatterRead> reads,
                    std::function<void(Status)> done) const override {
    for (const ScatterRead& read : reads) {
      requests.emplace_back(read.range, read.into.size());
      // One body, scattered to the pieces in order.
      uint64_t at = read.range.offset;
      for (std::span<uint8_t> piece : read.into) {
        std::memcpy(piece.data(), bytes_.data() + at, piece.size());
        at += piece.size();
      }
      EXPECT_EQ(at, read.range.end());
    }
    done(Status::OK());
  }

 private:
  std::string bytes_;
  uint64_t max_;
};

TEST(MergedReadsTest, RangesThatFollowOneAnotherAreOneRequestUpToTheLimit) {
  MergingFile f("abcdefghijklmnopqrstuvwxyz", 6);
  // Out of order: [4,6) [0,2) [2,4) follow one another (6 bytes: one request); [6,8) would
  // pass the limit; [10,12) and [11,13) overlap, [20,22) stands apart.
  std::vector<ByteRange> ranges = {{4, 2}, {0, 2}, {2, 2}, {6, 2}, {10, 2}, {11, 2}, {20, 2}};
  auto rr = f.ReadRanges(ranges);
  ASSERT_TRUE(rr.ok());
  std::vector<std::string> got;
  for (const Buffer& b : *rr) got.push_back(Str(b));
  EXPECT_EQ(got, (std::vector<std::string>{"ef", "ab", "cd", "gh", "kl", "lm", "uv"}));
  ASSERT_EQ(f.requests.size(), 5u);
  EXPECT_EQ(f.requests[0].first, (ByteRange{0, 6}));
  EXPECT_EQ(f.requests[0].second, 3u);
  EXPECT_EQ(f.requests[1].first, (ByteRange{6, 2}));
  EXPECT_EQ(f.requests[2].first, (ByteRange{10, 2}));
  EXPECT_EQ(f.requests[3].first, (ByteRange{11, 2}));
  EXPECT_EQ(f.requests[4].first, (ByteRange{20, 2}));
  // Counted as the requests made, each byte once.
  EXPECT_EQ(f.stats().read_requests, 5u);
  EXPECT_EQ(f.stats().bytes_read, 14u);
}

TEST(MergedReadsTest, AStoreThatDoesNotMergeMakesARequestPerRange) {
  MergingFile f("abcdefgh", 0);
  std::vector<ByteRange> ranges = {{2, 2}, {0, 2}, {4, 4}};
  std::vector<Buffer> out;
  Status status = Status::Internal("not called");
  f.StartReads(ranges, &out, [&](Status s) { status = std::move(s); });
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(Str(out[0]) + Str(out[1]) + Str(out[2]), "cdabefgh");
  ASSERT_EQ(f.requests.size(), 3u);
  EXPECT_EQ(f.requests[0].first, (ByteRange{2, 2}));  // in the order asked
  EXPECT_EQ(f.stats().read_requests, 3u);
}

TEST(MergedReadsTest, CountRequestsSaysWhatTheReadsWouldMakeWithoutMakingThem) {
  std::vector<ByteRange> ranges = {{4, 2}, {0, 2}, {2, 2}, {6, 2}, {10, 2}, {11, 2}, {20, 2}};
  MergingFile merging("abcdefghijklmnopqrstuvwxyz", 6);
  EXPECT_EQ(merging.CountRequests(ranges), 5u);
  EXPECT_TRUE(merging.requests.empty());
  EXPECT_EQ(merging.stats().read_requests, 0u);
  ASSERT_TRUE(merging.ReadRanges(ranges).ok());
  EXPECT_EQ(merging.requests.size(), 5u);  // what it said
  MergingFile apart("abcdefghijklmnopqrstuvwxyz", 0);
  EXPECT_EQ(apart.CountRequests(ranges), ranges.size());
  EXPECT_EQ(apart.CountRequests({}), 0u);
}

}  // namespace
}  // namespace pqsift
