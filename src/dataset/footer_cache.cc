#include "dataset/footer_cache.h"

#include <deque>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "format/footer_wave.h"

namespace pqsift {
namespace dataset {
namespace {

// Bounds: past either, the oldest entries go. An entry holds what its footer read fetched (the
// footer and the speculative tail read before it).
constexpr size_t kMaxEntries = 100'000;
constexpr uint64_t kMaxBytes = uint64_t{256} << 20;

struct Key {
  std::string path;
  uint64_t size;
  int64_t mtime_ns;
  std::string version;  // a remote object's ETag (or Last-Modified), as the store saw it
  uint64_t tail_bytes;  // what the footer read fetched with it differs by this option
  friend bool operator<(const Key& a, const Key& b) {
    return std::tie(a.path, a.size, a.mtime_ns, a.version, a.tail_bytes) <
           std::tie(b.path, b.size, b.mtime_ns, b.version, b.tail_bytes);
  }
};

struct Cache {
  std::mutex mu;
  std::map<Key, std::shared_ptr<const ParquetMetadata>> entries;
  std::deque<Key> order;  // oldest first
  uint64_t bytes = 0;     // held by the entries
};

uint64_t HeldBytes(const ParquetMetadata& md) { return md.cached_range().length; }

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: no order-of-destruction hazards
  return *cache;
}

// The opened file's size and version: a remote file named explicitly was not known before.
Key KeyOf(const DatasetFile& file, const RandomAccessFile& opened, const OpenOptions& options) {
  return Key{file.path, opened.size(), file.mtime_ns, opened.version(),
             TailBytes(options, opened.remote())};
}

}  // namespace

void PrefetchUncachedFooters(
    std::span<const std::pair<const DatasetFile*, const RandomAccessFile*>> files,
    const OpenOptions& options) {
  std::vector<const RandomAccessFile*> uncached;
  {
    Cache& cache = TheCache();
    std::lock_guard<std::mutex> lock(cache.mu);
    for (const auto& [file, opened] : files) {
      if (opened != nullptr && !cache.entries.contains(KeyOf(*file, *opened, options))) {
        uncached.push_back(opened);
      }
    }
  }
  format::PrefetchFooterRests(uncached, options);
}

Result<std::shared_ptr<const ParquetMetadata>> CachedFooter(const DatasetFile& file,
                                                            const RandomAccessFile& opened,
                                                            const OpenOptions& options,
                                                            uint64_t* footers_read) {
  Key key = KeyOf(file, opened, options);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto found = cache.entries.find(key);
    if (found != cache.entries.end()) return found->second;
  }
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> md,
                          ReadParquetMetadata(opened, options));
  ++*footers_read;
  std::lock_guard<std::mutex> lock(cache.mu);
  if (cache.entries.emplace(key, md).second) {
    cache.order.push_back(key);
    cache.bytes += HeldBytes(*md);
    while (cache.order.size() > kMaxEntries ||
           (cache.bytes > kMaxBytes && cache.order.size() > 1)) {
      auto oldest = cache.entries.find(cache.order.front());
      cache.bytes -= HeldBytes(*oldest->second);
      cache.entries.erase(oldest);
      cache.order.pop_front();
    }
  }
  return md;
}

}  // namespace dataset

void ClearFooterCache() {
  dataset::Cache& cache = dataset::TheCache();
  std::lock_guard<std::mutex> lock(cache.mu);
  cache.entries.clear();
  cache.order.clear();
  cache.bytes = 0;
}

}  // namespace pqsift
