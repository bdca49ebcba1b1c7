#include "scan/column_resolver.h"

#include "arrow/widen.h"
#include "column/arrow_type.h"
#include "expr/substitute.h"
#include "scan/constant_array.h"
#include "scan/runtime_check.h"
#include "scan/variant_proof.h"

namespace pqsift::scan {
namespace {

Result<int32_t> FindNode(const Schema& schema, const std::string& path) {
  int32_t node = schema.FindNode(path);
  if (node < 0) return Status::InvalidArgument("no column '" + path + "'");
  return node;
}

}  // namespace

Result<std::vector<DecodedColumn>> ResolveOutputColumns(const Schema& tree,
                                                        const std::vector<std::string>& paths,
                                                        const std::string& where,
                                                        std::shared_ptr<const BatchSchema>* schema,
                                                        const std::string& filename_column) {
  std::vector<std::string> names = paths;
  if (names.empty()) {
    for (int32_t child : tree.root().children) names.emplace_back(tree.nodes()[child].name);
  }
  auto batch_schema = std::make_shared<BatchSchema>();
  std::vector<DecodedColumn> columns;
  for (const std::string& name : names) {
    auto node = FindNode(tree, name);
    if (!node.ok()) return node.status().WithContext(where);
    DecodedColumn col;
    // Resolved in each file by the schema's own spelling; the batch keeps the caller's.
    col.path = tree.NodePath(*node);
    auto plan = column::PlanNode(tree, *node, &col.leaves);
    if (!plan.ok()) {
      return plan.status().WithContext(std::string(where).append(": column '").append(name) + "'");
    }
    col.type = plan->type;
    // One file's name under every row: 4 bytes a row instead of the whole path (and what
    // pandas and Polars make a categorical of).
    if (!filename_column.empty() && col.path == filename_column) col.type = Dictionary(col.type);
    const SchemaNode& n = tree.nodes()[*node];
    batch_schema->fields.push_back({name, col.type, n.repetition != Repetition::kRequired});
    columns.push_back(std::move(col));
  }
  *schema = std::move(batch_schema);
  return columns;
}

Result<DecodedColumn> ColumnResolver::Resolve(const PlannedFile& file, const std::string& path,
                                              const std::shared_ptr<const DataType>& type) const {
  DecodedColumn col;
  col.path = path;
  col.type = type;
  if (!row_index_column_.empty() && path == row_index_column_) {
    col.row_index = true;
    return col;
  }
  for (size_t p = 0; p < partition_columns_.size(); ++p) {
    if (partition_columns_[p] == path) {
      col.constant = file.partition_values.at(p);
      if (type->id == TypeId::kDictionary && !col.constant->is_null()) {
        // Made once per file, shared by every batch of the file.
        PQSIFT_ASSIGN_OR_RETURN(col.constant_dictionary,
                                MakeConstantArray(type->value_type, *col.constant, 1));
      }
      return col;
    }
  }
  const Schema& file_schema = file.metadata->schema();
  const std::string& name = file.metadata->file_name();
  auto node = FindNode(file_schema, path);
  if (!node.ok()) {
    if (!missing_are_null_) {
      return Status::InvalidArgument("column '" + path + "' is in " + first_file_ + " but not in " +
                                     name);
    }
    col.constant = expr::Value::Null();
    return col;
  }
  auto plan = column::PlanNode(file_schema, *node, &col.leaves);
  if (!plan.ok()) return plan.status().WithContext(name + ": column '" + path + "'");
  col.plan = std::move(plan).value();
  if (!(*col.plan.type == *type)) {
    if (!CanWiden(*col.plan.type, *type)) {
      return Status::InvalidArgument("column '" + path + "' is " + type->ToString() +
                                     " in the scan (" + first_file_ + ") but " +
                                     col.plan.type->ToString() + " in " + name);
    }
    col.widen = true;
  }
  return col;
}

Status ColumnResolver::ResolveOutputs(const std::vector<DecodedColumn>& columns,
                                      PlannedFile* file) const {
  for (const DecodedColumn& col : columns) {
    PQSIFT_ASSIGN_OR_RETURN(DecodedColumn resolved, Resolve(*file, col.path, col.type));
    file->output_columns.push_back(std::move(resolved));
  }
  return Status::OK();
}

Status ColumnResolver::BindFilter(const expr::BoundFilter& filter, PlannedFile* file) const {
  std::vector<std::optional<expr::Value>> constants;
  for (const expr::ColumnRef& ref : filter.columns) {
    PQSIFT_ASSIGN_OR_RETURN(DecodedColumn col, Resolve(*file, ref.path, ref.type));
    constants.push_back(col.constant);
    file->filter_columns.push_back(std::move(col));
  }
  file->filter = filter;
  file->proof_filter = expr::SubstituteConstants(filter, constants);
  auto scan_filter = std::make_shared<SliceFilter>();
  scan_filter->filter = filter;
  for (const DecodedColumn& col : file->filter_columns) scan_filter->columns.push_back(&col);
  scan_filter->MatchOutputColumns(file->output_columns);
  file->scan_filter = std::move(scan_filter);
  // The stages read statistics of this file's leaves, in the file's own types.
  const Schema& file_schema = file->metadata->schema();
  for (expr::ColumnRef& ref : file->proof_filter->columns) {
    int32_t node = file_schema.FindNode(ref.path);
    if (node < 0 || !file_schema.nodes()[static_cast<size_t>(node)].is_leaf()) {
      ref.leaf = -1;  // no such leaf in the file: nothing known
      continue;
    }
    ref.leaf = file_schema.nodes()[static_cast<size_t>(node)].column_index;
    auto type = column::ArrowTypeForLeaf(file_schema.columns()[static_cast<size_t>(ref.leaf)]);
    if (type.ok()) ref.type = *type;
  }
  // Variant paths the file shreds are proved by their typed_value columns.
  file->proof_filter = RewriteShreddedPaths(*file->proof_filter, file_schema);
  return Status::OK();
}

Status ColumnResolver::BindRuntimeColumns(const RuntimeFilter& runtime, const PlannedFile* first,
                                          PlannedFile* file) const {
  const Schema& schema = file->metadata->schema();
  for (const std::string& path : runtime.columns()) {
    auto ref = ResolveLeafColumn(path, schema);
    if (!ref.ok())
      return ref.status().WithContext(file->metadata->file_name() + ": runtime filter");
    size_t k = file->runtime_refs.size();
    if (first != nullptr && !(*first->runtime_refs[k].type == *ref->type)) {
      return Status::InvalidArgument("runtime filter column '" + path + "' differs between " +
                                     first->metadata->file_name() + " and " +
                                     file->metadata->file_name());
    }
    DecodedColumn col;
    col.path = ref->path;
    PQSIFT_ASSIGN_OR_RETURN(
        col.plan, column::PlanNode(schema, schema.columns()[ref->leaf].node, &col.leaves));
    file->runtime_refs.push_back(*std::move(ref));
    file->runtime_columns.push_back(std::move(col));
  }
  return Status::OK();
}

}  // namespace pqsift::scan
