// Waves: the reads of many files started side by side and waited for together, so a stage's
// evidence for every file (footers, page indexes, dictionaries, data) costs one round trip
// however many files and ranges it spans.
//
// Thread safety: FetchWave may be called from any thread; the items belong to the caller.
#pragma once

#include <span>
#include <vector>

#include "pqsift/io.h"

namespace pqsift::io {

// The reads of one file in a wave. `out[i]` receives `ranges[i]`; `status` that file's result.
struct WaveRead {
  const RandomAccessFile* file = nullptr;
  std::vector<ByteRange> ranges;
  std::vector<Buffer> out;
  Status status;
};

// Starts every item's reads (RandomAccessFile::StartReads) and waits until all have ended:
// one wait, so one round trip, for each distinct IoCounters of the files. Items without
// ranges are left alone. Each item's status says how its reads went.
void FetchWave(std::span<WaveRead> reads);

// A wave whose bytes stay with each file (RandomAccessFile::AddPrefetched) for the reads that
// follow; a file whose reads failed keeps nothing (its own reads then fail and say why). The
// ranges of each item are coalesced with the file's coalesce_gap() first.
void PrefetchWave(std::span<WaveRead> reads);

}  // namespace pqsift::io
