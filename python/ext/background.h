// One-off library calls (inspect, splits, count) run like a scan's calls: on a thread of their
// own while the Python thread waits without the GIL and stays interruptible (scan_worker.h).
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "pqsift/status.h"
#include "scan_worker.h"
#include "status_error.h"

namespace pqsift::python {

// Keeps a worker whose call was interrupted until its task ends (joined by
// JoinAbandonedWorkers, which the package runs at exit).
void AbandonWorker(std::unique_ptr<ScanWorker> worker);
void JoinAbandonedWorkers();

// Runs `fn` (which must own what it uses: it may outlive the call) on a new thread; returns
// its value or throws its Status as StatusError, or KeyboardInterrupt on Ctrl-C.
template <typename T>
T CallInBackground(std::function<Result<T>()> fn) {
  auto slot = std::make_shared<std::optional<Result<T>>>();
  auto worker = std::make_unique<ScanWorker>();
  try {
    worker->Run([slot, fn = std::move(fn)] { slot->emplace(fn()); });
  } catch (pybind11::error_already_set&) {
    AbandonWorker(std::move(worker));
    throw;
  }
  {
    pybind11::gil_scoped_release no_gil;
    worker.reset();
  }
  return ValueOrThrow(std::move(**slot));
}

}  // namespace pqsift::python
