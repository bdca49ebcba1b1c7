// The row positions stage: the filter's conditions on the virtual row index
// (ScanOptions::row_index_column, scan/virtual_columns.h) proved from the footer's row counts.
// No I/O.
//
// A row's index is its row group's first row (the row counts of the row groups before it) plus
// its position inside, so a condition on it names rows exactly. Per node of the filter, two sets
// of file positions: where it can be TRUE and where it can be FALSE (SQL three-valued logic: a
// row in neither set gives NULL), each a superset. A comparison of the row index with a literal
// gives exact sets; any other leaf (another column, arithmetic, a cast) can be anything there.
//   AND: TRUE where every child can be, FALSE where one can;  OR: the mirror;  NOT: swapped.
// Rows outside the root's TRUE set cannot match: row groups without one are skipped, the others
// narrowed to a row selection (whose pages the scan then never fetches where the offset index
// or page locations place them). Nothing is proven to match here: the residual filter keeps
// evaluating the rows left (it sees the same row index the scan returns).
#include <chrono>
#include <limits>

#include "prune/stage.h"

namespace pqsift::prune {
namespace {

using expr::Expr;
using expr::Op;

struct Sets {
  RowSelection can_true;
  RowSelection can_false;
};

class RowPositionProof {
 public:
  RowPositionProof(const expr::BoundFilter& filter, int32_t column, int64_t total_rows)
      : filter_(filter), column_(column), total_(total_rows), all_(RowSelection::All(total_rows)) {}

  RowSelection CanBeTrue() { return Predicate(*filter_.root).can_true; }

 private:
  Sets Unknown() const { return {all_, all_}; }
  Sets Exact(const RowSelection& s) const { return {s, all_.Difference(s)}; }

  bool IsRowIndex(const Expr& e) const { return e.op == Op::kColumn && e.column == column_; }

  // Row positions where `op(row, v)` holds, for an integer literal v.
  RowSelection Compare(Op op, expr::int128 v) const {
    auto clamp = [&](expr::int128 x) -> int64_t {
      if (x < 0) return 0;
      if (x > total_) return total_;
      return static_cast<int64_t>(x);
    };
    switch (op) {
      case Op::kEq:
      case Op::kIsNotDistinctFrom: return RowSelection::FromRanges({{clamp(v), clamp(v + 1)}});
      case Op::kNe:
      case Op::kIsDistinctFrom:
        return all_.Difference(RowSelection::FromRanges({{clamp(v), clamp(v + 1)}}));
      case Op::kLt: return RowSelection::FromRanges({{0, clamp(v)}});
      case Op::kLe: return RowSelection::FromRanges({{0, clamp(v + 1)}});
      case Op::kGt: return RowSelection::FromRanges({{clamp(v + 1), total_}});
      case Op::kGe: return RowSelection::FromRanges({{clamp(v), total_}});
      default: return all_;
    }
  }

  Sets Comparison(const Expr& e) {
    if (e.children.size() != 2) return Unknown();
    const Expr* a = e.children[0].get();
    const Expr* b = e.children[1].get();
    Op op = e.op;
    if (!IsRowIndex(*a)) {
      std::swap(a, b);
      op = expr::FlipComparison(op);
    }
    if (!IsRowIndex(*a) || b->op != Op::kLiteral) return Unknown();
    if (b->literal.is_null()) {
      // = NULL and friends: NULL; IS [NOT] DISTINCT FROM NULL: the row index is never NULL.
      if (op == Op::kIsDistinctFrom) return {all_, {}};
      if (op == Op::kIsNotDistinctFrom) return {{}, all_};
      return {};
    }
    if (b->literal.kind != expr::Value::Kind::kInt) return Unknown();
    return Exact(Compare(op, b->literal.i));
  }

  Sets Predicate(const Expr& e) {
    switch (e.op) {
      case Op::kEq:
      case Op::kNe:
      case Op::kLt:
      case Op::kLe:
      case Op::kGt:
      case Op::kGe:
      case Op::kIsDistinctFrom:
      case Op::kIsNotDistinctFrom: return Comparison(e);
      case Op::kIn: {
        if (e.children.size() != 1 || !IsRowIndex(*e.children[0])) return Unknown();
        std::vector<RowRange> points;
        for (const expr::Value& v : e.list) {
          if (v.kind != expr::Value::Kind::kInt) return Unknown();
          if (v.i >= 0 && v.i < total_) {
            int64_t row = static_cast<int64_t>(v.i);
            points.push_back({row, row + 1});
          }
        }
        RowSelection in = RowSelection::FromRanges(std::move(points));
        if (e.list_has_null) return {in, {}};  // a non-match is NULL, never FALSE
        return Exact(in);
      }
      case Op::kIsNull:
      case Op::kIsNotNull: {
        if (e.children.size() != 1 || !IsRowIndex(*e.children[0])) return Unknown();
        return e.op == Op::kIsNull ? Sets{{}, all_} : Sets{all_, {}};
      }
      case Op::kAnd:
      case Op::kOr: {
        if (e.children.empty()) return Unknown();
        Sets out = Predicate(*e.children[0]);
        for (size_t i = 1; i < e.children.size(); ++i) {
          Sets next = Predicate(*e.children[i]);
          if (e.op == Op::kAnd) {
            out.can_true = out.can_true.Intersect(next.can_true);
            out.can_false = out.can_false.Union(next.can_false);
          } else {
            out.can_true = out.can_true.Union(next.can_true);
            out.can_false = out.can_false.Intersect(next.can_false);
          }
        }
        return out;
      }
      case Op::kNot: {
        if (e.children.size() != 1) return Unknown();
        Sets inner = Predicate(*e.children[0]);
        return {std::move(inner.can_false), std::move(inner.can_true)};
      }
      case Op::kLiteral: {
        if (e.literal.kind != expr::Value::Kind::kBool) return {};  // NULL
        return e.literal.b ? Sets{all_, {}} : Sets{{}, all_};
      }
      default: return Unknown();
    }
  }

  const expr::BoundFilter& filter_;
  const int32_t column_;
  const int64_t total_;
  const RowSelection all_;
};

class RowPositionStage final : public PruningStage {
 public:
  std::string_view name() const override { return "row positions"; }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    int32_t column = RowIndexColumn(context);
    if (!context.filter.root || column < 0) return Status::OK();
    const auto& row_groups = context.metadata.file().row_groups;
    int64_t total = 0;
    for (const RowGroup& rg : row_groups) total += rg.num_rows;
    RowSelection can_true = RowPositionProof(context.filter, column, total).CanBeTrue();
    const std::string stage(name());
    int64_t first_row = 0;
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      RowGroupPlan& p = plan.row_groups[g];
      const int64_t n = row_groups[g].num_rows;
      const int64_t first = first_row;
      first_row += n;
      if (p.decision() == Decision::kSkip || p.fully_matched) continue;
      ++report.row_groups_considered;
      std::vector<RowRange> local;
      const RowSelection inside =
          can_true.Intersect(RowSelection::FromRanges({{first, first + n}}));
      for (const RowRange& r : inside.ranges()) local.push_back({r.begin - first, r.end - first});
      const int64_t before = p.rows.row_count();
      // The evidence: the row group's place in the file, from the footer's row counts.
      const std::string where =
          "rows " + std::to_string(first) + " to " + std::to_string(first + n - 1) + " of the file";
      if (local.empty()) {
        p.Skip(stage, where + ": no row position can satisfy the filter");
        ++report.row_groups_skipped;
      } else {
        const int64_t kept = inside.row_count();
        p.Narrow(RowSelection::FromRanges(std::move(local)), stage,
                 where + ": " + std::to_string(kept) + " row positions can satisfy the filter");
      }
      report.rows_pruned += before - p.rows.row_count();
    }
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }

 private:
  static int32_t RowIndexColumn(const FileContext& context) {
    if (context.row_index_column.empty()) return -1;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      if (context.filter.columns[k].path == context.row_index_column) {
        return static_cast<int32_t>(k);
      }
    }
    return -1;
  }
};

}  // namespace

std::unique_ptr<PruningStage> MakeRowPositionStage() {
  return std::make_unique<RowPositionStage>();
}

}  // namespace pqsift::prune
