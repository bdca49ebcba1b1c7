#include "arrow/sort.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/dictionary.h"
#include "arrow/layout.h"
#include "common/value_format.h"

namespace pqsift {
namespace {

// Three-way comparison of element i of `a` with element j of `b` (both valid, same type).
using Compare = std::function<int(const Array& a, int64_t i, const Array& b, int64_t j)>;

template <typename T>
int Three(T x, T y) {
  return x < y ? -1 : y < x ? 1 : 0;
}

// Floats: NaN above every number and equal to NaN; -0 == +0.
int CompareFloats(double x, double y) {
  const bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;
  return Three(x, y);
}

template <typename T>
Compare Numeric() {
  return [](const Array& a, int64_t i, const Array& b, int64_t j) {
    if constexpr (std::is_floating_point_v<T>) {
      return CompareFloats(layout::LoadValue<T>(a, i), layout::LoadValue<T>(b, j));
    } else {
      return Three(layout::LoadValue<T>(a, i), layout::LoadValue<T>(b, j));
    }
  };
}

std::string_view BytesAt(const Array& a, int64_t i) {
  const int64_t s = a.offset + i;
  if (a.type->id == TypeId::kFixedSizeBinary) {
    return {reinterpret_cast<const char*>(a.buffers[1]->data()) + s * a.type->byte_width,
            static_cast<size_t>(a.type->byte_width)};
  }
  const int64_t* offsets = a.buffers[1]->as<int64_t>();
  const char* data = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
  return {data + offsets[s], static_cast<size_t>(offsets[s + 1] - offsets[s])};
}

Result<Compare> CompareFor(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return Compare([](const Array& a, int64_t i, const Array& b, int64_t j) {
        return Three(bit_util::GetBit(a.buffers[1]->data(), a.offset + i),
                     bit_util::GetBit(b.buffers[1]->data(), b.offset + j));
      });
    case TypeId::kInt8: return Numeric<int8_t>();
    case TypeId::kInt16: return Numeric<int16_t>();
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return Numeric<int32_t>();
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return Numeric<int64_t>();
    case TypeId::kUInt8: return Numeric<uint8_t>();
    case TypeId::kUInt16: return Numeric<uint16_t>();
    case TypeId::kUInt32: return Numeric<uint32_t>();
    case TypeId::kUInt64: return Numeric<uint64_t>();
    case TypeId::kFloat32: return Numeric<float>();
    case TypeId::kFloat64: return Numeric<double>();
    case TypeId::kFloat16:
      return Compare([](const Array& a, int64_t i, const Array& b, int64_t j) {
        return CompareFloats(HalfToFloat(layout::LoadValue<uint16_t>(a, i)),
                             HalfToFloat(layout::LoadValue<uint16_t>(b, j)));
      });
    case TypeId::kDecimal128: return Numeric<__int128>();
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary:
      return Compare([](const Array& a, int64_t i, const Array& b, int64_t j) {
        int c = BytesAt(a, i).compare(BytesAt(b, j));
        return c < 0 ? -1 : c > 0 ? 1 : 0;
      });
    case TypeId::kDictionary: {
      // By the values the indices select; a NULL dictionary value above every other value.
      PQSIFT_ASSIGN_OR_RETURN(Compare values, CompareFor(*type.value_type));
      return Compare(
          [values = std::move(values)](const Array& a, int64_t i, const Array& b, int64_t j) {
            const Array& da = *a.dictionary;
            const Array& db = *b.dictionary;
            const int32_t ia = layout::DictionaryIndex(a, i), ib = layout::DictionaryIndex(b, j);
            const bool va = da.IsValid(ia), vb = db.IsValid(ib);
            if (!va || !vb) return va == vb ? 0 : va ? -1 : 1;
            return values(da, ia, db, ib);
          });
    }
    default: break;
  }
  return Status::NotSupported("cannot sort by a " + type.ToString() + " column");
}

// Appends rows of fixed-width values of T (the type's byte width) to a builder of the type.
template <typename T>
std::shared_ptr<Array> TakeFixed(const std::vector<std::shared_ptr<Array>>& chunks,
                                 const std::vector<RowRef>& rows) {
  FixedWidthArrayBuilder<T> b(chunks[0]->type);
  for (const RowRef& r : rows) {
    const Array& a = *chunks[r.chunk];
    if (!a.IsValid(r.row)) {
      b.AppendNull();
    } else if constexpr (std::is_same_v<T, bool>) {
      b.Append(bit_util::GetBit(a.buffers[1]->data(), a.offset + r.row));
    } else {
      b.Append(layout::LoadValue<T>(a, r.row));
    }
  }
  return b.Finish();
}

template <typename Builder>
std::shared_ptr<Array> TakeBytes(const std::vector<std::shared_ptr<Array>>& chunks,
                                 const std::vector<RowRef>& rows) {
  Builder b(chunks[0]->type);
  for (const RowRef& r : rows) {
    const Array& a = *chunks[r.chunk];
    if (a.IsValid(r.row)) {
      b.Append(BytesAt(a, r.row));
    } else {
      b.AppendNull();
    }
  }
  return b.Finish();
}

// The rows as indices into the chunks' dictionaries, unified.
std::shared_ptr<Array> TakeDictionary(const std::vector<std::shared_ptr<Array>>& chunks,
                                      const std::vector<RowRef>& rows) {
  std::vector<const Array*> arrays;
  arrays.reserve(chunks.size());
  for (const auto& c : chunks) arrays.push_back(c.get());
  UnifiedDictionary unified = UnifyDictionaries(arrays);
  FixedWidthArrayBuilder<int32_t> b(chunks[0]->type);
  for (const RowRef& r : rows) {
    const Array& a = *chunks[r.chunk];
    if (a.IsValid(r.row)) {
      b.Append(unified.bases[r.chunk] + layout::DictionaryIndex(a, r.row));
    } else {
      b.AppendNull();
    }
  }
  std::shared_ptr<Array> out = b.Finish();
  out->dictionary = std::move(unified.dictionary);
  return out;
}

}  // namespace

namespace {

// The order of rows by the keys: Compare(x, y) < 0 when x sorts before y.
class RowOrder {
 public:
  static Result<RowOrder> Make(const std::vector<SortKey>& keys) {
    RowOrder order(keys);
    for (const SortKey& key : keys) {
      if (key.chunks.empty()) continue;
      PQSIFT_ASSIGN_OR_RETURN(Compare c, CompareFor(*key.chunks[0]->type));
      order.compares_.push_back(std::move(c));
    }
    return order;
  }

  int operator()(const RowRef& x, const RowRef& y) const {
    for (size_t k = 0; k < compares_.size(); ++k) {
      const SortKey& key = keys_[k];
      const Array& a = *key.chunks[x.chunk];
      const Array& b = *key.chunks[y.chunk];
      const bool va = a.IsValid(x.row), vb = b.IsValid(y.row);
      int c = 0;
      if (!va || !vb) {
        if (va == vb) continue;
        c = !va == key.nulls_first ? -1 : 1;  // null placement is not reversed by descending
      } else {
        c = compares_[k](a, x.row, b, y.row);
        if (key.descending) c = -c;
      }
      if (c != 0) return c;
    }
    return 0;
  }

 private:
  explicit RowOrder(const std::vector<SortKey>& keys) : keys_(keys) {}
  const std::vector<SortKey>& keys_;
  std::vector<Compare> compares_;
};

}  // namespace

Status SortRows(const std::vector<SortKey>& keys, std::vector<RowRef>& rows) {
  PQSIFT_ASSIGN_OR_RETURN(RowOrder order, RowOrder::Make(keys));
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const RowRef& x, const RowRef& y) { return order(x, y) < 0; });
  return Status::OK();
}

Status SortFirstRows(const std::vector<SortKey>& keys, std::vector<RowRef>& rows, size_t n) {
  if (rows.size() <= n) return SortRows(keys, rows);
  PQSIFT_ASSIGN_OR_RETURN(RowOrder order, RowOrder::Make(keys));
  // Ties broken by the input position make the order total, so a selection of the first n and a
  // sort of those gives what the stable sort of all would begin with.
  std::vector<std::pair<RowRef, size_t>> ranked;
  ranked.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ranked.emplace_back(rows[i], i);
  auto less = [&](const std::pair<RowRef, size_t>& x, const std::pair<RowRef, size_t>& y) {
    int c = order(x.first, y.first);
    return c != 0 ? c < 0 : x.second < y.second;
  };
  auto nth = ranked.begin() + static_cast<std::ptrdiff_t>(n);
  std::nth_element(ranked.begin(), nth, ranked.end(), less);
  std::sort(ranked.begin(), nth, less);
  rows.resize(n);
  for (size_t i = 0; i < n; ++i) rows[i] = ranked[i].first;
  return Status::OK();
}

Result<std::shared_ptr<Array>> TakeRows(const std::vector<std::shared_ptr<Array>>& chunks,
                                        const std::vector<RowRef>& rows) {
  if (chunks.empty()) return Status::InvalidArgument("TakeRows needs at least one chunk");
  const DataType& type = *chunks[0]->type;
  // Fixed-width values move as they are, by their byte width.
  switch (type.id) {
    case TypeId::kBoolean: return TakeFixed<bool>(chunks, rows);
    case TypeId::kInt8:
    case TypeId::kUInt8: return TakeFixed<uint8_t>(chunks, rows);
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16: return TakeFixed<uint16_t>(chunks, rows);
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kTime32: return TakeFixed<uint32_t>(chunks, rows);
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return TakeFixed<uint64_t>(chunks, rows);
    case TypeId::kDecimal128: return TakeFixed<std::array<uint8_t, 16>>(chunks, rows);
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: return TakeBytes<BinaryArrayBuilder>(chunks, rows);
    case TypeId::kFixedSizeBinary: return TakeBytes<FixedSizeBinaryArrayBuilder>(chunks, rows);
    case TypeId::kDictionary: return TakeDictionary(chunks, rows);
    default: break;
  }
  return Status::NotSupported("cannot reorder rows of a " + type.ToString() + " column");
}

}  // namespace pqsift
