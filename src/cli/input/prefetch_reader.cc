#include "cli/input/prefetch_reader.h"

namespace pqsift::cli {

PrefetchingReader::PrefetchingReader(std::unique_ptr<BatchReader> inner, size_t depth)
    : inner_(std::move(inner)), schema_(inner_->schema()), depth_(depth == 0 ? 1 : depth) {
  thread_ = std::thread([this] { Run(); });
}

PrefetchingReader::~PrefetchingReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PrefetchingReader::Run() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_.size() < depth_; });
      if (stop_) return;
    }
    Result<std::shared_ptr<RecordBatch>> batch = inner_->Next();
    const bool last = !batch.ok() || *batch == nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_.push_back(std::move(batch));
      finished_ = last;
    }
    changed_.notify_all();
    if (last) return;
  }
}

Result<std::shared_ptr<RecordBatch>> PrefetchingReader::Next() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty(); });
  Result<std::shared_ptr<RecordBatch>> batch = ready_.front();
  // The end (or an error) stays queued, so that every later call returns it again.
  if (ready_.size() > 1 || !finished_) ready_.pop_front();
  lock.unlock();
  changed_.notify_all();
  return batch;
}

}  // namespace pqsift::cli
