#include "scan/variant_proof.h"

#include <optional>
#include <utility>
#include <vector>

#include "arrow/layout.h"
#include "column/arrow_type.h"
#include "variant/shredding.h"

namespace pqsift::scan {
namespace {

using ExprPtr = std::shared_ptr<const expr::Expr>;

// The leaves a shredded path reads: the typed_value leaf and the `value` leaves on the way.
struct ShreddedPath {
  int32_t typed = -1;
  std::vector<int32_t> fallbacks;
};

// The leaves of `path` in VARIANT group `group`, or nullopt when the file does not shred it
// down to a primitive through object fields only.
std::optional<ShreddedPath> FindShreddedPath(const Schema& schema, int32_t group,
                                             const std::vector<variant::PathStep>& path) {
  Result<variant::ShreddingPlan> plan = variant::PlanShredding(schema, group);
  if (!plan.ok()) return std::nullopt;
  const auto& nodes = schema.nodes();
  auto child = [&](int32_t parent, int32_t index) {
    return nodes[static_cast<size_t>(parent)].children[static_cast<size_t>(index)];
  };
  ShreddedPath out;
  const variant::ShredNode* at = &plan->root;
  int32_t node = group;  // the group holding at's value and typed_value
  auto add_fallback = [&]() -> bool {
    if (at->value < 0) return true;
    const SchemaNode& value = nodes[static_cast<size_t>(child(node, at->value))];
    if (!value.is_leaf()) return false;
    out.fallbacks.push_back(value.column_index);
    return true;
  };
  for (const variant::PathStep& step : path) {
    if (step.is_index || at->kind != variant::ShredNode::Kind::kObject || at->typed < 0) {
      return std::nullopt;
    }
    if (!add_fallback()) return std::nullopt;
    size_t field = 0;
    while (field < at->names.size() && at->names[field] != step.name) ++field;
    if (field == at->names.size() || field >= at->children.size()) return std::nullopt;
    node = child(child(node, at->typed), static_cast<int32_t>(field));
    at = &at->children[field];
  }
  if (at->kind != variant::ShredNode::Kind::kPrimitive || at->typed < 0) return std::nullopt;
  if (!add_fallback()) return std::nullopt;
  const SchemaNode& typed = nodes[static_cast<size_t>(child(node, at->typed))];
  if (!typed.is_leaf() || typed.max_repetition_level > 0) return std::nullopt;
  out.typed = typed.column_index;
  return out;
}

// The cast (or none) that turns the typed column's values into what variant_get gives for
// them as `type`; nullopt when that is not an order-preserving cast the prover knows.
std::optional<std::shared_ptr<const DataType>> ConversionFor(const DataType& from,
                                                             variant::SqlType type) {
  bool signed_int = from.id == TypeId::kInt8 || from.id == TypeId::kInt16 ||
                    from.id == TypeId::kInt32 || from.id == TypeId::kInt64;
  switch (type) {
    case variant::SqlType::kBigint:
      if (signed_int) return from.id == TypeId::kInt64 ? nullptr : Int64();
      return std::nullopt;
    case variant::SqlType::kDouble:
      if (from.id == TypeId::kFloat64) return nullptr;
      if (signed_int || from.id == TypeId::kFloat32) return Float64();
      return std::nullopt;
    case variant::SqlType::kVarchar:
      if (from.id == TypeId::kLargeString) return nullptr;
      return std::nullopt;
    case variant::SqlType::kBoolean:
      if (from.id == TypeId::kBoolean) return nullptr;
      return std::nullopt;
    case variant::SqlType::kDate:
      if (from.id == TypeId::kDate32) return nullptr;
      return std::nullopt;
  }
  return std::nullopt;
}

class Rewriter {
 public:
  Rewriter(expr::BoundFilter& filter, const Schema& schema) : filter_(filter), schema_(schema) {}

  ExprPtr Rewrite(const ExprPtr& e) {
    if (e->op == expr::Op::kVariantGet) {
      if (ExprPtr guarded = Shredded(*e)) return guarded;
      return e;
    }
    if (e->children.empty()) return e;
    auto out = std::make_shared<expr::Expr>(*e);
    for (auto& c : out->children) c = Rewrite(c);
    return out;
  }

 private:
  ExprPtr Shredded(const expr::Expr& e) {
    const expr::Expr& column = *e.children[0];
    if (column.op != expr::Op::kColumn) return nullptr;
    auto k = static_cast<size_t>(column.column);
    if (k >= filter_.columns.size()) return nullptr;
    int32_t group = schema_.FindNode(filter_.columns[k].path);
    if (group < 0) return nullptr;
    const SchemaNode& g = schema_.nodes()[static_cast<size_t>(group)];
    if (g.is_leaf() || g.logical_type.kind != LogicalType::Kind::kVariant) return nullptr;
    std::optional<ShreddedPath> path = FindShreddedPath(schema_, group, e.variant_path);
    if (!path) return nullptr;
    const ColumnDescriptor& typed = schema_.columns()[static_cast<size_t>(path->typed)];
    Result<std::shared_ptr<const DataType>> typed_type = column::ArrowTypeForLeaf(typed);
    if (!typed_type.ok()) return nullptr;
    std::optional<std::shared_ptr<const DataType>> cast =
        ConversionFor(**typed_type, e.variant_type);
    if (!cast) return nullptr;
    auto out = std::make_shared<expr::Expr>();
    out->op = expr::Op::kGuarded;
    out->type = e.type;
    ExprPtr value = Column(path->typed, *typed_type);
    if (*cast != nullptr) {
      auto c = std::make_shared<expr::Expr>();
      c->op = expr::Op::kCast;
      c->type = *cast;
      c->children = {value};
      value = c;
    }
    out->children.push_back(value);
    for (int32_t leaf : path->fallbacks) {
      const ColumnDescriptor& fallback = schema_.columns()[static_cast<size_t>(leaf)];
      Result<std::shared_ptr<const DataType>> type = column::ArrowTypeForLeaf(fallback);
      if (!type.ok()) return nullptr;
      out->children.push_back(Column(leaf, *type));
    }
    return out;
  }

  // A kColumn of `leaf`, added to the filter's columns once.
  ExprPtr Column(int32_t leaf, std::shared_ptr<const DataType> type) {
    int32_t index = -1;
    for (size_t k = 0; k < filter_.columns.size(); ++k) {
      if (filter_.columns[k].leaf == leaf) index = static_cast<int32_t>(k);
    }
    if (index < 0) {
      expr::ColumnRef ref;
      ref.path = schema_.columns()[static_cast<size_t>(leaf)].path;
      ref.leaf = leaf;
      ref.type = type;
      index = static_cast<int32_t>(filter_.columns.size());
      filter_.columns.push_back(std::move(ref));
    }
    auto e = std::make_shared<expr::Expr>();
    e->op = expr::Op::kColumn;
    e->column = index;
    e->type = std::move(type);
    return e;
  }

  expr::BoundFilter& filter_;
  const Schema& schema_;
};

}  // namespace

expr::BoundFilter RewriteShreddedPaths(const expr::BoundFilter& filter, const Schema& file_schema) {
  expr::BoundFilter out = filter;
  if (!out.root) return out;
  Rewriter rewriter(out, file_schema);
  out.root = rewriter.Rewrite(out.root);
  return out;
}

}  // namespace pqsift::scan
