// The proof evaluator: what values can a predicate take on the rows of a container?
//
// For each container it computes the set of outcomes among {TRUE, FALSE, NULL} that some row
// could produce, from the container's ColumnBounds. The set is an over-approximation: an outcome
// left out is proven impossible. Hence
//   TRUE not in the set  -> no row can match: skip the container;
//   the set is {TRUE}    -> every row matches: fully matched, no residual filter needed.
// AND, OR and NOT combine sets by SQL three-valued logic. Anything the evaluator cannot reason
// about (arithmetic it cannot bound, unknown bounds) gives all three outcomes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "prune/statistics.h"

namespace pqsift::prune {

using Outcomes = uint8_t;
inline constexpr Outcomes kCanBeTrue = 1;
inline constexpr Outcomes kCanBeFalse = 2;
inline constexpr Outcomes kCanBeNull = 4;
inline constexpr Outcomes kAnyOutcome = kCanBeTrue | kCanBeFalse | kCanBeNull;

inline bool CannotMatch(Outcomes o) { return (o & kCanBeTrue) == 0; }
inline bool FullyMatches(Outcomes o) { return o == kCanBeTrue; }

// One Outcomes per container (stats.containers of them), all containers at once.
// REQUIRES: stats.bounds has one entry per filter.columns entry.
std::vector<Outcomes> Prove(const expr::BoundFilter& filter, const StatisticsTable& stats);

// "{TRUE,NULL}": for explain and test messages.
std::string OutcomesToString(Outcomes o);

}  // namespace pqsift::prune
