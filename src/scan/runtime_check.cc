#include "scan/runtime_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "arrow/layout.h"
#include "expr/binder.h"
#include "prune/stage.h"
#include "prune/statistics.h"

namespace pqsift::scan {

Result<expr::ColumnRef> ResolveLeafColumn(const std::string& path, const Schema& schema) {
  // The filter language's own resolution of a (quoted, dotted) name: one rule for both.
  std::string text;
  size_t pos = 0;
  for (;;) {
    size_t dot = path.find('.', pos);
    std::string part = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    text += '"';
    for (char c : part) text += c == '"' ? std::string("\"\"") : std::string(1, c);
    text += '"';
    if (dot == std::string::npos) break;
    text += '.';
    pos = dot + 1;
  }
  auto bound = expr::BindFilter(text + " IS NULL", schema);
  if (!bound.ok()) {
    return Status::InvalidArgument("column '" + path + "': " + bound.status().message());
  }
  if (bound->columns.size() != 1) return Status::InvalidArgument("no leaf column '" + path + "'");
  return bound->columns.front();
}

Result<BoundRuntimeFilter> BindRuntimeFilter(const RuntimeSnapshot& snapshot,
                                             const std::vector<expr::ColumnRef>& refs,
                                             const std::string& file_name) {
  BoundRuntimeFilter out;
  out.version = snapshot.version;
  std::vector<int32_t> index(refs.size(), -1);
  for (size_t k = 0; k < snapshot.columns.size() && k < refs.size(); ++k) {
    const ColumnConstraint& c = snapshot.columns[k];
    if (!c.active()) continue;
    if (!(*c.type == *refs[k].type)) {
      return Status::InvalidArgument(file_name + ": runtime filter column '" + refs[k].path +
                                     "' is " + refs[k].type->ToString() +
                                     ", the values published " + c.type->ToString());
    }
    index[k] = static_cast<int32_t>(out.filter.columns.size());
    out.filter.columns.push_back(refs[k]);
    out.declared.push_back(k);
  }
  out.filter.root = RuntimeExpr(snapshot, refs, [&](size_t k) { return index[k]; });
  out.filter.text = "runtime filter";
  return out;
}

CombinedFilter CombineFilters(const expr::BoundFilter* scan_filter, const RuntimeSnapshot& snapshot,
                              const std::vector<expr::ColumnRef>& refs) {
  CombinedFilter out;
  if (scan_filter != nullptr) out.filter = *scan_filter;
  std::vector<int32_t> index(refs.size(), -1);
  for (size_t k = 0; k < snapshot.columns.size() && k < refs.size(); ++k) {
    if (!snapshot.columns[k].active()) continue;
    for (size_t i = 0; i < out.filter.columns.size(); ++i) {
      if (out.filter.columns[i].leaf == refs[k].leaf) index[k] = static_cast<int32_t>(i);
    }
    if (index[k] >= 0) continue;
    index[k] = static_cast<int32_t>(out.filter.columns.size());
    out.filter.columns.push_back(refs[k]);
    out.added.push_back(k);
  }
  auto runtime = RuntimeExpr(snapshot, refs, [&](size_t k) { return index[k]; });
  if (!runtime) return out;
  if (!out.filter.root) {
    out.filter.root = runtime;
    return out;
  }
  auto both = std::make_shared<expr::Expr>();
  both->op = expr::Op::kAnd;
  both->type = Boolean();
  both->children = {out.filter.root, runtime};
  out.filter.root = std::move(both);
  return out;
}

namespace {

// Pages of a column chunk holding at least one row of `rows`.
int64_t PagesHolding(const format::PageRows& pages, const prune::RowSelection& rows) {
  int64_t out = 0;
  auto range = rows.ranges().begin();
  for (size_t i = 0; i < pages.pages(); ++i) {
    while (range != rows.ranges().end() && range->end <= pages.first_row(i)) ++range;
    if (range != rows.ranges().end() && range->begin < pages.end_row(i)) ++out;
  }
  return out;
}

}  // namespace

Result<RuntimeCheck> CheckRowGroup(const BoundRuntimeFilter& filter, RandomAccessFile& file,
                                   const ParquetMetadata& metadata,
                                   format::PageIndexStore* page_indexes, size_t row_group,
                                   const prune::RowSelection& rows) {
  // A plan where only this row group is undecided: the stages pass over the others.
  prune::FilePlan plan;
  plan.path = file.name();
  plan.row_groups.resize(metadata.file().row_groups.size());
  if (row_group >= plan.row_groups.size()) {
    return Status::Internal(file.name() + ": no row group " + std::to_string(row_group));
  }
  prune::RowGroupPlan& target = plan.row_groups[row_group];
  target.num_rows = metadata.file().row_groups[row_group].num_rows;
  target.rows = rows;
  prune::FileContext context{metadata, file, filter.filter, page_indexes, {}, false};
  RuntimeCheck out;
  std::unique_ptr<prune::PruningStage> stages[] = {prune::MakeRowGroupStatisticsStage(),
                                                   prune::MakePageIndexStage()};
  for (const auto& stage : stages) {
    prune::StageReport report;
    PQSIFT_RETURN_IF_ERROR(stage->Apply(context, plan, report));
  }
  out.rows = target.rows;
  out.matched = target.fully_matched ? target.rows : target.matched_rows;
  if (!out.rows.empty() && page_indexes != nullptr) {
    for (const expr::ColumnRef& ref : filter.filter.columns) {
      const format::OffsetIndex* index = page_indexes->offset_index(row_group, ref.leaf);
      if (index == nullptr) continue;
      format::PageRows pages{index, target.num_rows};
      out.pages_pruned += PagesHolding(pages, rows) - PagesHolding(pages, out.rows);
    }
  }
  return out;
}

namespace {

// The promise of a container (row group, page) with bounds `b` of `column`.
Promise PromiseOf(const prune::ColumnBounds& b, const expr::ColumnRef& column, bool descending,
                  bool nulls_first) {
  Promise out;
  out.leading_nulls = nulls_first && (!b.null_count || *b.null_count > 0);
  out.edge = descending ? b.max : b.min;
  if (descending && out.edge && layout::IsFloatingPoint(column.type->id) && b.may_contain_nan) {
    out.edge = expr::Value::Float(std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

}  // namespace

Promise RowGroupPromise(const ParquetMetadata& metadata, const expr::ColumnRef& column,
                        size_t row_group, bool descending, bool nulls_first) {
  const RowGroup& rg = metadata.file().row_groups[row_group];
  const auto& leaves = metadata.schema().columns();
  if (column.leaf < 0 || static_cast<size_t>(column.leaf) >= leaves.size() ||
      static_cast<size_t>(column.leaf) >= rg.columns.size() || !rg.columns[column.leaf].meta_data) {
    Promise unknown;
    unknown.leading_nulls = nulls_first;
    return unknown;
  }
  return PromiseOf(prune::BoundsFromChunk(leaves[column.leaf], *column.type,
                                          *rg.columns[column.leaf].meta_data, rg.num_rows),
                   column, descending, nulls_first);
}

Promise RowRangePromise(const ParquetMetadata& metadata, const expr::ColumnRef& column,
                        const format::PageIndexStore& page_indexes, size_t row_group, int64_t begin,
                        int64_t end, bool descending, bool nulls_first) {
  Promise unknown;
  unknown.leading_nulls = nulls_first;
  const auto& leaves = metadata.schema().columns();
  if (column.leaf < 0 || static_cast<size_t>(column.leaf) >= leaves.size()) return unknown;
  const format::OffsetIndex* offsets = page_indexes.offset_index(row_group, column.leaf);
  const format::ColumnIndex* index = page_indexes.column_index(row_group, column.leaf);
  if (offsets == nullptr || index == nullptr ||
      index->null_pages.size() != offsets->page_locations.size()) {
    return unknown;
  }
  format::PageRows pages{offsets, metadata.file().row_groups[row_group].num_rows};
  std::optional<Promise> best;
  // The first page holding row `begin`: the last that starts at or before it.
  const auto& locations = offsets->page_locations;
  auto after = std::upper_bound(
      locations.begin(), locations.end(), begin,
      [](int64_t row, const format::PageLocation& page) { return row < page.first_row_index; });
  size_t first =
      after == locations.begin() ? 0 : static_cast<size_t>(after - locations.begin()) - 1;
  for (size_t p = first; p < pages.pages() && pages.first_row(p) < end; ++p) {
    if (pages.end_row(p) <= begin) continue;
    Promise page = PromiseOf(prune::BoundsFromPageIndex(leaves[column.leaf], *column.type, *index,
                                                        p, pages.end_row(p) - pages.first_row(p)),
                             column, descending, nulls_first);
    if (!best || MorePromising(page, *best, descending)) best = std::move(page);
  }
  return best ? *best : unknown;
}

bool MorePromising(const Promise& a, const Promise& b, bool descending) {
  if (a.leading_nulls != b.leading_nulls) return a.leading_nulls;
  if (!a.edge || !b.edge) return a.edge.has_value() && !b.edge.has_value();
  if (a.edge->kind != b.edge->kind) return false;
  int c = expr::Compare(*a.edge, *b.edge);
  return descending ? c > 0 : c < 0;
}

std::vector<size_t> MostPromisingFirst(const std::vector<Promise>& promises, bool descending) {
  std::vector<size_t> order(promises.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return MorePromising(promises[a], promises[b], descending);
  });
  return order;
}

}  // namespace pqsift::scan
