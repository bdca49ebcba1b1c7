// pqsift::Scanner, the public face of a scan (include/pqsift/scan.h): a thin facade that opens
// the files and hands the scan to the one that carries it out, the executor (scan/executor.h:
// planning, slicing, decoding) or, for ORDER BY ... LIMIT, top-k over an executor
// (scan/top_k.h). Nothing else happens here.
#include <memory>
#include <optional>

#include "format/footer_wave.h"
#include "io/open_files.h"
#include "pqsift/scan.h"
#include "scan/executor.h"
#include "scan/scan_input.h"
#include "scan/scanner_internals.h"
#include "scan/top_k.h"
#include "scan/virtual_columns.h"

namespace pqsift {

struct Scanner::State {
  std::unique_ptr<scan::Executor> executor;  // set unless ORDER BY ... LIMIT
  std::unique_ptr<scan::TopK> top_k;         // set: Next() returns its rows
  // The public plan, made on the first plan() call (page-level detail of thousands of files
  // costs more than a scan that never asks for it should pay).
  mutable std::optional<AccessPlan> public_plan;
  const scan::Executor& inner() const { return top_k ? top_k->inner() : *executor; }
};

Scanner::Scanner(std::unique_ptr<State> state) : state_(std::move(state)) {}

Scanner::~Scanner() = default;

Result<std::unique_ptr<Scanner>> Scanner::Open(const std::vector<std::string>& paths,
                                               const ScanOptions& options) {
  if (paths.empty()) return Status::InvalidArgument("no files to scan");
  scan::ScanInput input;
  input.io = std::make_shared<IoCounters>();
  std::vector<FileInfo> infos;
  for (const std::string& path : paths) {
    FileInfo f;
    f.path = path;
    f.known = false;
    infos.push_back(std::move(f));
  }
  // Every file opened in one wave (remote stores: one request each, side by side, which
  // fetches the footer too).
  PQSIFT_ASSIGN_OR_RETURN(std::vector<std::unique_ptr<RandomAccessFile>> files,
                          io::OpenFiles(infos, options.open, input.io, false));
  // The footers larger than the tail read at the open: one wave for all of them.
  std::vector<const RandomAccessFile*> opened;
  opened.reserve(files.size());
  for (const auto& file : files) opened.push_back(file.get());
  std::vector<Result<std::shared_ptr<const ParquetMetadata>>> footers =
      format::ReadFooters(opened, options.open);
  for (size_t i = 0; i < files.size(); ++i) {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> md, std::move(footers[i]));
    input.files.push_back({std::move(files[i]), std::move(md), {}, {}, {}, paths[i]});
  }
  input.counts.files_total = input.files.size();
  input.counts.footers_read = input.files.size();
  input.footer_io = input.io->Snapshot();
  return ScannerInternals::Open(std::move(input), options);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(
    std::vector<std::shared_ptr<RandomAccessFile>> files,
    std::vector<std::shared_ptr<const ParquetMetadata>> metadata, const ScanOptions& options) {
  if (files.empty() || files.size() != metadata.size()) {
    return Status::InvalidArgument(
        "Scanner::Open needs one metadata per file, and at least one file");
  }
  scan::ScanInput input;
  for (size_t i = 0; i < files.size(); ++i) {
    input.files.push_back({std::move(files[i]), std::move(metadata[i]), {}, {}, {}, {}});
  }
  input.counts.files_total = input.files.size();
  input.counts.footers_read = input.files.size();
  return ScannerInternals::Open(std::move(input), options);
}

Result<std::unique_ptr<Scanner>> ScannerInternals::Open(scan::ScanInput input,
                                                        const ScanOptions& options) {
  using State = Scanner::State;
  PQSIFT_RETURN_IF_ERROR(scan::PrepareVirtualColumns(options, &input));
  auto state = std::make_unique<State>();
  if (!options.order_by.empty() && !options.count_only) {
    PQSIFT_ASSIGN_OR_RETURN(state->top_k, scan::TopK::Open(std::move(input), options));
  } else {
    PQSIFT_ASSIGN_OR_RETURN(state->executor, scan::Executor::Open(std::move(input), options));
  }
  return std::unique_ptr<Scanner>(new Scanner(std::move(state)));
}

std::shared_ptr<const BatchSchema> Scanner::schema() const {
  return state_->top_k ? state_->top_k->schema() : state_->executor->schema();
}

Result<std::shared_ptr<RecordBatch>> Scanner::Next() {
  return state_->top_k ? state_->top_k->Next() : state_->executor->Next();
}

const AccessPlan& Scanner::plan() const {
  if (!state_->public_plan) state_->public_plan = state_->inner().PublicPlan();
  return *state_->public_plan;
}

const prune::AccessPlan& ScannerInternals::Plan(const Scanner& scanner) {
  return scanner.state_->inner().plan();
}

const std::shared_ptr<const ParquetMetadata>& ScannerInternals::FileMetadata(const Scanner& scanner,
                                                                             size_t f) {
  return scanner.state_->inner().file_metadata(f);
}

const std::string& ScannerInternals::FileSource(const Scanner& scanner, size_t f) {
  return scanner.state_->inner().file_source(f);
}

ScanEstimate Scanner::Estimate() const { return state_->inner().Estimate(); }

void Scanner::Cancel() {
  if (state_->top_k) {
    state_->top_k->Cancel();
  } else {
    state_->executor->Cancel();
  }
}

ScanStats Scanner::stats() const {
  return state_->top_k ? state_->top_k->stats() : state_->executor->stats();
}

}  // namespace pqsift
