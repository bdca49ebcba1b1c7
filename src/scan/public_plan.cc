#include "scan/public_plan.h"

#include <algorithm>

#include "column/arrow_type.h"
#include "prune/evidence.h"
#include "prune/statistics.h"

namespace pqsift::scan {
namespace {

RowGroupDecision PublicDecision(prune::Decision d) {
  switch (d) {
    case prune::Decision::kSkip: return RowGroupDecision::kSkip;
    case prune::Decision::kScan: return RowGroupDecision::kScan;
    case prune::Decision::kSelection: return RowGroupDecision::kSelection;
  }
  return RowGroupDecision::kScan;
}

VerdictKind PublicKind(prune::VerdictKind k) {
  switch (k) {
    case prune::VerdictKind::kSkipped: return VerdictKind::kSkipped;
    case prune::VerdictKind::kNarrowed: return VerdictKind::kNarrowed;
    case prune::VerdictKind::kFullyMatched: return VerdictKind::kFullyMatched;
    case prune::VerdictKind::kRowsMatched: return VerdictKind::kRowsMatched;
  }
  return VerdictKind::kNarrowed;
}

// Rows of `selection` in [begin, end).
int64_t Overlap(const prune::RowSelection& selection, int64_t begin, int64_t end) {
  int64_t n = 0;
  for (const prune::RowRange& r : selection.ranges()) {
    if (r.end <= begin) continue;
    if (r.begin >= end) break;
    n += std::min(r.end, end) - std::max(r.begin, begin);
  }
  return n;
}

// The chunk's bounds text, for a filter column: its footer statistics under the trust rules.
std::string ChunkBounds(const ColumnDescriptor& column, const ColumnMetaData& meta,
                        int64_t num_rows) {
  auto type = column::ArrowTypeForLeaf(column);
  if (!type.ok()) return {};
  prune::ColumnBounds bounds = prune::BoundsFromChunk(column, **type, meta, num_rows);
  return prune::DescribeColumnBounds(column.path, bounds, **type);
}

void AddPages(const PlannedFile& file, size_t g, int32_t leaf, bool filter_column,
              const prune::RowGroupPlan& plan, ColumnChunkPlan& out) {
  if (file.page_indexes == nullptr) return;
  const format::OffsetIndex* index = file.page_indexes->offset_index(g, leaf);
  if (index == nullptr) return;
  const format::ColumnIndex* column_index =
      filter_column ? file.page_indexes->column_index(g, leaf) : nullptr;
  const ColumnDescriptor& column = file.metadata->schema().columns()[leaf];
  std::shared_ptr<const DataType> type;
  if (column_index != nullptr) {
    auto t = column::ArrowTypeForLeaf(column);
    if (t.ok()) type = std::move(t).value();
  }
  // The stage that proved the selected rows matched: the last verdict that proved any.
  std::string matched_by;
  for (const prune::Verdict& v : plan.verdicts) {
    if (v.kind == prune::VerdictKind::kFullyMatched || v.kind == prune::VerdictKind::kRowsMatched)
      matched_by = v.stage;
  }
  const auto& locations = index->page_locations;
  for (size_t i = 0; i < locations.size(); ++i) {
    PagePlan page;
    page.first_row = locations[i].first_row_index;
    int64_t end = i + 1 < locations.size() ? locations[i + 1].first_row_index : plan.num_rows;
    page.num_rows = end - page.first_row;
    page.offset = locations[i].offset;
    page.compressed_bytes = locations[i].compressed_page_size;
    page.rows_selected = Overlap(plan.rows, page.first_row, end);
    if (page.rows_selected == 0) {
      page.fate = Fate::kSkipped;
      page.stage = plan.decided_by;
      for (const prune::Verdict& v : plan.verdicts) {
        if (Overlap(v.rows, page.first_row, end) == 0) {
          page.stage = v.stage;
          break;
        }
      }
    } else if (plan.fully_matched ||
               Overlap(plan.matched_rows, page.first_row, end) == page.rows_selected) {
      page.fate = Fate::kFullyMatched;
      page.stage = matched_by;
    }
    if (type != nullptr && i < column_index->null_pages.size()) {
      prune::ColumnBounds bounds =
          prune::BoundsFromPageIndex(column, *type, *column_index, i, page.num_rows);
      page.bounds = prune::DescribeColumnBounds(column.path, bounds, *type);
    }
    out.pages.push_back(std::move(page));
  }
}

RowGroupPlan MakeRowGroup(const PlannedFile& file, size_t g, const prune::RowGroupPlan& plan) {
  const RowGroup& rg = file.metadata->file().row_groups[g];
  RowGroupPlan out;
  out.index = static_cast<int64_t>(g);
  out.num_rows = plan.num_rows;
  out.decision = PublicDecision(plan.decision());
  if (out.decision == RowGroupDecision::kSelection) {
    for (const prune::RowRange& r : plan.rows.ranges()) out.selection.push_back({r.begin, r.end});
  }
  out.rows_selected = plan.rows.row_count();
  out.fully_matched = plan.fully_matched;
  out.rows_matched = plan.fully_matched ? out.rows_selected : plan.matched_rows.row_count();
  out.decided_by = plan.decided_by;
  int64_t before = plan.num_rows;
  for (const prune::Verdict& v : plan.verdicts) {
    Verdict pv;
    pv.stage = v.stage;
    pv.kind = PublicKind(v.kind);
    pv.rows_before = before;
    pv.rows_after = v.rows.row_count();
    pv.rows_matched = v.rows_matched;
    pv.evidence = v.evidence;
    before = pv.rows_after;
    out.verdicts.push_back(std::move(pv));
  }
  std::vector<int32_t> filter_leaves;
  if (file.proof_filter) {
    for (const expr::ColumnRef& c : file.proof_filter->columns) filter_leaves.push_back(c.leaf);
  }
  for (const ColumnChunk& chunk : rg.columns) {
    if (chunk.meta_data) out.compressed_bytes += chunk.meta_data->total_compressed_size;
  }
  const std::vector<ColumnDescriptor>& leaves = file.metadata->schema().columns();
  for (int32_t leaf : file.leaves) {
    if (leaf < 0 || static_cast<size_t>(leaf) >= rg.columns.size()) continue;
    const ColumnChunk& chunk = rg.columns[leaf];
    ColumnChunkPlan c;
    c.path = leaves[leaf].path;
    c.filter_column =
        std::find(filter_leaves.begin(), filter_leaves.end(), leaf) != filter_leaves.end();
    if (chunk.meta_data) {
      const ColumnMetaData& meta = *chunk.meta_data;
      c.offset = meta.dictionary_page_offset && *meta.dictionary_page_offset > 0
                     ? std::min(*meta.dictionary_page_offset, meta.data_page_offset)
                     : meta.data_page_offset;
      c.compressed_bytes = meta.total_compressed_size;
      c.uncompressed_bytes = meta.total_uncompressed_size;
      if (c.filter_column) c.bounds = ChunkBounds(leaves[leaf], meta, rg.num_rows);
    }
    AddPages(file, g, leaf, c.filter_column, plan, c);
    out.columns.push_back(std::move(c));
  }
  return out;
}

}  // namespace

AccessPlan MakePublicPlan(const PublicPlanInput& input) {
  AccessPlan out;
  out.filter = input.filter;
  const ScanStats& s = input.stats;
  out.files_total = s.files_total;
  out.files_skipped_by_partition = s.files_skipped_by_partition;
  out.files_skipped_by_manifest = s.files_skipped_by_manifest;
  out.footers_read = s.footers_read;
  out.row_groups_total = s.row_groups;
  out.row_groups_skipped = s.row_groups_skipped;
  out.row_groups_fully_matched = s.row_groups_fully_matched;
  out.rows_total = s.rows_total;
  out.file_bytes = s.file_bytes;
  out.bytes_read_for_plan = s.bytes_read;
  out.forecast = input.estimate;
  for (const prune::StageReport& r : input.plan->stages) {
    out.stages.push_back({r.stage, r.row_groups_considered, r.row_groups_skipped,
                          r.row_groups_fully_matched, r.rows_pruned, r.rows_matched, r.pages_total,
                          r.pages_pruned, r.pages_ruled_out_by_search, r.bytes_read, r.requests,
                          r.round_trips, r.evidence_loaded, r.evidence_too_large,
                          r.evidence_unusable, r.seconds});
  }
  std::vector<FilePlan> opened;
  for (size_t f = 0; f < input.files.size() && f < input.plan->files.size(); ++f) {
    const PlannedFile& file = *input.files[f];
    const prune::FilePlan& plan = input.plan->files[f];
    FilePlan fp;
    fp.path = plan.path;
    fp.size = file.file->size();
    fp.num_rows = file.metadata->num_rows();
    if (!file.fully_matched_by.empty()) fp.evidence = file.fully_matched_by;
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      fp.row_groups.push_back(MakeRowGroup(file, g, plan.row_groups[g]));
    }
    opened.push_back(std::move(fp));
  }
  // Both lists are in dataset (path) order when there are unopened files: merge by path.
  size_t u = 0;
  for (FilePlan& fp : opened) {
    while (u < input.unopened.size() && input.unopened[u].path < fp.path) {
      const UnopenedFile& x = input.unopened[u++];
      out.files.push_back({x.path, x.size, x.fate, x.evidence, -1, {}});
    }
    out.files.push_back(std::move(fp));
  }
  for (; u < input.unopened.size(); ++u) {
    const UnopenedFile& x = input.unopened[u];
    out.files.push_back({x.path, x.size, x.fate, x.evidence, -1, {}});
  }
  return out;
}

}  // namespace pqsift::scan
