#include "scan_handle.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

#include "json_reports.h"
#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

std::string TopLevelName(const std::string& dotted) { return dotted.substr(0, dotted.find('.')); }

// The requested columns whose top-level field the split's file (plus partition columns) has.
Result<std::vector<std::string>> ColumnsPresent(const Dataset& dataset,
                                                const ScanRequest& request) {
  ScanOptions probe;
  probe.threads = 1;
  probe.open = request.options.open;
  // Opening without a filter or columns reads the footer (kept by the footer cache for the
  // scan that follows) and plans nothing.
  PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<Scanner> scanner,
                          OpenDatasetScan(dataset, probe, &*request.split));
  std::vector<std::string> present;
  const std::vector<Field>& fields = scanner->schema()->fields;
  for (const std::string& c : request.options.columns) {
    std::string top = TopLevelName(c);
    if (std::any_of(fields.begin(), fields.end(), [&](const Field& f) { return f.name == top; })) {
      present.push_back(c);
    }
  }
  return present;
}

}  // namespace

Result<std::unique_ptr<Scanner>> OpenScanner(const ScanRequest& request) {
  if (!request.split) {
    if (request.paths.empty()) return Status::InvalidArgument("no paths to scan");
    PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, Dataset::Discover(request.paths, request.dataset));
    return OpenDatasetScan(dataset, request.options);
  }
  PQSIFT_ASSIGN_OR_RETURN(Dataset dataset,
                          Dataset::Discover({request.split->path}, request.dataset));
  if (!request.skip_missing_columns || request.options.columns.empty()) {
    return OpenDatasetScan(dataset, request.options, &*request.split);
  }
  ScanOptions options = request.options;
  PQSIFT_ASSIGN_OR_RETURN(options.columns, ColumnsPresent(dataset, request));
  if (options.columns.empty()) {
    // Only missing columns: count the rows (the caller adds the NULL columns).
    options.count_only = true;
  }
  return OpenDatasetScan(dataset, options, &*request.split);
}

struct ScanHandle::State {
  ScanRequest request;
  // Set and reset on the worker only, under `lifetime`; read on the worker freely, and by the
  // caller (Cancel) under `lifetime`.
  std::unique_ptr<Scanner> scanner;
  std::mutex lifetime;
  bool opened = false;  // Open ran (scanner set, or open_status failed)
  std::atomic<bool> closed{false};
  std::atomic<bool> interrupted{false};  // set by the caller on Ctrl-C; loops stop at a batch
  Status open_status;
  ScanStats last_stats;  // kept when the scanner is released
  // The results of the last call, written on the worker, read by the caller once it returned
  // (never through references into the caller's frame: an interrupted call outlives it).
  Status status;
  std::shared_ptr<const BatchSchema> schema;
  std::shared_ptr<RecordBatch> batch;
  ScanStats stats;
  std::string json;
  bool explain_chunks = false;  // ExplainJson's argument, for the scan's thread
  int64_t rows = 0;
  std::shared_ptr<Scanner> taken;

  Status EnsureOpen() {
    if (closed) return Status::InvalidArgument("the scan is closed");
    if (!opened) {
      opened = true;
      auto opened_scanner = OpenScanner(request);
      if (!opened_scanner.ok()) {
        open_status = opened_scanner.status();
      } else {
        std::lock_guard<std::mutex> lock(lifetime);
        scanner = std::move(*opened_scanner);
        if (interrupted) scanner->Cancel();
      }
    }
    return open_status;
  }
  void Release() {
    if (scanner) last_stats = scanner->stats();
    std::unique_ptr<Scanner> released;
    {
      std::lock_guard<std::mutex> lock(lifetime);
      released = std::move(scanner);
    }
    released.reset();  // joins its threads, outside the lock
    closed = true;
  }
  // From the caller's thread while a call runs on the worker: stops it within a batch.
  void Cancel() {
    interrupted = true;
    std::lock_guard<std::mutex> lock(lifetime);
    if (scanner) scanner->Cancel();
  }
};

ScanHandle::ScanHandle(ScanRequest request)
    : state_(std::make_shared<State>()), worker_(std::make_unique<ScanWorker>()) {
  state_->request = std::move(request);
}

ScanHandle::~ScanHandle() {
  try {
    std::shared_ptr<State> state = state_;
    worker_->Post([state] { state->Release(); });
    if (PyGILState_Check()) {
      py::gil_scoped_release no_gil;
      worker_.reset();
    } else {
      worker_.reset();
    }
  } catch (...) {  // out of memory queueing the release: the worker's destructor still joins
  }
}

void ScanHandle::Call(Status (*fn)(State&), bool open) {
  std::shared_ptr<State> state = state_;
  try {
    worker_->Run([state, fn, open] {
      Status opened = open ? state->EnsureOpen() : Status::OK();
      state->status = opened.ok() ? fn(*state) : opened;
    });
  } catch (py::error_already_set&) {
    // Interrupted: the call in flight ends on the worker (a loop over batches at the next
    // batch), then the scan is released there.
    state->Cancel();
    worker_->Post([state] { state->Release(); });
    throw;
  }
  ThrowIfError(state_->status);
}

std::shared_ptr<const BatchSchema> ScanHandle::Schema() {
  Call([](State& s) {
    s.schema = s.scanner->schema();
    return Status::OK();
  });
  return state_->schema;
}

std::shared_ptr<RecordBatch> ScanHandle::Next() {
  if (state_->closed) return nullptr;
  Call([](State& s) {
    Result<std::shared_ptr<RecordBatch>> next = s.scanner->Next();
    if (!next.ok()) return next.status();
    s.batch = std::move(*next);
    if (s.batch == nullptr) s.Release();  // the end: free the threads and buffers now
    return Status::OK();
  });
  return std::move(state_->batch);
}

ScanStats ScanHandle::Stats() {
  if (state_->closed) return state_->last_stats;
  Call(
      [](State& s) {
        s.stats = s.scanner ? s.scanner->stats() : s.last_stats;
        return Status::OK();
      },
      /*open=*/false);
  return state_->stats;
}

std::string ScanHandle::ExplainJson(bool chunks) {
  state_->explain_chunks = chunks;
  Call([](State& s) {
    s.json = ExplainJsonText(*s.scanner, s.explain_chunks);
    return Status::OK();
  });
  return std::move(state_->json);
}

int64_t ScanHandle::MaxRows() {
  Call([](State& s) {
    s.rows = s.scanner->Estimate().rows_to_read;
    if (s.request.options.limit >= 0) s.rows = std::min(s.rows, s.request.options.limit);
    return Status::OK();
  });
  return state_->rows;
}

int64_t ScanHandle::CountRows() {
  Call([](State& s) {
    s.rows = 0;
    while (!s.interrupted) {
      Result<std::shared_ptr<RecordBatch>> next = s.scanner->Next();
      if (!next.ok()) return next.status();
      if (*next == nullptr) break;
      s.rows += (*next)->num_rows;
    }
    s.Release();
    return Status::OK();
  });
  return state_->rows;
}

std::shared_ptr<Scanner> ScanHandle::TakeScanner() {
  Call([](State& s) {
    s.last_stats = s.scanner->stats();
    {
      std::lock_guard<std::mutex> lock(s.lifetime);
      s.taken = std::move(s.scanner);
    }
    s.closed = true;
    return Status::OK();
  });
  return std::move(state_->taken);
}

void ScanHandle::Close() {
  if (state_->closed) return;
  std::shared_ptr<State> state = state_;
  worker_->Run([state] { state->Release(); });
}

}  // namespace pqsift::python
