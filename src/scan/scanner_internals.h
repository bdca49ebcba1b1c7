// The library's own access to a Scanner, beyond the public API (pqsift/scan.h): opening one
// over a dataset's ScanInput, and the internal access plan the public one is made from
// (tests compare the two; splits read the internal one).
//
// Lifetimes: the plan returned lives as long as the Scanner. Thread safety: as the Scanner's.
#pragma once

#include <memory>

#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "scan/scan_input.h"

namespace pqsift {

struct ScannerInternals {
  // Scans the files of a dataset (built by pqsift/dataset.h): columns resolved in each file by
  // path, partition columns and missing columns as constants.
  static Result<std::unique_ptr<Scanner>> Open(scan::ScanInput input, const ScanOptions& options);
  static const prune::AccessPlan& Plan(const Scanner& scanner);
  // The footer of Plan(scanner).files[f] (lives as long as the Scanner, at least).
  static const std::shared_ptr<const ParquetMetadata>& FileMetadata(const Scanner& scanner,
                                                                    size_t f);
  // The path Plan(scanner).files[f] was opened from, as its dataset names it: a URL with its
  // query string, which the plan's path (a name for messages) leaves out. For reaching the file
  // again (splits); never for messages.
  static const std::string& FileSource(const Scanner& scanner, size_t f);
};

}  // namespace pqsift
