// pqsift.write for Python: a ParquetWriter (pqsift/writer.h), or a PartitionedWriter when
// partition columns are given (`path` is then the dataset's folder), fed with columns made from
// numpy arrays (a pandas DataFrame, prepared by python/src/pqsift/_write.py) or with the batches of
// any Arrow C stream (an object with __arrow_c_stream__: a pqsift Scan, a pyarrow table, ...).
//
// Column specs (what _write.py sends, values as numpy arrays, mask True = NULL or None):
//   "bool"                       values uint8/bool
//   "int8" ... "uint64", "float32", "float64"   values of that dtype
//   "date32"                     int32 days since 1970-01-01
//   "time64:us"                  int64 microseconds since midnight
//   "timestamp:<ms|us|ns>:<tz>"  int64 ticks since the epoch; tz "UTC" or empty (local)
//   "string", "binary"           object array of str / bytes (None, or masked, for NULL)
//   "decimal:<precision>:<scale>" int64 array of shape (n, 2): the low and high 64 bits of the
//                                unscaled value
// A column with a mask is nullable; without, required.
//
// Thread safety: one Python thread at a time; the GIL is released while batches are encoded.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "pqsift/writer.h"

namespace pqsift::python {

class WriterHandle {
 public:
  // With partition columns (partitioning.partition_by), a PartitionedWriter under `path`.
  WriterHandle(std::string path, WriterOptions options, PartitionedWriteOptions partitioning = {});
  ~WriterHandle();

  // One batch from the columns (all of equal length); the first batch fixes the schema.
  void WriteColumns(const pybind11::list& names, const pybind11::list& columns);
  // Every batch of the producer's Arrow C stream.
  void WriteStream(pybind11::handle producer);
  // Writes the footer. The file is incomplete (and the error thrown again) after an error.
  void Close();
  int64_t rows() const {
    return writer_ ? writer_->num_rows() : partitioned_ ? partitioned_->num_rows() : 0;
  }
  // Files written: 1 for a file, the part files of a partitioned dataset.
  int64_t files() const { return writer_ ? 1 : partitioned_ ? partitioned_->num_files() : 0; }

 private:
  void Open(std::shared_ptr<const BatchSchema> schema);
  void Write(const RecordBatch& batch);
  bool opened() const { return writer_ || partitioned_; }
  // The batch to the open writer (no GIL needed), and an error of it as thrown.
  Status WriteBatch(const RecordBatch& batch);
  Status Named(const Status& status) const;

  std::string path_;
  WriterOptions options_;
  PartitionedWriteOptions partitioning_;
  std::unique_ptr<ParquetWriter> writer_;  // one of these two, once the schema is known
  std::unique_ptr<PartitionedWriter> partitioned_;
  std::shared_ptr<const BatchSchema> schema_;
};

}  // namespace pqsift::python
