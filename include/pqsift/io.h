// Random-access input: the one interface every byte pqsift reads goes through.
//
// RandomAccessFile reads byte ranges and counts what it read (bytes and requests), so every
// feature can report exactly what a query cost. Implementations provide DoRead (and, for
// stores where a request costs a round trip, DoStartReads: reads started side by side); the
// public Read/ReadRanges/StartReads wrap them, validate the ranges against the file size and
// count. Local files, HTTP(S) and S3 objects (pqsift/storage.h opens them by path or URL) and
// callers' own implementations all slot in: callers hold a RandomAccessFile and never know
// which store it reads. Reads started together whose ranges follow one another are one
// request where the store merges them (max_merged_read), its body scattered to their buffers:
// requests are counted as the store makes them.
//
// Round trips: the files of one scan share an IoCounters. Every blocking read (Read, ReadInto,
// ReadRanges), every wave of reads started together (io/wave.h) and every wave started
// without waiting for it (a scan's prefetch: BeginAsync/EndAsync) keeps the store busy; a busy
// period that begins while no other is in progress starts a new round trip, so requests made
// side by side (or while others are in flight) count once, and round_trips is the number of
// sequential latencies a scan paid. `waves` counts the waves themselves (deterministic for a
// fixed plan whatever the timing: what request-count tests assert), and wait_seconds only the
// time some thread was blocked on the store (a prefetch that arrives before it is needed costs
// none).
//
// Thread safety: all methods are const-safe and may be called from several threads at once;
// implementations must allow concurrent DoRead calls (pread-style, no shared file position).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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

// What a file (or the files sharing an IoCounters) has been asked for so far. Exact: every
// successful or failed read counts. A request is one range read (a retry of it is not a new
// one: retries counts those); round_trips and wait_seconds are only kept by IoCounters.
struct IoStats {
  uint64_t bytes_read = 0;
  uint64_t read_requests = 0;
  uint64_t retries = 0;      // requests sent again after a transient failure
  uint64_t round_trips = 0;  // sequential busy periods (see the header comment)
  uint64_t waves = 0;        // blocking reads and waves, each once (see the header comment)
  double wait_seconds = 0;   // wall time during which at least one thread waited on the store
  double busy_seconds = 0;   // wall time during which at least one request was in flight
};

// Counters shared by a group of files (a scan's): bytes, requests, retries, and the round
// trips and wall time spent waiting. Thread-safe.
class IoCounters {
 public:
  IoStats Snapshot() const;
  void AddRequest(uint64_t bytes) {
    bytes_read_.fetch_add(bytes, std::memory_order_relaxed);
    requests_.fetch_add(1, std::memory_order_relaxed);
  }
  void AddRetry() { retries_.fetch_add(1, std::memory_order_relaxed); }
  // A wait begins / ends (io/wave.h and the blocking reads bracket their requests with these):
  // one wave, the store busy and a thread blocked.
  void BeginWait();
  void EndWait();
  // A wave started without waiting for it (a prefetch): one wave, the store busy, nobody
  // blocked; EndAsync when its last read has ended (on any thread).
  void BeginAsync();
  void EndAsync();
  // A thread blocks on bytes a started wave has not delivered yet (no new wave).
  void BeginBlocked();
  void EndBlocked();

  // Brackets a wait: BeginWait now, EndWait when destroyed. `counters` may be null.
  class Wait {
   public:
    explicit Wait(IoCounters* counters) : counters_(counters) {
      if (counters_ != nullptr) counters_->BeginWait();
    }
    ~Wait() {
      if (counters_ != nullptr) counters_->EndWait();
    }
    Wait(const Wait&) = delete;
    Wait& operator=(const Wait&) = delete;

   private:
    IoCounters* counters_;
  };

 private:
  std::atomic<uint64_t> bytes_read_{0};
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> retries_{0};
  // A union of intervals: how long at least one of its users was inside one, and how many
  // separate stretches that made.
  struct Span {
    int inside = 0;
    uint64_t stretches = 0;
    std::chrono::steady_clock::time_point since;
    std::chrono::steady_clock::duration total{};
    void Enter();
    void Leave();
    double Seconds() const;
  };
  mutable std::mutex mu_;
  uint64_t waves_ = 0;
  Span busy_;     // requests in flight: its stretches are the round trips
  Span blocked_;  // threads waiting
};

// One request of a store: `range`, whose bytes fill the spans of `into` one after the other
// (their sizes add up to range.length). Reads of ranges that follow one another, started
// together, are merged into one (RandomAccessFile::max_merged_read).
struct ScatterRead {
  ByteRange range;
  std::vector<std::span<uint8_t>> into;
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

  // Reads several ranges side by side (one wave: a remote store sends them together); result
  // i holds ranges[i]. One request per range: callers coalesce (io/coalesce.h) first.
  Result<std::vector<Buffer>> ReadRanges(std::span<const ByteRange> ranges) const;

  // Starts reading `ranges` into `*out` (one Buffer per range, in order) and calls `done` once
  // every read has ended, with OK or the first error: at once on this thread for a local
  // file, later on a store's I/O thread for a remote one. No wait is counted: FetchWave
  // starts the reads of many files and waits for all of them as one round trip.
  // REQUIRES: `*out` is not touched until `done` runs. OutOfRange (through `done`) for a range
  // outside the file.
  void StartReads(std::span<const ByteRange> ranges, std::vector<Buffer>* out,
                  std::function<void(Status)> done) const;

  // Two ranges closer than this cost less read as one request than as two: for a remote
  // store, about what its measured latency times its bandwidth would transfer (capped).
  virtual uint64_t coalesce_gap() const { return uint64_t{64} << 10; }
  // Whether a request costs a network round trip (the scan then prefers fewer, larger reads).
  virtual bool remote() const { return false; }
  // Reads started together (StartReads, ReadRanges) whose ranges follow one another are asked
  // for as one request of at most this many bytes (0: each range its own request): where a
  // request costs more than its bytes (a round trip, a server's work per request).
  virtual uint64_t max_merged_read() const { return 0; }
  // The requests StartReads(ranges) would make, without making them: ranges held in memory need
  // none, and ranges that follow one another are one where the store merges them.
  size_t CountRequests(std::span<const ByteRange> ranges) const;
  // An opaque version of the file's content (an HTTP ETag or Last-Modified), empty when the
  // store has none: a cache keyed on it never serves another version.
  virtual std::string version() const { return {}; }

  // Bytes a wave fetched ahead of the reads that need them (a planning stage's evidence for
  // every file at once): reads inside one of them are served from memory, without a request,
  // until ReleasePrefetched. The wave counted their requests.
  void AddPrefetched(ByteRange range, Buffer bytes) const;
  void ReleasePrefetched() const;

  // This file's own counts (bytes and requests; retries for a remote store).
  IoStats stats() const {
    IoStats s;
    s.bytes_read = bytes_read_.load(std::memory_order_relaxed);
    s.read_requests = read_requests_.load(std::memory_order_relaxed);
    s.retries = retries_.load(std::memory_order_relaxed);
    return s;
  }
  // Counts this file's reads into `counters` too (a scan's). REQUIRES: before the first read.
  void ShareCounters(std::shared_ptr<IoCounters> counters) { counters_ = std::move(counters); }
  IoCounters* counters() const { return counters_.get(); }

 protected:
  RandomAccessFile(std::string name, uint64_t size) : name_(std::move(name)), size_(size) {}

  // Fills `out` with the bytes at `offset`. REQUIRES: the range is inside the file (checked
  // by the caller). Must not return short reads as success.
  virtual Status DoRead(uint64_t offset, std::span<uint8_t> out) const = 0;

  // Starts `reads` (each one request; its memory stays valid until `done` runs) and calls
  // `done` once, when all have ended, with OK or the first error. Default: DoRead of each span,
  // now, then `done`. REQUIRES: the ranges are inside the file (checked by the caller).
  virtual void DoStartReads(std::vector<ScatterRead> reads, std::function<void(Status)> done) const;

  // Bytes [offset, offset + bytes.size()) the store fetched while opening the file (a remote
  // store's first request returns the file's tail): reads inside them are served from memory,
  // without a request. REQUIRES: called at most once, before the file is read or shared.
  void Hold(uint64_t offset, Buffer bytes) {
    held_offset_ = offset;
    held_ = std::move(bytes);
  }

  // For implementations: a request of `bytes` was made (counted by the public reads already:
  // only a store that makes requests of its own, like opening by a suffix read, calls it).
  void CountRequest(uint64_t bytes) const {
    bytes_read_.fetch_add(bytes, std::memory_order_relaxed);
    read_requests_.fetch_add(1, std::memory_order_relaxed);
    if (counters_) counters_->AddRequest(bytes);
  }
  // For implementations: a request was sent again after a transient failure.
  void CountRetry() const {
    retries_.fetch_add(1, std::memory_order_relaxed);
    if (counters_) counters_->AddRetry();
  }

 private:
  std::string name_;
  uint64_t size_;
  // Served from memory when `range` lies inside the held bytes (then true; `out` may be empty
  // to ask only).
  bool CopyHeld(ByteRange range, std::span<uint8_t> out) const;
  // The requests that read ranges[i] for each i of `left` (none held in memory), in the order
  // they are made: the indices each reads. Ranges that follow one another are one request where
  // the store merges them, up to max_merged_read() bytes.
  std::vector<std::vector<size_t>> Requests(std::span<const ByteRange> ranges,
                                            std::vector<size_t> left) const;
  // Checks `ranges`, sizes `out`, copies what is held, merges the rest where the store merges
  // (max_merged_read) and counts them as requests: the requests left to make.
  Status PrepareReads(std::span<const ByteRange> ranges, std::vector<Buffer>* out,
                      std::vector<ScatterRead>* to_read) const;

  std::shared_ptr<IoCounters> counters_;
  Buffer held_;
  uint64_t held_offset_ = 0;
  mutable std::mutex prefetched_mu_;
  mutable std::atomic<bool> has_prefetched_{false};
  mutable std::vector<std::pair<ByteRange, Buffer>> prefetched_;
  mutable std::atomic<uint64_t> bytes_read_{0};
  mutable std::atomic<uint64_t> read_requests_{0};
  mutable std::atomic<uint64_t> retries_{0};
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
