// The thread a scan's library calls run on, so that the Python thread waiting for them holds no
// GIL and can still be interrupted.
//
// pqsift's calls (Scanner::Open, Next, ...) block for as long as they read and decode. Made from a
// Python thread with the GIL released, other Python threads run meanwhile, but a Ctrl-C would
// only be seen once the call returns, which for a selective filter over a large dataset can be
// long. So every call of one scan runs on that scan's ScanWorker thread, in order, and the
// Python thread waits for it without the GIL, waking every 20 ms to run Python's signal
// handlers. When one raises (KeyboardInterrupt), Run throws at once: the call in flight finishes
// on the worker in the background (at most one batch of work) and the scan is then closed by its
// owner (ScanHandle::Interrupt), so a scan stops within a batch.
//
// Thread safety: Run is called with the GIL held, by one Python thread at a time per worker (the
// ScanHandle's lock). The tasks run on the worker thread only, one at a time, in submission order.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pqsift::python {

// The monotonic clock, in nanoseconds (the trace's unit).
int64_t MonotonicNanos();

class ScanWorker {
 public:
  ScanWorker();
  // Runs the tasks still queued, then joins the thread. Call without the GIL when a task may
  // still be running (it never needs the GIL, but joining can wait for a batch).
  ~ScanWorker();
  ScanWorker(const ScanWorker&) = delete;
  ScanWorker& operator=(const ScanWorker&) = delete;

  // Runs `task` on the worker and waits for it without the GIL. REQUIRES: the GIL is held.
  // Throws pybind11::error_already_set when a signal handler raised while waiting (the task
  // then completes in the background). `task` must not touch Python objects and must own (or
  // share) everything it uses, since it may outlive the call.
  void Run(std::function<void()> task);

  // Queues `task` without waiting (closing a scan after an interrupt).
  void Post(std::function<void()> task);

  // Records the wall-clock span of every wait in Run (the time the calling thread spent without
  // the GIL), for the test that two scans in two threads overlap.
  void set_trace(bool on) { trace_ = on; }
  const std::vector<std::pair<int64_t, int64_t>>& spans() const { return spans_; }

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable wake_;  // tasks queued or quitting
  std::condition_variable done_;  // a task finished
  std::deque<std::function<void()>> tasks_;
  uint64_t finished_ = 0;  // tasks completed so far
  uint64_t queued_ = 0;    // tasks queued so far
  bool quit_ = false;
  bool trace_ = false;
  std::vector<std::pair<int64_t, int64_t>> spans_;
  std::thread thread_;
};

}  // namespace pqsift::python
