#include <algorithm>

#include "arrow/layout.h"
#include "expr/array_value.h"
#include "scan/runtime_filter_state.h"

namespace pqsift {
namespace {

using expr::Expr;
using expr::Op;
using expr::Value;

bool Less(const Value& a, const Value& b) { return expr::Compare(a, b) < 0; }

// The published value's column and type, checked against what the column had before.
Status CheckPublish(const RuntimeFilter::State& state, size_t column, const Array& values) {
  if (column >= state.columns.size()) {
    return Status::InvalidArgument("runtime filter has no column " + std::to_string(column));
  }
  const scan::ColumnConstraint& c = state.constraints[column];
  if (c.type && !(*c.type == *values.type)) {
    return Status::InvalidArgument("runtime filter column '" + state.columns[column] + "': a " +
                                   values.type->ToString() + " value after " + c.type->ToString() +
                                   " ones");
  }
  return Status::OK();
}

Result<Value> ScalarAt(const RuntimeFilter::State& state, size_t column, const Array& values,
                       int64_t index) {
  if (index < 0 || index >= values.length) {
    return Status::InvalidArgument("runtime filter bound: index " + std::to_string(index) +
                                   " outside an array of " + std::to_string(values.length));
  }
  std::optional<Value> v = expr::ValueAt(values, index);
  if (!v || v->is_null()) {
    return Status::InvalidArgument("runtime filter column '" + state.columns[column] +
                                   "': a bound must be a non-null " + "scalar (not " +
                                   values.type->ToString() + ")");
  }
  return *std::move(v);
}

// `candidate` replaces `bound` when it admits fewer values: further in, or as far but exclusive.
// `sign` is +1 for a lower bound, -1 for an upper one.
bool Tighten(std::optional<Value>& bound, bool& inclusive, Value candidate,
             bool candidate_inclusive, int sign) {
  if (bound) {
    int c = expr::Compare(candidate, *bound) * sign;
    if (c < 0 || (c == 0 && (candidate_inclusive || !inclusive))) return false;
  }
  bound = std::move(candidate);
  inclusive = candidate_inclusive;
  return true;
}

// One side of a column's bounds tightened (`lower` picks which); the version moves only when
// something changed.
Status PublishBound(RuntimeFilter::State& state, size_t column, const Array& values, int64_t index,
                    bool inclusive, bool nulls_pass, bool lower) {
  std::lock_guard<std::mutex> lock(state.mu);
  PQSIFT_RETURN_IF_ERROR(CheckPublish(state, column, values));
  PQSIFT_ASSIGN_OR_RETURN(Value v, ScalarAt(state, column, values, index));
  scan::ColumnConstraint& c = state.constraints[column];
  bool changed = !c.active();
  c.type = values.type;
  changed |= lower ? Tighten(c.lower, c.lower_inclusive, std::move(v), inclusive, +1)
                   : Tighten(c.upper, c.upper_inclusive, std::move(v), inclusive, -1);
  changed |= c.nulls_pass && !nulls_pass;
  c.nulls_pass = c.nulls_pass && nulls_pass;
  if (changed) state.version.fetch_add(1, std::memory_order_acq_rel);
  return Status::OK();
}

}  // namespace

RuntimeFilter::RuntimeFilter(std::vector<std::string> columns) : state_(std::make_unique<State>()) {
  state_->constraints.resize(columns.size());
  state_->columns = std::move(columns);
}

RuntimeFilter::~RuntimeFilter() = default;

const std::vector<std::string>& RuntimeFilter::columns() const { return state_->columns; }

uint64_t RuntimeFilter::version() const { return state_->version.load(std::memory_order_acquire); }

Status RuntimeFilter::PublishLowerBound(size_t column, const Array& values, int64_t index,
                                        bool inclusive, bool nulls_pass) {
  return PublishBound(*state_, column, values, index, inclusive, nulls_pass, /*lower=*/true);
}

Status RuntimeFilter::PublishUpperBound(size_t column, const Array& values, int64_t index,
                                        bool inclusive, bool nulls_pass) {
  return PublishBound(*state_, column, values, index, inclusive, nulls_pass, /*lower=*/false);
}

Status RuntimeFilter::PublishValueSet(size_t column, const Array& values, bool nulls_pass) {
  std::lock_guard<std::mutex> lock(state_->mu);
  PQSIFT_RETURN_IF_ERROR(CheckPublish(*state_, column, values));
  if (layout::IsNested(values.type->id) || values.type->id == TypeId::kNull) {
    return Status::InvalidArgument("runtime filter column '" + state_->columns[column] +
                                   "': a value set of " + values.type->ToString());
  }
  std::vector<Value> set;
  for (int64_t i = 0; i < values.length; ++i) {
    std::optional<Value> v = expr::ValueAt(values, i);
    if (v && !v->is_null()) set.push_back(*std::move(v));
  }
  std::sort(set.begin(), set.end(), Less);
  set.erase(std::unique(set.begin(), set.end(),
                        [](const Value& a, const Value& b) { return expr::Compare(a, b) == 0; }),
            set.end());
  scan::ColumnConstraint& c = state_->constraints[column];
  bool changed = !c.active();
  c.type = values.type;
  if (c.set) {
    std::vector<Value> both;
    std::set_intersection(c.set->begin(), c.set->end(), set.begin(), set.end(),
                          std::back_inserter(both), Less);
    changed |= both.size() < c.set->size();
    c.set = std::move(both);
  } else {
    c.set = std::move(set);
    changed = true;
  }
  changed |= c.nulls_pass && !nulls_pass;
  c.nulls_pass = c.nulls_pass && nulls_pass;
  if (changed) state_->version.fetch_add(1, std::memory_order_acq_rel);
  return Status::OK();
}

namespace scan {

RuntimeSnapshot TakeSnapshot(const RuntimeFilter& filter) {
  const RuntimeFilter::State& state = filter.state();
  std::lock_guard<std::mutex> lock(state.mu);
  return {state.version.load(std::memory_order_acquire), state.constraints};
}

namespace {

std::shared_ptr<Expr> Node(Op op, std::shared_ptr<const DataType> type) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = std::move(type);
  return e;
}

std::shared_ptr<const Expr> Compare(Op op, std::shared_ptr<const Expr> column, const Value& v) {
  auto literal = Node(Op::kLiteral, column->type);
  literal->literal = v;
  auto e = Node(op, Boolean());
  e->children = {std::move(column), std::move(literal)};
  return e;
}

// AND or OR of `parts`, or the one part (the binder's shapes: two or more children).
std::shared_ptr<const Expr> Combine(Op op, std::vector<std::shared_ptr<const Expr>> parts) {
  if (parts.size() == 1) return parts.front();
  auto e = Node(op, Boolean());
  e->children = std::move(parts);
  return e;
}

std::shared_ptr<const Expr> ColumnExpr(const RuntimeSnapshot& snapshot, const expr::ColumnRef& ref,
                                       int32_t index, size_t k) {
  const ColumnConstraint& c = snapshot.columns[k];
  auto column = Node(Op::kColumn, ref.type);
  column->column = index;
  std::vector<std::shared_ptr<const Expr>> parts;
  if (c.lower) parts.push_back(Compare(c.lower_inclusive ? Op::kGe : Op::kGt, column, *c.lower));
  if (c.upper) parts.push_back(Compare(c.upper_inclusive ? Op::kLe : Op::kLt, column, *c.upper));
  if (c.set && c.set->empty()) {
    auto none = Node(Op::kLiteral, Boolean());
    none->literal = Value::Bool(false);
    parts.push_back(std::move(none));
  } else if (c.set) {
    auto in = Node(Op::kIn, Boolean());
    in->children = {column};
    in->list = *c.set;
    parts.push_back(std::move(in));
  }
  std::shared_ptr<const Expr> values = Combine(Op::kAnd, std::move(parts));
  if (!c.nulls_pass) return values;
  auto is_null = Node(Op::kIsNull, Boolean());
  is_null->children = {column};
  return Combine(Op::kOr, {values, is_null});
}

}  // namespace

std::shared_ptr<const expr::Expr> RuntimeExpr(const RuntimeSnapshot& snapshot,
                                              const std::vector<expr::ColumnRef>& refs,
                                              const std::function<int32_t(size_t)>& column_of) {
  std::vector<std::shared_ptr<const Expr>> parts;
  for (size_t k = 0; k < snapshot.columns.size() && k < refs.size(); ++k) {
    if (!snapshot.columns[k].active()) continue;
    parts.push_back(ColumnExpr(snapshot, refs[k], column_of(k), k));
  }
  if (parts.empty()) return nullptr;
  return Combine(Op::kAnd, std::move(parts));
}

}  // namespace scan
}  // namespace pqsift
