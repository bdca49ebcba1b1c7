// The proof evaluator: what values can a predicate take on the rows of a container?
//
// For each container it computes the set of outcomes among {TRUE, FALSE, NULL} that some row
// could produce, from the container's ColumnBounds. The set is an over-approximation: an outcome
// left out is proven impossible. Hence
//   TRUE not in the set  -> no row can match: skip the container;
//   the set is {TRUE}    -> every row matches: fully matched, no residual filter needed.
// AND, OR and NOT combine sets by SQL three-valued logic. Anything the evaluator cannot reason
// about (arithmetic it cannot bound, unknown bounds) gives all three outcomes.
//
// Value sets (ColumnBounds::values, e.g. a dictionary): a largest subtree of the predicate that
// reads only one column, in a container where that column has a value set, is evaluated exactly
// (expr/evaluate.h, three-valued) on each value of the set, and on NULL when the column may be
// NULL there; the outcomes that occur, intersected with what the bounds give, are the subtree's.
// Any condition on the column (=, IN, NOT IN, <, LIKE, arithmetic, ...) is decided this way;
// conditions on other columns keep their bounds, so `a = 1 OR b = 2` stays undecided unless b's
// bounds decide it.
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

// For deciding which evidence to fetch: per container, whether some value sets for the columns
// whose ColumnBounds::values are set (their contents are ignored) could make the predicate skip
// or fully match the container. False means no dictionary can decide it, so none need be read.
// Over-approximates (subtrees on one column are taken as independent; more than four such
// subtrees: true everywhere).
std::vector<bool> CouldDecide(const expr::BoundFilter& filter, const StatisticsTable& stats);

// "{TRUE,NULL}": for explain and test messages.
std::string OutcomesToString(Outcomes o);

}  // namespace pqsift::prune
