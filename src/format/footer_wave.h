// The footers of several files opened together, read in one wave: a footer larger than the
// tail a remote store fetched with the open (OpenOptions::tail_bytes) needs one more read,
// and made file by file inside ReadParquetMetadata those reads would be one round trip each.
// PrefetchFooterRests states them for every file first and fetches them side by side, so the
// open of N remote files costs one wave and at most one more, never 1 + N.
//
// Thread safety: any thread; the files must not be read by others meanwhile.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "pqsift/parquet_file.h"

namespace pqsift::format {

// For each remote file of `files` (whose store fetched the tail ReadParquetMetadata reads with
// `options` when it opened it) whose tail holds only part of the footer: the part before it,
// fetched for all such files in one wave and left with each file (RandomAccessFile::AddPrefetched),
// where ReadParquetMetadata's read then finds it. The caller releases it
// (RandomAccessFile::ReleasePrefetched) once the footers are read. Files of other stores, broken
// trailers and failed reads are left to ReadParquetMetadata, which reports them.
void PrefetchFooterRests(std::span<const RandomAccessFile* const> files,
                         const OpenOptions& options);

// The footers of `files`, opened together: PrefetchFooterRests for all of them, then
// ReadParquetMetadata for each, its prefetched bytes released after. Results in file order,
// each file's error its own; a null file (one that failed to open) gets InvalidArgument.
std::vector<Result<std::shared_ptr<const ParquetMetadata>>> ReadFooters(
    std::span<const RandomAccessFile* const> files, const OpenOptions& options);

}  // namespace pqsift::format
