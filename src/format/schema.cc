// Builds the schema tree from the footer's depth-first element list (parquet.thrift
// SchemaElement) and resolves legacy ConvertedTypes per LogicalTypes.md.
#include "pqsift/schema.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace pqsift {
namespace {

using Kind = LogicalType::Kind;

LogicalType Make(Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType MakeTemporal(Kind kind, TimeUnit unit) {
  LogicalType t = Make(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = true;  // LogicalTypes.md: the legacy types are UTC-adjusted
  return t;
}

LogicalType MakeInteger(int8_t bits, bool is_signed) {
  LogicalType t = Make(Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

LogicalType FromConvertedType(const SchemaElement& e) {
  switch (*e.converted_type) {
    case ConvertedType::kUtf8: return Make(Kind::kString);
    case ConvertedType::kMap: return Make(Kind::kMap);
    case ConvertedType::kMapKeyValue: return Make(Kind::kMapKeyValue);
    case ConvertedType::kList: return Make(Kind::kList);
    case ConvertedType::kEnum: return Make(Kind::kEnum);
    case ConvertedType::kDecimal: {
      LogicalType t = Make(Kind::kDecimal);
      t.scale = e.scale.value_or(0);
      t.precision = e.precision.value_or(0);
      return t;
    }
    case ConvertedType::kDate: return Make(Kind::kDate);
    case ConvertedType::kTimeMillis: return MakeTemporal(Kind::kTime, TimeUnit::kMillis);
    case ConvertedType::kTimeMicros: return MakeTemporal(Kind::kTime, TimeUnit::kMicros);
    case ConvertedType::kTimestampMillis: return MakeTemporal(Kind::kTimestamp, TimeUnit::kMillis);
    case ConvertedType::kTimestampMicros: return MakeTemporal(Kind::kTimestamp, TimeUnit::kMicros);
    case ConvertedType::kUint8: return MakeInteger(8, false);
    case ConvertedType::kUint16: return MakeInteger(16, false);
    case ConvertedType::kUint32: return MakeInteger(32, false);
    case ConvertedType::kUint64: return MakeInteger(64, false);
    case ConvertedType::kInt8: return MakeInteger(8, true);
    case ConvertedType::kInt16: return MakeInteger(16, true);
    case ConvertedType::kInt32: return MakeInteger(32, true);
    case ConvertedType::kInt64: return MakeInteger(64, true);
    case ConvertedType::kJson: return Make(Kind::kJson);
    case ConvertedType::kBson: return Make(Kind::kBson);
    case ConvertedType::kInterval: return Make(Kind::kInterval);
  }
  return Make(Kind::kNone);  // a converted type from the future: the physical type alone
}

Status Bad(size_t index, const SchemaElement& e, const std::string& what) {
  return Status::Corruption("schema element " + std::to_string(index) + " ('" +
                            std::string(e.name) + "'): " + what);
}

Status ValidateLeaf(size_t index, const SchemaElement& e, const LogicalType& logical) {
  auto type = *e.type;
  if (static_cast<int32_t>(type) < 0 || static_cast<int32_t>(type) > 7) {
    return Bad(index, e, "unknown physical type " + std::to_string(static_cast<int32_t>(type)));
  }
  if (type == PhysicalType::kFixedLenByteArray && (!e.type_length || *e.type_length < 0)) {
    return Bad(index, e, "FIXED_LEN_BYTE_ARRAY without a valid type_length");
  }
  if (logical.kind == Kind::kDecimal &&
      (logical.precision <= 0 || logical.scale < 0 || logical.scale > logical.precision)) {
    return Bad(index, e,
               "DECIMAL with precision " + std::to_string(logical.precision) + " and scale " +
                   std::to_string(logical.scale));
  }
  return Status::OK();
}

}  // namespace

LogicalType ResolveLogicalType(const SchemaElement& e) {
  if (e.logical_type && e.logical_type->kind != Kind::kUnrecognized) return *e.logical_type;
  if (e.converted_type) return FromConvertedType(e);
  return e.logical_type ? *e.logical_type : Make(Kind::kNone);
}

Result<Schema> Schema::Build(std::span<const SchemaElement> elements,
                             const std::vector<ColumnOrder>* column_orders) {
  if (elements.empty()) return Status::Corruption("schema has no elements");
  Schema s;
  s.nodes_.reserve(elements.size());

  // Elements arrive depth first; `open` holds the groups still expecting children, with the
  // number each still expects. Iterative, so deep nesting cannot overflow the stack.
  struct OpenGroup {
    int32_t node;
    int32_t remaining;
  };
  std::vector<OpenGroup> open;
  for (size_t i = 0; i < elements.size(); ++i) {
    const SchemaElement& e = elements[i];
    if (i > 0 && open.empty()) {
      return Bad(i, e, "lies outside the root (the root declares fewer children)");
    }
    SchemaNode node;
    node.name = e.name;
    node.converted_type = e.converted_type;
    node.field_id = e.field_id;
    node.logical_type = ResolveLogicalType(e);
    if (i > 0) {
      if (!e.repetition_type) return Bad(i, e, "no repetition type");
      auto rep = *e.repetition_type;
      if (static_cast<int32_t>(rep) < 0 || static_cast<int32_t>(rep) > 2) {
        return Bad(i, e, "repetition " + RepetitionName(rep) + " is not supported");
      }
      node.repetition = rep;
      const SchemaNode& parent = s.nodes_[open.back().node];
      node.parent = open.back().node;
      node.max_definition_level = parent.max_definition_level + (rep != Repetition::kRequired);
      node.max_repetition_level = parent.max_repetition_level + (rep == Repetition::kRepeated);
      // Required groups add no definition level, so the depth is limited too: path building
      // and anything walking the tree stay linear and shallow on hostile schemas.
      if (node.max_definition_level > 1000 || open.size() > 1000) {
        return Bad(i, e, "nesting too deep");
      }
    }
    auto index = static_cast<int32_t>(s.nodes_.size());
    // A typed element with num_children == 0 is a leaf (parquet-cpp writes that; Arrow and
    // parquet-rs read it so); the root is a group whenever it declares num_children.
    bool is_group = !e.type.has_value() || e.num_children.value_or(0) != 0 ||
                    (i == 0 && e.num_children.has_value());
    if (i == 0 && !is_group) return Bad(i, e, "the root is not a group");
    if (!is_group) {
      PQSIFT_RETURN_IF_ERROR(ValidateLeaf(i, e, node.logical_type));
      node.physical_type = *e.type;
      node.type_length = e.type_length.value_or(0);
      node.column_index = static_cast<int32_t>(s.columns_.size());
      ColumnDescriptor col;
      col.node = index;
      col.physical_type = node.physical_type.value();
      col.type_length = node.type_length;
      col.logical_type = node.logical_type;
      col.converted_type = node.converted_type;
      col.max_definition_level = node.max_definition_level;
      col.max_repetition_level = node.max_repetition_level;
      s.columns_.push_back(std::move(col));
    }
    if (node.parent >= 0) s.nodes_[node.parent].children.push_back(index);
    s.nodes_.push_back(std::move(node));

    if (i > 0) --open.back().remaining;
    if (is_group) {
      int32_t n = e.num_children.value_or(0);
      if (n < 0) return Bad(i, e, "negative num_children");
      if (static_cast<size_t>(n) > elements.size() - i - 1) {
        return Bad(i, e, "num_children " + std::to_string(n) + " exceeds the elements left");
      }
      open.push_back({index, n});
    }
    while (!open.empty() && open.back().remaining == 0) open.pop_back();
  }
  if (!open.empty()) {
    return Status::Corruption("schema ends while group '" +
                              std::string(s.nodes_[open.back().node].name) +
                              "' still expects children");
  }

  // Paths, from each leaf up to (not including) the root.
  for (ColumnDescriptor& col : s.columns_) {
    for (int32_t n = col.node; n > 0; n = s.nodes_[n].parent) {
      col.path_parts.push_back(s.nodes_[n].name);
    }
    std::reverse(col.path_parts.begin(), col.path_parts.end());
    for (size_t k = 0; k < col.path_parts.size(); ++k) {
      if (k > 0) col.path += '.';
      col.path += col.path_parts[k];
    }
  }
  // Every node's dotted path, parents before children (the elements are depth-first).
  s.node_paths_.resize(s.nodes_.size());
  for (size_t n = 1; n < s.nodes_.size(); ++n) {
    const int32_t parent = s.nodes_[n].parent;
    s.node_paths_[n] = parent <= 0 ? std::string(s.nodes_[n].name)
                                   : s.node_paths_[static_cast<size_t>(parent)] + "." +
                                         std::string(s.nodes_[n].name);
  }
  if (column_orders && column_orders->size() == s.columns_.size()) {
    for (size_t c = 0; c < s.columns_.size(); ++c) s.columns_[c].column_order = (*column_orders)[c];
  }
  return s;
}

const ColumnDescriptor* Schema::FindColumn(std::string_view path) const {
  for (const ColumnDescriptor& c : columns_) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

int32_t Schema::FindNode(std::string_view path) const {
  auto equals_ignoring_case = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) ==
                    std::tolower(static_cast<unsigned char>(y));
           });
  };
  int32_t found = -1;
  bool ambiguous = false;
  for (size_t n = 1; n < nodes_.size(); ++n) {
    const std::string& node_path = node_paths_[n];
    if (node_path == path) return static_cast<int32_t>(n);
    if (equals_ignoring_case(node_path, path)) {
      ambiguous = found >= 0;
      found = static_cast<int32_t>(n);
    }
  }
  return ambiguous ? -1 : found;
}

}  // namespace pqsift
