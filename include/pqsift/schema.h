// The schema tree of a Parquet file, built once from the footer's flat, depth-first list of
// SchemaElements: nodes with children, and the leaf columns with their dotted paths, maximum
// definition and repetition levels, and resolved logical types.
//
// Lifetime: names are views into the footer buffer (see metadata.h).
// Thread safety: immutable after Build; may be read from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift {

struct SchemaNode {
  std::string_view name;
  std::optional<Repetition> repetition;       // unset only on the root
  std::optional<PhysicalType> physical_type;  // set on leaves only
  int32_t type_length = 0;                    // FIXED_LEN_BYTE_ARRAY width
  // The annotation as written: logicalType if present and known, else the ConvertedType
  // translated per LogicalTypes.md (e.g. TIMESTAMP_MILLIS is TIMESTAMP(MILLIS, UTC)).
  LogicalType logical_type;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> field_id;
  int32_t parent = -1;               // index into Schema::nodes(); -1 for the root
  std::vector<int32_t> children;     // indices into Schema::nodes()
  int16_t max_definition_level = 0;  // counting this node
  int16_t max_repetition_level = 0;
  int32_t column_index = -1;  // the leaf's ordinal among leaves; -1 for groups

  bool is_leaf() const { return physical_type.has_value(); }
};

// One leaf column: what a column chunk holds.
struct ColumnDescriptor {
  int32_t node = 0;  // index into Schema::nodes()
  std::string path;  // "a.b.c"
  std::vector<std::string_view> path_parts;
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;
  LogicalType logical_type;
  std::optional<ConvertedType> converted_type;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  // The order min_value/max_value were computed in, from FileMetaData.column_orders. Unset
  // when the file gives none (then those fields have no defined meaning).
  std::optional<ColumnOrder> column_order;
};

class Schema {
 public:
  // Builds and validates the tree: every group's children exist, leaves have a physical type,
  // FIXED_LEN_BYTE_ARRAY has a width, decimal parameters are sane, levels fit in int16.
  // Corruption naming the element otherwise. `column_orders` may be null or of any length
  // (a list whose length does not match the leaves is ignored: bounds become untrusted).
  static Result<Schema> Build(std::span<const SchemaElement> elements,
                              const std::vector<ColumnOrder>* column_orders);

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& root() const { return nodes_.front(); }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  size_t num_columns() const { return columns_.size(); }

  // The leaf with dotted path `path`, or null.
  const ColumnDescriptor* FindColumn(std::string_view path) const;
  // The node (leaf or group) a user's dotted path names: the one whose path is `path`, else the
  // only one whose path equals it ignoring ASCII case (as DuckDB resolves names); -1 when none
  // or several do. The one resolution for projections, filters, ORDER BY and runtime filters.
  int32_t FindNode(std::string_view path) const;
  // The dotted path of node `node` ("" for the root).
  const std::string& NodePath(int32_t node) const { return node_paths_[static_cast<size_t>(node)]; }

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<std::string> node_paths_;  // per node, built once: FindNode compares against them
};

// The logical type an element declares (see SchemaNode::logical_type).
LogicalType ResolveLogicalType(const SchemaElement& element);

}  // namespace pqsift
