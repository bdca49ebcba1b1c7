#include "prune/stage.h"

#include "column/arrow_type.h"

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

Status CheckPlanMatchesFile(const FileContext& context, const FilePlan& plan) {
  const FileMetaData& file = context.metadata.file();
  if (plan.row_groups.size() == file.row_groups.size()) return Status::OK();
  return Status::Internal("access plan of '" + plan.path + "' has " +
                          std::to_string(plan.row_groups.size()) + " row groups, the file " +
                          std::to_string(file.row_groups.size()));
}

}  // namespace pqsift::prune
