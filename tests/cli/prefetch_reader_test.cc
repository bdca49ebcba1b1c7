// PrefetchingReader: the inner reader's batches in order, its end and its first error returned
// again on every later call, and a reader dropped mid-stream stops its thread.
#include "cli/input/prefetch_reader.h"

#include <gtest/gtest.h>

#include <atomic>

namespace pqsift::cli {
namespace {

// Batches of 1, 2, 3, ... rows; after `count` of them the end, or an error when `fail`.
class CountingReader : public BatchReader {
 public:
  CountingReader(int count, bool fail, std::atomic<int>* calls)
      : count_(count), fail_(fail), calls_(calls), schema_(std::make_shared<BatchSchema>()) {}
  std::shared_ptr<const BatchSchema> schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    const int n = ++*calls_;
    if (n > count_) {
      if (fail_) return Status::InvalidArgument("bad record " + std::to_string(n));
      return std::shared_ptr<RecordBatch>();
    }
    auto batch = std::make_shared<RecordBatch>();
    batch->schema = schema_;
    batch->num_rows = n;
    return batch;
  }

 private:
  int count_;
  bool fail_;
  std::atomic<int>* calls_;
  std::shared_ptr<const BatchSchema> schema_;
};

TEST(PrefetchingReader, BatchesInOrderThenTheEndAgain) {
  std::atomic<int> calls{0};
  PrefetchingReader reader(std::make_unique<CountingReader>(50, false, &calls), 2);
  for (int i = 1; i <= 50; ++i) {
    auto batch = reader.Next();
    ASSERT_TRUE(batch.ok());
    ASSERT_NE(*batch, nullptr);
    EXPECT_EQ((*batch)->num_rows, i);
  }
  for (int again = 0; again < 3; ++again) {
    auto end = reader.Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
  EXPECT_EQ(calls.load(), 51);  // the inner reader is not asked past its end
}

TEST(PrefetchingReader, ErrorEndsTheStreamAndStays) {
  std::atomic<int> calls{0};
  PrefetchingReader reader(std::make_unique<CountingReader>(3, true, &calls), 1);
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(reader.Next().ok());
  for (int again = 0; again < 2; ++again) {
    auto error = reader.Next();
    ASSERT_FALSE(error.ok());
    EXPECT_NE(error.status().message().find("bad record 4"), std::string::npos);
  }
}

TEST(PrefetchingReader, DroppedMidStreamReadsAtMostDepthAhead) {
  std::atomic<int> calls{0};
  {
    PrefetchingReader reader(std::make_unique<CountingReader>(1000000, false, &calls), 2);
    ASSERT_TRUE(reader.Next().ok());
  }
  // One handed out, two queued, and at most one more being read when the queue had room.
  EXPECT_LE(calls.load(), 4);
}

}  // namespace
}  // namespace pqsift::cli
