// The dictionary stage: a column chunk whose data pages are all dictionary-encoded (the footer
// proves it: column/dictionary_page.h) holds no non-null value outside its dictionary page. The
// predicate's conditions on that column are evaluated exactly on the dictionary's values (value
// sets in the proof, proof.h), the other columns keep their row-group statistics: a row group
// where no value can make the predicate TRUE is skipped, one where every value (and NULL, when
// the column may hold it) makes it TRUE is fully matched.
//
// I/O: only for row groups still undecided (read, not fully matched) with an eligible filter
// column, and only when dictionaries can decide them: a probe tries every outcome for each
// condition on a column whose dictionary is not fetched yet (prune::CouldDecide); when none
// skips or fully matches the row group (e.g. `a = 1 OR b = 2` and b's statistics allow 2 but b
// has no usable dictionary), nothing more is fetched for it. Dictionaries are fetched one per row
// group per round, smallest first, until the probe says no more can help. Dictionary pages above
// the size cap are never fetched.
#include <algorithm>
#include <chrono>
#include <map>

#include "arrow/builder.h"
#include "column/dictionary_page.h"
#include "format/chunk_readable.h"
#include "prune/proof.h"
#include "prune/stage.h"

namespace pqsift::prune {
namespace {

class DictionaryStage final : public PruningStage {
 public:
  explicit DictionaryStage(DictionaryStageOptions options) : options_(options) {}

  std::string_view name() const override { return "dictionary"; }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    if (!context.filter.root || context.dictionaries == nullptr) return Status::OK();

    // The dictionaries NeedsNext decoded from the waves ahead: their bytes are this report's.
    if (auto ahead = ahead_.find(&context.file); ahead != ahead_.end()) {
      report.bytes_read += ahead->second.bytes_read;
      ahead_.erase(ahead);
    }
    Candidates c = Collect(context, plan);
    report.evidence_too_large += c.too_large;
    report.row_groups_considered += static_cast<int64_t>(c.groups.size());
    if (c.groups.empty()) return Finish(start, report);

    // Rounds: each fetches, for every row group that some dictionaries could still decide, its
    // smallest dictionary not fetched yet; so `a = 1 AND b = 2` reads one dictionary when that
    // one decides, and `a = 1 OR b = 2` reads b's only after a's could not rule out a = 1.
    StatisticsTable table = RowGroupStatisticsTable(context, c.groups);
    std::vector<bool> fetched(c.groups.size(), false);
    std::vector<Outcomes> outcomes;
    for (;;) {
      outcomes = Prove(context.filter, table);
      std::vector<std::pair<size_t, size_t>> requested = NextRound(context, table, outcomes, c);
      if (requested.empty()) break;
      std::vector<DictionarySource::Request> requests;
      for (auto [i, k] : requested) {
        requests.push_back({c.groups[i], c.leaves[k].leaf});
        fetched[i] = true;
      }
      PQSIFT_RETURN_IF_ERROR(context.dictionaries->Load(requests, &report.bytes_read));
      for (auto [i, k] : requested) {
        std::shared_ptr<const Array> values =
            context.dictionaries->dictionary(c.groups[i], c.leaves[k].leaf);
        ++(values ? report.evidence_loaded : report.evidence_unusable);
        table.bounds[k][i].values = std::move(values);
      }
    }

    std::string stage(name());
    for (size_t i = 0; i < c.groups.size(); ++i) {
      if (!fetched[i]) continue;
      ApplyRowGroupOutcome(outcomes[i], stage, context.filter, table, i,
                           plan.row_groups[c.groups[i]], report);
    }
    return Finish(start, report);
  }

  // The dictionary pages of Apply's first round, stated before any is read.
  std::vector<ByteRange> Needs(const FileContext& context, const FilePlan& plan) override {
    if (!Reads(context, plan)) return {};
    ahead_[&context.file] = Ahead{};
    return RoundReads(context, plan);
  }

  // Later rounds depend on what the earlier ones prove (an `OR` over several columns'
  // dictionaries): once a round's pages are in memory (the planner's wave), they are decoded
  // here and the next round's pages stated, so each round is one wave for every file, not one
  // per file inside Apply.
  std::vector<ByteRange> NeedsNext(const FileContext& context, const FilePlan& plan) override {
    if (!Reads(context, plan) || !ahead_.contains(&context.file)) return {};
    return RoundReads(context, plan);
  }

 private:
  // Undecided row groups with at least one eligible filter column; dictionary_bytes[i][k]:
  // the size of the dictionary page of column k in groups[i], 0 when not eligible (or fetched).
  struct Candidates {
    std::vector<FilterLeaf> leaves;
    std::vector<size_t> groups;
    std::vector<std::vector<uint64_t>> dictionary_bytes;
    int64_t too_large = 0;  // dictionary pages over the cap
  };

  // What the waves ahead of Apply did for a file: the rounds stated, the bytes decoded.
  struct Ahead {
    int rounds_stated = 0;
    uint64_t bytes_read = 0;
  };

  static bool Reads(const FileContext& context, const FilePlan& plan) {
    return context.filter.root && context.dictionaries != nullptr && context.load_evidence &&
           CheckPlanMatchesFile(context, plan).ok();
  }

  // Apply's rounds replayed: those stated already decoded (their pages are in memory: no
  // request), then the pages of the first round not stated yet that are not in the footer's
  // bytes (a round whose pages all are is decoded too). Empty: no round is left, or a load
  // failed (Apply then reads for itself and reports it).
  std::vector<ByteRange> RoundReads(const FileContext& context, const FilePlan& plan) {
    Ahead& ahead = ahead_[&context.file];
    Candidates c = Collect(context, plan);
    if (c.groups.empty()) return {};
    StatisticsTable table = RowGroupStatisticsTable(context, c.groups);
    for (int round = 0;; ++round) {
      std::vector<Outcomes> outcomes = Prove(context.filter, table);
      std::vector<std::pair<size_t, size_t>> requested = NextRound(context, table, outcomes, c);
      if (requested.empty()) return {};
      std::vector<ByteRange> out;
      std::vector<DictionarySource::Request> requests;
      for (auto [i, k] : requested) {
        requests.push_back({c.groups[i], c.leaves[k].leaf});
        const ColumnChunk& chunk =
            context.metadata.file().row_groups[c.groups[i]].columns[c.leaves[k].leaf];
        std::optional<ByteRange> range =
            column::DictionaryPageRange(*chunk.meta_data, context.file.size());
        if (range && !context.metadata.CachedBytes(*range)) out.push_back(*range);
      }
      if (round >= ahead.rounds_stated && !out.empty()) {
        ahead.rounds_stated = round + 1;
        return out;
      }
      if (!context.dictionaries->Load(requests, &ahead.bytes_read).ok()) return {};
      ahead.rounds_stated = std::max(ahead.rounds_stated, round + 1);
      for (auto [i, k] : requested) {
        table.bounds[k][i].values = context.dictionaries->dictionary(c.groups[i], c.leaves[k].leaf);
      }
    }
  }

  Candidates Collect(const FileContext& context, const FilePlan& plan) const {
    Candidates c;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      c.leaves.push_back(ResolveFilterLeaf(context, k));
    }
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      const RowGroupPlan& p = plan.row_groups[g];
      if (p.decision() == Decision::kSkip || p.fully_matched) continue;
      std::vector<uint64_t> sizes(c.leaves.size(), 0);
      bool any = false;
      for (size_t k = 0; k < c.leaves.size(); ++k) {
        std::optional<uint64_t> size = DictionaryBytes(context, g, c.leaves[k]);
        if (size && *size > options_.max_dictionary_bytes) {
          ++c.too_large;
        } else if (size) {
          sizes[k] = *size;
          any = true;
        }
      }
      if (!any) continue;
      c.groups.push_back(g);
      c.dictionary_bytes.push_back(std::move(sizes));
    }
    return c;
  }

  // A round: for every row group some dictionaries not fetched yet could still decide, its
  // smallest one, as (i, k) (marked fetched in c.dictionary_bytes).
  static std::vector<std::pair<size_t, size_t>> NextRound(const FileContext& context,
                                                          const StatisticsTable& table,
                                                          const std::vector<Outcomes>& outcomes,
                                                          Candidates& c) {
    std::vector<std::pair<size_t, size_t>> requested;
    for (size_t i : WorthFetching(context, table, c.dictionary_bytes, c.leaves)) {
      if (CannotMatch(outcomes[i]) || FullyMatches(outcomes[i])) continue;  // decided
      size_t best = c.leaves.size();
      for (size_t k = 0; k < c.leaves.size(); ++k) {
        uint64_t size = c.dictionary_bytes[i][k];
        if (size != 0 && (best == c.leaves.size() || size < c.dictionary_bytes[i][best])) best = k;
      }
      if (best == c.leaves.size()) continue;
      requested.emplace_back(i, best);
      c.dictionary_bytes[i][best] = 0;  // fetched (or found unusable): never again
    }
    return requested;
  }

  Status Finish(std::chrono::steady_clock::time_point start, StageReport& report) const {
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }

  // The size of the dictionary page of a filter column's chunk in row group g, when that
  // dictionary lists every value of the chunk; nullopt otherwise.
  static std::optional<uint64_t> DictionaryBytes(const FileContext& context, size_t g,
                                                 const FilterLeaf& leaf) {
    const RowGroup& rg = context.metadata.file().row_groups[g];
    if (!leaf.known() || static_cast<size_t>(leaf.leaf) >= rg.columns.size()) return std::nullopt;
    const ColumnChunk& chunk = rg.columns[leaf.leaf];
    if (!chunk.meta_data || chunk.file_path) return std::nullopt;
    // An encrypted chunk's dictionary page (two modules) only with the chunk's key.
    if (chunk.is_encrypted &&
        !format::CheckChunkReadable(context.metadata, g, static_cast<size_t>(leaf.leaf), "").ok()) {
      return std::nullopt;
    }
    if (!column::AllDataPagesDictionaryEncoded(*chunk.meta_data)) return std::nullopt;
    std::optional<ByteRange> range =
        column::DictionaryPageRange(*chunk.meta_data, context.file.size());
    if (!range) return std::nullopt;
    return range->length;
  }

  // The row groups (indices into the table's containers) that the dictionaries not fetched yet
  // (dictionary_bytes[i][k] != 0) could still decide (CouldDecide: some value set for them
  // skips or fully matches the row group).
  static std::vector<size_t> WorthFetching(
      const FileContext& context, const StatisticsTable& table,
      const std::vector<std::vector<uint64_t>>& dictionary_bytes,
      const std::vector<FilterLeaf>& leaves) {
    StatisticsTable probe = table;
    bool any = false;
    for (size_t k = 0; k < leaves.size(); ++k) {
      if (!leaves[k].known()) continue;
      Result<std::shared_ptr<Array>> empty = MakeEmptyArray(leaves[k].type);
      if (!empty.ok()) continue;
      std::shared_ptr<const Array> unknown = std::move(empty).value();  // contents unused
      for (size_t i = 0; i < dictionary_bytes.size(); ++i) {
        if (dictionary_bytes[i][k] == 0) continue;
        probe.bounds[k][i].values = unknown;
        any = true;
      }
    }
    if (!any) return {};
    std::vector<bool> could = CouldDecide(context.filter, probe);
    std::vector<size_t> out;
    for (size_t i = 0; i < dictionary_bytes.size(); ++i) {
      if (could[i]) out.push_back(i);
    }
    return out;
  }

  DictionaryStageOptions options_;
  // By file (the stage runs over every file of one plan): what NeedsNext did ahead of Apply.
  std::map<const RandomAccessFile*, Ahead> ahead_;
};

}  // namespace

std::unique_ptr<PruningStage> MakeDictionaryStage(DictionaryStageOptions options) {
  return std::make_unique<DictionaryStage>(options);
}

}  // namespace pqsift::prune
