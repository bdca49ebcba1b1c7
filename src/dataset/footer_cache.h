// The process-wide footer cache: decoded footers keyed by path, size, modification time and
// version (a remote object's ETag, as the opened file reports it), so
// repeated scans of a dataset do not read its footers again. A file rewritten in place gets a
// new size or mtime and so a new entry. Bounded in entries and in bytes held: past either
// bound, the oldest entries go.
// The footers it lacks of many files opened together, when larger than the tail read at the
// open, are fetched in one wave first (PrefetchUncachedFooters).
// Thread-safe.
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "pqsift/dataset.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::dataset {

// The footer of `file` (opened as `opened`), from the cache or read and decoded (then
// *footers_read is incremented).
Result<std::shared_ptr<const ParquetMetadata>> CachedFooter(const DatasetFile& file,
                                                            const RandomAccessFile& opened,
                                                            const OpenOptions& options,
                                                            uint64_t* footers_read);

// Before CachedFooter runs on each (file, opened) pair (opened null: not opened): the footers
// the cache does not hold that are larger than the tail read at the open, fetched for all the
// files in one wave (format/footer_wave.h). The caller releases each file's prefetched bytes
// (RandomAccessFile::ReleasePrefetched) once its footer is read.
void PrefetchUncachedFooters(
    std::span<const std::pair<const DatasetFile*, const RandomAccessFile*>> files,
    const OpenOptions& options);

}  // namespace pqsift::dataset
