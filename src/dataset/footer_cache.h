// The process-wide footer cache: decoded footers keyed by path, size, modification time and
// version (a remote object's ETag, as the opened file reports it), so
// repeated scans of a dataset do not read its footers again. A file rewritten in place gets a
// new size or mtime and so a new entry. Bounded in entries and in bytes held: past either
// bound, the oldest entries go.
// Thread-safe.
#pragma once

#include <memory>

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

// Whether CachedFooter would find the footer of `file` in the cache (no read).
bool FooterCached(const DatasetFile& file, const RandomAccessFile& opened,
                  const OpenOptions& options);

}  // namespace pqsift::dataset
