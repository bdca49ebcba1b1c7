#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>

#include "pqsift/io.h"

#include "common/memory.h"

namespace pqsift {

Status CheckRange(uint64_t offset, uint64_t length, uint64_t file_size, std::string_view what) {
  if (offset > file_size || length > file_size - offset) {
    return Status::OutOfRange(std::string(what) + " [" + std::to_string(offset) + ", " +
                              std::to_string(offset) + "+" + std::to_string(length) +
                              ") lies outside the file of " + std::to_string(file_size) + " bytes");
  }
  return Status::OK();
}

Buffer::Buffer(size_t size) {
  memory::Block block = memory::Allocate(size);
  data_ = block.data;
  size_ = size;
  capacity_ = block.capacity;
}

Buffer::~Buffer() { memory::Free({data_, capacity_}); }

Buffer Buffer::CopyOf(std::span<const uint8_t> bytes) {
  Buffer b(bytes.size());
  if (!bytes.empty()) std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return b;
}

Result<Buffer> RandomAccessFile::Read(ByteRange range) const {
  Buffer out(range.length);
  PQSIFT_RETURN_IF_ERROR(ReadInto(range, {out.mutable_data(), out.size()}));
  return out;
}

Status RandomAccessFile::ReadInto(ByteRange range, std::span<uint8_t> out) const {
  PQSIFT_RETURN_IF_ERROR(CheckRange(range.offset, range.length, size_, "read").WithContext(name_));
  if (out.size() != range.length) {
    return Status::InvalidArgument(name_ + ": a read of " + std::to_string(range.length) +
                                   " bytes into " + std::to_string(out.size()));
  }
  if (CopyHeld(range, out)) return Status::OK();
  CountRequest(range.length);
  IoCounters::Wait wait(counters_.get());
  return DoRead(range.offset, out);
}

bool RandomAccessFile::CopyHeld(ByteRange range, std::span<uint8_t> out) const {
  auto inside = [&](uint64_t offset, const Buffer& bytes) {
    if (bytes.size() == 0 || range.offset < offset || range.end() > offset + bytes.size()) {
      return false;
    }
    if (range.length > 0 && !out.empty()) {
      std::memcpy(out.data(), bytes.data() + (range.offset - offset), range.length);
    }
    return true;
  };
  if (inside(held_offset_, held_)) return true;
  if (!has_prefetched_.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> lock(prefetched_mu_);
  for (const auto& [at, bytes] : prefetched_) {
    if (inside(at.offset, bytes)) return true;
  }
  return false;
}

void RandomAccessFile::AddPrefetched(ByteRange range, Buffer bytes) const {
  if (bytes.size() != range.length) return;
  std::lock_guard<std::mutex> lock(prefetched_mu_);
  prefetched_.emplace_back(range, std::move(bytes));
  has_prefetched_.store(true, std::memory_order_release);
}

void RandomAccessFile::ReleasePrefetched() const {
  std::lock_guard<std::mutex> lock(prefetched_mu_);
  prefetched_.clear();
  has_prefetched_.store(false, std::memory_order_release);
}

Result<std::vector<Buffer>> RandomAccessFile::ReadRanges(std::span<const ByteRange> ranges) const {
  std::vector<Buffer> out;
  std::vector<ScatterRead> to_read;
  PQSIFT_RETURN_IF_ERROR(PrepareReads(ranges, &out, &to_read));
  if (to_read.empty()) return out;  // all in memory: no request, no wait
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  Status result;
  {
    IoCounters::Wait wait(counters_.get());
    DoStartReads(std::move(to_read), [&](Status status) {
      std::lock_guard<std::mutex> lock(mu);
      result = std::move(status);
      finished = true;
      cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return finished; });
  }
  PQSIFT_RETURN_IF_ERROR(result);
  return out;
}

Status RandomAccessFile::PrepareReads(std::span<const ByteRange> ranges, std::vector<Buffer>* out,
                                      std::vector<ScatterRead>* to_read) const {
  for (const ByteRange& r : ranges) {
    PQSIFT_RETURN_IF_ERROR(CheckRange(r.offset, r.length, size_, "read").WithContext(name_));
  }
  out->clear();
  out->reserve(ranges.size());
  // The ranges left to read, in file order (a stable sort: equal ranges stay apart).
  std::vector<size_t> left;
  for (size_t i = 0; i < ranges.size(); ++i) {
    Buffer& b = out->emplace_back(ranges[i].length);
    if (!CopyHeld(ranges[i], {b.mutable_data(), b.size()})) left.push_back(i);
  }
  for (const std::vector<size_t>& request : Requests(ranges, std::move(left))) {
    ScatterRead& read = to_read->emplace_back(ScatterRead{ranges[request.front()], {}});
    for (size_t i : request) {
      read.range.length = ranges[i].end() - read.range.offset;
      read.into.emplace_back((*out)[i].mutable_data(), ranges[i].length);
    }
  }
  for (const ScatterRead& read : *to_read) CountRequest(read.range.length);
  return Status::OK();
}

std::vector<std::vector<size_t>> RandomAccessFile::Requests(std::span<const ByteRange> ranges,
                                                            std::vector<size_t> left) const {
  const uint64_t merge_limit = max_merged_read();
  if (merge_limit > 0) {
    std::stable_sort(left.begin(), left.end(),
                     [&](size_t a, size_t b) { return ranges[a].offset < ranges[b].offset; });
  }
  std::vector<std::vector<size_t>> out;
  ByteRange last;
  for (size_t i : left) {
    const ByteRange& r = ranges[i];
    // A range that starts where the last request ends joins it, up to the store's limit.
    if (!out.empty() && r.length > 0 && last.end() == r.offset &&
        last.length + r.length <= merge_limit) {
      last.length += r.length;
      out.back().push_back(i);
      continue;
    }
    out.push_back({i});
    last = r;
  }
  return out;
}

size_t RandomAccessFile::CountRequests(std::span<const ByteRange> ranges) const {
  std::vector<size_t> left;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (!CopyHeld(ranges[i], {})) left.push_back(i);
  }
  return Requests(ranges, std::move(left)).size();
}

void RandomAccessFile::StartReads(std::span<const ByteRange> ranges, std::vector<Buffer>* out,
                                  std::function<void(Status)> done) const {
  std::vector<ScatterRead> to_read;
  Status prepared = PrepareReads(ranges, out, &to_read);
  if (!prepared.ok() || to_read.empty()) return done(std::move(prepared));
  DoStartReads(std::move(to_read), std::move(done));
}

// The override point's signature takes its arguments by value (a store keeps them until its
// reads end); this one is done with them on return.
void RandomAccessFile::DoStartReads(
    std::vector<ScatterRead> reads,            // NOLINT(performance-unnecessary-value-param)
    std::function<void(Status)> done) const {  // NOLINT(performance-unnecessary-value-param)
  for (const ScatterRead& read : reads) {
    uint64_t offset = read.range.offset;
    for (std::span<uint8_t> piece : read.into) {
      Status status = DoRead(offset, piece);
      if (!status.ok()) return done(std::move(status));
      offset += piece.size();
    }
  }
  done(Status::OK());
}

IoStats IoCounters::Snapshot() const {
  IoStats s;
  s.bytes_read = bytes_read_.load(std::memory_order_relaxed);
  s.read_requests = requests_.load(std::memory_order_relaxed);
  s.retries = retries_.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  s.round_trips = busy_.stretches;
  s.waves = waves_;
  s.busy_seconds = busy_.Seconds();
  s.wait_seconds = blocked_.Seconds();
  return s;
}

void IoCounters::Span::Enter() {
  if (inside++ == 0) {
    ++stretches;
    since = std::chrono::steady_clock::now();
  }
}

void IoCounters::Span::Leave() {
  if (--inside == 0) total += std::chrono::steady_clock::now() - since;
}

double IoCounters::Span::Seconds() const {
  auto t = total;
  if (inside > 0) t += std::chrono::steady_clock::now() - since;
  return std::chrono::duration<double>(t).count();
}

void IoCounters::BeginWait() {
  std::lock_guard<std::mutex> lock(mu_);
  ++waves_;
  busy_.Enter();
  blocked_.Enter();
}

void IoCounters::EndWait() {
  std::lock_guard<std::mutex> lock(mu_);
  busy_.Leave();
  blocked_.Leave();
}

void IoCounters::BeginAsync() {
  std::lock_guard<std::mutex> lock(mu_);
  ++waves_;
  busy_.Enter();
}

void IoCounters::EndAsync() {
  std::lock_guard<std::mutex> lock(mu_);
  busy_.Leave();
}

void IoCounters::BeginBlocked() {
  std::lock_guard<std::mutex> lock(mu_);
  blocked_.Enter();
}

void IoCounters::EndBlocked() {
  std::lock_guard<std::mutex> lock(mu_);
  blocked_.Leave();
}

}  // namespace pqsift
