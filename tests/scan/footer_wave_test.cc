// Opening several remote files whose footers are larger than the tail their store fetched with
// the open: the missing parts of every footer are read in one wave (format/footer_wave.h), not
// one wave per file. A store of the test's own stands for HTTP: it holds each file's tail since
// the open, as a suffix-range request would, and its files say they are remote.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "pqsift/scan.h"
#include "pqsift/storage.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

class TailHeldFile final : public RandomAccessFile {
 public:
  TailHeldFile(std::string name, std::shared_ptr<const std::vector<uint8_t>> bytes,
               uint64_t tail_bytes)
      : RandomAccessFile(std::move(name), bytes->size()), bytes_(std::move(bytes)) {
    const uint64_t n = std::min<uint64_t>(tail_bytes, size());
    Hold(size() - n, Buffer::CopyOf({bytes_->data() + size() - n, n}));
  }
  bool remote() const override { return true; }

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    std::memcpy(out.data(), bytes_->data() + offset, out.size());
    return Status::OK();
  }

 private:
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
};

class TailHeldStore final : public FileSystem {
 public:
  explicit TailHeldStore(std::shared_ptr<const std::vector<uint8_t>> bytes)
      : bytes_(std::move(bytes)) {}
  Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                 const FileOpenOptions& options) override {
    auto file = std::make_unique<TailHeldFile>(path, bytes_, options.tail_bytes);
    file->ShareCounters(options.counters);
    return std::unique_ptr<RandomAccessFile>(std::move(file));
  }
  bool IsFolder(const std::string&) override { return false; }
  Result<std::vector<FileInfo>> List(const std::string& f) override {
    return Status::NotSupported(f);
  }
  Result<FileInfo> Stat(const std::string& path) override {
    return FileInfo{path, bytes_->size(), 0, "", false};
  }

 private:
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
};

TEST(FooterWave, FootersLargerThanTheTailOfManyRemoteFilesInOneWave) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}};
  FixedWidthArrayBuilder<int64_t> id(Int64());
  for (int64_t i = 0; i < 1000; ++i) id.Append(i);
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 1000;
  batch.columns = {id.Finish()};
  WriterOptions write;
  write.row_group_rows = 100;  // ten row groups: a footer of some hundred bytes
  testing::Written w = testing::Write(batch, write);
  ASSERT_NE(w.metadata, nullptr);
  ASSERT_GT(w.metadata->footer_length(), 64u);

  auto storage = Storage::Make();
  storage->Register("tail", std::make_shared<TailHeldStore>(
                                std::make_shared<const std::vector<uint8_t>>(w.bytes)));
  for (size_t n : {1, 4}) {
    SCOPED_TRACE(std::to_string(n) + " files");
    std::vector<std::string> paths;
    for (size_t i = 0; i < n; ++i) paths.push_back("tail://f" + std::to_string(i));
    ScanOptions options;
    options.open.storage = storage;
    options.open.tail_bytes = 64;  // less than every footer
    options.threads = 1;
    auto scanner = Scanner::Open(paths, options);
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    int64_t rows = 0;
    for (;;) {
      auto next = (*scanner)->Next();
      ASSERT_TRUE(next.ok()) << next.status().ToString();
      if (*next == nullptr) break;
      rows += (*next)->num_rows;
    }
    EXPECT_EQ(rows, static_cast<int64_t>(1000 * n));
    ScanStats stats = (*scanner)->stats();
    // The tails were held since the open (no request here); the rest of each footer: one
    // request per file, all in one wave.
    EXPECT_EQ(stats.footer_requests, n);
    EXPECT_EQ(stats.footer_waves, 1u);
  }
}

}  // namespace
}  // namespace pqsift
