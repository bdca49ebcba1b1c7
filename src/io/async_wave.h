// Waves started without waiting for them: a scan's prefetch (scan/executor.cc) starts the reads
// of the next slices while earlier slices decode, so the latency of a remote store is paid
// while the threads work, not in front of them. io/wave.h's waves are waited for where they
// are started; these are taken piece by piece by the reads that need them, which block only
// when the bytes have not arrived yet.
//
// Memory: every wave of a scan counts its bytes against the scan's PrefetchLedger from its
// start until it is destroyed (the last of its holders and its own read callback let go);
// the scheduler starts another wave only while the ledger has room, so what is fetched ahead
// is bounded by the budget plus one wave.
//
// Counting: a wave counts one wave and a busy period on the file's IoCounters
// (BeginAsync/EndAsync, pqsift/io.h); a Take that has to wait counts blocked time
// (BeginBlocked/EndBlocked). Its requests are counted when it starts, like any read.
//
// Lifetime: a wave in flight calls back into its file when its reads end, so its file must
// outlive it: whoever owns the files calls PrefetchLedger::WaitIdle before letting them go. A
// wave holds its ledger.
//
// Thread safety: everything may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "pqsift/io.h"

namespace pqsift::io {

class PrefetchLedger {
 public:
  explicit PrefetchLedger(uint64_t budget_bytes) : budget_(budget_bytes) {}

  // Whether another wave may start: the waves alive hold less than the budget.
  bool HasRoom() const;
  uint64_t held_bytes() const;
  // Blocks until no wave of this ledger has reads in flight.
  void WaitIdle();

 private:
  friend class AsyncWave;
  void Started(uint64_t bytes);
  void Ended();
  void Released(uint64_t bytes);

  const uint64_t budget_;
  mutable std::mutex mu_;
  std::condition_variable idle_;
  int in_flight_ = 0;
  uint64_t held_ = 0;
};

class AsyncWave {
 public:
  // Starts reading `ranges` of `file` side by side (RandomAccessFile::StartReads: at once on
  // this thread for a local file, on the store's I/O thread for a remote one) and returns
  // without waiting. The ranges must lie inside the file (else the wave fails, and every Take
  // says nothing).
  static std::shared_ptr<AsyncWave> Start(const RandomAccessFile& file,
                                          std::vector<ByteRange> ranges,
                                          std::shared_ptr<PrefetchLedger> ledger);
  ~AsyncWave();
  AsyncWave(const AsyncWave&) = delete;
  AsyncWave& operator=(const AsyncWave&) = delete;

  const std::vector<ByteRange>& ranges() const { return ranges_; }
  uint64_t bytes() const { return bytes_; }

  // The bytes of `range`, which lies inside ranges()[i], once the wave has ended: read i
  // itself when `range` is all of it and it is not shared (handed over: later Takes of it get
  // nothing), else a copy of its part. Nothing when the wave failed (the caller reads for
  // itself, and its read says what is wrong) or read i was handed over already.
  std::optional<Buffer> Take(size_t i, ByteRange range);
  // Read i is wanted by more than one taker (the dictionary page every slice's reader of a
  // chunk reads, a page two slices hold rows of): Take copies it, never hands it over. False
  // when it was handed over already (the new taker must fetch it again).
  bool Share(size_t i);

 private:
  AsyncWave(const RandomAccessFile& file, std::vector<ByteRange> ranges,
            std::shared_ptr<PrefetchLedger> ledger);
  void Finish(Status status);

  const RandomAccessFile& file_;
  const std::vector<ByteRange> ranges_;
  uint64_t bytes_ = 0;
  std::shared_ptr<PrefetchLedger> ledger_;
  std::mutex mu_;
  std::condition_variable done_cv_;
  bool done_ = false;
  Status status_;
  std::vector<Buffer> out_;  // filled by the reads; untouched by others until done_
  std::vector<bool> taken_;
  std::vector<bool> shared_;
};

}  // namespace pqsift::io
