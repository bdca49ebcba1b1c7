// Hands a column reader from one slice of a row group to the next, so that a page holding rows
// of both is decompressed and decoded once: the later slice continues the earlier one's reader
// where it stopped instead of opening a reader of its own at the chunk start (which would
// decompress that page again, and, without an offset index, decode up to its first row).
//
//   at launch (consumer thread, in slice order)   Register(seq) -> is there a slice before it?
//   in the slice's task                           Take(seq)     -> that slice's reader, or null
//                                                 (or Discard(seq): it is not wanted)
//                                                 ... read ...
//                                                 Put(seq, reader or null)
//
// One handoff per (row group, leaf, chain: scan/slice.h SliceLink). Every registered slice must Put
// exactly once, whatever happens (a null reader when it used none, or failed): a slice that Takes
// waits for its predecessor's Put, and a predecessor that Put null hands on what it was handed (the
// reader of the slice before it, if that one is still there). A slice that does not need the
// earlier reader (its first page starts at its first row) Discards it, so readers no slice will
// continue are freed as soon as they are put, not with the row group.
//
// No task waits on a worker thread (the caller's part): a task is submitted to the pool only once
// its Takes would not wait (WhenReady), so the workers are never held by tasks blocked on their
// predecessors, and those of other row groups run meanwhile. Take still waits when called early,
// which is correct, only slower.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "column/leaf_reader.h"

namespace pqsift::scan {

class ReaderHandoff {
 public:
  // Slice `seq` will Put; returns the slice it follows (the last registered before it), or -1.
  int64_t Register(int64_t seq);
  // The reader the slice `seq` follows left, waiting for its Put (and, when it left none,
  // for the slice before it, and so on); null when none is left.
  std::unique_ptr<column::LeafReader> Take(int64_t seq);
  // Slice `seq` does not want that reader: freed now, or when it arrives.
  void Discard(int64_t seq);
  // Runs `run` once Take(seq) would not wait (now, on this thread, when it would not already;
  // otherwise on the thread of the Put that makes it so, after the handoff's lock is released).
  void WhenReady(int64_t seq, std::function<void()> run);
  // Slice `seq` is done; `reader` (may be null) goes to the slice after it.
  void Put(int64_t seq, std::unique_ptr<column::LeafReader> reader);
  // Frees every reader held and drops the callbacks waiting (the row group is done, or the scan
  // is destroyed).
  void Clear();

 private:
  // A slice's entry lives until the slice after it has taken or discarded what it left (each
  // entry has one such reader: the slice registered next, or a slice that follows it through
  // slices that left nothing), so the map holds about the slices in flight.
  struct Entry {
    bool put = false;
    bool discard = false;  // Put frees the reader it brings
    int64_t prev = -1;     // what it follows; -1 once it took or discarded that
    std::unique_ptr<column::LeafReader> reader;
  };

  void DiscardFrom(int64_t seq);
  // Whether Take(seq) would return without waiting (mu_ held).
  bool Ready(int64_t seq) const;

  std::mutex mu_;
  std::condition_variable put_;
  std::map<int64_t, Entry> entries_;                  // by slice
  std::map<int64_t, std::function<void()>> waiting_;  // WhenReady callbacks, by slice
  int64_t last_registered_ = -1;
};

}  // namespace pqsift::scan
