#include "background.h"

#include <mutex>
#include <vector>

namespace pqsift::python {

namespace {

std::mutex abandoned_mu;
std::vector<std::unique_ptr<ScanWorker>>& Abandoned() {
  static auto* workers = new std::vector<std::unique_ptr<ScanWorker>>();  // joined, never freed
  return *workers;
}

}  // namespace

void AbandonWorker(std::unique_ptr<ScanWorker> worker) {
  std::lock_guard<std::mutex> lock(abandoned_mu);
  Abandoned().push_back(std::move(worker));
}

void JoinAbandonedWorkers() {
  std::vector<std::unique_ptr<ScanWorker>> workers;
  {
    std::lock_guard<std::mutex> lock(abandoned_mu);
    workers.swap(Abandoned());
  }
  pybind11::gil_scoped_release no_gil;
  workers.clear();  // each destructor joins its thread once its task is done
}

}  // namespace pqsift::python
