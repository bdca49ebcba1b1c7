#include "prune/range_algebra.h"

#include <cmath>
#include <limits>

namespace pqsift::prune::range_algebra {

const Value kFalse = Value::Bool(false);
const Value kTrue = Value::Bool(true);
const Value kNaN = Value::Float(std::numeric_limits<double>::quiet_NaN());

bool IsNaN(const Value* v) { return v->kind == Value::Kind::kFloat && std::isnan(v->f); }

// <0, 0 or >0; nullopt when either side is unbounded or the two are not comparable.
std::optional<int> Cmp(const Value* a, const Value* b) {
  if (a == nullptr || b == nullptr || a->kind != b->kind || a->is_null()) return std::nullopt;
  return expr::Compare(*a, *b);
}
// "Some x >= a and some y <= b may have x < y" (a a lower bound, b an upper bound).
bool MayBeBelow(const Value* a, const Value* b) {
  std::optional<int> c = Cmp(a, b);
  return !c || *c < 0;
}
bool MayBeAtMost(const Value* a, const Value* b) {
  std::optional<int> c = Cmp(a, b);
  return !c || *c <= 0;
}
// Every value of the range is the same one (bounds prove a range; a point range leaves one
// value possible, whether or not the bounds were exact).
bool IsPoint(const Range& r) {
  std::optional<int> c = Cmp(r.lo, r.hi);
  return c && *c == 0;
}

Outcomes Bits(bool t, bool f, bool n) {
  return static_cast<Outcomes>((t ? kCanBeTrue : 0) | (f ? kCanBeFalse : 0) | (n ? kCanBeNull : 0));
}

namespace {

Outcomes CompareWhole(Op op, const Range& a, const Range& b) {
  bool values = a.can_be_value && b.can_be_value;
  bool null = a.can_be_null || b.can_be_null;
  bool t = false;
  bool f = false;
  switch (op) {
    case Op::kLt:
      t = MayBeBelow(a.lo, b.hi);
      f = MayBeAtMost(b.lo, a.hi);
      break;
    case Op::kLe:
      t = MayBeAtMost(a.lo, b.hi);
      f = MayBeBelow(b.lo, a.hi);
      break;
    case Op::kGt:
      t = MayBeBelow(b.lo, a.hi);
      f = MayBeAtMost(a.lo, b.hi);
      break;
    case Op::kGe:
      t = MayBeAtMost(b.lo, a.hi);
      f = MayBeBelow(a.lo, b.hi);
      break;
    case Op::kEq:
    case Op::kNe: {
      bool may_equal = MayBeAtMost(a.lo, b.hi) && MayBeAtMost(b.lo, a.hi);
      std::optional<int> same = Cmp(a.lo, b.lo);
      bool must_equal = IsPoint(a) && IsPoint(b) && same && *same == 0;
      t = op == Op::kEq ? may_equal : !must_equal;
      f = op == Op::kEq ? !must_equal : may_equal;
      break;
    }
    default: return kAnyOutcome;
  }
  return Bits(values && t, values && f, null);
}

}  // namespace

// a op b for a comparison op (kEq..kGe), each side split into its parts (OverParts).
Outcomes Compare(Op op, const Range& a, const Range& b) {
  return OverParts(a, [&](const Range& pa) {
    return OverParts(b, [&](const Range& pb) { return CompareWhole(op, pa, pb); });
  });
}

// IS [NOT] DISTINCT FROM: NULL is a value equal to itself; the result is never NULL.
namespace {

Outcomes CompareDistinctWhole(Op op, const Range& a, const Range& b) {
  bool values = a.can_be_value && b.can_be_value;
  bool may_equal = values && MayBeAtMost(a.lo, b.hi) && MayBeAtMost(b.lo, a.hi);
  std::optional<int> same = Cmp(a.lo, b.lo);
  bool may_differ = values && !(IsPoint(a) && IsPoint(b) && same && *same == 0);
  bool same_outcome = may_equal || (a.can_be_null && b.can_be_null);
  bool differ_outcome =
      may_differ || (a.can_be_null && b.can_be_value) || (a.can_be_value && b.can_be_null);
  bool not_distinct = op == Op::kIsNotDistinctFrom;
  return Bits(not_distinct ? same_outcome : differ_outcome,
              not_distinct ? differ_outcome : same_outcome, false);
}

}  // namespace

Outcomes CompareDistinct(Op op, const Range& a, const Range& b) {
  return OverParts(a, [&](const Range& pa) {
    return OverParts(b, [&](const Range& pb) { return CompareDistinctWhole(op, pa, pb); });
  });
}

namespace {

// Three-valued AND / OR of two outcome sets, pairwise over their members.
using Table = std::array<std::array<Outcomes, 8>, 8>;
Table MakeTable(bool is_and) {
  Table table{};
  for (int s1 = 0; s1 < 8; ++s1) {
    for (int s2 = 0; s2 < 8; ++s2) {
      Outcomes out = 0;
      for (Outcomes x : {kCanBeTrue, kCanBeFalse, kCanBeNull}) {
        for (Outcomes y : {kCanBeTrue, kCanBeFalse, kCanBeNull}) {
          if (!(s1 & x) || !(s2 & y)) continue;
          Outcomes dominant = is_and ? kCanBeFalse : kCanBeTrue;
          if (x == dominant || y == dominant) {
            out |= dominant;
          } else if (x == kCanBeNull || y == kCanBeNull) {
            out |= kCanBeNull;
          } else {
            out |= x;  // both the non-dominant truth value
          }
        }
      }
      table[s1][s2] = out;
    }
  }
  return table;
}
const Table kAndTable = MakeTable(true);
const Table kOrTable = MakeTable(false);

}  // namespace

Outcomes Not(Outcomes o) {
  return static_cast<Outcomes>((o & kCanBeNull) | ((o & kCanBeTrue) ? kCanBeFalse : 0) |
                               ((o & kCanBeFalse) ? kCanBeTrue : 0));
}

// A boolean value range as outcomes, and back.
Outcomes ToOutcomes(const Range& r) {
  bool t = r.can_be_value && !(r.hi && r.hi->kind == Value::Kind::kBool && !r.hi->b);
  bool f = r.can_be_value && !(r.lo && r.lo->kind == Value::Kind::kBool && r.lo->b);
  return Bits(t, f, r.can_be_null);
}
Range ToRange(Outcomes o) {
  Range r;
  r.can_be_null = (o & kCanBeNull) != 0;
  r.can_be_value = (o & (kCanBeTrue | kCanBeFalse)) != 0;
  r.lo = (o & kCanBeFalse) ? &kFalse : &kTrue;
  r.hi = (o & kCanBeTrue) ? &kTrue : &kFalse;
  return r;
}

Outcomes AndOutcomes(Outcomes a, Outcomes b) { return kAndTable[a][b]; }
Outcomes OrOutcomes(Outcomes a, Outcomes b) { return kOrTable[a][b]; }

}  // namespace pqsift::prune::range_algebra
