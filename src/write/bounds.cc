#include "write/bounds.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "common/value_format.h"

namespace pqsift::write {
namespace {

using encoding::ByteView;

int CompareBytes(std::string_view a, std::string_view b) {
  return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;  // std::string_view compares as unsigned char
}

// Big-endian two's complement numbers of equal length: the sign byte decides first.
int CompareDecimalBytes(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty() || a.size() != b.size()) return CompareBytes(a, b);
  auto sa = static_cast<int8_t>(a[0]), sb = static_cast<int8_t>(b[0]);
  if (sa != sb) return sa < sb ? -1 : 1;
  return CompareBytes(a.substr(1), b.substr(1));
}

uint16_t HalfBits(std::string_view v) {
  uint16_t bits = 0;
  if (v.size() == 2) std::memcpy(&bits, v.data(), 2);
  return bits;
}

bool HalfIsNaN(uint16_t bits) { return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0; }

int CompareNumbers(double a, double b) { return a < b ? -1 : b < a ? 1 : 0; }

// Three-way comparison of byte-array values in `order`.
int CompareByteValues(SortOrder order, std::string_view a, std::string_view b) {
  switch (order) {
    case SortOrder::kDecimalBytes: return CompareDecimalBytes(a, b);
    case SortOrder::kFloat16:
      return CompareNumbers(HalfToFloat(HalfBits(a)), HalfToFloat(HalfBits(b)));
    default: return CompareBytes(a, b);
  }
}

template <typename T>
T Load(std::string_view bytes) {
  T v{};
  if (bytes.size() == sizeof(T)) std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

bool IsUtf8Continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

}  // namespace

std::string TruncateLowerBound(std::string_view min, size_t max_bytes, bool utf8) {
  if (min.size() <= max_bytes) return std::string(min);
  size_t n = max_bytes;
  // Cutting before a continuation byte would split a character: cut before its lead byte.
  while (utf8 && n > 0 && IsUtf8Continuation(static_cast<uint8_t>(min[n]))) --n;
  return std::string(min.substr(0, n));
}

std::optional<std::string> TruncateUpperBound(std::string_view max, size_t max_bytes, bool utf8) {
  if (max.size() <= max_bytes) return std::string(max);
  // Any value v <= max starts with max[0..i) followed by a byte <= max[i] (or ends), so it is
  // below max[0..i) + (max[i] + 1) for every i < max_bytes where max[i] can be incremented.
  auto bound = [&](bool (*can_increment)(uint8_t)) -> std::optional<std::string> {
    for (size_t i = max_bytes; i-- > 0;) {
      auto byte = static_cast<uint8_t>(max[i]);
      if (!can_increment(byte)) continue;
      std::string out(max.substr(0, i));
      out.push_back(static_cast<char>(byte + 1));
      return out;
    }
    return std::nullopt;
  };
  if (utf8) {
    // An ASCII byte below 0x7F incremented stays ASCII, and the prefix before it ends on a
    // character boundary, so the bound is valid UTF-8.
    if (auto ascii = bound([](uint8_t b) { return b < 0x7F; })) return ascii;
  }
  return bound([](uint8_t b) { return b != 0xFF; });
}

int CompareEncodedBounds(SortOrder order, PhysicalType physical, std::string_view a,
                         std::string_view b) {
  switch (physical) {
    case PhysicalType::kBoolean: return CompareBytes(a, b);
    case PhysicalType::kInt32:
      if (order == SortOrder::kUnsigned) {
        return CompareNumbers(Load<uint32_t>(a), Load<uint32_t>(b));
      }
      return CompareNumbers(Load<int32_t>(a), Load<int32_t>(b));
    case PhysicalType::kInt64:
      if (order == SortOrder::kUnsigned) {
        uint64_t x = Load<uint64_t>(a), y = Load<uint64_t>(b);
        return x < y ? -1 : y < x ? 1 : 0;
      }
      {
        int64_t x = Load<int64_t>(a), y = Load<int64_t>(b);
        return x < y ? -1 : y < x ? 1 : 0;
      }
    case PhysicalType::kFloat: return CompareNumbers(Load<float>(a), Load<float>(b));
    case PhysicalType::kDouble: return CompareNumbers(Load<double>(a), Load<double>(b));
    default: return CompareByteValues(order, a, b);
  }
}

// The column's order and NaN test on physical values, shared by the trackers.
template <typename DType>
bool ValueLess(SortOrder order, const typename DType::Value& a, const typename DType::Value& b) {
  using Value = typename DType::Value;
  if constexpr (encoding::kIsByteArrayLike<DType>) {
    return CompareByteValues(order, a.str(), b.str()) < 0;
  } else if constexpr (std::is_integral_v<Value>) {
    if (order == SortOrder::kUnsigned) {
      return static_cast<std::make_unsigned_t<Value>>(a) <
             static_cast<std::make_unsigned_t<Value>>(b);
    }
    return a < b;
  } else {
    return a < b;  // floats (NaN never reaches here)
  }
}

template <typename DType>
bool ValueIsNaN(SortOrder order, const typename DType::Value& v) {
  if constexpr (std::is_floating_point_v<typename DType::Value>) {
    return std::isnan(v);
  } else if constexpr (encoding::kIsByteArrayLike<DType>) {
    return order == SortOrder::kFloat16 && HalfIsNaN(HalfBits(v.str()));
  } else {
    return false;
  }
}

template <typename DType>
bool BoundsTracker<DType>::Less(const Value& a, const Value& b) const {
  return ValueLess<DType>(order_, a, b);
}

template <typename DType>
bool BoundsTracker<DType>::IsNaN(const Value& v) const {
  return ValueIsNaN<DType>(order_, v);
}

template <typename DType>
void BoundsTracker<DType>::Update(const Value* values, int64_t n) {
  int64_t i = 0;
  while (i < n && IsNaN(values[i])) ++i;
  nan_count_ += i;
  if (i == n) return;
  // The batch's own bounds first (views into the caller's values), then one merge: ByteView
  // bounds are copied once per batch, not once per new extreme.
  const Value* low = &values[i];
  const Value* high = &values[i];
  for (++i; i < n; ++i) {
    const Value& v = values[i];
    if (IsNaN(v)) {
      ++nan_count_;
    } else if (Less(v, *low)) {
      low = &v;
    } else if (Less(*high, v)) {
      high = &v;
    }
  }
  Take(*low, *high);
}

template <typename DType>
void BoundsTracker<DType>::Take(const Value& low, const Value& high) {
  bool new_min = !has_bounds_ || Less(low, min_);
  bool new_max = !has_bounds_ || Less(max_, high);
  has_bounds_ = true;
  if constexpr (encoding::kIsByteArrayLike<DType>) {
    if (new_min) {
      min_bytes_.assign(low.str());
      min_ = ByteView{reinterpret_cast<const uint8_t*>(min_bytes_.data()), low.size};
    }
    if (new_max) {
      max_bytes_.assign(high.str());
      max_ = ByteView{reinterpret_cast<const uint8_t*>(max_bytes_.data()), high.size};
    }
  } else {
    if (new_min) min_ = low;
    if (new_max) max_ = high;
  }
}

template <typename DType>
void BoundsTracker<DType>::Merge(const BoundsTracker& other) {
  nan_count_ += other.nan_count_;
  if (other.has_bounds_) Take(other.min_, other.max_);
}

template <typename DType>
void BoundsTracker<DType>::Reset() {
  has_bounds_ = false;
  nan_count_ = 0;
}

template <typename DType>
std::string BoundsTracker<DType>::Encode(const Value& v, bool is_max) const {
  if constexpr (encoding::kIsByteArrayLike<DType>) {
    std::string out(v.str());
    if (order_ == SortOrder::kFloat16 && (HalfBits(out) & 0x7FFF) == 0) {
      uint16_t zero = is_max ? 0x0000 : 0x8000;
      std::memcpy(out.data(), &zero, 2);
    }
    return out;
  } else {
    Value x = v;
    if constexpr (std::is_floating_point_v<Value>) {
      if (x == 0) x = is_max ? Value(0) : -Value(0);
    }
    std::string out(sizeof(Value), '\0');
    std::memcpy(out.data(), &x, sizeof(Value));
    return out;
  }
}

template <typename DType>
void OrderTracker<DType>::Update(const Value* values, int64_t n) {
  if (n == 0 || (!ascending_ && !descending_)) return;
  const Value* previous = has_last_ ? &last_ : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    const Value& v = values[i];
    if (ValueIsNaN<DType>(order_, v)) {  // NaN has no place in the order: not sorted
      ascending_ = descending_ = false;
      return;
    }
    if (previous != nullptr) {
      if (ValueLess<DType>(order_, v, *previous)) ascending_ = false;
      if (ValueLess<DType>(order_, *previous, v)) descending_ = false;
      if (!ascending_ && !descending_) return;
    }
    previous = &v;
  }
  has_last_ = true;
  const Value& last = values[n - 1];
  if constexpr (encoding::kIsByteArrayLike<DType>) {
    last_bytes_.assign(last.str());
    last_ = encoding::ByteView{reinterpret_cast<const uint8_t*>(last_bytes_.data()), last.size};
  } else {
    last_ = last;
  }
}

template <typename DType>
void OrderTracker<DType>::UpdateNulls(const int16_t* levels, int64_t rows) {
  for (int64_t i = 0; i < rows; ++i) {
    const bool is_null = levels[i] == 0;
    if (is_null) {
      any_null_ = true;
      null_after_value_ |= has_value_;
    } else {
      value_after_null_ |= any_null_;
      has_value_ = true;
    }
  }
}

template <typename DType>
std::optional<SortingColumn> OrderTracker<DType>::Sorting() const {
  if (!has_last_ || (!ascending_ && !descending_)) return std::nullopt;
  // Nulls first: none after a value; nulls last: none before one; both in the middle: unsorted.
  if (null_after_value_ && value_after_null_) return std::nullopt;
  SortingColumn s;
  s.descending = !ascending_;
  s.nulls_first = any_null_ && !null_after_value_;
  return s;
}

template class OrderTracker<encoding::BooleanType>;
template class OrderTracker<encoding::Int32Type>;
template class OrderTracker<encoding::Int64Type>;
template class OrderTracker<encoding::FloatType>;
template class OrderTracker<encoding::DoubleType>;
template class OrderTracker<encoding::ByteArrayType>;
template class OrderTracker<encoding::FixedLenByteArrayType>;

template class BoundsTracker<encoding::BooleanType>;
template class BoundsTracker<encoding::Int32Type>;
template class BoundsTracker<encoding::Int64Type>;
template class BoundsTracker<encoding::FloatType>;
template class BoundsTracker<encoding::DoubleType>;
template class BoundsTracker<encoding::ByteArrayType>;
template class BoundsTracker<encoding::FixedLenByteArrayType>;

}  // namespace pqsift::write
