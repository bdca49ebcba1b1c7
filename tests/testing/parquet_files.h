// Opening real Parquet files in tests: the file, its decoded footer, and byte ranges read through
// the RandomAccessFile API (so the reads are counted like the engine's own).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "testing/files.h"

namespace pqsift::testing {

struct OpenedFile {
  std::unique_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;

  // The bytes of [offset, offset + length), or an empty buffer with a test failure.
  Buffer Read(int64_t offset, int64_t length) const {
    if (offset < 0 || length < 0) {
      ADD_FAILURE() << file->name() << ": negative range " << offset << "+" << length;
      return Buffer();
    }
    Result<Buffer> b = file->Read({static_cast<uint64_t>(offset), static_cast<uint64_t>(length)});
    if (!b.ok()) {
      ADD_FAILURE() << b.status().ToString();
      return Buffer();
    }
    return std::move(b).value();
  }
};

// Opens `path` and reads its footer; fails the test (and returns a null file) on error.
inline OpenedFile OpenParquet(const std::string& path) {
  OpenedFile out;
  Result<std::unique_ptr<RandomAccessFile>> file = OpenLocalFile(path);
  if (!file.ok()) {
    ADD_FAILURE() << file.status().ToString();
    return out;
  }
  out.file = std::move(file).value();
  Result<std::shared_ptr<const ParquetMetadata>> md = ReadParquetMetadata(*out.file);
  if (!md.ok()) {
    ADD_FAILURE() << md.status().ToString();
    out.file.reset();
    return out;
  }
  out.metadata = std::move(md).value();
  return out;
}

// The path of parquet-testing's data/<name>, or empty (and the test skipped) when absent.
#define PQSIFT_TESTING_FILE_OR_SKIP(var, name)                                \
  std::string var = ::pqsift::testing::ParquetTestingDir();                   \
  if (var.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing; \
  var += "/data/";                                                            \
  var += name

}  // namespace pqsift::testing
