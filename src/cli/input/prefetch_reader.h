// A BatchReader that reads another one's batches on a thread of its own, up to `depth` batches
// ahead: parsing the input (CSV, JSON Lines) and encoding the output then run on two cores, with
// at most depth + 1 parsed batches in memory.
//
// Thread safety: Next from one thread at a time; the inner reader is used only by the prefetch
// thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "pqsift/arrow_export.h"

namespace pqsift::cli {

class PrefetchingReader : public BatchReader {
 public:
  explicit PrefetchingReader(std::unique_ptr<BatchReader> inner, size_t depth = 2);
  ~PrefetchingReader() override;  // stops and joins the thread

  std::shared_ptr<const BatchSchema> schema() const override { return schema_; }
  // The inner reader's batches, in order; its first error ends the stream.
  Result<std::shared_ptr<RecordBatch>> Next() override;

 private:
  void Run();

  std::unique_ptr<BatchReader> inner_;
  std::shared_ptr<const BatchSchema> schema_;
  const size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Result<std::shared_ptr<RecordBatch>>> ready_;
  bool finished_ = false;  // the thread has queued the end (null batch) or an error
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pqsift::cli
