#include "scan/virtual_columns.h"

#include "pqsift/storage.h"

#include <algorithm>
#include <cctype>

namespace pqsift::scan {
namespace {

bool SameName(const std::string& a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// A schema and what its element names point into.
struct OwnedSchema {
  std::shared_ptr<const ParquetMetadata> first;
  std::vector<VirtualColumn> columns;
  Schema schema;
};

}  // namespace

std::vector<VirtualColumn> VirtualColumnsOf(const ScanOptions& options) {
  std::vector<VirtualColumn> out;
  if (!options.row_index_column.empty()) {
    out.push_back({VirtualColumn::Kind::kRowIndex, options.row_index_column});
  }
  if (!options.filename_column.empty()) {
    out.push_back({VirtualColumn::Kind::kFilename, options.filename_column});
  }
  return out;
}

SchemaElement VirtualColumnElement(const VirtualColumn& column) {
  SchemaElement e;
  e.name = column.name;
  // Optional, as a dataset's partition columns and DuckDB's virtual columns are typed.
  e.repetition_type = Repetition::kOptional;
  if (column.kind == VirtualColumn::Kind::kRowIndex) {
    e.type = PhysicalType::kInt64;
  } else {
    e.type = PhysicalType::kByteArray;
    LogicalType logical;
    logical.kind = LogicalType::Kind::kString;
    e.logical_type = logical;
  }
  return e;
}

Status CheckNoNameClash(const Schema& schema, const ScanOptions& options, const std::string& file) {
  std::vector<VirtualColumn> columns = VirtualColumnsOf(options);
  if (columns.size() == 2 && SameName(columns[0].name, columns[1].name)) {
    return Status::InvalidArgument("the row index and the filename columns are both named '" +
                                   columns[0].name + "'");
  }
  for (const VirtualColumn& c : columns) {
    for (int32_t child : schema.root().children) {
      if (SameName(c.name, schema.nodes()[static_cast<size_t>(child)].name)) {
        return Status::InvalidArgument("virtual column '" + c.name + "' is also a column of " +
                                       file + "; give it another name");
      }
    }
  }
  return Status::OK();
}

Result<std::shared_ptr<const Schema>> SchemaWithVirtualColumns(
    std::shared_ptr<const ParquetMetadata> first, const ScanOptions& options) {
  auto out = std::make_shared<OwnedSchema>();
  out->first = std::move(first);
  out->columns = VirtualColumnsOf(options);
  std::vector<SchemaElement> elements = out->first->file().schema;
  if (elements.empty()) return Status::InvalidArgument("a file without a schema");
  elements[0].num_children =
      elements[0].num_children.value_or(0) + static_cast<int32_t>(out->columns.size());
  for (const VirtualColumn& c : out->columns) elements.push_back(VirtualColumnElement(c));
  PQSIFT_ASSIGN_OR_RETURN(out->schema, Schema::Build(elements, nullptr));
  return std::shared_ptr<const Schema>(out, &out->schema);
}

Status PrepareVirtualColumns(const ScanOptions& options, ScanInput* input) {
  if (VirtualColumnsOf(options).empty()) return Status::OK();
  for (const ScanFile& f : input->files) {
    PQSIFT_RETURN_IF_ERROR(
        CheckNoNameClash(f.metadata->schema(), options, f.metadata->file_name()));
  }
  if (!input->schema) {
    if (input->files.empty()) return Status::InvalidArgument("no files to scan");
    PQSIFT_ASSIGN_OR_RETURN(input->schema,
                            SchemaWithVirtualColumns(input->files.front().metadata, options));
    input->strict_columns = true;
  }
  const std::string& filename = options.filename_column;
  const auto& partitions = input->partition_columns;
  if (!filename.empty() &&
      std::find(partitions.begin(), partitions.end(), filename) == partitions.end()) {
    input->partition_columns.push_back(filename);
    for (ScanFile& f : input->files) {
      // Without user info or a query string: they may hold secrets (a presigned URL's).
      f.partition_values.push_back(expr::Value::Bytes(RedactUrl(f.file->name())));
    }
  }
  return Status::OK();
}

}  // namespace pqsift::scan
