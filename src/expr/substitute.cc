#include "expr/substitute.h"

namespace pqsift::expr {
namespace {

std::shared_ptr<const Expr> Rewrite(const std::shared_ptr<const Expr>& e,
                                    const std::vector<std::optional<Value>>& constants,
                                    const std::vector<int32_t>& renumbered) {
  if (e->op == Op::kColumn) {
    auto k = static_cast<size_t>(e->column);
    auto out = std::make_shared<Expr>(*e);
    if (k < constants.size() && constants[k]) {
      out->op = Op::kLiteral;
      out->column = -1;
      out->literal = *constants[k];
    } else if (k < renumbered.size()) {
      out->column = renumbered[k];
    }
    return out;
  }
  if (e->children.empty()) return e;
  auto out = std::make_shared<Expr>(*e);
  for (auto& child : out->children) child = Rewrite(child, constants, renumbered);
  return out;
}

}  // namespace

BoundFilter SubstituteConstants(const BoundFilter& filter,
                                const std::vector<std::optional<Value>>& constants) {
  BoundFilter out;
  out.text = filter.text;
  std::vector<int32_t> renumbered(filter.columns.size(), -1);
  for (size_t k = 0; k < filter.columns.size(); ++k) {
    if (k < constants.size() && constants[k]) continue;
    renumbered[k] = static_cast<int32_t>(out.columns.size());
    out.columns.push_back(filter.columns[k]);
  }
  if (filter.root) out.root = Rewrite(filter.root, constants, renumbered);
  return out;
}

}  // namespace pqsift::expr
