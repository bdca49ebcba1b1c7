#include "prune/evidence.h"

namespace pqsift::prune {

std::string DescribeColumnBounds(const std::string& name, const ColumnBounds& bounds,
                                 const DataType& type) {
  std::string out;
  auto add = [&](const std::string& part) {
    if (!out.empty()) out += ", ";
    out += part;
  };
  // Bounds print as literals of the column's type (DATE '...', 'text'), less the type keyword
  // for readability: "min(day) = '2026-01-01'" would read as a string.
  auto literal = [&](const expr::Value& v) { return expr::LiteralToString(v, type); };
  if (bounds.min) add("min(" + name + ") = " + literal(*bounds.min));
  if (bounds.max) add("max(" + name + ") = " + literal(*bounds.max));
  if (bounds.null_count) {
    add("nulls(" + name + ") = " + std::to_string(*bounds.null_count) + " of " +
        std::to_string(bounds.num_rows) +
        (bounds.null_count_from_levels ? " (definition levels)" : ""));
  }
  if (bounds.values) add("values(" + name + "): " + std::to_string(bounds.values->length));
  if (out.empty()) out = name + ": unknown";
  return out;
}

std::string DescribeBounds(const expr::BoundFilter& filter, const StatisticsTable& table,
                           size_t c) {
  std::string out;
  for (size_t k = 0; k < filter.columns.size() && k < table.bounds.size(); ++k) {
    if (c >= table.bounds[k].size()) continue;
    const expr::ColumnRef& column = filter.columns[k];
    if (!out.empty()) out += "; ";
    if (column.type == nullptr) {
      out += column.path + ": unknown";
      continue;
    }
    out += DescribeColumnBounds(column.path, table.bounds[k][c], *column.type);
  }
  return out;
}

std::string DescribeOutcome(Outcomes o) {
  if (CannotMatch(o)) return "no row can satisfy the filter";
  if (FullyMatches(o)) return "every row satisfies the filter";
  return "some rows may match";
}

}  // namespace pqsift::prune
