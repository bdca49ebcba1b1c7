#include "scan_worker.h"

#include <pybind11/pybind11.h>

#include <utility>

namespace pqsift::python {

namespace py = pybind11;

int64_t MonotonicNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ScanWorker::ScanWorker() : thread_([this] { Loop(); }) {}

ScanWorker::~ScanWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    quit_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void ScanWorker::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return quit_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // quitting, nothing left
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    task = nullptr;  // what it captured is released on this thread, before the next task
    lock.lock();
    ++finished_;
    done_.notify_all();
  }
}

void ScanWorker::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks_.push_back(std::move(task));
    ++queued_;
  }
  wake_.notify_one();
}

void ScanWorker::Run(std::function<void()> task) {
  // Signals are checked every kPoll: Ctrl-C is seen within that time, and an idle wait costs a
  // GIL round trip per kPoll, nothing measurable.
  constexpr auto kPoll = std::chrono::milliseconds(20);
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks_.push_back(std::move(task));
    ticket = ++queued_;
  }
  wake_.notify_one();
  for (;;) {
    bool finished;
    {
      py::gil_scoped_release no_gil;
      int64_t start = trace_ ? MonotonicNanos() : 0;
      std::unique_lock<std::mutex> lock(mu_);
      finished = done_.wait_for(lock, kPoll, [&] { return finished_ >= ticket; });
      if (trace_) spans_.emplace_back(start, MonotonicNanos());
    }
    if (finished) return;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

}  // namespace pqsift::python
