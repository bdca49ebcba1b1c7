#include "prune/stage.h"

#include "column/arrow_type.h"
#include "prune/evidence.h"

namespace pqsift::prune {

FilterLeaf ResolveFilterLeaf(const FileContext& context, size_t filter_column) {
  const std::vector<ColumnDescriptor>& leaves = context.metadata.schema().columns();
  FilterLeaf out;
  int32_t leaf = context.filter.columns[filter_column].leaf;
  if (leaf < 0 || static_cast<size_t>(leaf) >= leaves.size()) return out;
  Result<std::shared_ptr<const DataType>> type = column::ArrowTypeForLeaf(leaves[leaf]);
  if (!type.ok()) return out;
  out.descriptor = &leaves[leaf];
  out.type = std::move(type).value();
  out.leaf = leaf;
  return out;
}

StatisticsTable RowGroupStatisticsTable(const FileContext& context,
                                        std::span<const size_t> groups) {
  const FileMetaData& file = context.metadata.file();
  StatisticsTable table;
  table.containers = static_cast<int64_t>(groups.size());
  table.bounds.resize(context.filter.columns.size());
  for (size_t k = 0; k < context.filter.columns.size(); ++k) {
    std::vector<ColumnBounds>& column = table.bounds[k];
    column.resize(groups.size());
    FilterLeaf leaf = ResolveFilterLeaf(context, k);
    for (size_t i = 0; i < groups.size(); ++i) {
      const RowGroup& rg = file.row_groups[groups[i]];
      column[i].num_rows = rg.num_rows;
      if (!leaf.known() || static_cast<size_t>(leaf.leaf) >= rg.columns.size()) continue;
      const std::optional<ColumnMetaData>& meta = rg.columns[leaf.leaf].meta_data;
      if (!meta) continue;
      column[i] = BoundsFromChunk(*leaf.descriptor, *leaf.type, *meta, rg.num_rows);
      const LogicalType::Kind kind = leaf.descriptor->logical_type.kind;
      if ((kind == LogicalType::Kind::kGeometry || kind == LogicalType::Kind::kGeography) &&
          meta->geospatial_statistics) {
        column[i].geo_bbox = meta->geospatial_statistics->bbox;
      }
    }
  }
  return table;
}

void ApplyRowGroupOutcome(Outcomes outcome, const std::string& stage,
                          const expr::BoundFilter& filter, const StatisticsTable& table, size_t c,
                          RowGroupPlan& plan, StageReport& report) {
  if (!CannotMatch(outcome) && !FullyMatches(outcome)) return;
  std::string evidence = DescribeBounds(filter, table, c) + ": " + DescribeOutcome(outcome);
  if (CannotMatch(outcome)) {
    report.rows_pruned += plan.rows.row_count();
    plan.Skip(stage, std::move(evidence));
    ++report.row_groups_skipped;
  } else if (FullyMatches(outcome)) {
    plan.MarkFullyMatched(stage, std::move(evidence));
    ++report.row_groups_fully_matched;
  }
}

Status CheckPlanMatchesFile(const FileContext& context, const FilePlan& plan) {
  const FileMetaData& file = context.metadata.file();
  if (plan.row_groups.size() == file.row_groups.size()) return Status::OK();
  return Status::Internal("access plan of '" + plan.path + "' has " +
                          std::to_string(plan.row_groups.size()) + " row groups, the file " +
                          std::to_string(file.row_groups.size()));
}

}  // namespace pqsift::prune
