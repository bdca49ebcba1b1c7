// The C Stream Interface over a BatchReader: schema, batches, end of stream, errors, release.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "arrow/test_arrays.h"
#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;

// Yields the given batches, then either the end or `error`.
class ListReader : public BatchReader {
 public:
  ListReader(std::shared_ptr<const BatchSchema> schema,
             std::vector<std::shared_ptr<RecordBatch>> batches, Status error = Status::OK())
      : schema_(std::move(schema)), batches_(std::move(batches)), error_(std::move(error)) {}
  std::shared_ptr<const BatchSchema> schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    ++calls;
    if (next_ < batches_.size()) return batches_[next_++];
    if (!error_.ok()) return error_;
    return std::shared_ptr<RecordBatch>();
  }
  int calls = 0;

 private:
  std::shared_ptr<const BatchSchema> schema_;
  std::vector<std::shared_ptr<RecordBatch>> batches_;
  size_t next_ = 0;
  Status error_;
};

std::shared_ptr<RecordBatch> IntBatch(std::vector<testing::Opt<int64_t>> values,
                                      const std::shared_ptr<std::atomic<int>>& live = nullptr) {
  auto column = MakeFixed<int64_t>(Int64(), values);
  if (live) column = testing::WithCountedBuffers(*column, live);
  return testing::MakeBatch({{"v", column}});
}

TEST(StreamTest, DeliversTheSchemaEveryBatchThenTheEndForever) {
  auto b1 = IntBatch({1, 2});
  auto b2 = IntBatch({3, kNull, 5});
  auto reader = std::make_shared<ListReader>(b1->schema, std::vector{b1, b2});
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(reader, &stream).ok());

  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 1);
  EXPECT_STREQ(schema.children[0]->name, "v");
  EXPECT_STREQ(schema.children[0]->format, "l");

  std::vector<std::shared_ptr<RecordBatch>> got;
  for (;;) {
    ArrowArray array;
    ASSERT_EQ(stream.get_next(&stream, &array), 0);
    if (array.release == nullptr) break;
    auto batch = ImportRecordBatch(&array, &schema);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    got.push_back(*batch);
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(ArrayEquals(*got[0]->columns[0], *b1->columns[0]));
  EXPECT_TRUE(ArrayEquals(*got[1]->columns[0], *b2->columns[0]));
  EXPECT_EQ(got[1]->columns[0]->null_count, 1);
  // The end repeats without asking the reader again.
  int calls = reader->calls;
  ArrowArray after;
  after.release = reinterpret_cast<void (*)(ArrowArray*)>(1);
  EXPECT_EQ(stream.get_next(&stream, &after), 0);
  EXPECT_EQ(after.release, nullptr);
  EXPECT_EQ(reader->calls, calls);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  schema.release(&schema);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(StreamTest, AReaderErrorBecomesAnErrnoCodeAndAMessageThatStick) {
  struct Case {
    Status error;
    int code;
  };
  for (const Case& k : {Case{Status::IOError("disk on fire"), EIO},
                        Case{Status::Corruption("page 3 is garbage"), EIO},
                        Case{Status::InvalidArgument("no such column"), EINVAL},
                        Case{Status::NotSupported("LZO"), ENOSYS},
                        Case{Status::ResourceExhausted("memory limit"), ENOMEM}}) {
    SCOPED_TRACE(k.error.ToString());
    auto b1 = IntBatch({1});
    auto reader = std::make_shared<ListReader>(b1->schema, std::vector{b1}, k.error);
    ArrowArrayStream stream;
    ASSERT_TRUE(ExportBatchStream(reader, &stream).ok());
    ArrowArray array;
    ASSERT_EQ(stream.get_next(&stream, &array), 0);
    ASSERT_NE(array.release, nullptr);
    array.release(&array);
    EXPECT_EQ(stream.get_next(&stream, &array), k.code);
    EXPECT_EQ(array.release, nullptr);
    ASSERT_NE(stream.get_last_error(&stream), nullptr);
    EXPECT_EQ(std::string(stream.get_last_error(&stream)), k.error.ToString());
    int calls = reader->calls;
    EXPECT_EQ(stream.get_next(&stream, &array), k.code);  // sticky, reader not called again
    EXPECT_EQ(reader->calls, calls);
    stream.release(&stream);
  }
}

TEST(StreamTest, ABatchThatDoesNotMatchTheSchemaIsAnError) {
  auto good = IntBatch({1});
  auto other = testing::MakeBatch({{"w", MakeFixed<int32_t>(Int32(), {1})}});
  auto reader = std::make_shared<ListReader>(good->schema, std::vector{other});
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(reader, &stream).ok());
  ArrowArray array;
  EXPECT_EQ(stream.get_next(&stream, &array), EIO);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("differs"), std::string::npos);
  stream.release(&stream);

  // Columns of the wrong length: the export refuses, the stream reports EIO.
  auto bad_rows = IntBatch({1, 2});
  bad_rows->num_rows = 5;
  reader = std::make_shared<ListReader>(good->schema, std::vector{bad_rows});
  ASSERT_TRUE(ExportBatchStream(reader, &stream).ok());
  EXPECT_EQ(stream.get_next(&stream, &array), EIO);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("rows"), std::string::npos);
  stream.release(&stream);

  // A reader without a schema.
  reader = std::make_shared<ListReader>(nullptr, std::vector<std::shared_ptr<RecordBatch>>{});
  ASSERT_TRUE(ExportBatchStream(reader, &stream).ok());
  ArrowSchema schema;
  EXPECT_EQ(stream.get_schema(&stream, &schema), EIO);
  EXPECT_EQ(schema.release, nullptr);
  stream.release(&stream);
}

TEST(StreamTest, BatchesOutliveTheStreamAndReleaseFreesUnreadOnes) {
  auto live = std::make_shared<std::atomic<int>>(0);
  auto b1 = IntBatch({1, kNull}, live);
  auto b2 = IntBatch({3}, live);
  auto reader = std::make_shared<ListReader>(b1->schema, std::vector{b1, b2});
  b1.reset();
  b2.reset();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(std::move(reader), &stream).ok());
  EXPECT_EQ(live->load(), 3);  // validity + values of b1, values of b2
  ArrowArray first;
  ASSERT_EQ(stream.get_next(&stream, &first), 0);
  stream.release(&stream);     // drops the reader and the unread b2
  EXPECT_EQ(live->load(), 2);  // the exported first batch keeps its buffers
  EXPECT_EQ(first.length, 2);
  EXPECT_EQ(static_cast<const int64_t*>(first.children[0]->buffers[1])[0], 1);
  first.release(&first);
  EXPECT_EQ(live->load(), 0);
}

TEST(StreamTest, ExportRejectsANullReader) {
  ArrowArrayStream stream;
  EXPECT_EQ(ExportBatchStream(nullptr, &stream).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(stream.release, nullptr);
}

}  // namespace
}  // namespace pqsift
