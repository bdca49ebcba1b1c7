// The bloom-filter stage: split-block bloom filters (BloomFilter.md) prove that an equality's
// value is absent from a row group.
//
// Predicates it can use: `col = literal`, `col IS NOT DISTINCT FROM literal` and
// `col IN (...)` on a plain column (no cast) or a shredded variant path (a kGuarded node
// over its typed column, no cast: usable only in row groups whose statistics show every
// fallback `value` column all NULL, scan/variant_proof.h), combined by AND (one conjunct proven
// absent suffices) and OR (every branch must be). Anything else, a literal with no listable stored
// form (prune/bloom_probe.h), or a chunk without a usable filter counts as "may match"; NOT is
// never proven (a filter cannot prove presence). The stage does not combine its evidence with
// the statistics' inside one predicate: `(a = 1) OR (b > 5)` is pruned only when each branch
// alone is proven by one kind of evidence.
//
// I/O: only for row groups still read and not fully matched, and only when the predicate could
// become impossible with the filters the footer places for them; those filters are read in
// coalesced reads per batch of row groups (at most kBatchBytes of filters held at once), and of
// a large filter only the header and the blocks the probed hashes fall in.
#include <chrono>
#include <unordered_map>

#include "format/bloom_filter_reader.h"
#include "prune/bloom_probe.h"
#include "prune/stage.h"

namespace pqsift::prune {
namespace {

using expr::Expr;
using expr::Op;

// Bloom filters held at once while a file's row groups are decided.
constexpr uint64_t kBatchBytes = uint64_t{64} << 20;

// An equality or IN the filters can test: its column and, per literal, the hashes of the stored
// forms equal to it (any of them present: the literal may be present).
struct Probe {
  size_t column = 0;
  std::vector<std::vector<uint64_t>> literals;
  std::vector<size_t> guards;  // a shredded path's `value` columns: all NULL, or no proof
};

// The probes of a predicate tree, by node, for one file.
using Probes = std::unordered_map<const Expr*, Probe>;

// A literal operand's value, when `e` is one (and not NULL).
const expr::Value* LiteralOf(const Expr& e) {
  return e.op == Op::kLiteral && !e.literal.is_null() ? &e.literal : nullptr;
}

// The probes MayBeTrue consults: the nodes reached from the root through AND and OR.
void CollectProbes(const Expr& e, const std::vector<FilterLeaf>& leaves, Probes& out) {
  if (e.op == Op::kAnd || e.op == Op::kOr) {
    for (const auto& child : e.children) CollectProbes(*child, leaves, out);
    return;
  }
  std::vector<const expr::Value*> values;
  const Expr* column = nullptr;
  std::vector<size_t> guards;
  // The column a probe tests: `a` itself, or the typed column of a shredded path.
  auto column_of = [&](const Expr& a) -> const Expr* {
    if (a.op == Op::kColumn) return &a;
    if (a.op != Op::kGuarded || a.children.empty() || a.children[0]->op != Op::kColumn) {
      return nullptr;
    }
    for (size_t i = 1; i < a.children.size(); ++i) {
      if (a.children[i]->op != Op::kColumn || a.children[i]->column < 0) return nullptr;
      guards.push_back(static_cast<size_t>(a.children[i]->column));
    }
    return a.children[0].get();
  };
  if (e.op == Op::kEq || e.op == Op::kIsNotDistinctFrom) {
    for (int side = 0; side < 2 && column == nullptr; ++side) {
      if (LiteralOf(*e.children[1 - side]) == nullptr) continue;
      column = column_of(*e.children[side]);
      if (column != nullptr) values.push_back(LiteralOf(*e.children[1 - side]));
    }
  } else if (e.op == Op::kIn) {
    column = column_of(*e.children[0]);
    for (const expr::Value& v : e.list) values.push_back(&v);
  }
  if (column == nullptr || column->column < 0) return;
  const auto k = static_cast<size_t>(column->column);
  if (k >= leaves.size() || !leaves[k].known()) return;
  Probe probe;
  probe.column = k;
  probe.guards = std::move(guards);
  for (const expr::Value* v : values) {
    std::optional<std::vector<uint64_t>> hashes =
        BloomHashesOf(*v, *leaves[k].descriptor, *leaves[k].type);
    if (!hashes) return;  // one literal the filter cannot rule out: the node may match
    probe.literals.push_back(std::move(*hashes));
  }
  out.emplace(&e, std::move(probe));
}

// Whether the predicate can be TRUE on some row, given `absent(probe)`: whether the evidence
// proves that no row matches the probe's node.
template <typename Absent>
bool MayBeTrue(const Expr& e, const Probes& probes, Absent&& absent) {
  switch (e.op) {
    case Op::kAnd:
      for (const auto& child : e.children) {
        if (!MayBeTrue(*child, probes, absent)) return false;
      }
      return true;
    case Op::kOr:
      for (const auto& child : e.children) {
        if (MayBeTrue(*child, probes, absent)) return true;
      }
      return false;
    case Op::kLiteral: return e.literal.kind == expr::Value::Kind::kBool && e.literal.b;
    default: {
      auto probe = probes.find(&e);
      return probe == probes.end() || !absent(probe->second);
    }
  }
}

class BloomFilterStage final : public PruningStage {
 public:
  std::string_view name() const override { return "bloom filter"; }

 private:
  // What the stage reads for a file: the filter columns, the probes of the predicate, the
  // hashes each column's probes test, and the row groups the filters could decide with the
  // chunks whose filters they need (requests[first_request[i] .. first_request[i + 1]) for
  // groups[i]).
  struct Wanted {
    std::vector<FilterLeaf> leaves;
    Probes probes;
    std::vector<std::vector<uint64_t>> hashes;  // viewed by the requests
    std::vector<size_t> groups;
    std::vector<format::BloomFilterRequest> requests;
    std::vector<size_t> first_request;
  };

  static Wanted Collect(const FileContext& context, const FilePlan& plan) {
    Wanted w;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      w.leaves.push_back(ResolveFilterLeaf(context, k));
    }
    CollectProbes(*context.filter.root, w.leaves, w.probes);
    if (w.probes.empty()) return w;
    std::vector<bool> probed(w.leaves.size(), false);
    // Per filter column, every hash its probes test: the loader then reads only their blocks.
    w.hashes.resize(w.leaves.size());
    for (const auto& [node, probe] : w.probes) {
      probed[probe.column] = true;
      for (const std::vector<uint64_t>& forms : probe.literals) {
        w.hashes[probe.column].insert(w.hashes[probe.column].end(), forms.begin(), forms.end());
      }
    }
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      const RowGroupPlan& p = plan.row_groups[g];
      if (p.decision() == Decision::kSkip || p.fully_matched) continue;
      std::vector<bool> has_filter = ColumnsWithFilter(context, g, w.leaves);
      std::vector<bool> all_null = ColumnsAllNull(context, g, w.leaves);
      // If every filter present proved its probes absent, could the predicate still match?
      auto assume_absent = [&](const Probe& probe) {
        return has_filter[probe.column] && GuardsHold(probe, all_null);
      };
      if (MayBeTrue(*context.filter.root, w.probes, assume_absent)) continue;
      w.groups.push_back(g);
      w.first_request.push_back(w.requests.size());
      for (size_t k = 0; k < w.leaves.size(); ++k) {
        if (has_filter[k] && probed[k]) w.requests.push_back({g, w.leaves[k].leaf, w.hashes[k]});
      }
    }
    w.first_request.push_back(w.requests.size());
    return w;
  }

  // The end of the batch of row groups starting at groups[begin]: whole row groups whose
  // filters are estimated at about kBatchBytes (at least one).
  static size_t BatchEnd(const FileContext& context, const Wanted& w, size_t begin) {
    size_t end = begin;
    uint64_t batch_bytes = 0;
    while (end < w.groups.size() && (end == begin || batch_bytes < kBatchBytes)) {
      for (size_t r = w.first_request[end]; r < w.first_request[end + 1]; ++r) {
        batch_bytes +=
            format::BloomFilterReadEstimate(context.file, context.metadata, w.requests[r]);
      }
      ++end;
    }
    return end;
  }

  // The first batch's requests (the reads Apply makes first, stated ahead by Needs).
  static std::span<const format::BloomFilterRequest> FirstBatch(const FileContext& context,
                                                                const Wanted& w) {
    if (w.groups.empty()) return {};
    size_t end = BatchEnd(context, w, 0);
    return std::span(w.requests).first(w.first_request[end]);
  }

  static bool Reads(const FileContext& context, const FilePlan& plan) {
    return context.filter.root && context.load_evidence && CheckPlanMatchesFile(context, plan).ok();
  }

 public:
  std::vector<ByteRange> Needs(const FileContext& context, const FilePlan& plan) override {
    if (!Reads(context, plan)) return {};
    Wanted w = Collect(context, plan);
    return format::BloomFilterFirstReads(context.file, context.metadata, FirstBatch(context, w));
  }

  std::vector<ByteRange> NeedsNext(const FileContext& context, const FilePlan& plan) override {
    if (!Reads(context, plan)) return {};
    Wanted w = Collect(context, plan);
    std::span<const format::BloomFilterRequest> batch = FirstBatch(context, w);
    if (batch.empty()) return {};
    auto reads = format::BloomFilterSecondReads(context.file, context.metadata, batch, kBatchBytes,
                                                w.first_request[1]);
    return reads.ok() ? std::move(reads).value() : std::vector<ByteRange>{};
  }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    if (!context.filter.root) return Status::OK();

    Wanted w = Collect(context, plan);
    if (w.probes.empty()) return Status::OK();
    const std::vector<FilterLeaf>& leaves = w.leaves;
    const Probes& probes = w.probes;
    const std::vector<size_t>& groups = w.groups;
    const std::vector<format::BloomFilterRequest>& requests = w.requests;
    const std::vector<size_t>& first_request = w.first_request;

    // In batches of whole row groups, so that at most about kBatchBytes of filters are held.
    size_t begin = 0;
    while (begin < groups.size()) {
      const size_t end = BatchEnd(context, w, begin);
      std::span<const format::BloomFilterRequest> batch(requests.data() + first_request[begin],
                                                        first_request[end] - first_request[begin]);
      PQSIFT_ASSIGN_OR_RETURN(
          format::LoadedBloomFilters loaded,
          format::LoadBloomFilters(context.file, context.metadata, batch, kBatchBytes,
                                   first_request[begin + 1] - first_request[begin],
                                   &report.bytes_read));
      // Row groups whose filters all came; the loader answers at least the first one's.
      size_t i = begin;
      for (; i < end && first_request[i + 1] - first_request[begin] <= loaded.complete; ++i) {
        const size_t offset = first_request[i] - first_request[begin];
        const size_t count = first_request[i + 1] - first_request[i];
        Decide(context, groups[i], leaves, probes, batch.subspan(offset, count),
               std::span(loaded.filters).subspan(offset, count), plan, report);
      }
      begin = i;
    }
    report.row_groups_considered += static_cast<int64_t>(groups.size());
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }

 private:
  // Per filter column: whether row group g's footer places a bloom filter for it.
  static std::vector<bool> ColumnsWithFilter(const FileContext& context, size_t g,
                                             const std::vector<FilterLeaf>& leaves) {
    const RowGroup& rg = context.metadata.file().row_groups[g];
    std::vector<bool> out(leaves.size(), false);
    for (size_t k = 0; k < leaves.size(); ++k) {
      if (!leaves[k].known() || static_cast<size_t>(leaves[k].leaf) >= rg.columns.size()) continue;
      const std::optional<ColumnMetaData>& meta = rg.columns[leaves[k].leaf].meta_data;
      // An encrypted chunk's filter only with its key (decrypted by the loader).
      out[k] = meta && meta->bloom_filter_offset.has_value() &&
               format::BloomFilterReadable(context.metadata, g, leaves[k].leaf);
    }
    return out;
  }

  // Per filter column: whether row group g's statistics show it all NULL.
  static std::vector<bool> ColumnsAllNull(const FileContext& context, size_t g,
                                          const std::vector<FilterLeaf>& leaves) {
    const RowGroup& rg = context.metadata.file().row_groups[g];
    std::vector<bool> out(leaves.size(), false);
    for (size_t k = 0; k < leaves.size(); ++k) {
      if (!leaves[k].known() || static_cast<size_t>(leaves[k].leaf) >= rg.columns.size()) continue;
      const std::optional<ColumnMetaData>& meta = rg.columns[leaves[k].leaf].meta_data;
      if (!meta) continue;
      ColumnBounds b = BoundsFromChunk(*leaves[k].descriptor, *leaves[k].type, *meta, rg.num_rows);
      out[k] = b.null_count && *b.null_count == rg.num_rows;
    }
    return out;
  }

  static bool GuardsHold(const Probe& probe, const std::vector<bool>& all_null) {
    for (size_t k : probe.guards) {
      if (k >= all_null.size() || !all_null[k]) return false;
    }
    return true;
  }

  // Skips row group g when its filters (`filters[i]` loaded for `requests[i]`) prove that no
  // row can match.
  void Decide(const FileContext& context, size_t g, const std::vector<FilterLeaf>& leaves,
              const Probes& probes, std::span<const format::BloomFilterRequest> requests,
              std::span<const std::optional<format::LoadedBloomFilter>> filters, FilePlan& plan,
              StageReport& report) const {
    // The loaded filter of each filter column in this row group (null: none usable).
    std::vector<const format::LoadedBloomFilter*> by_column(leaves.size(), nullptr);
    for (size_t r = 0; r < requests.size(); ++r) {
      const std::optional<format::LoadedBloomFilter>& filter = filters[r];
      if (!filter) continue;
      for (size_t k = 0; k < leaves.size(); ++k) {
        if (leaves[k].known() && leaves[k].leaf == requests[r].leaf) by_column[k] = &*filter;
      }
    }
    std::vector<bool> all_null = ColumnsAllNull(context, g, leaves);
    auto absent = [&](const Probe& probe) {
      const format::LoadedBloomFilter* filter = by_column[probe.column];
      if (filter == nullptr || !GuardsHold(probe, all_null)) return false;
      for (const std::vector<uint64_t>& forms : probe.literals) {
        for (uint64_t hash : forms) {
          if (filter->MightContain(hash)) return false;
        }
      }
      return true;
    };
    if (MayBeTrue(*context.filter.root, probes, absent)) return;
    // The evidence: the columns whose filters proved some probed value absent.
    std::vector<bool> named(leaves.size(), false);
    for (const auto& entry : probes) {
      if (absent(entry.second)) named[entry.second.column] = true;
    }
    std::string proved;  // in filter column order, whatever the map's order
    for (size_t k = 0; k < named.size(); ++k) {
      if (!named[k]) continue;
      if (!proved.empty()) proved += ", ";
      proved += context.filter.columns[k].path;
    }
    RowGroupPlan& p = plan.row_groups[g];
    report.rows_pruned += p.rows.row_count();
    p.Skip(std::string(name()), "bloom filter of " + proved +
                                    " holds none of the filter's values: no row can satisfy "
                                    "the filter");
    ++report.row_groups_skipped;
  }
};

}  // namespace

std::unique_ptr<PruningStage> MakeBloomFilterStage() {
  return std::make_unique<BloomFilterStage>();
}

}  // namespace pqsift::prune
