// Random-access input: the one interface every byte pqsift reads goes through.
//
// RandomAccessFile reads byte ranges and counts what it read (bytes and requests), so every
// feature can report exactly what a query cost. Implementations provide DoRead; the public
// Read/ReadRanges wrap it, validate the range against the file size and count. A remote
// (HTTP range) file or a coalescing layer slots in as another implementation: callers hold a
// RandomAccessFile and never know which.
//
// Thread safety: all methods are const-safe and may be called from several threads at once;
// implementations must allow concurrent DoRead calls (pread-style, no shared file position).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pqsift/status.h"

namespace pqsift {

// A half-open byte range [offset, offset + length) of a file.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;

  uint64_t end() const { return offset + length; }  // REQUIRES: no overflow (see CheckRange)
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// OK when [offset, offset + length) lies inside a file of `file_size` bytes, computed without
// overflow; otherwise OutOfRange naming `what` ("footer", "column chunk 3 of row group 0"...).
Status CheckRange(uint64_t offset, uint64_t length, uint64_t file_size, std::string_view what);

// An owned, immutable-after-fill block of bytes. Move-only; moving keeps data() stable, so
// views into a Buffer stay valid for as long as the Buffer (wherever it moved to) lives.
// Large buffers are backed by huge pages where the system allows (see src/common/memory.h).
class Buffer {
 public:
  Buffer() = default;
  // Uninitialised storage of `size` bytes. Throws std::bad_alloc when memory runs out.
  explicit Buffer(size_t size);
  static Buffer CopyOf(std::span<const uint8_t> bytes);
  ~Buffer();

  Buffer(Buffer&& other) noexcept { Swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    Buffer old(std::move(*this));
    Swap(other);
    return *this;
  }

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> span() const { return {data_, size_}; }

 private:
  void Swap(Buffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;  // of the allocated block
};

// What a file has been asked for so far. Exact: every successful or failed read counts.
struct IoStats {
  uint64_t bytes_read = 0;
  uint64_t read_requests = 0;
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // The name used in every error message about this file (a path or a URL).
  const std::string& name() const { return name_; }
  // The file's size in bytes, fixed when it was opened.
  uint64_t size() const { return size_; }

  // Reads exactly `range`. OutOfRange when the range is not inside the file, IOError when the
  // system fails. Counts one request of range.length bytes.
  Result<Buffer> Read(ByteRange range) const;
  // The same into memory of the caller's (out.size() == range.length): for assembling several
  // ranges in one buffer without copying them.
  Status ReadInto(ByteRange range, std::span<uint8_t> out) const;

  // Reads several ranges; result i holds ranges[i]. Implementations may merge neighbouring
  // ranges into fewer requests; the stats count the requests actually made.
  Result<std::vector<Buffer>> ReadRanges(std::span<const ByteRange> ranges) const;

  IoStats stats() const {
    return {bytes_read_.load(std::memory_order_relaxed),
            read_requests_.load(std::memory_order_relaxed)};
  }

 protected:
  RandomAccessFile(std::string name, uint64_t size) : name_(std::move(name)), size_(size) {}

  // Fills `out` with the bytes at `offset`. REQUIRES: the range is inside the file (checked
  // by the caller). Must not return short reads as success.
  virtual Status DoRead(uint64_t offset, std::span<uint8_t> out) const = 0;

  // Default: one DoRead per range. Override to coalesce or to issue ranges concurrently.
  virtual Status DoReadRanges(std::span<const ByteRange> ranges, std::vector<Buffer>& out) const;

  void CountRequest(uint64_t bytes) const {
    bytes_read_.fetch_add(bytes, std::memory_order_relaxed);
    read_requests_.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  std::string name_;
  uint64_t size_;
  mutable std::atomic<uint64_t> bytes_read_{0};
  mutable std::atomic<uint64_t> read_requests_{0};
};

// Opens a local file for positional reads (pread). NotFound-like failures are IOError with the
// system's reason: "data.parquet: cannot open: No such file or directory".
Result<std::unique_ptr<RandomAccessFile>> OpenLocalFile(const std::string& path);

// The same, holding no file descriptor between reads: each read opens the file again and fails
// (IOError) if it is no longer the file first opened (another inode or size). A scan of more
// files than the process may hold open (often 1024) needs this; a read costs an open, a stat
// and a close more.
Result<std::unique_ptr<RandomAccessFile>> OpenLocalFileOnDemand(const std::string& path);

// A file held in memory (tests, fuzzing, data already fetched). Copies `bytes`.
std::unique_ptr<RandomAccessFile> MakeMemoryFile(std::string name, std::span<const uint8_t> bytes);

// Sequential output: what the Parquet writer writes through. Appends bytes at the end and
// counts them (position()). Implementations provide DoAppend and DoClose.
//
// Thread safety: one thread at a time.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;

  // The name used in every error message about this file.
  const std::string& name() const { return name_; }
  // Bytes appended so far: the offset the next Append writes at.
  uint64_t position() const { return position_; }

  // Appends `bytes`. IOError when the system fails (the file is then unusable).
  Status Append(std::span<const uint8_t> bytes) {
    PQSIFT_RETURN_IF_ERROR(DoAppend(bytes));
    position_ += bytes.size();
    return Status::OK();
  }
  // Flushes and closes; IOError when that fails. REQUIRES: called at most once, last.
  Status Close() { return DoClose(); }

 protected:
  explicit WritableFile(std::string name) : name_(std::move(name)) {}
  virtual Status DoAppend(std::span<const uint8_t> bytes) = 0;
  virtual Status DoClose() = 0;

 private:
  std::string name_;
  uint64_t position_ = 0;
};

// Creates (or truncates) a local file for writing, buffered. A file that is not closed
// (e.g. after an error) is left as far as it was written.
Result<std::unique_ptr<WritableFile>> OpenLocalWritableFile(const std::string& path);

// A file written into memory (tests, or callers that ship the bytes elsewhere): `*out` receives
// every byte appended; it must outlive the file.
std::unique_ptr<WritableFile> MakeMemoryWritableFile(std::string name, std::vector<uint8_t>* out);

}  // namespace pqsift
