// Scan results as a Parquet file: the BatchWriter interface over ParquetWriter (default
// options: statistics, page index, dictionary encoding, snappy).
#include "cli/output/batch_writer.h"
#include "pqsift/writer.h"

namespace pqsift::cli {
namespace {

class ParquetBatchWriter final : public BatchWriter {
 public:
  ParquetBatchWriter(std::unique_ptr<ParquetWriter> writer, std::string path)
      : writer_(std::move(writer)), path_(std::move(path)) {}

  Status Write(const RecordBatch& batch) override {
    return writer_->Write(batch).WithContext(path_);
  }
  Status Finish() override { return writer_->Close().WithContext(path_); }

 private:
  std::unique_ptr<ParquetWriter> writer_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<BatchWriter>> MakeParquetBatchWriter(
    const std::string& path, std::shared_ptr<const BatchSchema> schema) {
  PQSIFT_ASSIGN_OR_RETURN(auto file, OpenLocalWritableFile(path));
  auto writer = ParquetWriter::Open(std::move(file), std::move(schema));
  if (!writer.ok()) return writer.status().WithContext(path);
  return std::unique_ptr<BatchWriter>(new ParquetBatchWriter(std::move(*writer), path));
}

}  // namespace pqsift::cli
