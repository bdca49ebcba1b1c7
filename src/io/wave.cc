#include "io/wave.h"

#include "io/coalesce.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace pqsift::io {

void FetchWave(std::span<WaveRead> reads) {
  std::vector<std::unique_ptr<IoCounters::Wait>> waits;
  std::vector<IoCounters*> seen;
  size_t started = 0;
  for (const WaveRead& r : reads) {
    if (r.ranges.empty() || r.file == nullptr) continue;
    ++started;
    IoCounters* c = r.file->counters();
    if (c != nullptr && std::find(seen.begin(), seen.end(), c) == seen.end()) {
      seen.push_back(c);
      waits.push_back(std::make_unique<IoCounters::Wait>(c));
    }
  }
  if (started == 0) return;
  std::mutex mu;
  std::condition_variable cv;
  size_t left = started;
  for (WaveRead& r : reads) {
    if (r.ranges.empty() || r.file == nullptr) continue;
    r.file->StartReads(r.ranges, &r.out, [&mu, &cv, &left, &r](Status status) {
      std::lock_guard<std::mutex> lock(mu);
      r.status = std::move(status);
      if (--left == 0) cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return left == 0; });
}

void PrefetchWave(std::span<WaveRead> reads) {
  for (WaveRead& r : reads) {
    if (r.file != nullptr) r.ranges = CoalesceRanges(std::move(r.ranges), r.file->coalesce_gap());
  }
  FetchWave(reads);
  for (WaveRead& r : reads) {
    if (r.file == nullptr || !r.status.ok() || r.out.size() != r.ranges.size()) continue;
    for (size_t i = 0; i < r.ranges.size(); ++i)
      r.file->AddPrefetched(r.ranges[i], std::move(r.out[i]));
    r.out.clear();
  }
}

}  // namespace pqsift::io
