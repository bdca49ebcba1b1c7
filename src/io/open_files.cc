#include "io/open_files.h"

#include <algorithm>
#include <map>

namespace pqsift::io {

std::shared_ptr<Storage> StorageOf(const OpenOptions& options) {
  return options.storage ? options.storage : Storage::Default();
}

std::vector<Result<std::unique_ptr<RandomAccessFile>>> TryOpenFiles(
    std::span<const FileInfo> files, const OpenOptions& options,
    std::shared_ptr<IoCounters> counters, bool on_demand) {
  std::shared_ptr<Storage> storage = StorageOf(options);
  FileOpenOptions open;
  // What ReadParquetMetadata reads first (its trailer at least). Only stores that need a
  // request to learn a file's size fetch it with the open: remote ones.
  open.tail_bytes = std::max<uint64_t>(TailBytes(options, /*remote=*/true), 8);
  open.counters = std::move(counters);
  open.on_demand = on_demand;
  std::vector<Result<std::unique_ptr<RandomAccessFile>>> out;
  out.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) out.emplace_back(Status::Internal("not opened"));
  // Grouped by store, so each store opens its files in one wave.
  std::map<FileSystem*, std::vector<size_t>> groups;
  for (size_t i = 0; i < files.size(); ++i) {
    Result<FileSystem*> fs = storage->For(files[i].path);
    if (!fs.ok()) {
      out[i] = fs.status();
      continue;
    }
    groups[*fs].push_back(i);
  }
  for (auto& [fs, members] : groups) {
    std::vector<FileInfo> group;
    for (size_t i : members) group.push_back(files[i]);
    auto opened = fs->OpenMany(group, open);
    for (size_t k = 0; k < members.size() && k < opened.size(); ++k) {
      out[members[k]] = std::move(opened[k]);
    }
  }
  return out;
}

Result<std::vector<std::unique_ptr<RandomAccessFile>>> OpenFiles(
    std::span<const FileInfo> files, const OpenOptions& options,
    std::shared_ptr<IoCounters> counters, bool on_demand) {
  auto opened = TryOpenFiles(files, options, std::move(counters), on_demand);
  std::vector<std::unique_ptr<RandomAccessFile>> out;
  for (auto& r : opened) {
    if (!r.ok()) return r.status();
    out.push_back(std::move(r).value());
  }
  return out;
}

}  // namespace pqsift::io
