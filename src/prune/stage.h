// A pruning stage: one level of evidence (row-group statistics, page index, dictionary, bloom
// filter, ...) applied to a file's plan. Stages run cheapest first, each only over row groups
// still undecided, and each fetches its evidence only when it can still change the outcome.
#pragma once

#include <memory>
#include <string_view>

#include "expr/expr.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/access_plan.h"

namespace pqsift::prune {

struct FileContext {
  const ParquetMetadata& metadata;
  RandomAccessFile& file;           // reads go through the counted I/O
  const expr::BoundFilter& filter;  // bound against this file's schema
};

class PruningStage {
 public:
  virtual ~PruningStage() = default;
  virtual std::string_view name() const = 0;
  // Narrows `plan` (one entry per row group of the file); adds its counts to `report`.
  virtual Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) = 0;
};

// Row-group min/max/null-count statistics from the footer (no I/O).
std::unique_ptr<PruningStage> MakeRowGroupStatisticsStage();

}  // namespace pqsift::prune
