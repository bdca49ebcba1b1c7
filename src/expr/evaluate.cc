// The vectorised evaluator: every node is evaluated over the whole batch into a typed vector
// with one validity byte per row; kernels are loops templated over the C type, chosen once per
// node (never a switch per row).
#include "expr/evaluate.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/cast.h"
#include "arrow/dictionary.h"
#include "arrow/layout.h"
#include "arrow/utf8.h"
#include "common/value_format.h"
#include "expr/like.h"
#include "expr/string_functions.h"
#include "geo/extent.h"

namespace pqsift::expr {
namespace {

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
void ExpandBits(const uint8_t* bits, int64_t offset, int64_t n, uint8_t* out) {
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

bool IsFloatPhys(Phys p) { return p == Phys::kF32 || p == Phys::kF64; }
bool IsBytesPhys(Phys p) { return p == Phys::kBytes || p == Phys::kFixed; }

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

bool IsDistinctOp(Op op) { return op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom; }

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

  Result<std::vector<uint8_t>> Run() {
    if (filter_.root == nullptr) return Status::InvalidArgument("filter has no root");
    if (arrays_.size() != filter_.columns.size()) {
      return Status::InvalidArgument("filter reads " + std::to_string(filter_.columns.size()) +
                                     " columns but " + std::to_string(arrays_.size()) +
                                     " were given");
    }
    PQSIFT_ASSIGN_OR_RETURN(Vec root, Eval(*filter_.root));
    std::vector<uint8_t> out(static_cast<size_t>(n_));
    if (root.scalar) {
      bool t = root.scalar_value.kind == Value::Kind::kBool && root.scalar_value.b;
      std::fill(out.begin(), out.end(), t ? 1 : 0);
      return out;
    }
    const auto* v = static_cast<const uint8_t*>(root.values);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      out[static_cast<size_t>(i)] = static_cast<uint8_t>(v[i] & (root.valid ? root.valid[i] : 1));
    }
    return out;
  }

  Result<std::vector<Truth>> RunTruth(const Expr& predicate) {
    if (arrays_.size() != filter_.columns.size()) {
      return Status::InvalidArgument("filter reads " + std::to_string(filter_.columns.size()) +
                                     " columns but " + std::to_string(arrays_.size()) +
                                     " were given");
    }
    PQSIFT_ASSIGN_OR_RETURN(Vec v, Eval(predicate));
    auto truth = [](bool valid, bool value) {
      return !valid ? Truth::kNull : value ? Truth::kTrue : Truth::kFalse;
    };
    std::vector<Truth> out(static_cast<size_t>(n_));
    if (v.scalar) {
      bool valid = !v.scalar_value.is_null();
      bool value = v.scalar_value.kind == Value::Kind::kBool && v.scalar_value.b;
      std::fill(out.begin(), out.end(), truth(valid, value));
      return out;
    }
    if (v.phys != Phys::kBool) return Status::InvalidArgument("the predicate is not boolean");
    const auto* values = static_cast<const uint8_t*>(v.values);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      out[static_cast<size_t>(i)] = truth(v.valid == nullptr || v.valid[i], values[i] != 0);
    }
    return out;
  }

 private:
  Result<Vec> Eval(const Expr& e) {
    if (int k = DictionaryColumnOf(e); k >= 0) {
      PQSIFT_ASSIGN_OR_RETURN(std::optional<Vec> v, EvalOverDictionary(e, static_cast<size_t>(k)));
      if (v) return std::move(*v);
    }
    switch (e.op) {
      case Op::kColumn: return LoadColumn(e.column);
      case Op::kLiteral: {
        Vec v;
        v.scalar = true;
        v.scalar_value = e.literal;
        v.phys = PhysOfType(*e.type);
        return v;
      }
      case Op::kCast: return EvalCast(e);
      case Op::kEq:
      case Op::kNe:
      case Op::kLt:
      case Op::kLe:
      case Op::kGt:
      case Op::kGe:
      case Op::kIsDistinctFrom:
      case Op::kIsNotDistinctFrom: return EvalCompare(e);
      case Op::kAnd:
      case Op::kOr: return EvalLogic(e);
      case Op::kNot: return EvalNot(e);
      case Op::kIsNull:
      case Op::kIsNotNull: return EvalIsNull(e);
      case Op::kIn: return EvalIn(e);
      case Op::kLike:
      case Op::kILike:
      case Op::kStartsWith:
      case Op::kEndsWith:
      case Op::kContains: return EvalLike(e);
      case Op::kDatePart: return EvalDatePart(e);
      case Op::kDateTrunc: return EvalDateTrunc(e);
      case Op::kLower:
      case Op::kUpper:
      case Op::kLength:
      case Op::kOctetLength:
      case Op::kSubstring: return EvalStringFunction(e);
      case Op::kAbs: return EvalAbs(e);
      case Op::kFloatTest: return EvalFloatTest(e);
      case Op::kCoalesce: return EvalCoalesce(e);
      case Op::kIntersectsExtent: return EvalIntersectsExtent(e);
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv:
      case Op::kMod: return EvalArithmetic(e);
      case Op::kVariantGet: return EvalVariantGet(e);
      // The shredded column's value: right only where the guards (its fallback `value` columns)
      // are NULL, which is where the prover evaluates it (on a dictionary's values).
      case Op::kGuarded: return Eval(*e.children[0]);
    }
    return Status::Internal("unknown expression op");
  }

  static Phys PhysOfType(const DataType& t) {
    switch (t.id) {
      case TypeId::kBoolean: return Phys::kBool;
      case TypeId::kInt8: return Phys::kI8;
      case TypeId::kInt16: return Phys::kI16;
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32: return Phys::kI32;
      case TypeId::kInt64:
      case TypeId::kTime64:
      case TypeId::kTimestamp: return Phys::kI64;
      case TypeId::kUInt8: return Phys::kU8;
      case TypeId::kUInt16: return Phys::kU16;
      case TypeId::kUInt32: return Phys::kU32;
      case TypeId::kUInt64: return Phys::kU64;
      case TypeId::kDecimal128: return Phys::kI128;
      case TypeId::kFloat16:
      case TypeId::kFloat32: return Phys::kF32;
      case TypeId::kFloat64: return Phys::kF64;
      case TypeId::kFixedSizeBinary: return Phys::kFixed;
      default: return Phys::kBytes;
    }
  }

  // A column as a vector: fixed-width values are read in place; booleans and float16 are
  // widened to bytes and floats; a validity bitmap becomes one byte per row. A dictionary array
  // (of the column's type) is turned into its values first.
  Result<Vec> LoadColumn(int32_t index) {
    auto k = static_cast<size_t>(index);
    if (k >= arrays_.size()) return Status::InvalidArgument("filter column index out of range");
    if (loaded_[k]) return *loaded_[k];
    PQSIFT_ASSIGN_OR_RETURN(const Array* a, ColumnArray(k));
    std::shared_ptr<Array> values;
    if (IsDictionaryOfColumn(*a, k)) {
      PQSIFT_ASSIGN_OR_RETURN(values, DecodeDictionary(*a));
      a = values.get();
    }
    PQSIFT_ASSIGN_OR_RETURN(Vec v, ArrayVec(*a, *filter_.columns[k].type, filter_.columns[k].path));
    if (values != nullptr) {  // the vector reads the decoded values in place: keep them
      if (v.keep_values == nullptr) v.keep_values = values;
      if (v.keep_valid == nullptr) v.keep_valid = values;
    }
    loaded_[k] = v;
    return v;
  }

  // Whether `a` is a dictionary array of filter column k's values (the column itself is not of
  // a dictionary type): a batch a reader kept as dictionary indices.
  bool IsDictionaryOfColumn(const Array& a, size_t k) const {
    const DataType& expected = *filter_.columns[k].type;
    return a.type->id == TypeId::kDictionary && expected.id != TypeId::kDictionary &&
           a.dictionary != nullptr && a.type->value_type != nullptr &&
           a.type->value_type->id == expected.id;
  }

  // The column a predicate node reads, when it reads exactly one and that column's batch is a
  // dictionary array; else -1. Predicates only (a comparison, IN, LIKE, IS NULL, and their NOT,
  // AND and OR): their result, a truth value per entry, is what each row looks up.
  int DictionaryColumnOf(const Expr& e) {
    if (!some_dictionary_ || e.op == Op::kColumn || e.op == Op::kLiteral || e.type == nullptr ||
        e.type->id != TypeId::kBoolean) {
      return -1;
    }
    int column = -1;
    if (!OnlyColumn(e, &column) || column < 0) return -1;
    auto k = static_cast<size_t>(column);
    const Array* a = k < arrays_.size() ? arrays_[k] : nullptr;
    return a != nullptr && a->type != nullptr && IsDictionaryOfColumn(*a, k) ? column : -1;
  }

  // Whether every column `e` reads is *column (set by the first one met; -1: none yet). Nodes
  // whose meaning is not a plain function of their columns' values per row stay row-wise.
  static bool OnlyColumn(const Expr& e, int* column) {
    if (e.op == Op::kVariantGet || e.op == Op::kGuarded || e.op == Op::kIntersectsExtent) {
      return false;
    }
    if (e.op == Op::kColumn) {
      if (*column >= 0 && *column != e.column) return false;
      *column = e.column;
      return true;
    }
    for (const auto& child : e.children) {
      if (!OnlyColumn(*child, column)) return false;
    }
    return true;
  }

  // `e`, which reads only column k, whose batch is a dictionary array: evaluated once per
  // dictionary entry (and once for a NULL, when some row is), then each row takes its entry's
  // result. Nothing (the caller evaluates row by row) when the dictionary holds more entries
  // than the batch rows, or when an entry's evaluation fails: an entry no row uses must not fail
  // the filter (a cast of it, say), and the row-wise evaluation reports what the rows do.
  Result<std::optional<Vec>> EvalOverDictionary(const Expr& e, size_t k) {
    PQSIFT_ASSIGN_OR_RETURN(const Array* checked, ColumnArray(k));
    const Array& rows = *checked;
    const Array& entries = *rows.dictionary;
    if (entries.length == 0 || entries.length > n_) return std::optional<Vec>();
    std::vector<const Array*> columns(arrays_.size(), nullptr);
    columns[k] = &entries;
    Result<std::vector<Truth>> per_entry = Evaluator(filter_, columns, entries.length).RunTruth(e);
    if (!per_entry.ok()) return std::optional<Vec>();
    const uint8_t* validity = rows.null_count != 0 && !rows.buffers.empty() && rows.buffers[0]
                                  ? rows.buffers[0]->data()
                                  : nullptr;
    Truth for_null = Truth::kNull;
    if (validity != nullptr) {
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> null, MakeAllNullArray(entries.type, 1));
      columns[k] = null.get();
      Result<std::vector<Truth>> t = Evaluator(filter_, columns, 1).RunTruth(e);
      if (!t.ok()) return std::optional<Vec>();
      for_null = t->front();
    }
    if (rows.buffers.size() < 2 || rows.buffers[1] == nullptr) {
      return Status::InvalidArgument("column '" + filter_.columns[k].path +
                                     "' has no dictionary indices");
    }
    const int32_t* indices = rows.buffers[1]->as<int32_t>() + rows.offset;
    // Per entry: 1 where TRUE; and whether some row can be NULL (a NULL row, or an entry whose
    // result is NULL): else the vector has no validity.
    std::vector<uint8_t> is_true(per_entry->size());
    bool some_null = validity != nullptr && for_null == Truth::kNull;
    for (size_t i = 0; i < is_true.size(); ++i) {
      is_true[i] = (*per_entry)[i] == Truth::kTrue ? 1 : 0;
      some_null |= (*per_entry)[i] == Truth::kNull;
    }
    const auto entry_count = static_cast<uint32_t>(entries.length);
    Vec v;
    v.phys = Phys::kBool;
    uint8_t* values = Allocate<uint8_t>(&v.keep_values, n_);
    uint32_t out_of_range = 0;  // OR of the indices at or past the end (0: none)
    for (int64_t i = 0, n = n_; i < n; ++i) {
      const auto index = static_cast<uint32_t>(indices[i]);
      const bool inside = index < entry_count;
      out_of_range |= inside ? 0 : 1;
      values[i] = is_true[inside ? index : 0];
    }
    if (validity != nullptr || some_null) {
      uint8_t* valid = Allocate<uint8_t>(&v.keep_valid, n_);
      const Truth* truth = per_entry->data();
      for (int64_t i = 0, n = n_; i < n; ++i) {
        Truth t = for_null;
        if (validity == nullptr || bit_util::GetBit(validity, rows.offset + i)) {
          const auto index = static_cast<uint32_t>(indices[i]);
          t = truth[index < entry_count ? index : 0];
        }
        values[i] = t == Truth::kTrue ? 1 : 0;
        valid[i] = t == Truth::kNull ? 0 : 1;
      }
      v.valid = valid;
    }
    if (out_of_range != 0) {
      // A NULL row's index slot may hold anything: only valid rows' indices must be inside.
      for (int64_t i = 0, n = n_; i < n; ++i) {
        if ((validity == nullptr || bit_util::GetBit(validity, rows.offset + i)) &&
            static_cast<uint32_t>(indices[i]) >= entry_count) {
          return Status::InvalidArgument("column '" + filter_.columns[k].path +
                                         "' has a dictionary index outside its dictionary");
        }
      }
    }
    v.values = values;
    return std::optional<Vec>(std::move(v));
  }

  // Column k's array, checked against its type and the batch's length.
  Result<const Array*> ColumnArray(size_t k) const {
    const Array* a = arrays_[k];
    const DataType& expected = *filter_.columns[k].type;
    if (a == nullptr || a->type == nullptr ||
        (a->type->id != expected.id && !IsDictionaryOfColumn(*a, k))) {
      return Status::InvalidArgument("column '" + filter_.columns[k].path + "' should be " +
                                     expected.ToString() + " but the batch holds " +
                                     (a && a->type ? a->type->ToString() : "nothing"));
    }
    if (a->length < n_) {
      return Status::InvalidArgument("column '" + filter_.columns[k].path + "' has " +
                                     std::to_string(a->length) + " rows, fewer than " +
                                     std::to_string(n_));
    }
    return a;
  }

  // variant_get over the batch (variant/get.h), the result read as a vector.
  Result<Vec> EvalVariantGet(const Expr& e) {
    const Expr& column = *e.children[0];
    auto k = static_cast<size_t>(column.column);
    if (column.op != Op::kColumn || k >= arrays_.size()) {
      return Status::InvalidArgument("variant_get needs a VARIANT column");
    }
    PQSIFT_ASSIGN_OR_RETURN(const Array* a, ColumnArray(k));
    Array head = *a;
    head.length = n_;  // the batch's rows only
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> values,
                            variant::VariantGet(head, e.variant_path, e.variant_type));
    PQSIFT_ASSIGN_OR_RETURN(Vec v, ArrayVec(*values, *e.type, filter_.columns[k].path));
    if (v.keep_values == nullptr) v.keep_values = values;  // values read in place
    if (v.keep_valid == nullptr) v.keep_valid = values;
    return v;
  }

  // An array of `expected`'s type as a vector (REQUIRES: at least n_ rows).
  Result<Vec> ArrayVec(const Array& array, const DataType& expected, const std::string& path) {
    const Array* a = &array;
    Vec v;
    v.phys = PhysOfType(expected);
    int64_t off = a->offset;
    if (a->null_count != 0 && !a->buffers.empty() && a->buffers[0] != nullptr) {
      uint8_t* valid = Allocate<uint8_t>(&v.keep_valid, n_);
      ExpandBits(a->buffers[0]->data(), off, n_, valid);
      v.valid = valid;
    }
    static const int64_t kZeroOffsets[2] = {0, 0};
    static const uint8_t kNoBytes[1] = {0};
    const uint8_t* values =
        a->buffers.size() > 1 && a->buffers[1] != nullptr ? a->buffers[1]->data() : nullptr;
    switch (expected.id) {
      case TypeId::kBoolean: {
        uint8_t* bytes = Allocate<uint8_t>(&v.keep_values, n_);
        ExpandBits(values, off, n_, bytes);
        v.values = bytes;
        break;
      }
      case TypeId::kFloat16: {
        float* floats = Allocate<float>(&v.keep_values, n_);
        for (int64_t i = 0, n = n_; i < n; ++i) {
          floats[i] = HalfToFloat(Load<uint16_t>(values, off + i));
        }
        v.values = floats;
        break;
      }
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: {
        v.offsets = n_ == 0 ? kZeroOffsets : layout::Offsets<int64_t>(*a) + off;
        v.data =
            a->buffers.size() > 2 && a->buffers[2] != nullptr ? a->buffers[2]->data() : kNoBytes;
        break;
      }
      case TypeId::kFixedSizeBinary:
        v.width = expected.byte_width;
        v.data = values != nullptr ? values + off * expected.byte_width : kNoBytes;
        break;
      default: {
        int32_t width = layout::FixedByteWidth(expected);
        v.values = values != nullptr ? values + off * width : kNoBytes;
        if (values == nullptr && n_ > 0) {
          return Status::InvalidArgument("column '" + path + "' has no values buffer");
        }
      }
    }
    return v;
  }

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

  // A scalar as a full vector (for the few kernels that take no scalars).
  Vec Broadcast(const Vec& s) {
    Vec v;
    v.phys = s.phys;
    if (s.scalar_value.is_null()) {
      uint8_t* valid = Allocate<uint8_t>(&v.keep_valid, n_);
      std::memset(valid, 0, static_cast<size_t>(std::max<int64_t>(n_, 1)));
      v.valid = valid;
    }
    const Value& x = s.scalar_value;
    if (IsBytesPhys(s.phys)) {
      Vec bytes = BuildBytes([&](int64_t, std::string* data) { *data += x.bytes; });
      bytes.valid = v.valid;
      bytes.keep_valid = v.keep_valid;
      return bytes;
    }
    VisitFixed(s.phys, [&](auto tag) {
      using T = decltype(tag);
      T* out = Allocate<T>(&v.keep_values, n_);
      T value{};
      if (x.kind == Value::Kind::kBool) value = static_cast<T>(x.b);
      if (x.kind == Value::Kind::kInt) value = static_cast<T>(x.i);
      if (x.kind == Value::Kind::kFloat) value = static_cast<T>(x.f);
      std::fill(out, out + n_, value);
      v.values = out;
    });
    return v;
  }

  // Validity of rows where both a and b are valid (scalars count as valid; NULL scalars are
  // handled by the callers).
  const uint8_t* BothValid(const Vec& a, const Vec& b, std::shared_ptr<const void>* keep) {
    const uint8_t* va = a.scalar ? nullptr : a.valid;
    const uint8_t* vb = b.scalar ? nullptr : b.valid;
    if (va == nullptr) {
      if (vb != nullptr) *keep = b.scalar ? nullptr : b.keep_valid;
      return vb;
    }
    if (vb == nullptr) {
      *keep = a.keep_valid;
      return va;
    }
    uint8_t* out = Allocate<uint8_t>(keep, n_);
    for (int64_t i = 0, n = n_; i < n; ++i) out[i] = va[i] & vb[i];
    return out;
  }

  Vec AllNullBool() {
    Vec v;
    v.scalar = true;
    v.phys = Phys::kBool;
    return v;
  }

  // ---- comparisons ----

  Result<Vec> EvalCompare(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    PQSIFT_ASSIGN_OR_RETURN(Vec b, Eval(*e.children[1]));
    Op op = e.op;
    if (a.scalar && !b.scalar) {
      std::swap(a, b);
      switch (op) {
        case Op::kLt: op = Op::kGt; break;
        case Op::kLe: op = Op::kGe; break;
        case Op::kGt: op = Op::kLt; break;
        case Op::kGe: op = Op::kLe; break;
        default: break;
      }
    }
    if (a.scalar) {  // both scalars (not produced by the binder, but well-defined)
      Vec out = AllNullBool();
      bool a_null = a.scalar_value.is_null();
      bool b_null = b.scalar_value.is_null();
      if (IsDistinctOp(op)) {
        int order =
            a_null || b_null ? (a_null == b_null ? 0 : 1) : Compare(a.scalar_value, b.scalar_value);
        out.scalar_value = Value::Bool(FromOrder(op, order));
      } else if (!a_null && !b_null) {
        out.scalar_value = Value::Bool(FromOrder(op, Compare(a.scalar_value, b.scalar_value)));
      }
      return out;
    }
    Vec out;
    out.phys = Phys::kBool;
    uint8_t* result = Allocate<uint8_t>(&out.keep_values, n_);
    out.values = result;
    if (b.scalar) {
      if (b.scalar_value.is_null()) {
        if (!IsDistinctOp(op)) return AllNullBool();
        // x IS [NOT] DISTINCT FROM NULL: whether x is (not) null.
        for (int64_t i = 0, n = n_; i < n; ++i) {
          bool is_null = a.valid != nullptr && a.valid[i] == 0;
          result[i] = (op == Op::kIsDistinctFrom) != is_null ? 1 : 0;
        }
        return out;
      }
      CompareWithScalar(op, a, b.scalar_value, result);
      if (IsDistinctOp(op)) {
        // A NULL row is distinct from any value.
        if (a.valid != nullptr) {
          uint8_t null_result = op == Op::kIsDistinctFrom ? 1 : 0;
          for (int64_t i = 0, n = n_; i < n; ++i) result[i] = a.valid[i] ? result[i] : null_result;
        }
      } else {
        out.valid = a.valid;
        out.keep_valid = a.keep_valid;
      }
      return out;
    }
    PQSIFT_RETURN_IF_ERROR(CompareVectors(op, a, b, result));
    if (IsDistinctOp(op)) {
      if (a.valid != nullptr || b.valid != nullptr) {
        bool distinct = op == Op::kIsDistinctFrom;
        for (int64_t i = 0, n = n_; i < n; ++i) {
          bool na = a.valid != nullptr && a.valid[i] == 0;
          bool nb = b.valid != nullptr && b.valid[i] == 0;
          if (na || nb) result[i] = ((na != nb) == distinct) ? 1 : 0;
        }
      }
    } else {
      out.valid = BothValid(a, b, &out.keep_valid);
    }
    return out;
  }

  template <typename T, typename L>
  void CompareLoop(Op op, const T* values, L literal, uint8_t* out) {
    VisitCompareOp(op, [&](auto op_tag) {
      constexpr Op kOp = decltype(op_tag)::value;
      for (int64_t i = 0, n = n_; i < n; ++i) {
        out[i] = Apply<kOp, L>(static_cast<L>(Load<T>(values, i)), literal) ? 1 : 0;
      }
    });
  }

  // Every row of `a` against one value: a tight loop over a's C type. An integer literal
  // outside that type's range gives the same answer for every row.
  void CompareWithScalar(Op op, const Vec& a, const Value& lit, uint8_t* out) {
    if (IsBytesPhys(a.phys)) {
      const BytesLiteral l(lit.bytes);
      VisitCompareOp(op, [&](auto op_tag) {
        constexpr Op kOp = decltype(op_tag)::value;
        for (int64_t i = 0, n = n_; i < n; ++i) {
          if constexpr (kOp == Op::kEq || kOp == Op::kIsNotDistinctFrom) {
            out[i] = l.Equals(BytesAt(a, i)) ? 1 : 0;
          } else if constexpr (kOp == Op::kNe || kOp == Op::kIsDistinctFrom) {
            out[i] = l.Equals(BytesAt(a, i)) ? 0 : 1;
          } else {
            out[i] = Apply<kOp, int>(l.Compare(BytesAt(a, i)), 0) ? 1 : 0;
          }
        }
      });
      return;
    }
    VisitFixed(a.phys, [&](auto tag) {
      using T = decltype(tag);
      const T* values = static_cast<const T*>(a.values);
      if constexpr (std::is_floating_point_v<T>) {
        CompareLoop<T, double>(op, values, lit.f, out);
      } else if constexpr (std::is_same_v<T, int128>) {
        CompareLoop<T, T>(op, values, lit.i, out);
      } else {
        int128 l = a.phys == Phys::kBool ? static_cast<int128>(lit.b) : lit.i;
        if (l < static_cast<int128>(std::numeric_limits<T>::min()) ||
            l > static_cast<int128>(std::numeric_limits<T>::max())) {
          uint8_t constant = FromOrder(op, l < 0 ? 1 : -1) ? 1 : 0;
          std::memset(out, constant, static_cast<size_t>(n_));
          return;
        }
        CompareLoop<T, T>(op, values, static_cast<T>(l), out);
      }
    });
  }

  // Two vectors: same C type compare directly; integers of different types in int128; floats of
  // different widths in double; bytes (variable or fixed) as unsigned bytes.
  Status CompareVectors(Op op, const Vec& a, const Vec& b, uint8_t* out) {
    if (IsBytesPhys(a.phys) || IsBytesPhys(b.phys)) {
      if (!IsBytesPhys(a.phys) || !IsBytesPhys(b.phys)) {
        return Status::Internal("comparison of bytes with numbers");
      }
      VisitCompareOp(op, [&](auto op_tag) {
        constexpr Op kOp = decltype(op_tag)::value;
        for (int64_t i = 0, n = n_; i < n; ++i) {
          out[i] = Apply<kOp, int>(CompareBytes(BytesAt(a, i), BytesAt(b, i)), 0) ? 1 : 0;
        }
      });
      return Status::OK();
    }
    if (a.phys == b.phys) {
      VisitFixed(a.phys, [&](auto tag) {
        using T = decltype(tag);
        VisitCompareOp(op, [&](auto op_tag) {
          constexpr Op kOp = decltype(op_tag)::value;
          for (int64_t i = 0, n = n_; i < n; ++i) {
            out[i] = Apply<kOp, T>(Load<T>(a.values, i), Load<T>(b.values, i)) ? 1 : 0;
          }
        });
      });
      return Status::OK();
    }
    Phys common = IsFloatPhys(a.phys) || IsFloatPhys(b.phys) ? Phys::kF64 : Phys::kI128;
    Vec wa = Widen(a, common);
    Vec wb = Widen(b, common);
    return CompareVectors(op, wa, wb, out);
  }

  // The same values as int128 or double.
  Vec Widen(const Vec& a, Phys to) {
    if (a.phys == to) return a;
    Vec v = a;
    v.phys = to;
    VisitFixed(a.phys, [&](auto tag) {
      using T = decltype(tag);
      const T* in = static_cast<const T*>(a.values);
      if (to == Phys::kF64) {
        double* out = Allocate<double>(&v.keep_values, n_);
        for (int64_t i = 0, n = n_; i < n; ++i) out[i] = static_cast<double>(Load<T>(in, i));
        v.values = out;
      } else {
        int128* out = Allocate<int128>(&v.keep_values, n_);
        for (int64_t i = 0, n = n_; i < n; ++i) out[i] = WidenToInt128(Load<T>(in, i));
        v.values = out;
      }
    });
    return v;
  }

  // ---- logic ----

  // definitely-true and definitely-false bytes of a boolean vector.
  // The loops below index through local pointers: a uint8_t store may alias anything, so
  // indexing the vectors would reload their data pointers after every store (see n_).
  void TruthBytes(const Vec& v, std::vector<uint8_t>* t, std::vector<uint8_t>* f) {
    t->resize(static_cast<size_t>(n_));
    f->resize(static_cast<size_t>(n_));
    if (v.scalar) {
      bool known = !v.scalar_value.is_null();
      uint8_t tv = known && v.scalar_value.b ? 1 : 0;
      uint8_t fv = known && !v.scalar_value.b ? 1 : 0;
      std::fill(t->begin(), t->end(), tv);
      std::fill(f->begin(), f->end(), fv);
      return;
    }
    const auto* values = static_cast<const uint8_t*>(v.values);
    uint8_t* tp = t->data();
    uint8_t* fp = f->data();
    if (v.valid == nullptr) {
      for (int64_t i = 0, n = n_; i < n; ++i) {
        tp[i] = values[i];
        fp[i] = values[i] ^ 1;
      }
      return;
    }
    const uint8_t* valid = v.valid;
    for (int64_t i = 0, n = n_; i < n; ++i) {
      tp[i] = valid[i] & values[i];
      fp[i] = valid[i] & (values[i] ^ 1);
    }
  }

  // AND: FALSE dominates NULL; OR: TRUE dominates NULL. Children after the result is decided
  // for every row are not evaluated.
  Result<Vec> EvalLogic(const Expr& e) {
    bool is_and = e.op == Op::kAnd;
    std::vector<uint8_t> t;
    std::vector<uint8_t> f;
    std::vector<uint8_t> ct;
    std::vector<uint8_t> cf;
    for (size_t k = 0; k < e.children.size(); ++k) {
      PQSIFT_ASSIGN_OR_RETURN(Vec child, Eval(*e.children[k]));
      if (k == 0) {
        TruthBytes(child, &t, &f);
      } else {
        TruthBytes(child, &ct, &cf);
        uint8_t* tp = t.data();
        uint8_t* fp = f.data();
        const uint8_t* ctp = ct.data();
        const uint8_t* cfp = cf.data();
        if (is_and) {
          for (int64_t i = 0, n = n_; i < n; ++i) {
            tp[i] &= ctp[i];
            fp[i] |= cfp[i];
          }
        } else {
          for (int64_t i = 0, n = n_; i < n; ++i) {
            tp[i] |= ctp[i];
            fp[i] &= cfp[i];
          }
        }
      }
      // Decided everywhere when every row is FALSE (AND) or TRUE (OR).
      const std::vector<uint8_t>& dominant = is_and ? f : t;
      if (std::find(dominant.begin(), dominant.end(), uint8_t{0}) == dominant.end()) break;
    }
    Vec out;
    out.phys = Phys::kBool;
    uint8_t* values = Allocate<uint8_t>(&out.keep_values, n_);
    uint8_t* valid = Allocate<uint8_t>(&out.keep_valid, n_);
    const uint8_t* tp = t.data();
    const uint8_t* fp = f.data();
    for (int64_t i = 0, n = n_; i < n; ++i) {
      values[i] = tp[i];
      valid[i] = tp[i] | fp[i];
    }
    out.values = values;
    out.valid = valid;
    return out;
  }

  Result<Vec> EvalNot(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) {
      if (!a.scalar_value.is_null()) a.scalar_value.b = !a.scalar_value.b;
      return a;
    }
    Vec out = a;
    uint8_t* values = Allocate<uint8_t>(&out.keep_values, n_);
    const auto* in = static_cast<const uint8_t*>(a.values);
    for (int64_t i = 0, n = n_; i < n; ++i) values[i] = in[i] ^ 1;
    out.values = values;
    return out;
  }

  Result<Vec> EvalIsNull(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    bool want_null = e.op == Op::kIsNull;
    if (a.scalar) {
      Vec out = AllNullBool();
      out.scalar_value = Value::Bool(a.scalar_value.is_null() == want_null);
      return out;
    }
    Vec out;
    out.phys = Phys::kBool;
    uint8_t* values = Allocate<uint8_t>(&out.keep_values, n_);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      bool is_null = a.valid != nullptr && a.valid[i] == 0;
      values[i] = is_null == want_null ? 1 : 0;
    }
    out.values = values;
    return out;
  }

  // ---- IN ----

  Result<Vec> EvalIn(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    Vec out;
    out.phys = Phys::kBool;
    uint8_t* result = Allocate<uint8_t>(&out.keep_values, n_);
    out.values = result;
    if (IsBytesPhys(a.phys)) {
      if (e.list.size() <= 8) {
        std::vector<BytesLiteral> items;
        for (const Value& item : e.list) items.emplace_back(item.bytes);
        for (int64_t i = 0, n = n_; i < n; ++i) {
          std::string_view v = BytesAt(a, i);
          bool match = false;
          for (const BytesLiteral& item : items) match = match || item.Equals(v);
          result[i] = match ? 1 : 0;
        }
      } else {
        std::unordered_set<std::string_view> set;
        for (const Value& item : e.list) set.insert(item.bytes);
        for (int64_t i = 0, n = n_; i < n; ++i) result[i] = set.count(BytesAt(a, i)) ? 1 : 0;
      }
    } else {
      VisitFixed(a.phys, [&](auto tag) {
        using T = decltype(tag);
        using L = std::conditional_t<std::is_floating_point_v<T>, double, T>;
        std::vector<L> items;
        for (const Value& item : e.list) {
          if constexpr (std::is_floating_point_v<T>) {
            items.push_back(item.f);
          } else {
            int128 x = a.phys == Phys::kBool ? static_cast<int128>(item.b) : item.i;
            if (x >= static_cast<int128>(std::numeric_limits<T>::min()) &&
                x <= static_cast<int128>(std::numeric_limits<T>::max())) {
              items.push_back(static_cast<T>(x));
            }
          }
        }
        std::sort(items.begin(), items.end(), [](L x, L y) { return Less(x, y); });
        const L* first = items.data();
        const L* last = items.data() + items.size();
        for (int64_t i = 0, n = n_; i < n; ++i) {
          auto v = static_cast<L>(Load<T>(a.values, i));
          bool match = false;
          if (items.size() <= 8) {
            for (const L* p = first; p != last; ++p) match = match || Equal(v, *p);
          } else {
            const L* p = std::lower_bound(first, last, v, [](L x, L y) { return Less(x, y); });
            match = p != last && Equal(*p, v);
          }
          result[i] = match ? 1 : 0;
        }
      });
    }
    if (!e.list_has_null) {
      out.valid = a.valid;
      out.keep_valid = a.keep_valid;
      return out;
    }
    // No match against a list holding NULL is NULL.
    uint8_t* valid = Allocate<uint8_t>(&out.keep_valid, n_);
    for (int64_t i = 0, n = n_; i < n; ++i) valid[i] = (a.valid ? a.valid[i] : 1) & result[i];
    out.valid = valid;
    return out;
  }

  // ---- st_intersects_extent ----

  // Per row from the WKB (geo/extent.h); bytes that are not WKB are NULL.
  Result<Vec> EvalIntersectsExtent(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    if (!IsBytesPhys(a.phys) || e.list.size() != 4) {
      return Status::Internal("st_intersects_extent over a non-binary vector");
    }
    const geo::QueryBox box{e.list[0].f, e.list[1].f, e.list[2].f, e.list[3].f};
    Vec out;
    out.phys = Phys::kBool;
    uint8_t* result = Allocate<uint8_t>(&out.keep_values, n_);
    uint8_t* valid = Allocate<uint8_t>(&out.keep_valid, n_);
    out.values = result;
    out.valid = valid;
    for (int64_t i = 0, n = n_; i < n; ++i) {
      result[i] = 0;
      valid[i] = a.valid ? a.valid[i] : 1;
      if (!valid[i]) continue;
      std::string_view bytes = BytesAt(a, i);
      Result<geo::WkbSummary> s = geo::Summarize(
          {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, e.geography);
      if (!s.ok()) {
        valid[i] = 0;
        continue;
      }
      result[i] = geo::Intersects(s->extent, box) ? 1 : 0;
    }
    return out;
  }

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

  Result<Vec> EvalLike(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    if (!IsBytesPhys(a.phys)) return Status::Internal("LIKE over a non-string vector");
    uint8_t* result = nullptr;
    Vec out = NullWhere(a, Phys::kBool, &result);
    if (e.op == Op::kStartsWith || e.op == Op::kEndsWith || e.op == Op::kContains) {
      for (int64_t i = 0, n = n_; i < n; ++i) {
        result[i] = PassesSubstringTest(e.op, e.pattern, BytesAt(a, i)) ? 1 : 0;
      }
      return out;
    }
    LikeMatcher matcher(e.pattern, e.op == Op::kILike);
    for (int64_t i = 0, n = n_; i < n; ++i) result[i] = matcher.Matches(BytesAt(a, i)) ? 1 : 0;
    return out;
  }

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

  // year(x), extract(month FROM x), ...
  Result<Vec> EvalDatePart(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    std::optional<DateField> field = DateFieldNamed(e.pattern);
    if (!field) return Status::Internal("unknown date part '" + e.pattern + "'");
    int64_t* values = nullptr;
    Vec out = NullWhere(a, Phys::kI64, &values);
    PQSIFT_RETURN_IF_ERROR(
        ForEachInstant(a, *e.children[0]->type, [&](int64_t i, const cast::TimestampDay& t) {
          values[i] = DatePartOf(*field, t);
          return Status::OK();
        }));
    return out;
  }

  // date_trunc('unit', x): microseconds since the epoch of x cut to the unit.
  Result<Vec> EvalDateTrunc(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    std::optional<TruncUnit> unit = TruncUnitNamed(e.pattern);
    if (!unit) return Status::Internal("unknown date_trunc unit '" + e.pattern + "'");
    int64_t* values = nullptr;
    Vec out = NullWhere(a, Phys::kI64, &values);
    PQSIFT_RETURN_IF_ERROR(
        ForEachInstant(a, *e.children[0]->type, [&](int64_t i, const cast::TimestampDay& t) {
          std::optional<int64_t> cut = TruncatedMicros(*unit, t);
          values[i] = cut.value_or(0);
          if (cut || (a.valid != nullptr && !a.valid[i])) return Status::OK();  // NULL: any bytes
          return Status::InvalidArgument("date_trunc('" + e.pattern +
                                         "'): a value beyond the timestamp range");
        }));
    return out;
  }

  // ---- lower, upper, length, octet_length, abs, coalesce ----

  Result<Vec> EvalStringFunction(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    if (!IsBytesPhys(a.phys)) return Status::Internal("a string function over a non-string vector");
    if (e.op == Op::kLength || e.op == Op::kOctetLength) {
      int64_t* values = nullptr;
      Vec out = NullWhere(a, Phys::kI64, &values);
      for (int64_t i = 0, n = n_; i < n; ++i) {
        const std::string_view v = BytesAt(a, i);
        values[i] = e.op == Op::kLength ? CodePointCount(v) : static_cast<int64_t>(v.size());
      }
      return out;
    }
    Vec out = BuildBytes([&](int64_t i, std::string* data) {
      if (a.valid != nullptr && !a.valid[i]) return;
      if (e.op == Op::kSubstring) {
        *data += SubstringByMode(e.pattern, BytesAt(a, i), e.list);
      } else {
        AppendCaseMapped(BytesAt(a, i), e.op == Op::kUpper, data);
      }
    });
    out.valid = a.valid;
    out.keep_valid = a.keep_valid;
    return out;
  }

  // isnan(x), isinf(x), isfinite(x) of a float vector.
  Result<Vec> EvalFloatTest(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    if (!IsFloatPhys(a.phys)) return Status::Internal("a float test of a non-float vector");
    uint8_t* result = nullptr;
    Vec out = NullWhere(a, Phys::kBool, &result);
    const int test = e.pattern == "isnan" ? 0 : e.pattern == "isinf" ? 1 : 2;
    auto classify = [&](auto tag) {
      using T = decltype(tag);
      const auto* in = static_cast<const T*>(a.values);
      for (int64_t i = 0, n = n_; i < n; ++i) {
        const T v = in[i];
        result[i] = test == 0 ? std::isnan(v) : test == 1 ? std::isinf(v) : std::isfinite(v);
      }
    };
    if (a.phys == Phys::kF32) {
      classify(float{});
    } else {
      classify(double{});
    }
    return out;
  }

  // abs(x) of an int64 (INT64_MIN overflows, as in DuckDB), decimal or float vector.
  Result<Vec> EvalAbs(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    if (a.scalar) a = Broadcast(a);
    bool overflow = false;
    Vec out;
    auto absolute = [&](auto tag) {
      using T = decltype(tag);
      T* values = nullptr;
      out = NullWhere(a, a.phys, &values);
      const auto* in = static_cast<const T*>(a.values);
      for (int64_t i = 0, n = n_; i < n; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          values[i] = std::fabs(in[i]);
        } else {
          const bool minimum = std::is_same_v<T, int64_t> && in[i] == INT64_MIN;
          overflow |= minimum && (a.valid == nullptr || a.valid[i]);
          values[i] = minimum ? 0 : (in[i] < 0 ? -in[i] : in[i]);
        }
      }
    };
    switch (a.phys) {
      case Phys::kI64: absolute(int64_t{}); break;
      case Phys::kI128: absolute(int128{}); break;  // decimals: 38 digits either sign
      case Phys::kF32: absolute(float{}); break;
      case Phys::kF64: absolute(double{}); break;
      default: return Status::Internal("abs over a vector that is no int64, decimal or float");
    }
    if (overflow) return Status::InvalidArgument("overflow in " + ToString(e, filter_));
    return out;
  }

  // coalesce(a, b, ...): each row's first non-NULL child (every child of the node's type).
  Result<Vec> EvalCoalesce(const Expr& e) {
    std::vector<Vec> args;
    for (const ExprPtr& child : e.children) {
      PQSIFT_ASSIGN_OR_RETURN(Vec v, Eval(*child));
      if (v.scalar_null()) continue;
      args.push_back(v.scalar ? Broadcast(v) : std::move(v));
      if (args.back().valid == nullptr) break;  // never NULL: later ones are never reached
    }
    const Phys phys = PhysOfType(*e.type);
    if (args.empty()) {
      Vec out;
      out.scalar = true;
      out.phys = phys;
      return out;
    }
    // pick[i]: the child row i takes its value from; args.size() where every one is NULL.
    std::vector<uint32_t> pick(static_cast<size_t>(n_), static_cast<uint32_t>(args.size()));
    uint8_t* valid = nullptr;
    Vec out;
    bool some_null = args.back().valid != nullptr;
    if (some_null) valid = Allocate<uint8_t>(&out.keep_valid, n_);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      auto k = static_cast<uint32_t>(args.size());
      for (uint32_t c = 0; c < args.size(); ++c) {
        if (args[c].valid == nullptr || args[c].valid[i]) {
          k = c;
          break;
        }
      }
      pick[static_cast<size_t>(i)] = k;
      if (valid != nullptr) valid[i] = k < args.size() ? 1 : 0;
    }
    auto from = [&](int64_t i) -> const Vec* {
      uint32_t k = pick[static_cast<size_t>(i)];
      return k < args.size() ? &args[k] : nullptr;
    };
    if (IsBytesPhys(phys)) {
      Vec bytes = BuildBytes([&](int64_t i, std::string* data) {
        if (const Vec* v = from(i)) {
          *data += BytesAt(*v, i);
        } else if (phys == Phys::kFixed) {  // a NULL row keeps its place
          data->append(static_cast<size_t>(e.type->byte_width), '\0');
        }
      });
      if (phys == Phys::kFixed) {  // same width in every child: the bytes laid end to end
        bytes.phys = Phys::kFixed;
        bytes.width = e.type->byte_width;
        bytes.offsets = nullptr;
      }
      bytes.valid = valid;
      bytes.keep_valid = out.keep_valid;
      return bytes;
    }
    VisitFixed(phys, [&](auto tag) {
      using T = decltype(tag);
      T* values = Allocate<T>(&out.keep_values, n_);
      for (int64_t i = 0, n = n_; i < n; ++i) {
        const Vec* v = from(i);
        values[i] = v != nullptr ? static_cast<const T*>(v->values)[i] : T{};
      }
      out.values = values;
    });
    out.phys = phys;
    out.valid = valid;
    return out;
  }

  // ---- casts ----

  Result<Vec> EvalCast(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    const DataType& from = *e.children[0]->type;
    const DataType& to = *e.type;
    if (a.scalar) a = Broadcast(a);
    Vec out;
    out.valid = a.valid;
    out.keep_valid = a.keep_valid;
    if (to.id == TypeId::kFloat64) return CastToReal<double>(a, from, std::move(out));
    if (to.id == TypeId::kFloat32) return CastToReal<float>(a, from, std::move(out));
    if (to.id == TypeId::kInt64) {
      out.phys = Phys::kI64;
      int64_t* values = Allocate<int64_t>(&out.keep_values, n_);
      out.values = values;
      bool overflow = false;
      VisitFixedChecked(a.phys, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t i = 0, n = n_; i < n; ++i) {
          int128 v = WidenToInt128(Load<T>(a.values, i));
          bool valid = a.valid == nullptr || a.valid[i];
          overflow = overflow || (valid && (v > INT64_MAX || v < INT64_MIN));
          values[i] = static_cast<int64_t>(v);
        }
      });
      if (overflow) return Status::InvalidArgument("value out of int64 range in arithmetic");
      return out;
    }
    if (cast::CastsToDay(from, to)) {
      // A timestamp to its date (as DuckDB: ForEachInstant).
      int32_t* days = nullptr;
      out = NullWhere(a, Phys::kI32, &days);
      PQSIFT_RETURN_IF_ERROR(ForEachInstant(a, from, [&](int64_t i, const cast::TimestampDay& t) {
        const bool valid = a.valid == nullptr || a.valid[i];
        days[i] = valid ? static_cast<int32_t>(t.day) : 0;
        // A millisecond timestamp can lie beyond DATE's 32 bits of days (5.8 million years).
        if (!valid || (t.day <= INT32_MAX && t.day >= INT32_MIN)) return Status::OK();
        return Status::InvalidArgument("CAST of a timestamp beyond the DATE range to DATE");
      }));
      return out;
    }
    // Scaling up into int128: decimals to a larger scale, dates to timestamps, time units.
    std::optional<int128> scale_up = cast::ScaleUpFactor(from, to);
    if (!scale_up) return Status::Internal("unsupported cast to " + to.ToString());
    const int128 factor = *scale_up;
    out.phys = Phys::kI128;
    int128* values = Allocate<int128>(&out.keep_values, n_);
    out.values = values;
    VisitFixedChecked(a.phys, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        for (int64_t i = 0, n = n_; i < n; ++i) values[i] = 0;
      } else {
        for (int64_t i = 0, n = n_; i < n; ++i)
          values[i] = static_cast<int128>(Load<T>(a.values, i)) * factor;
      }
    });
    return out;
  }

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

  Result<Vec> EvalArithmetic(const Expr& e) {
    PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
    PQSIFT_ASSIGN_OR_RETURN(Vec b, Eval(*e.children[1]));
    if (a.scalar_null() || b.scalar_null()) {
      Vec out;
      out.scalar = true;
      out.phys = PhysOfType(*e.type);
      return out;
    }
    const DataType& type = *e.type;
    Vec out;
    out.valid = BothValid(a, b, &out.keep_valid);
    Status status;
    if (type.id == TypeId::kFloat64) return RealArithmetic<double>(e.op, a, b, std::move(out));
    if (type.id == TypeId::kFloat32) return RealArithmetic<float>(e.op, a, b, std::move(out));
    if (type.id == TypeId::kInt64) {
      out.phys = Phys::kI64;
      int64_t* values = Allocate<int64_t>(&out.keep_values, n_);
      out.values = values;
      bool ok = ArithmeticLoop<int64_t>(a, b, values, [&](int64_t x, int64_t y, int64_t* r) {
        switch (e.op) {
          case Op::kAdd: return !__builtin_add_overflow(x, y, r);
          case Op::kSub: return !__builtin_sub_overflow(x, y, r);
          case Op::kMod:  // by zero: NULL (NullWhereZero); INT64_MIN % -1 overflows, as DuckDB's
            *r = y == 0 || y == -1 ? 0 : x % y;
            return y != -1 || x != INT64_MIN;
          default: return !__builtin_mul_overflow(x, y, r);
        }
      });
      if (!ok) return OverflowError(e);
      if (e.op == Op::kMod) NullWhereZero<int64_t>(b, &out);
      return out;
    }
    // Decimals: exact in int128, within 38 digits.
    out.phys = Phys::kI128;
    int128* values = Allocate<int128>(&out.keep_values, n_);
    out.values = values;
    int128 limit = 1;
    for (int k = 0; k < 38; ++k) limit *= 10;
    bool ok = ArithmeticLoop<int128>(a, b, values, [&](int128 x, int128 y, int128* r) {
      bool overflow = false;
      switch (e.op) {
        case Op::kAdd: overflow = __builtin_add_overflow(x, y, r); break;
        case Op::kSub: overflow = __builtin_sub_overflow(x, y, r); break;
        case Op::kMod: *r = y == 0 ? 0 : x % y; break;  // within 38 digits: no overflow
        default: overflow = __builtin_mul_overflow(x, y, r); break;
      }
      return !overflow && *r<limit&& * r> - limit;
    });
    if (!ok) return OverflowError(e);
    if (e.op == Op::kMod) NullWhereZero<int128>(b, &out);
    return out;
  }

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

  Status OverflowError(const Expr& e) {
    return Status::InvalidArgument("overflow in " + e.type->ToString() +
                                   " arithmetic: " + ToString(e, filter_));
  }

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

}  // namespace

Result<std::vector<uint8_t>> EvaluateFilter(const BoundFilter& filter,
                                            std::span<const Array* const> columns,
                                            int64_t num_rows) {
  if (num_rows < 0) return Status::InvalidArgument("negative row count");
  Evaluator evaluator(filter, columns, num_rows);
  return evaluator.Run();
}

Result<std::vector<Truth>> EvaluateTruth(const BoundFilter& filter, const Expr& predicate,
                                         std::span<const Array* const> columns, int64_t num_rows) {
  if (num_rows < 0) return Status::InvalidArgument("negative row count");
  Evaluator evaluator(filter, columns, num_rows);
  return evaluator.RunTruth(predicate);
}

}  // namespace pqsift::expr
