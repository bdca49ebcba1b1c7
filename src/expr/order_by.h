// ORDER BY lists in SQL syntax, for top-k scans: "ts DESC, id", "score DESC NULLS FIRST",
// "\"odd name\".a ASC". Each key is a column (a dotted path, parts "quoted" for odd names) with an
// optional ASC or DESC and an optional NULLS FIRST or NULLS LAST. The defaults are DuckDB's: ASC,
// and NULLS LAST whatever the direction.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pqsift/status.h"

namespace pqsift::expr {

struct OrderKey {
  std::string column;  // dotted path, as ScanOptions::columns spells it
  bool descending = false;
  bool nulls_first = false;
};

// InvalidArgument "at N: ..." (the filter language's error form) for an empty list, a missing
// column name, or a word that is none of ASC, DESC, NULLS FIRST, NULLS LAST.
Result<std::vector<OrderKey>> ParseOrderBy(std::string_view text);

}  // namespace pqsift::expr
