#include "dataset/unify.h"

#include <cstring>
#include <deque>

#include "arrow/widen.h"
#include "column/nested.h"
#include "dataset/partition.h"
#include "format/metadata_encoder.h"

namespace pqsift::dataset {
namespace {

struct UnifiedSchema {
  std::vector<std::shared_ptr<const ParquetMetadata>> footers;  // the names point into them
  std::deque<std::string> names;
  Schema schema;
};

struct UnifiedField {
  std::string name;
  std::shared_ptr<const DataType> type;
  size_t source = 0;  // the file whose elements describe the field (the widest type)
  int32_t node = 0;   // the field's node in that file's schema
  bool optional = false;
  size_t files_with_it = 0;
};

int32_t SubtreeSize(const Schema& schema, int32_t node) {
  int32_t n = 1;
  for (int32_t child : schema.nodes()[node].children) n += SubtreeSize(schema, child);
  return n;
}

}  // namespace

namespace {

Result<std::vector<UnifiedField>> UnifyFields(
    std::span<const std::shared_ptr<const ParquetMetadata>> files) {
  std::vector<UnifiedField> fields;
  for (size_t f = 0; f < files.size(); ++f) {
    const Schema& schema = files[f]->schema();
    for (int32_t child : schema.root().children) {
      const SchemaNode& node = schema.nodes()[child];
      std::vector<int32_t> leaves;
      auto plan = column::PlanNode(schema, child, &leaves);
      if (!plan.ok()) {
        return plan.status().WithContext(files[f]->file_name() + ": column '" +
                                         std::string(node.name) + "'");
      }
      bool optional = node.repetition != Repetition::kRequired;
      UnifiedField* found = nullptr;
      for (UnifiedField& u : fields) {
        if (u.name == node.name) found = &u;
      }
      if (found == nullptr) {
        fields.push_back({std::string(node.name), plan->type, f, child, optional || f > 0, 1});
        continue;
      }
      std::shared_ptr<const DataType> wider = WiderType(found->type, plan->type);
      if (wider == nullptr) {
        return Status::InvalidArgument("column '" + found->name + "' is " +
                                       found->type->ToString() + " in " +
                                       files[found->source]->file_name() + " but " +
                                       plan->type->ToString() + " in " + files[f]->file_name());
      }
      if (wider != found->type && !(*wider == *found->type)) {
        found->type = wider;
        found->source = f;
        found->node = child;
      }
      found->optional = found->optional || optional;
      ++found->files_with_it;
    }
  }
  for (UnifiedField& u : fields) u.optional = u.optional || u.files_with_it < files.size();
  return fields;
}

// The elements of the fields (root first), copied from each field's source file.
Result<std::vector<SchemaElement>> FieldElements(
    std::span<const std::shared_ptr<const ParquetMetadata>> files,
    const std::vector<UnifiedField>& fields, size_t more_children) {
  std::vector<SchemaElement> elements;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(fields.size() + more_children);
  elements.push_back(root);
  for (const UnifiedField& u : fields) {
    const FileMetaData& meta = files[u.source]->file();
    int32_t size = SubtreeSize(files[u.source]->schema(), u.node);
    if (static_cast<size_t>(u.node) + static_cast<size_t>(size) > meta.schema.size()) {
      return Status::Internal("schema tree and elements of " + files[u.source]->file_name() +
                              " disagree");
    }
    for (int32_t k = 0; k < size; ++k) elements.push_back(meta.schema[u.node + k]);
    SchemaElement& top = elements[elements.size() - static_cast<size_t>(size)];
    if (u.optional && top.repetition_type == Repetition::kRequired) {
      top.repetition_type = Repetition::kOptional;
    }
  }
  return elements;
}

}  // namespace

Result<std::vector<SchemaElement>> UnifiedElements(
    std::span<const std::shared_ptr<const ParquetMetadata>> files) {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<UnifiedField> fields, UnifyFields(files));
  return FieldElements(files, fields, 0);
}

Result<std::shared_ptr<const Schema>> UnifySchemas(
    std::span<const std::shared_ptr<const ParquetMetadata>> files,
    const std::vector<PartitionField>& partitions) {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<UnifiedField> fields, UnifyFields(files));

  auto out = std::make_shared<UnifiedSchema>();
  out->footers.assign(files.begin(), files.end());
  PQSIFT_ASSIGN_OR_RETURN(std::vector<SchemaElement> elements,
                          FieldElements(files, fields, partitions.size()));
  for (const PartitionField& p : partitions) {
    for (const UnifiedField& u : fields) {
      if (u.name == p.name) {
        return Status::InvalidArgument("'" + p.name +
                                       "' is both a hive partition key and a column of " +
                                       files[u.source]->file_name());
      }
    }
    out->names.push_back(p.name);
    elements.push_back(PartitionElement(out->names.back(), p.type));
  }
  PQSIFT_ASSIGN_OR_RETURN(out->schema, Schema::Build(elements, nullptr));
  return std::shared_ptr<const Schema>(out, &out->schema);
}

}  // namespace pqsift::dataset

namespace pqsift::dataset {

Result<std::shared_ptr<const ParquetMetadata>> SchemaOnlyMetadata(
    const std::vector<SchemaElement>& elements) {
  FileMetaData meta;
  meta.version = 2;
  meta.schema = elements;
  std::string bytes = format::EncodeFooter(meta);
  Buffer footer(bytes.size());
  std::memcpy(footer.mutable_data(), bytes.data(), bytes.size());
  // As if it were the footer of a file holding nothing else.
  return DecodeParquetMetadata("dataset schema", bytes.size() + 12, std::move(footer));
}

}  // namespace pqsift::dataset
