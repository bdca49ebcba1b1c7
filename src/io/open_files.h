// Opening the files of a scan through its Storage: grouped by store, each group in one wave
// (FileSystem::OpenMany), results in the order given.
//
// Thread safety: any thread.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "pqsift/parquet_file.h"
#include "pqsift/storage.h"

namespace pqsift::io {

// The storage a scan with `options` uses: options.storage, else Storage::Default().
std::shared_ptr<Storage> StorageOf(const OpenOptions& options);

// Opens `files` (a known FileInfo is what the file must still be) with their counts shared in
// `counters`, the footer's tail (TailBytes(options, true)) fetched with each remote file's first
// request; `on_demand`: local files hold no descriptor between reads. The first error, in
// file order.
Result<std::vector<std::unique_ptr<RandomAccessFile>>> OpenFiles(
    std::span<const FileInfo> files, const OpenOptions& options,
    std::shared_ptr<IoCounters> counters, bool on_demand);

// The same, each file's result on its own.
std::vector<Result<std::unique_ptr<RandomAccessFile>>> TryOpenFiles(
    std::span<const FileInfo> files, const OpenOptions& options,
    std::shared_ptr<IoCounters> counters, bool on_demand);

}  // namespace pqsift::io
