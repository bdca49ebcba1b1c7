// The evaluator's functions (evaluate_internal.h): LIKE, ILIKE and the substring tests, date
// parts and date_trunc, the value functions (lower, upper, length, substring, abs, coalesce,
// greatest, least, floor, round, isnan, ...), regular expressions, st_intersects_extent and
// variant_get.
#include "expr/evaluate_internal.h"

#include <algorithm>

#include "arrow/cast.h"
#include "expr/interval.h"
#include "expr/like.h"
#include "expr/rounding.h"
#include "expr/string_functions.h"
#include "geo/extent.h"
#include "variant/get.h"

namespace pqsift::expr::evaluation {

// variant_get over the batch (variant/get.h), the result read as a vector.
Result<Vec> Evaluator::EvalVariantGet(const Expr& e) {
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

// Per row from the WKB (geo/extent.h); bytes that are not WKB are NULL.
Result<Vec> Evaluator::EvalIntersectsExtent(const Expr& e) {
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
    Result<geo::WkbSummary> s =
        geo::Summarize({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, e.geography);
    if (!s.ok()) {
      valid[i] = 0;
      continue;
    }
    result[i] = geo::Intersects(s->extent, box) ? 1 : 0;
  }
  return out;
}

Result<Vec> Evaluator::EvalLike(const Expr& e) {
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
  if (e.op == Op::kRegexMatch) {
    for (int64_t i = 0, n = n_; i < n; ++i) result[i] = e.regex->Matches(BytesAt(a, i)) ? 1 : 0;
    return out;
  }
  LikeMatcher matcher(e.pattern, e.op == Op::kILike);
  for (int64_t i = 0, n = n_; i < n; ++i) result[i] = matcher.Matches(BytesAt(a, i)) ? 1 : 0;
  return out;
}

// year(x), extract(month FROM x), ...
Result<Vec> Evaluator::EvalDatePart(const Expr& e) {
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
Result<Vec> Evaluator::EvalDateTrunc(const Expr& e) {
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

Result<Vec> Evaluator::EvalStringFunction(const Expr& e) {
  PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
  if (a.scalar) a = Broadcast(a);
  if (!IsBytesPhys(a.phys)) return Status::Internal("a string function over a non-string vector");
  if (e.op == Op::kLength || e.op == Op::kOctetLength || e.op == Op::kStrpos) {
    int64_t* values = nullptr;
    Vec out = NullWhere(a, Phys::kI64, &values);
    for (int64_t i = 0, n = n_; i < n; ++i) {
      const std::string_view v = BytesAt(a, i);
      values[i] = e.op == Op::kLength        ? CodePointCount(v)
                  : e.op == Op::kOctetLength ? static_cast<int64_t>(v.size())
                                             : CodePointPosition(v, e.pattern);
    }
    return out;
  }
  // The call's arguments, read once, not per row.
  const SubstringCall substring = SubstringCallOf(e.pattern, e.list);
  auto argument = [&](size_t k) {
    return k < e.list.size() ? std::string_view(e.list[k].bytes) : std::string_view();
  };
  const bool left = e.pattern != "rtrim";
  const bool right = e.pattern != "ltrim";
  Vec out = BuildBytes([&](int64_t i, std::string* data) {
    if (a.valid != nullptr && !a.valid[i]) return;
    const std::string_view v = BytesAt(a, i);
    switch (e.op) {
      case Op::kSubstring: *data += substring.Apply(v); break;
      case Op::kTrim: *data += Trimmed(v, argument(0), left, right); break;
      case Op::kReplace: AppendReplaced(v, argument(0), argument(1), data); break;
      case Op::kRegexValue:
        if (e.list.empty() || e.list[0].kind == Value::Kind::kBytes) {
          e.regex->AppendReplaced(v, argument(0), data);
        } else {
          e.regex->AppendExtracted(v, static_cast<int>(e.list[0].i), data);
        }
        break;
      default: AppendCaseMapped(v, e.op == Op::kUpper, data);
    }
  });
  out.valid = a.valid;
  out.keep_valid = a.keep_valid;
  return out;
}

// a || b || ... (NULL where any is NULL), concat(a, b, ...) (NULLs skipped, never NULL).
Result<Vec> Evaluator::EvalConcat(const Expr& e) {
  const bool skip_nulls = e.pattern == "concat";
  std::vector<Vec> args;
  for (const ExprPtr& child : e.children) {
    PQSIFT_ASSIGN_OR_RETURN(Vec v, Eval(*child));
    args.push_back(v.scalar ? Broadcast(v) : std::move(v));
    if (!IsBytesPhys(args.back().phys)) return Status::Internal("|| over a non-string vector");
  }
  uint8_t* valid = nullptr;
  Vec out;
  const bool some_null = !skip_nulls && std::any_of(args.begin(), args.end(), [](const Vec& v) {
    return v.valid != nullptr;
  });
  if (some_null) valid = Allocate<uint8_t>(&out.keep_valid, n_);
  auto present = [&](const Vec& v, int64_t i) { return v.valid == nullptr || v.valid[i]; };
  Vec bytes = BuildBytes([&](int64_t i, std::string* data) {
    if (valid != nullptr) {
      valid[i] = std::all_of(args.begin(), args.end(), [&](const Vec& v) { return present(v, i); });
      if (!valid[i]) return;
    }
    for (const Vec& v : args) {
      if (present(v, i)) *data += BytesAt(v, i);
    }
  });
  bytes.valid = valid;
  bytes.keep_valid = out.keep_valid;
  return bytes;
}

// isnan(x), isinf(x), isfinite(x) of a float vector.
Result<Vec> Evaluator::EvalFloatTest(const Expr& e) {
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
Result<Vec> Evaluator::EvalAbs(const Expr& e) {
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

// coalesce(a, b, ...): each row's first non-NULL child; greatest / least: its largest
// (smallest) non-NULL child, the first of equal ones (every child of the node's type).
Result<Vec> Evaluator::EvalChoice(const Expr& e) {
  const bool first = e.op == Op::kCoalesce;
  std::vector<Vec> args;
  for (const ExprPtr& child : e.children) {
    PQSIFT_ASSIGN_OR_RETURN(Vec v, Eval(*child));
    if (v.scalar_null()) continue;
    args.push_back(v.scalar ? Broadcast(v) : std::move(v));
    if (first && args.back().valid == nullptr) break;  // never NULL: later ones never reached
  }
  const Phys phys = PhysOfType(*e.type);
  if (args.empty()) {
    Vec out;
    out.scalar = true;
    out.phys = phys;
    return out;
  }
  // pick[i]: the child row i takes its value from; args.size() where every one is NULL.
  const auto none = static_cast<uint32_t>(args.size());
  std::vector<uint32_t> pick(static_cast<size_t>(n_), none);
  uint8_t* valid = nullptr;
  Vec out;
  const bool some_null =
      std::all_of(args.begin(), args.end(), [](const Vec& v) { return v.valid != nullptr; });
  if (some_null) valid = Allocate<uint8_t>(&out.keep_valid, n_);
  auto present = [&](uint32_t c, int64_t i) {
    return args[c].valid == nullptr || args[c].valid[i];
  };
  // Each row's choice, given less(a, b, i): child a's value is below child b's in row i.
  auto choose = [&](auto less) {
    const bool greatest = e.op == Op::kGreatest;
    for (int64_t i = 0, n = n_; i < n; ++i) {
      uint32_t k = none;
      for (uint32_t c = 0; c < args.size(); ++c) {
        if (!present(c, i)) continue;
        if (k == none || (greatest ? less(k, c, i) : less(c, k, i))) k = c;
        if (first) break;
      }
      pick[static_cast<size_t>(i)] = k;
      if (valid != nullptr) valid[i] = k < none ? 1 : 0;
    }
  };
  if (first) {
    choose([](uint32_t, uint32_t, int64_t) { return false; });
  } else if (IsBytesPhys(phys)) {
    choose([&](uint32_t a, uint32_t b, int64_t i) {
      return BytesAt(args[a], i) < BytesAt(args[b], i);
    });
  } else {
    VisitFixed(phys, [&](auto tag) {
      using T = decltype(tag);
      choose([&](uint32_t a, uint32_t b, int64_t i) {
        return Less(static_cast<const T*>(args[a].values)[i],
                    static_cast<const T*>(args[b].values)[i]);
      });
    });
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

// date or timestamp +- INTERVAL (a microsecond timestamp), date +- n days (a date).
Result<Vec> Evaluator::EvalAddInterval(const Expr& e) {
  PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
  if (a.scalar) a = Broadcast(a);
  auto overflow = [&] {
    return Status::InvalidArgument(ToString(e, filter_) + ": a value beyond the " +
                                   (e.type->id == TypeId::kDate32 ? "date" : "timestamp") +
                                   " range");
  };
  if (e.type->id == TypeId::kDate32) {
    if (a.phys != Phys::kI32) return Status::Internal("date + days over a non-date vector");
    int32_t* values = nullptr;
    Vec out = NullWhere(a, Phys::kI32, &values);
    const auto* days = static_cast<const int32_t*>(a.values);
    const int64_t shift = e.interval_sign * e.interval.days;
    for (int64_t i = 0, n = n_; i < n; ++i) {
      const int64_t day = days[i] + shift;
      const bool fits = day >= INT32_MIN && day <= INT32_MAX;
      values[i] = fits ? static_cast<int32_t>(day) : 0;
      if (!fits && (a.valid == nullptr || a.valid[i])) return overflow();
    }
    return out;
  }
  int64_t* values = nullptr;
  Vec out = NullWhere(a, Phys::kI64, &values);
  PQSIFT_RETURN_IF_ERROR(
      ForEachInstant(a, *e.children[0]->type, [&](int64_t i, const cast::TimestampDay& t) {
        std::optional<int64_t> shifted =
            ShiftedMicros(t.day, t.micros, e.interval, e.interval_sign);
        values[i] = shifted.value_or(0);
        if (shifted || (a.valid != nullptr && !a.valid[i])) return Status::OK();  // NULL: any
        return overflow();
      }));
  return out;
}

// floor, ceil, round, trunc (rounding.h) of a float, or of a decimal to its node's scale (0, or
// round's digits).
Result<Vec> Evaluator::EvalRound(const Expr& e) {
  PQSIFT_ASSIGN_OR_RETURN(Vec a, Eval(*e.children[0]));
  if (a.scalar) a = Broadcast(a);
  std::optional<Rounding> rounding = RoundingNamed(e.pattern);
  if (!rounding) return Status::Internal("unknown rounding '" + e.pattern + "'");
  Vec out;
  auto round_all = [&](auto tag) {
    using T = decltype(tag);
    T* values = nullptr;
    out = NullWhere(a, a.phys, &values);
    const auto* in = static_cast<const T*>(a.values);
    if constexpr (std::is_floating_point_v<T>) {
      for (int64_t i = 0, n = n_; i < n; ++i) {
        const auto x = static_cast<double>(in[i]);
        values[i] =
            static_cast<T>(e.digits != 0 ? RoundFloatTo(x, e.digits) : RoundFloat(*rounding, x));
      }
    } else {
      const int128 unit = cast::PowerOfTen(e.children[0]->type->scale - e.type->scale).value_or(1);
      for (int64_t i = 0, n = n_; i < n; ++i) values[i] = RoundDecimal(*rounding, in[i], unit);
    }
  };
  switch (a.phys) {
    case Phys::kI128: round_all(int128{}); break;
    case Phys::kF32: round_all(float{}); break;
    case Phys::kF64: round_all(double{}); break;
    default: return Status::Internal("rounding of a vector that is no decimal or float");
  }
  return out;
}

}  // namespace pqsift::expr::evaluation
