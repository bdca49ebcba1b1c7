// The prover's algebra (proof.h): what the values of one expression can be in one container
// (Range: bounds and whether NULL and non-NULL values occur), comparisons of two ranges as the
// outcome sets {TRUE, FALSE, NULL} they allow, and three-valued AND, OR and NOT over outcome
// sets. Every function over-approximates: an outcome left out is impossible.
// Pure functions and immutable constants; thread-safe. Ranges hold pointers to bounds owned by
// the caller (statistics, expression trees, the prover's arena), which must outlive them.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "expr/expr.h"
#include "prune/proof.h"

namespace pqsift::prune::range_algebra {

using expr::Op;
using expr::Value;

// What the values of one expression can be in one container. Bounds point into the statistics
// table, the expression tree, or the prover's arena; null means unbounded on that side. NaN
// sorts above every number (value.h): a float range that may hold NaN reaches up to NaN.
struct Range {
  const Value* lo = nullptr;
  const Value* hi = nullptr;
  bool can_be_null = true;   // some row may give NULL
  bool can_be_value = true;  // some row may give a non-null value
  // A float column's statistics leave NaN out: where some row may be NaN, hi is NaN (the
  // largest) and finite_hi the largest other value, so the values are [lo, finite_hi] and NaN.
  // Only the comparisons look at it (OverParts); every other reader of the range sees the
  // wider [lo, NaN], and a range made from another's bounds drops it, which only widens.
  const Value* finite_hi = nullptr;
};

// One Range per container, or a single one shared by all (literals).
struct Ranges {
  bool constant = false;
  std::vector<Range> ranges;
  const Range& operator[](size_t c) const { return ranges[constant ? 0 : c]; }
};

extern const Value kFalse;
extern const Value kTrue;
extern const Value kNaN;

bool IsNaN(const Value* v);  // REQUIRES: v not null

// <0, 0 or >0; nullopt when either side is unbounded or the two are not comparable.
std::optional<int> Cmp(const Value* a, const Value* b);
// "Some x >= a and some y <= b may have x < y" (a a lower bound, b an upper bound).
bool MayBeBelow(const Value* a, const Value* b);
bool MayBeAtMost(const Value* a, const Value* b);
// lo and hi bound one value.
bool IsPoint(const Range& r);

Outcomes Bits(bool t, bool f, bool n);

// f(range) over the parts of `r`: [lo, finite_hi] and the NaN point where r has finite_hi (the
// outcomes of both, or'ed), else r itself.
template <typename F>
Outcomes OverParts(const Range& r, F&& f) {
  if (r.finite_hi == nullptr) return f(r);
  const Range finite{r.lo, r.finite_hi, r.can_be_null, r.can_be_value};
  const Range nan{&kNaN, &kNaN, r.can_be_null, r.can_be_value};
  return static_cast<Outcomes>(f(finite) | f(nan));
}

// a op b for op among = <> < <= > >=, each side split into its parts (OverParts).
Outcomes Compare(Op op, const Range& a, const Range& b);
// IS [NOT] DISTINCT FROM: NULL is a value equal to itself; the result is never NULL.
Outcomes CompareDistinct(Op op, const Range& a, const Range& b);

// Three-valued AND / OR of two outcome sets, pairwise over their members; NOT.
Outcomes AndOutcomes(Outcomes a, Outcomes b);
Outcomes OrOutcomes(Outcomes a, Outcomes b);
Outcomes Not(Outcomes o);

// A boolean value range as outcomes, and back.
Outcomes ToOutcomes(const Range& r);
Range ToRange(Outcomes o);

}  // namespace pqsift::prune::range_algebra
