#include "io/async_wave.h"

namespace pqsift::io {

bool PrefetchLedger::HasRoom() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_ < budget_;
}

uint64_t PrefetchLedger::held_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_;
}

void PrefetchLedger::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return in_flight_ == 0; });
}

void PrefetchLedger::Started(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  ++in_flight_;
  held_ += bytes;
}

void PrefetchLedger::Ended() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

void PrefetchLedger::Released(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  held_ -= bytes;
}

AsyncWave::AsyncWave(const RandomAccessFile& file, std::vector<ByteRange> ranges,
                     std::shared_ptr<PrefetchLedger> ledger)
    : file_(file), ranges_(std::move(ranges)), ledger_(std::move(ledger)) {
  for (const ByteRange& r : ranges_) bytes_ += r.length;
  taken_.resize(ranges_.size());
  shared_.resize(ranges_.size());
}

AsyncWave::~AsyncWave() {
  if (ledger_) ledger_->Released(bytes_);
}

std::shared_ptr<AsyncWave> AsyncWave::Start(const RandomAccessFile& file,
                                            std::vector<ByteRange> ranges,
                                            std::shared_ptr<PrefetchLedger> ledger) {
  std::shared_ptr<AsyncWave> wave(new AsyncWave(file, std::move(ranges), std::move(ledger)));
  if (wave->ledger_) wave->ledger_->Started(wave->bytes_);
  if (IoCounters* c = file.counters()) c->BeginAsync();
  // The callback holds the wave: its buffers stay valid until the reads have ended, whoever
  // lets go of it first.
  file.StartReads(wave->ranges_, &wave->out_,
                  [wave](Status status) { wave->Finish(std::move(status)); });
  return wave;
}

void AsyncWave::Finish(Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    status_ = std::move(status);
    if (!status_.ok() || out_.size() != ranges_.size()) out_.clear();
    done_ = true;
  }
  done_cv_.notify_all();
  if (IoCounters* c = file_.counters()) c->EndAsync();
  // Last: once the ledger is idle, the file may go away.
  if (ledger_) ledger_->Ended();
}

bool AsyncWave::Share(size_t i) {
  std::lock_guard<std::mutex> lock(mu_);
  if (i >= shared_.size() || taken_[i] || (done_ && out_.empty())) return false;
  shared_[i] = true;
  return true;
}

std::optional<Buffer> AsyncWave::Take(size_t i, ByteRange range) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!done_) {
    IoCounters* c = file_.counters();
    if (c != nullptr) c->BeginBlocked();
    done_cv_.wait(lock, [&] { return done_; });
    if (c != nullptr) c->EndBlocked();
  }
  if (out_.empty() || i >= ranges_.size() || taken_[i]) return std::nullopt;
  const ByteRange& have = ranges_[i];
  if (range.offset < have.offset || range.end() > have.end()) return std::nullopt;
  if (range == have && !shared_[i]) {
    taken_[i] = true;
    return std::move(out_[i]);
  }
  return Buffer::CopyOf(out_[i].span().subspan(range.offset - have.offset, range.length));
}

}  // namespace pqsift::io
