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
#include "common/value_format.h"
#include "expr/evaluate_internal.h"

namespace pqsift::expr {
namespace evaluation {

Result<std::vector<uint8_t>> Evaluator::Run() {
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

Result<std::vector<Truth>> Evaluator::RunTruth(const Expr& predicate) {
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

Result<Vec> Evaluator::Eval(const Expr& e) {
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
    case Op::kContains:
    case Op::kRegexMatch: return EvalLike(e);
    case Op::kDatePart: return EvalDatePart(e);
    case Op::kDateTrunc: return EvalDateTrunc(e);
    case Op::kLower:
    case Op::kUpper:
    case Op::kLength:
    case Op::kOctetLength:
    case Op::kSubstring:
    case Op::kTrim:
    case Op::kStrpos:
    case Op::kReplace:
    case Op::kRegexValue: return EvalStringFunction(e);
    case Op::kConcat: return EvalConcat(e);
    case Op::kAbs: return EvalAbs(e);
    case Op::kFloatTest: return EvalFloatTest(e);
    case Op::kCoalesce:
    case Op::kGreatest:
    case Op::kLeast: return EvalChoice(e);
    case Op::kRound: return EvalRound(e);
    case Op::kAddInterval: return EvalAddInterval(e);
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

Phys Evaluator::PhysOfType(const DataType& t) {
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
Result<Vec> Evaluator::LoadColumn(int32_t index) {
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
bool Evaluator::IsDictionaryOfColumn(const Array& a, size_t k) const {
  const DataType& expected = *filter_.columns[k].type;
  return a.type->id == TypeId::kDictionary && expected.id != TypeId::kDictionary &&
         a.dictionary != nullptr && a.type->value_type != nullptr &&
         a.type->value_type->id == expected.id;
}

// The column a predicate node reads, when it reads exactly one and that column's batch is a
// dictionary array; else -1. Predicates only (a comparison, IN, LIKE, IS NULL, and their NOT,
// AND and OR): their result, a truth value per entry, is what each row looks up.
int Evaluator::DictionaryColumnOf(const Expr& e) {
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
bool Evaluator::OnlyColumn(const Expr& e, int* column) {
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
Result<std::optional<Vec>> Evaluator::EvalOverDictionary(const Expr& e, size_t k) {
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
Result<const Array*> Evaluator::ColumnArray(size_t k) const {
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

// An array of `expected`'s type as a vector (REQUIRES: at least n_ rows).
Result<Vec> Evaluator::ArrayVec(const Array& array, const DataType& expected,
                                const std::string& path) {
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
      v.data = a->buffers.size() > 2 && a->buffers[2] != nullptr ? a->buffers[2]->data() : kNoBytes;
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

// A scalar as a full vector (for the few kernels that take no scalars).
Vec Evaluator::Broadcast(const Vec& s) {
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
const uint8_t* Evaluator::BothValid(const Vec& a, const Vec& b, std::shared_ptr<const void>* keep) {
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

Vec Evaluator::AllNullBool() {
  Vec v;
  v.scalar = true;
  v.phys = Phys::kBool;
  return v;
}

Result<Vec> Evaluator::EvalCompare(const Expr& e) {
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

// Every row of `a` against one value: a tight loop over a's C type. An integer literal
// outside that type's range gives the same answer for every row.
void Evaluator::CompareWithScalar(Op op, const Vec& a, const Value& lit, uint8_t* out) {
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
Status Evaluator::CompareVectors(Op op, const Vec& a, const Vec& b, uint8_t* out) {
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
Vec Evaluator::Widen(const Vec& a, Phys to) {
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

// definitely-true and definitely-false bytes of a boolean vector.
// The loops below index through local pointers: a uint8_t store may alias anything, so
// indexing the vectors would reload their data pointers after every store (see n_).
void Evaluator::TruthBytes(const Vec& v, std::vector<uint8_t>* t, std::vector<uint8_t>* f) {
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
Result<Vec> Evaluator::EvalLogic(const Expr& e) {
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

Result<Vec> Evaluator::EvalNot(const Expr& e) {
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

Result<Vec> Evaluator::EvalIsNull(const Expr& e) {
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

Result<Vec> Evaluator::EvalIn(const Expr& e) {
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

Result<Vec> Evaluator::EvalCast(const Expr& e) {
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

Result<Vec> Evaluator::EvalArithmetic(const Expr& e) {
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

Status Evaluator::OverflowError(const Expr& e) {
  return Status::InvalidArgument("overflow in " + e.type->ToString() +
                                 " arithmetic: " + ToString(e, filter_));
}

}  // namespace evaluation

using evaluation::Evaluator;

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
