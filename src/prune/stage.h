// A pruning stage: one level of evidence (row-group statistics, page index, dictionary, bloom
// filter, ...) applied to a file's plan. Stages run cheapest first, each only over row groups
// still undecided, and each fetches its evidence only when it can still change the outcome.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "expr/expr.h"
#include "format/page_index_store.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/access_plan.h"
#include "prune/dictionary_source.h"
#include "prune/proof.h"
#include "prune/statistics.h"

namespace pqsift::prune {

struct FileContext {
  const ParquetMetadata& metadata;
  RandomAccessFile& file;           // reads go through the counted I/O
  const expr::BoundFilter& filter;  // bound against this file's schema
  // Where stages keep the page indexes they load, for the scan to use afterwards (its offset
  // indexes say which pages a selection needs); null: a stage loads into its own.
  format::PageIndexStore* page_indexes = nullptr;
  // Every leaf the scan will read (output and filter columns): their offset indexes are loaded
  // with the predicate columns' page indexes, in the same reads.
  std::span<const int32_t> read_leaves;
  // False: use only evidence already in memory (the footer, page indexes already loaded), read
  // nothing: the runtime filter checks during a scan (scan/runtime_check.h).
  bool load_evidence = true;
  // Where the dictionary stage fetches dictionary pages from (the scan keeps their bytes for its
  // own reads); null: the dictionary stage does nothing.
  DictionarySource* dictionaries = nullptr;
  // The name of the virtual row index column in `filter` (empty: none): the row positions
  // stage proves its conditions from the footer's row counts; other stages know nothing of it.
  std::string_view row_index_column = {};
};

// A filter column's leaf in the file and the Arrow type it decodes to; null when the leaf is not
// in the file or has no Arrow type (then nothing is known about its values).
struct FilterLeaf {
  const ColumnDescriptor* descriptor = nullptr;
  std::shared_ptr<const DataType> type;
  int32_t leaf = -1;
  bool known() const { return descriptor != nullptr && type != nullptr; }
};
FilterLeaf ResolveFilterLeaf(const FileContext& context, size_t filter_column);

// bounds[k][i]: filter column k in row group groups[i], from the footer's statistics under the
// trust rules. Anything missing (no such leaf, an Arrow type we cannot represent, encrypted
// column metadata, no statistics) is unknown.
StatisticsTable RowGroupStatisticsTable(const FileContext& context, std::span<const size_t> groups);

// A row-group stage's proof for one row group: skipped when no row can match, fully matched when
// every row must (both recorded as decided by `stage`, with the bounds of container `c` of
// `table` as the evidence, and counted in `report`).
void ApplyRowGroupOutcome(Outcomes outcome, const std::string& stage,
                          const expr::BoundFilter& filter, const StatisticsTable& table, size_t c,
                          RowGroupPlan& plan, StageReport& report);

// Internal error unless `plan` has one entry per row group of the file: every stage checks it
// before indexing one by the other.
Status CheckPlanMatchesFile(const FileContext& context, const FilePlan& plan);

class PruningStage {
 public:
  virtual ~PruningStage() = default;
  virtual std::string_view name() const = 0;
  // Narrows `plan` (one entry per row group of the file); adds its counts to `report`.
  virtual Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) = 0;
  // The byte ranges Apply would read for this file now, stated before anything is read: the
  // planner fetches them for every file in one wave (io/wave.h), and Apply finds them in
  // memory. Empty: nothing to read, or not known in advance (Apply then reads for itself).
  virtual std::vector<ByteRange> Needs(const FileContext& context, const FilePlan& plan) {
    (void)context;
    (void)plan;
    return {};
  }
  // Once Needs' reads are in memory (the file serves them without a request): the reads that
  // depend on them (a bloom filter's blocks on its header, the dictionary stage's next round),
  // fetched for every file in one more wave; called again after each such wave until no file
  // states a read the stage's earlier waves did not make. Empty: none.
  virtual std::vector<ByteRange> NeedsNext(const FileContext& context, const FilePlan& plan) {
    (void)context;
    (void)plan;
    return {};
  }
};

// Conditions on the virtual row index (FileContext::row_index_column) from the footer's row
// counts: row groups and rows outside them left out (no I/O).
std::unique_ptr<PruningStage> MakeRowPositionStage();

// Row-group min/max/null-count statistics from the footer (no I/O).
std::unique_ptr<PruningStage> MakeRowGroupStatisticsStage();
// Page min/max/null counts from the column index, cut at the offset index's page boundaries.
std::unique_ptr<PruningStage> MakePageIndexStage();
// Page min/max/null counts from the pages' own headers, for chunks without a column index (the
// headers read, not the pages); their locations become the chunk's offset index.
// Chunks smaller than `min_chunk_bytes` are not walked.
std::unique_ptr<PruningStage> MakePageHeaderStage(int64_t min_chunk_bytes);
// Split-block bloom filters: equality and IN values proven absent from a row group.
std::unique_ptr<PruningStage> MakeBloomFilterStage();

struct DictionaryStageOptions {
  // A dictionary page larger than this is not fetched (counted as too large in the report).
  uint64_t max_dictionary_bytes = uint64_t{1} << 20;
};
// The values of dictionary pages of chunks whose data pages are all dictionary-encoded.
std::unique_ptr<PruningStage> MakeDictionaryStage(DictionaryStageOptions options = {});

}  // namespace pqsift::prune
