#include "columns.h"

#include <pybind11/numpy.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrow/dictionary.h"
#include "arrow/layout.h"
#include "output_buffer.h"
#include "shared_strings.h"
#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();
// A numpy object array's item: one PyObject pointer.
constexpr size_t kObjectSlot = sizeof(void*);
// Batches at least this long are copied without the GIL (below, releasing it costs more than
// it gives other threads).
constexpr int64_t kReleaseGilRows = 16384;

// A 1-d numpy array of `dtype` over the buffer's bytes, which it now owns.
py::array ToNumpy(OutputBuffer& buffer, const py::dtype& dtype) {
  auto itemsize = static_cast<size_t>(dtype.itemsize());
  auto n = static_cast<py::ssize_t>(buffer.size() / itemsize);
  auto* memory = new OutputBuffer::Memory(buffer.Release());
  py::capsule owner(memory, [](void* p) {
    auto* m = static_cast<OutputBuffer::Memory*>(p);
    OutputBuffer::Free(*m);
    delete m;
  });
  return py::array(dtype, {n}, {static_cast<py::ssize_t>(itemsize)}, memory->data, owner);
}

// An object array's slots: owned references, released when the numpy array that takes them over
// (or this buffer, on an error) goes away.
class ObjectBuffer {
 public:
  ~ObjectBuffer() { DecrefAll(reinterpret_cast<PyObject**>(raw_.data()), count()); }
  void Reserve(int64_t n) { raw_.Reserve(static_cast<size_t>(n) * kObjectSlot); }
  void Push(py::object o) {
    PyObject* p = o.release().ptr();
    std::memcpy(raw_.Grow(kObjectSlot), &p, kObjectSlot);
  }
  int64_t count() const { return static_cast<int64_t>(raw_.size() / kObjectSlot); }

  // An object array over the slots: its base owns the memory and the references.
  py::array ToNumpy() {
    struct Owned {
      OutputBuffer::Memory memory;
      int64_t n;
    };
    int64_t n = count();
    auto* owned = new Owned{raw_.Release(), n};
    py::capsule base(owned, [](void* p) {
      auto* o = static_cast<Owned*>(p);
      DecrefAll(reinterpret_cast<PyObject**>(o->memory.data), o->n);
      OutputBuffer::Free(o->memory);
      delete o;
    });
    return py::array(py::dtype("O"), {static_cast<py::ssize_t>(n)},
                     {static_cast<py::ssize_t>(kObjectSlot)}, owned->memory.data, base);
  }

 private:
  static void DecrefAll(PyObject** items, int64_t n) {
    for (int64_t i = 0; i < n; ++i) Py_XDECREF(items[i]);
  }
  OutputBuffer raw_;
};

// The validity or null mask of a column, one byte per row.
class MaskBuilder {
 public:
  enum class Mode {
    kNone,        // no mask
    kValidLazy,   // to_numpy: True = valid, created at the first NULL (None before)
    kNullAlways,  // pandas' masked arrays: True = NULL, for every row
  };
  MaskBuilder(Mode mode, int64_t capacity) : mode_(mode) {
    if (mode_ == Mode::kNullAlways) bytes_.Reserve(static_cast<size_t>(capacity));
  }

  // Rows [rows_, rows_ + n) from a validity bitmap (null: all valid) at `offset`.
  void Append(const uint8_t* validity, int64_t offset, int64_t n) {
    if (mode_ == Mode::kNone) return;
    bool all_valid = validity == nullptr;
    if (mode_ == Mode::kValidLazy && !started_) {
      if (all_valid) {
        rows_ += n;
        return;
      }
      started_ = true;
      bytes_.Reserve(static_cast<size_t>(rows_ + n));
      std::memset(bytes_.Grow(static_cast<size_t>(rows_)), 1, static_cast<size_t>(rows_));
    }
    uint8_t* out = bytes_.Grow(static_cast<size_t>(n));
    bool null_true = mode_ == Mode::kNullAlways;
    if (all_valid) {
      std::memset(out, null_true ? 0 : 1, static_cast<size_t>(n));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        bool valid = IsValidBit(validity, offset + i);
        out[i] = static_cast<uint8_t>(valid != null_true);
      }
    }
    rows_ += n;
  }

  py::object Finish() {
    if (mode_ == Mode::kNone || (mode_ == Mode::kValidLazy && !started_)) return py::none();
    return ToNumpy(bytes_, py::dtype("?"));
  }

 private:
  Mode mode_;
  bool started_ = false;
  int64_t rows_ = 0;
  OutputBuffer bytes_;
};

const uint8_t* ValidityOf(const Array& a) {
  if (a.null_count == 0 || a.buffers.empty() || !a.buffers[0]) return nullptr;
  return a.buffers[0]->data();
}

[[noreturn]] void ThrowOutOfRange(const std::string& column, int64_t row, const std::string& what) {
  throw StatusError(
      Status::OutOfRange("column '" + column + "', row " + std::to_string(row) + ": " + what));
}

// A conversion of fixed-width values: Out = In * factor, and which inputs fit.
template <typename In, typename Out>
struct Scale {
  int64_t factor = 1;
  int64_t lo = std::numeric_limits<int64_t>::min();  // inputs in [lo, hi] convert exactly
  int64_t hi = std::numeric_limits<int64_t>::max();
  bool checked = false;  // false: every input fits
  std::string range_error;

  // Wraps (rather than overflows) for inputs that do not fit: those are reported, not used.
  Out operator()(In v) const {
    if constexpr (std::is_floating_point_v<In>) {
      return static_cast<Out>(v);
    } else {
      return static_cast<Out>(static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(v)) *
                                                   static_cast<uint64_t>(factor)));
    }
  }
  bool Fits(In v) const {
    if constexpr (std::is_signed_v<In> && std::is_integral_v<In>) {
      return !checked || (v >= lo && v <= hi);
    } else {
      return true;  // only signed ticks and days are ever scaled
    }
  }
};

// Scaled into pandas' datetime64[ns]: every int64 but NaT's.
template <typename In>
Scale<In, int64_t> ToNanos(int64_t factor, const std::string& what) {
  Scale<In, int64_t> s;
  s.factor = factor;
  s.checked = true;
  s.lo = (std::numeric_limits<int64_t>::min() + 1) / factor;  // division rounds toward zero: up
  s.hi = std::numeric_limits<int64_t>::max() / factor;
  s.range_error = what;
  return s;
}

template <typename In, typename Out, typename Convert>
class FixedColumn final : public ColumnBuilder {
 public:
  FixedColumn(std::string column, const char* dtype, const char* kind, std::string timezone,
              MaskBuilder::Mode mask, Out null_fill, Convert convert, int64_t capacity)
      : column_(std::move(column)),
        dtype_(dtype),
        kind_(kind),
        timezone_(std::move(timezone)),
        mask_(mask, capacity),
        null_fill_(null_fill),
        convert_(std::move(convert)) {
    values_.Reserve(static_cast<size_t>(capacity) * sizeof(Out));
  }

  void Append(const Array& a, int64_t row_base) override {
    const int64_t n = a.length;
    const In* src = reinterpret_cast<const In*>(a.buffers[1]->data()) + a.offset;
    const uint8_t* validity = ValidityOf(a);
    Out* dst = reinterpret_cast<Out*>(values_.Grow(static_cast<size_t>(n) * sizeof(Out)));
    int64_t bad = -1;
    {
      std::optional<py::gil_scoped_release> no_gil;
      if (n >= kReleaseGilRows) no_gil.emplace();
      if constexpr (std::is_same_v<In, Out>) {
        if (convert_.factor == 1) {
          std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(Out));
        } else {
          for (int64_t i = 0; i < n; ++i) dst[i] = convert_(src[i]);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = convert_(src[i]);
      }
      if (convert_.checked) {
        bool all_fit = true;
        for (int64_t i = 0; i < n; ++i) all_fit &= convert_.Fits(src[i]);
        for (int64_t i = 0; !all_fit && i < n; ++i) {
          if (!convert_.Fits(src[i]) && IsValidBit(validity, a.offset + i)) {
            bad = i;
            break;
          }
        }
      }
      if (validity != nullptr) {
        for (int64_t i = 0; i < n; ++i) {
          if (!IsValidBit(validity, a.offset + i)) dst[i] = null_fill_;
        }
      }
      mask_.Append(validity, a.offset, n);
    }
    if (bad >= 0) ThrowOutOfRange(column_, row_base + bad, convert_.range_error);
  }

  py::tuple Finish() override {
    py::array values = ToNumpy(values_, py::dtype(dtype_));
    return py::make_tuple(kind_, values, mask_.Finish(),
                          timezone_.empty() ? py::object(py::none()) : py::str(timezone_));
  }

 private:
  std::string column_;
  const char* dtype_;
  const char* kind_;
  std::string timezone_;
  OutputBuffer values_;
  MaskBuilder mask_;
  Out null_fill_;
  Convert convert_;
};

template <typename In, typename Out, typename Convert>
std::unique_ptr<ColumnBuilder> Fixed(const std::string& column, const char* dtype, const char* kind,
                                     MaskBuilder::Mode mask, Out null_fill, Convert convert,
                                     int64_t capacity, std::string timezone = {}) {
  return std::make_unique<FixedColumn<In, Out, Convert>>(
      column, dtype, kind, std::move(timezone), mask, null_fill, std::move(convert), capacity);
}

// Float16 bits to float32 (numpy has float16, pandas does not).
struct HalfToFloat {
  int64_t factor = 0;  // never the identity copy
  bool checked = false;
  std::string range_error;
  float operator()(uint16_t h) const {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
    uint32_t exponent = (h >> 10) & 0x1f;
    uint32_t mantissa = h & 0x3ff;
    uint32_t bits;
    if (exponent == 0) {
      if (mantissa == 0) {
        bits = sign;
      } else {  // subnormal: normalise
        int shift = 0;
        while ((mantissa & 0x400) == 0) {
          mantissa <<= 1;
          ++shift;
        }
        mantissa &= 0x3ff;
        bits = sign | static_cast<uint32_t>(127 - 15 - shift + 1) << 23 | mantissa << 13;
      }
    } else if (exponent == 31) {
      bits = sign | 0x7f800000u | mantissa << 13;
    } else {
      bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  bool Fits(uint16_t) const { return true; }
};

class BoolColumn final : public ColumnBuilder {
 public:
  BoolColumn(const char* kind, MaskBuilder::Mode mask, int64_t capacity)
      : kind_(kind), mask_(mask, capacity) {
    values_.Reserve(static_cast<size_t>(capacity));
  }
  void Append(const Array& a, int64_t) override {
    const uint8_t* bits = a.buffers[1]->data();
    const uint8_t* validity = ValidityOf(a);
    uint8_t* dst = values_.Grow(static_cast<size_t>(a.length));
    for (int64_t i = 0; i < a.length; ++i) {
      int64_t slot = a.offset + i;
      dst[i] = static_cast<uint8_t>(IsValidBit(bits, slot) && IsValidBit(validity, slot));
    }
    mask_.Append(validity, a.offset, a.length);
  }
  py::tuple Finish() override {
    return py::make_tuple(kind_, ToNumpy(values_, py::dtype("?")), mask_.Finish(), py::none());
  }

 private:
  const char* kind_;
  OutputBuffer values_;
  MaskBuilder mask_;
};

// Any type, one Python object per element (py_values.h).
class ObjectColumn final : public ColumnBuilder {
 public:
  ObjectColumn(std::string column, const ConvertOptions& options, int64_t capacity)
      : options_(options),
        mask_(options.pandas ? MaskBuilder::Mode::kNone : MaskBuilder::Mode::kValidLazy, capacity) {
    context_.column = std::move(column);
    values_.Reserve(capacity);
  }
  void Append(const Array& a, int64_t row_base) override {
    std::unique_ptr<ElementConverter> converter = MakeElementConverter(a, options_, context_);
    for (int64_t i = 0; i < a.length; ++i) {
      context_.row = row_base + i;
      values_.Push(converter->Get(i));
    }
    if (a.type->id == TypeId::kNull) {
      std::vector<uint8_t> none(static_cast<size_t>((a.length + 7) / 8), 0);
      mask_.Append(none.data(), 0, a.length);
    } else {
      mask_.Append(ValidityOf(a), a.offset, a.length);
    }
  }
  py::tuple Finish() override {
    return py::make_tuple("numpy", values_.ToNumpy(), mask_.Finish(), py::none());
  }

 private:
  const ConvertOptions& options_;
  ElementContext context_;
  ObjectBuffer values_;
  MaskBuilder mask_;
};

// Strings, with the str objects of repeated values shared (SharedStrings): a column of a few
// distinct values (categories, countries) costs one object per value, not per row. The sharing
// stops for a column whose values rarely repeat, where the lookups would only cost.
class StringColumn final : public ColumnBuilder {
 public:
  StringColumn(const ConvertOptions& options, int64_t capacity)
      : null_(options.pandas ? options.string_null : options.null_object),
        kind_(options.pandas ? "string" : "numpy"),
        mask_(options.pandas ? MaskBuilder::Mode::kNone : MaskBuilder::Mode::kValidLazy, capacity) {
    values_.Reserve(capacity);
  }

  void Append(const Array& a, int64_t) override {
    if (a.type->id == TypeId::kDictionary) return AppendIndices(a);
    const int64_t* offsets = reinterpret_cast<const int64_t*>(a.buffers[1]->data());
    const char* data = reinterpret_cast<const char*>(a.buffers[2]->data());
    const uint8_t* validity = ValidityOf(a);
    // The batch's bytes checked at once: most columns are ASCII throughout.
    const int64_t first = offsets[a.offset];
    ascii_ = IsAscii(data + first, offsets[a.offset + a.length] - first);
    for (int64_t i = 0; i < a.length; ++i) {
      int64_t slot = a.offset + i;
      if (!IsValidBit(validity, slot)) {
        values_.Push(null_);
        continue;
      }
      std::string_view s(data + offsets[slot],
                         static_cast<size_t>(offsets[slot + 1] - offsets[slot]));
      values_.Push(sharing_ ? Shared(s) : Make(s));
    }
    mask_.Append(validity, a.offset, a.length);
  }
  py::tuple Finish() override {
    shared_.Clear();
    entries_.clear();
    return py::make_tuple(kind_, values_.ToNumpy(), mask_.Finish(), py::none());
  }

 private:
  static constexpr int64_t kTrialLookups = 16384;  // decide after this many lookups ...
  static constexpr size_t kMaxSharedBytes = 256;   // ... on values no longer than this

  py::object Make(std::string_view s) const {
    const auto size = static_cast<int64_t>(s.size());
    return ascii_ ? MakeAsciiStr(s.data(), size) : MakeStr(s.data(), size);
  }
  // The shared object of `s`, made (and kept, when short enough) if new; *found says which.
  py::object FindOrMake(std::string_view s, bool* found) {
    PyObject* held = s.size() <= kMaxSharedBytes ? shared_.Find(s) : nullptr;
    *found = held != nullptr;
    if (held != nullptr) return py::reinterpret_borrow<py::object>(held);
    py::object str = Make(s);
    if (s.size() <= kMaxSharedBytes) shared_.Insert(s, str.ptr());
    return str;
  }
  py::object Shared(std::string_view s) {
    if (s.size() > kMaxSharedBytes) return Make(s);
    bool found = false;
    py::object str = FindOrMake(s, &found);
    ++lookups_;
    hits_ += found ? 1 : 0;
    // Too many distinct values, or few repeats once enough were seen: stop sharing.
    if (lookups_ >= kTrialLookups && hits_ * 2 < lookups_) {
      sharing_ = false;
      shared_.Clear();
    }
    return str;
  }

  // A column chunk's dictionary-encoded rows (ScanOptions::keep_dictionaries): one object per
  // entry of its dictionary, made when the dictionary first comes (the batches of a chunk share
  // it) and found in the shared table where an earlier chunk made it, then a reference per row.
  void AppendIndices(const Array& a) {
    if (a.dictionary != dictionary_) ConvertEntries(a.dictionary);
    const int32_t* indices = reinterpret_cast<const int32_t*>(a.buffers[1]->data());
    const uint8_t* validity = ValidityOf(a);
    for (int64_t i = 0; i < a.length; ++i) {
      int64_t slot = a.offset + i;
      values_.Push(IsValidBit(validity, slot) ? entries_[static_cast<size_t>(indices[slot])]
                                              : null_);
    }
    mask_.Append(validity, a.offset, a.length);
  }
  void ConvertEntries(const std::shared_ptr<Array>& dictionary) {
    dictionary_ = dictionary;  // held: a freed dictionary's address could come back
    const int64_t* offsets = reinterpret_cast<const int64_t*>(dictionary->buffers[1]->data());
    const char* data = reinterpret_cast<const char*>(dictionary->buffers[2]->data());
    ascii_ = IsAscii(data + offsets[0], offsets[dictionary->length] - offsets[0]);
    entries_.clear();
    entries_.reserve(static_cast<size_t>(dictionary->length));
    bool found = false;
    for (int64_t k = 0; k < dictionary->length; ++k) {
      std::string_view s(data + offsets[k], static_cast<size_t>(offsets[k + 1] - offsets[k]));
      entries_.push_back(FindOrMake(s, &found));
    }
  }

  py::object null_;
  const char* kind_;
  ObjectBuffer values_;
  MaskBuilder mask_;
  bool sharing_ = true;
  bool ascii_ = false;  // the current batch's bytes are all ASCII
  int64_t lookups_ = 0;
  int64_t hits_ = 0;
  SharedStrings shared_;
  std::shared_ptr<Array> dictionary_;  // the last dictionary array's, whose entries_ are:
  std::vector<py::object> entries_;
};

// A dictionary array (the scan's filename column). For pandas, a Categorical: int32 codes (-1 for
// NULL) into categories, the distinct dictionary values in order of first appearance, so one
// file's name costs 4 bytes a row there too; each dictionary is converted once (the batches of a
// file share theirs), not each row. For numpy, the values themselves, as a column of the value
// type holds them.
class DictionaryColumn final : public ColumnBuilder {
 public:
  DictionaryColumn(const Field& field, const ConvertOptions& options, int64_t capacity)
      : options_(options) {
    context_.column = field.name;
    if (!options.pandas) {
      values_ = MakeColumnBuilder({field.name, field.type->value_type, field.nullable}, options,
                                  capacity);
    }
    codes_.Reserve(static_cast<size_t>(capacity) * sizeof(int32_t));
  }

  void Append(const Array& a, int64_t row_base) override {
    if (values_) {
      Result<std::shared_ptr<Array>> decoded = DecodeDictionary(a);
      if (!decoded.ok()) throw StatusError(decoded.status());
      values_->Append(**decoded, row_base);
      return;
    }
    if (a.dictionary != dictionary_) CodeEntries(a.dictionary, row_base);
    auto* dst = reinterpret_cast<int32_t*>(codes_.Grow(static_cast<size_t>(a.length) * 4));
    const uint8_t* validity = ValidityOf(a);
    for (int64_t i = 0; i < a.length; ++i) {
      dst[i] = IsValidBit(validity, a.offset + i)
                   ? entry_codes_[static_cast<size_t>(layout::DictionaryIndex(a, i))]
                   : -1;
    }
  }

  // ("categorical", codes, categories, None): the mask's place holds the categories.
  py::tuple Finish() override {
    if (values_) return values_->Finish();
    return py::make_tuple("categorical", ToNumpy(codes_, py::dtype("i4")), categories_.ToNumpy(),
                          py::none());
  }

 private:
  // The code of each entry of `dictionary`, new values becoming new categories.
  void CodeEntries(const std::shared_ptr<Array>& dictionary, int64_t row_base) {
    dictionary_ = dictionary;  // held: a freed dictionary's address could come back
    context_.row = row_base;
    std::unique_ptr<ElementConverter> converter =
        MakeElementConverter(*dictionary, options_, context_);
    entry_codes_.assign(static_cast<size_t>(dictionary->length), -1);
    for (int64_t k = 0; k < dictionary->length; ++k) {
      if (!dictionary->IsValid(k)) continue;
      py::object value = converter->Get(k);
      if (PyObject* code = PyDict_GetItemWithError(codes_of_values_.ptr(), value.ptr())) {
        entry_codes_[static_cast<size_t>(k)] = static_cast<int32_t>(PyLong_AsLong(code));
        continue;
      }
      if (PyErr_Occurred()) throw py::error_already_set();  // an unhashable value
      const auto code = static_cast<int32_t>(categories_.count());
      codes_of_values_[value] = py::int_(code);
      categories_.Push(std::move(value));
      entry_codes_[static_cast<size_t>(k)] = code;
    }
  }

  const ConvertOptions& options_;
  ElementContext context_;
  std::unique_ptr<ColumnBuilder> values_;  // numpy: the decoded values' column
  OutputBuffer codes_;
  ObjectBuffer categories_;
  py::dict codes_of_values_;           // category -> its code
  std::shared_ptr<Array> dictionary_;  // the last batch's, whose entries' codes are:
  std::vector<int32_t> entry_codes_;
};

int64_t NanosPer(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return 1000000;
    case TimeUnit::kMicros: return 1000;
    case TimeUnit::kNanos: return 1;
  }
  return 1;
}

template <typename T>
std::unique_ptr<ColumnBuilder> IntegerBuilder(const Field& field, const ConvertOptions& o,
                                              int64_t capacity, const char* dtype) {
  using M = MaskBuilder::Mode;
  Scale<T, T> copy;
  if (!o.pandas)
    return Fixed<T, T>(field.name, dtype, "numpy", M::kValidLazy, T{0}, copy, capacity);
  if (!field.nullable)
    return Fixed<T, T>(field.name, dtype, "numpy", M::kNone, T{0}, copy, capacity);
  return Fixed<T, T>(field.name, dtype, "masked", M::kNullAlways, T{0}, copy, capacity);
}

}  // namespace

std::unique_ptr<ColumnBuilder> MakeColumnBuilder(const Field& field, const ConvertOptions& o,
                                                 int64_t capacity) {
  using M = MaskBuilder::Mode;
  const DataType& type = *field.type;
  const std::string& name = field.name;
  const M numpy_mask = o.pandas ? M::kNone : M::kValidLazy;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (type.id) {
    case TypeId::kBoolean:
      if (!o.pandas) return std::make_unique<BoolColumn>("numpy", M::kValidLazy, capacity);
      if (!field.nullable) return std::make_unique<BoolColumn>("numpy", M::kNone, capacity);
      return std::make_unique<BoolColumn>("masked", M::kNullAlways, capacity);
    case TypeId::kInt8: return IntegerBuilder<int8_t>(field, o, capacity, "i1");
    case TypeId::kInt16: return IntegerBuilder<int16_t>(field, o, capacity, "i2");
    case TypeId::kInt32: return IntegerBuilder<int32_t>(field, o, capacity, "i4");
    case TypeId::kInt64: return IntegerBuilder<int64_t>(field, o, capacity, "i8");
    case TypeId::kUInt8: return IntegerBuilder<uint8_t>(field, o, capacity, "u1");
    case TypeId::kUInt16: return IntegerBuilder<uint16_t>(field, o, capacity, "u2");
    case TypeId::kUInt32: return IntegerBuilder<uint32_t>(field, o, capacity, "u4");
    case TypeId::kUInt64: return IntegerBuilder<uint64_t>(field, o, capacity, "u8");
    case TypeId::kFloat16:
      if (!o.pandas) {
        return Fixed<uint16_t, uint16_t>(name, "f2", "numpy", M::kValidLazy, uint16_t{0x7e00},
                                         Scale<uint16_t, uint16_t>{}, capacity);
      }
      return Fixed<uint16_t, float>(name, "f4", "numpy", M::kNone, static_cast<float>(nan),
                                    HalfToFloat{}, capacity);
    case TypeId::kFloat32:
      return Fixed<float, float>(name, "f4", "numpy", numpy_mask, static_cast<float>(nan),
                                 Scale<float, float>{}, capacity);
    case TypeId::kFloat64:
      return Fixed<double, double>(name, "f8", "numpy", numpy_mask, nan, Scale<double, double>{},
                                   capacity);
    case TypeId::kDate32:
      if (!o.pandas) {
        return Fixed<int32_t, int64_t>(name, "M8[D]", "numpy", M::kValidLazy, kNaT,
                                       Scale<int32_t, int64_t>{}, capacity);
      }
      if (o.date_as_object) break;
      return Fixed<int32_t, int64_t>(
          name, "M8[ns]", "numpy", M::kNone, kNaT,
          ToNanos<int32_t>(int64_t{86400} * 1000000000,
                           "date outside pandas' datetime64[ns] range (1677-09-22 to "
                           "2262-04-11); to_pandas(date_as_object=True) reads it as "
                           "datetime.date"),
          capacity);
    case TypeId::kTime32:
      if (o.pandas) break;
      return Fixed<int32_t, int64_t>(name, "m8[ms]", "numpy", M::kValidLazy, kNaT,
                                     Scale<int32_t, int64_t>{}, capacity);
    case TypeId::kTime64:
      if (o.pandas && type.unit != TimeUnit::kNanos) break;
      return Fixed<int64_t, int64_t>(name, type.unit == TimeUnit::kNanos ? "m8[ns]" : "m8[us]",
                                     "numpy", numpy_mask, kNaT, Scale<int64_t, int64_t>{},
                                     capacity);
    case TypeId::kTimestamp: {
      if (!o.pandas) {
        static const char* const kDtypes[] = {"M8[ms]", "M8[us]", "M8[ns]"};
        const char* dtype = type.unit == TimeUnit::kMillis   ? kDtypes[0]
                            : type.unit == TimeUnit::kMicros ? kDtypes[1]
                                                             : kDtypes[2];
        return Fixed<int64_t, int64_t>(name, dtype, "numpy", M::kValidLazy, kNaT,
                                       Scale<int64_t, int64_t>{}, capacity);
      }
      if (o.timestamp_as_object) break;
      auto scale = ToNanos<int64_t>(
          NanosPer(type.unit),
          std::string("timestamp outside pandas' datetime64[ns] range (1677-09-21 to "
                      "2262-04-11); to_pandas(timestamp_as_object=True) reads it as ") +
              (type.unit == TimeUnit::kNanos ? "pandas.Timestamp" : "datetime.datetime"));
      return Fixed<int64_t, int64_t>(name, "M8[ns]", type.timezone.empty() ? "numpy" : "datetimetz",
                                     M::kNone, kNaT, std::move(scale), capacity, type.timezone);
    }
    case TypeId::kLargeString: return std::make_unique<StringColumn>(o, capacity);
    case TypeId::kDictionary: return std::make_unique<DictionaryColumn>(field, o, capacity);
    default: break;
  }
  return std::make_unique<ObjectColumn>(name, o, capacity);
}

}  // namespace pqsift::python
