// A fixed set of worker threads running submitted tasks in submission order (FIFO).
//
// Thread safety: Submit may be called from any thread, including from a task. The destructor
// waits for every submitted task to finish.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pqsift::scan {

class ThreadPool {
 public:
  // `threads` workers; 0 means one per core.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Submit(std::function<void()> task);
  int size() const { return static_cast<int>(workers_.size()); }

  // The number of workers `threads` asks for (0: hardware concurrency, at least 1).
  static int Resolve(int threads);

 private:
  void Work();

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace pqsift::scan
