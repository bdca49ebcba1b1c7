// A fixed set of worker threads running submitted tasks, lowest `order` first and, among equal
// orders, in submission order (FIFO). The executor ranks filters (and the tasks that only pass on
// their results) first and then the output columns that decode, each by slice, so the slices the
// consumer waits for first get the workers first, and later row groups' tasks fill the gaps.
//
// Thread safety: Submit may be called from any thread, including from a task. The destructor
// waits for every submitted task to finish, those submitted by tasks while it waits included.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace pqsift::scan {

class ThreadPool {
 public:
  // `threads` workers; 0 means one per core.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Submit(std::function<void()> task, int64_t order = 0);
  int size() const { return static_cast<int>(workers_.size()); }

  // The number of workers `threads` asks for (0: hardware concurrency, at least 1).
  static int Resolve(int threads);

 private:
  void Work();

  std::mutex mu_;
  std::condition_variable ready_;
  std::map<std::pair<int64_t, uint64_t>, std::function<void()>> tasks_;  // by (order, arrival)
  uint64_t arrivals_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace pqsift::scan
