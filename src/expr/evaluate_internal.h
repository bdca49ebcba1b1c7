// Internal to the evaluator (evaluate.cc, evaluate_functions.cc): the vectors it computes
// with, their kernels' helpers, and the Evaluator class. evaluate.cc holds loading columns,
// comparisons, logic, IN, casts and arithmetic; evaluate_functions.cc the functions (LIKE and
// the substring tests, date parts, value functions, st_intersects_extent, variant_get). One
// Evaluator evaluates one batch; not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/cast.h"
#include "arrow/layout.h"
#include "expr/evaluate.h"
#include "expr/expr.h"
#include "pqsift/array.h"

namespace pqsift::expr::evaluation {

using ExprPtr = std::shared_ptr<const Expr>;

// The physical representation of a vector's values.
enum class Phys : uint8_t {
  kBool,  // uint8_t 0/1
  kI8,
  kI16,
  kI32,
  kI64,
  kU8,
  kU16,
  kU32,
  kU64,
  kI128,  // decimals, and casts to timestamps, times and decimals
  kF32,
  kF64,
  kBytes,  // int64 offsets + data
  kFixed,  // width + data
};

// The values of one node over the batch. Either a vector of num_rows values or a scalar (a
// literal: every row the same; a NULL scalar is null in every row).
struct Vec {
  Phys phys = Phys::kBool;
  const void* values = nullptr;      // element 0 of fixed-width values (slice offset applied)
  const int64_t* offsets = nullptr;  // kBytes: element i spans [offsets[i], offsets[i + 1])
  const uint8_t* data = nullptr;     // kBytes, kFixed
  int32_t width = 0;                 // kFixed
  const uint8_t* valid = nullptr;    // one byte per row, 1 = valid; null: every row valid
  bool scalar = false;
  Value scalar_value;
  std::shared_ptr<const void> keep_values;  // owns `values` when computed
  std::shared_ptr<const void> keep_valid;   // owns `valid` when computed

  bool scalar_null() const { return scalar && scalar_value.is_null(); }
};

// n uninitialised values (every kernel writes each one), owned by *keep.
template <typename T>
T* Allocate(std::shared_ptr<const void>* keep, int64_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::shared_ptr<T[]> buffer(new T[static_cast<size_t>(std::max<int64_t>(n, 1))]);
  T* data = buffer.get();
  *keep = std::move(buffer);
  return data;
}

// Bits [offset, offset + n) of an Arrow bitmap as one byte (0 or 1) per bit: whole bytes of the
// bitmap through a table of 8-byte patterns, the unaligned head bit by bit.
inline void ExpandBits(const uint8_t* bits, int64_t offset, int64_t n, uint8_t* out) {
  static const auto kPatterns = [] {
    std::array<uint64_t, 256> t{};
    for (int b = 0; b < 256; ++b) {
      for (int k = 0; k < 8; ++k) t[b] |= static_cast<uint64_t>((b >> k) & 1) << (8 * k);
    }
    return t;
  }();
  int64_t i = 0;
  for (; i < n && ((offset + i) & 7) != 0; ++i) out[i] = bit_util::GetBit(bits, offset + i);
  const uint8_t* byte = bits + ((offset + i) >> 3);
  for (; i + 8 <= n; i += 8) std::memcpy(out + i, &kPatterns[*byte++], 8);
  for (; i < n; ++i) out[i] = bit_util::GetBit(bits, offset + i);
}

template <typename T>
T Load(const void* base, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(base) + i * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}

// Calls f with a value of the C type of `phys` (a tag: only its type matters).
template <typename F>
decltype(auto) VisitFixed(Phys phys, F&& f) {
  switch (phys) {
    case Phys::kBool: return f(uint8_t{});
    case Phys::kI8: return f(int8_t{});
    case Phys::kI16: return f(int16_t{});
    case Phys::kI32: return f(int32_t{});
    case Phys::kI64: return f(int64_t{});
    case Phys::kU8: return f(uint8_t{});
    case Phys::kU16: return f(uint16_t{});
    case Phys::kU32: return f(uint32_t{});
    case Phys::kU64: return f(uint64_t{});
    case Phys::kI128: return f(int128{});
    case Phys::kF32: return f(float{});
    case Phys::kF64: return f(double{});
    default: return f(int64_t{});  // not reached for kBytes / kFixed: callers check
  }
}

// A fixed-width value as int128. int8 columns hold numbers, not characters: clang-tidy's
// signed-char check cannot tell inside a template.
template <typename T>
int128 WidenToInt128(T v) {
  return static_cast<int128>(v);  // NOLINT(bugprone-signed-char-misuse)
}

inline bool IsFloatPhys(Phys p) { return p == Phys::kF32 || p == Phys::kF64; }
inline bool IsBytesPhys(Phys p) { return p == Phys::kBytes || p == Phys::kFixed; }

// ---- comparison semantics (value.h): NaN equals NaN and sorts above every number ----

template <typename T>
inline bool Equal(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a == b || (a != a && b != b);
  } else {
    return a == b;
  }
}
template <typename T>
inline bool Less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a < b || (a == a && b != b);
  } else {
    return a < b;
  }
}

// The result of `a op b` given only their order (<0, 0, >0); the distinct ops as = and <>.
inline bool FromOrder(Op op, int order) {
  switch (op) {
    case Op::kEq:
    case Op::kIsNotDistinctFrom: return order == 0;
    case Op::kNe:
    case Op::kIsDistinctFrom: return order != 0;
    case Op::kLt: return order < 0;
    case Op::kLe: return order <= 0;
    case Op::kGt: return order > 0;
    default: return order >= 0;
  }
}

template <Op kOp, typename T>
inline bool Apply(T a, T b) {
  if constexpr (kOp == Op::kEq || kOp == Op::kIsNotDistinctFrom) return Equal(a, b);
  if constexpr (kOp == Op::kNe || kOp == Op::kIsDistinctFrom) return !Equal(a, b);
  if constexpr (kOp == Op::kLt) return Less(a, b);
  if constexpr (kOp == Op::kLe) return !Less(b, a);
  if constexpr (kOp == Op::kGt) return Less(b, a);
  if constexpr (kOp == Op::kGe) return !Less(a, b);
  return false;
}

// Calls f with std::integral_constant<Op, op> for a comparison op.
template <typename F>
void VisitCompareOp(Op op, F&& f) {
  switch (op) {
    case Op::kEq: return f(std::integral_constant<Op, Op::kEq>{});
    case Op::kNe: return f(std::integral_constant<Op, Op::kNe>{});
    case Op::kLt: return f(std::integral_constant<Op, Op::kLt>{});
    case Op::kLe: return f(std::integral_constant<Op, Op::kLe>{});
    case Op::kGt: return f(std::integral_constant<Op, Op::kGt>{});
    case Op::kGe: return f(std::integral_constant<Op, Op::kGe>{});
    case Op::kIsDistinctFrom: return f(std::integral_constant<Op, Op::kIsDistinctFrom>{});
    default: return f(std::integral_constant<Op, Op::kIsNotDistinctFrom>{});
  }
}

inline bool IsDistinctOp(Op op) {
  return op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom;
}

// Called per row in the comparison loops: inline, or the call costs more than the comparison.
[[gnu::always_inline]] inline std::string_view BytesAt(const Vec& v, int64_t i) {
  if (v.phys == Phys::kFixed) {
    return {reinterpret_cast<const char*>(v.data) + i * v.width, static_cast<size_t>(v.width)};
  }
  int64_t begin = v.offsets[i];
  return {reinterpret_cast<const char*>(v.data) + begin,
          static_cast<size_t>(v.offsets[i + 1] - begin)};
}

inline int CompareBytes(std::string_view a, std::string_view b) {
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// A byte-string literal compared with many values: most values differ from it in their first
// eight bytes, which compare as one word without a call to memcmp, and an equality test turns
// a value of another length away without reading it.
class BytesLiteral {
 public:
  explicit BytesLiteral(std::string_view literal) : literal_(literal), prefix_(Prefix(literal)) {}

  // The sign of `value` <=> the literal. Equal words of two strings of at most eight bytes
  // hold both whole: the shorter is a prefix of the longer (its padding matched zero bytes).
  [[gnu::always_inline]] int Compare(std::string_view value) const {
    const uint64_t p = Prefix(value);
    if (p != prefix_) return p < prefix_ ? -1 : 1;
    if (value.size() <= 8 && literal_.size() <= 8) {
      return value.size() < literal_.size() ? -1 : (value.size() > literal_.size() ? 1 : 0);
    }
    return CompareBytes(value, literal_);
  }
  [[gnu::always_inline]] bool Equals(std::string_view value) const {
    return value.size() == literal_.size() && Prefix(value) == prefix_ &&
           (value.size() <= 8 || value == literal_);
  }

 private:
  // The first eight bytes, zero-padded, as a big-endian word. Words that differ order as their
  // strings do: at the first differing byte both are bytes of the strings, or the shorter
  // string's padding (0) meets a nonzero byte of a string it is a prefix of.
  [[gnu::always_inline]] static uint64_t Prefix(std::string_view s) {
    if (s.size() >= 8) {  // one fixed-size load: no call
      uint64_t word;
      std::memcpy(&word, s.data(), 8);
      if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
      return word;
    }
    uint64_t word = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      word |= uint64_t{static_cast<uint8_t>(s[i])} << (56 - 8 * i);
    }
    return word;
  }

  std::string_view literal_;
  uint64_t prefix_;
};

// ---- the evaluator ----

class Evaluator {
 public:
  Evaluator(const BoundFilter& filter, std::span<const Array* const> columns, int64_t num_rows)
      : filter_(filter), arrays_(columns), n_(num_rows), loaded_(columns.size()) {
    for (const Array* a : columns) {
      some_dictionary_ |= a != nullptr && a->type != nullptr && a->type->id == TypeId::kDictionary;
    }
  }

  Result<std::vector<uint8_t>> Run();

  Result<std::vector<Truth>> RunTruth(const Expr& predicate);

 private:
  Result<Vec> Eval(const Expr& e);

  static Phys PhysOfType(const DataType& t);

  Result<Vec> LoadColumn(int32_t index);

  bool IsDictionaryOfColumn(const Array& a, size_t k) const;

  int DictionaryColumnOf(const Expr& e);

  static bool OnlyColumn(const Expr& e, int* column);

  Result<std::optional<Vec>> EvalOverDictionary(const Expr& e, size_t k);

  Result<const Array*> ColumnArray(size_t k) const;

  Result<Vec> EvalVariantGet(const Expr& e);

  Result<Vec> ArrayVec(const Array& array, const DataType& expected, const std::string& path);

  // A bytes vector of n_ rows: append(i, &data) appends row i's bytes (none for a NULL row).
  template <typename F>
  Vec BuildBytes(F&& append) {
    auto holder = std::make_shared<std::pair<std::vector<int64_t>, std::string>>();
    holder->first.resize(static_cast<size_t>(n_) + 1);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      holder->first[static_cast<size_t>(i)] = static_cast<int64_t>(holder->second.size());
      append(i, &holder->second);
    }
    holder->first[static_cast<size_t>(n_)] = static_cast<int64_t>(holder->second.size());
    Vec out;
    out.phys = Phys::kBytes;
    out.offsets = holder->first.data();
    out.data = reinterpret_cast<const uint8_t*>(holder->second.data());
    out.keep_values = std::move(holder);
    return out;
  }

  Vec Broadcast(const Vec& s);

  const uint8_t* BothValid(const Vec& a, const Vec& b, std::shared_ptr<const void>* keep);

  Vec AllNullBool();

  // ---- comparisons ----

  Result<Vec> EvalCompare(const Expr& e);

  template <typename T, typename L>
  void CompareLoop(Op op, const T* values, L literal, uint8_t* out) {
    VisitCompareOp(op, [&](auto op_tag) {
      constexpr Op kOp = decltype(op_tag)::value;
      for (int64_t i = 0, n = n_; i < n; ++i) {
        out[i] = Apply<kOp, L>(static_cast<L>(Load<T>(values, i)), literal) ? 1 : 0;
      }
    });
  }

  void CompareWithScalar(Op op, const Vec& a, const Value& lit, uint8_t* out);

  Status CompareVectors(Op op, const Vec& a, const Vec& b, uint8_t* out);

  Vec Widen(const Vec& a, Phys to);

  // ---- logic ----

  void TruthBytes(const Vec& v, std::vector<uint8_t>* t, std::vector<uint8_t>* f);

  Result<Vec> EvalLogic(const Expr& e);

  Result<Vec> EvalNot(const Expr& e);

  Result<Vec> EvalIsNull(const Expr& e);

  // ---- IN ----

  Result<Vec> EvalIn(const Expr& e);

  // ---- st_intersects_extent ----

  Result<Vec> EvalIntersectsExtent(const Expr& e);

  // ---- LIKE, ILIKE, starts_with ----

  // A vector of n_ values (type T, `phys`) that is NULL where `a` is; *values is its storage.
  template <typename T>
  Vec NullWhere(const Vec& a, Phys phys, T** values) {
    Vec out;
    out.phys = phys;
    *values = Allocate<T>(&out.keep_values, n_);
    out.values = *values;
    out.valid = a.valid;
    out.keep_valid = a.keep_valid;
    return out;
  }

  Result<Vec> EvalLike(const Expr& e);

  // Calls f(i, instant) for each row of a date or timestamp vector: its day and time, split as
  // the prover splits bounds (cast::SplitDateOrTimestamp). Stops at f's first error.
  template <typename F>
  Status ForEachInstant(const Vec& a, const DataType& from, F&& f) {
    if (from.id == TypeId::kDate32 && a.phys == Phys::kI32) {
      const auto* days = static_cast<const int32_t*>(a.values);
      for (int64_t i = 0, n = n_; i < n; ++i)
        PQSIFT_RETURN_IF_ERROR(f(i, cast::TimestampDay{days[i], 0}));
      return Status::OK();
    }
    if (!cast::SplitsIntoDays(from) || a.phys != Phys::kI64) {
      return Status::Internal("a day and time of " + from.ToString());
    }
    const auto* ticks = static_cast<const int64_t*>(a.values);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      PQSIFT_RETURN_IF_ERROR(f(i, cast::SplitTimestamp(ticks[i], from.unit)));
    }
    return Status::OK();
  }

  Result<Vec> EvalDatePart(const Expr& e);

  Result<Vec> EvalDateTrunc(const Expr& e);

  Result<Vec> EvalAddInterval(const Expr& e);

  // ---- lower, upper, length, octet_length, abs, coalesce ----

  Result<Vec> EvalStringFunction(const Expr& e);
  Result<Vec> EvalConcat(const Expr& e);

  Result<Vec> EvalFloatTest(const Expr& e);

  Result<Vec> EvalAbs(const Expr& e);

  Result<Vec> EvalChoice(const Expr& e);
  Result<Vec> EvalRound(const Expr& e);

  // ---- casts ----

  Result<Vec> EvalCast(const Expr& e);

  // A numeric vector as float or double (Real): decimals as DuckDB casts them (value.h).
  template <typename Real>
  Result<Vec> CastToReal(const Vec& a, const DataType& from, Vec out) {
    out.phys = std::is_same_v<Real, float> ? Phys::kF32 : Phys::kF64;
    Real* values = Allocate<Real>(&out.keep_values, n_);
    out.values = values;
    const bool decimal = from.id == TypeId::kDecimal128;
    const bool wide = decimal && from.precision > 18;
    bool ok = VisitFixedChecked(a.phys, [&](auto tag) {
      using T = decltype(tag);
      for (int64_t i = 0, n = n_; i < n; ++i) {
        T v = Load<T>(a.values, i);
        if constexpr (std::is_floating_point_v<T>) {
          values[i] = static_cast<Real>(v);
        } else {
          values[i] = decimal ? DecimalToReal<Real>(static_cast<int128>(v), from.scale, wide)
                              : static_cast<Real>(v);
        }
      }
    });
    if (!ok) return Status::Internal("cast of bytes to a float");
    return out;
  }

  // VisitFixed for fixed-width vectors; false (f not called) for bytes.
  template <typename F>
  bool VisitFixedChecked(Phys phys, F&& f) {
    if (IsBytesPhys(phys)) return false;
    VisitFixed(phys, std::forward<F>(f));
    return true;
  }

  // ---- arithmetic ----

  Result<Vec> EvalArithmetic(const Expr& e);

  // An integer or decimal '%' by zero is NULL (as DuckDB): the rows whose divisor `b` is 0 leave
  // `out`'s validity (a NULL divisor's row is NULL already).
  template <typename T>
  void NullWhereZero(const Vec& b, Vec* out) {
    const bool all = b.scalar && b.scalar_value.i == 0;
    bool some = all;
    for (int64_t i = 0, n = n_; i < n && !b.scalar && !some; ++i) {
      some = Load<T>(b.values, i) == 0;
    }
    if (!some) return;
    std::shared_ptr<const void> keep;
    uint8_t* valid = Allocate<uint8_t>(&keep, n_);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      const bool zero = all || (!b.scalar && Load<T>(b.values, i) == 0);
      valid[i] = (out->valid == nullptr || out->valid[i]) && !zero ? 1 : 0;
    }
    out->valid = valid;
    out->keep_valid = std::move(keep);
  }

  // Float or double arithmetic (Real is the result type; both sides are already Real).
  template <typename Real>
  Vec RealArithmetic(Op op, const Vec& a, const Vec& b, Vec out) {
    out.phys = std::is_same_v<Real, float> ? Phys::kF32 : Phys::kF64;
    Real* values = Allocate<Real>(&out.keep_values, n_);
    out.values = values;
    // IEEE throughout, as DuckDB 1.5: x / 0 is an infinity, 0 / 0 a NaN (not NULL).
    ArithmeticLoop<Real>(a, b, values, [&](Real x, Real y, Real* r) {
      switch (op) {
        case Op::kAdd: *r = x + y; break;
        case Op::kSub: *r = x - y; break;
        case Op::kMul: *r = x * y; break;
        case Op::kMod: *r = std::fmod(x, y); break;  // x % 0 is NaN, as DuckDB
        default: *r = x / y; break;
      }
      return true;
    });
    return out;
  }

  Status OverflowError(const Expr& e);

  // out[i] = op(a[i], b[i]) over rows where both are valid; false when op failed on one of them.
  // T is the common C type; a scalar side is read once.
  template <typename T, typename F>
  bool ArithmeticLoop(const Vec& a, const Vec& b, T* out, F&& op) {
    auto scalar_of = [](const Vec& v) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v.scalar_value.f);
      } else {
        return static_cast<T>(v.scalar_value.i);
      }
    };
    const uint8_t* va = a.scalar ? nullptr : a.valid;
    const uint8_t* vb = b.scalar ? nullptr : b.valid;
    bool ok = true;
    auto loop = [&](auto get_a, auto get_b) {
      for (int64_t i = 0, n = n_; i < n; ++i) {
        T r{};
        bool good = op(get_a(i), get_b(i), &r);
        bool valid = (va == nullptr || va[i]) && (vb == nullptr || vb[i]);
        ok = ok && (good || !valid);
        out[i] = r;
      }
    };
    T sa = a.scalar ? scalar_of(a) : T{};
    T sb = b.scalar ? scalar_of(b) : T{};
    auto at = [](const Vec& v) { return [&v](int64_t i) { return Load<T>(v.values, i); }; };
    auto constant = [](T s) { return [s](int64_t) { return s; }; };
    if (a.scalar) {
      loop(constant(sa), at(b));
    } else if (b.scalar) {
      loop(at(a), constant(sb));
    } else {
      loop(at(a), at(b));
    }
    return ok;
  }

  const BoundFilter& filter_;
  std::span<const Array* const> arrays_;
  // Loops over rows read it into a local first (`for (int64_t i = 0, n = n_; ...)`): a uint8_t
  // store may alias this member, so a loop bound of n_ is reloaded after every store and the
  // loop never vectorises.
  int64_t n_;
  std::vector<std::optional<Vec>> loaded_;
  // Some column's batch is a dictionary array (else no node is walked for one: the common case).
  bool some_dictionary_ = false;
};

}  // namespace pqsift::expr::evaluation
