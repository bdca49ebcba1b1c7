#include "py_values.h"

#include <datetime.h>

#include <cmath>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrow/cast.h"
#include "common/civil_date.h"
#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

PyObject* decimal_class = nullptr;  // decimal.Decimal, a reference held for the process

py::object Steal(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

[[noreturn]] void OutOfRange(const ElementContext& context, const std::string& what) {
  throw StatusError(Status::OutOfRange("column '" + context.column + "', row " +
                                       std::to_string(context.row) + ": " + what));
}

// Arrow's float16 bits as a double.
double HalfToDouble(uint16_t h) {
  int sign = (h >> 15) & 1;
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double v;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -v : v;
}

using int128 = __int128;

// "-123.4500" for unscaled -1234500 at scale 4; scale <= 0 appends zeros ("1E+2" would also
// do, but Decimal("100") keeps the digits the CLI prints).
std::string DecimalText(int128 unscaled, int32_t scale) {
  bool negative = unscaled < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1 : unscaled;
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  std::string out = negative ? "-" : "";
  if (scale <= 0) {
    out.append(digits.rbegin(), digits.rend());
    out.append(static_cast<size_t>(-scale), '0');
    return out;
  }
  while (digits.size() <= static_cast<size_t>(scale)) digits.push_back('0');
  std::string whole(digits.rbegin(), digits.rend());
  out += whole.substr(0, whole.size() - scale);
  out += '.';
  out += whole.substr(whole.size() - scale);
  return out;
}

class Base : public ElementConverter {
 public:
  Base(const Array& a, const ConvertOptions& o, ElementContext& c)
      : array_(a),
        options_(o),
        context_(c),
        validity_(a.buffers.empty() || !a.buffers[0] ? nullptr : a.buffers[0]->data()) {}

  py::object Get(int64_t i) final {
    int64_t slot = array_.offset + i;
    if (array_.type->id == TypeId::kNull || !IsValidBit(validity_, slot)) {
      return options_.null_object;
    }
    return Value(slot);
  }

 protected:
  virtual py::object Value(int64_t slot) = 0;
  template <typename T>
  const T* values() const {
    return reinterpret_cast<const T*>(array_.buffers[1]->data());
  }

  const Array& array_;
  const ConvertOptions& options_;
  ElementContext& context_;
  const uint8_t* validity_;
};

class NullConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t) override { return options_.null_object; }
};

class BoolConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    return py::bool_(IsValidBit(array_.buffers[1]->data(), slot));
  }
};

template <typename T>
class IntConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    T v = values<T>()[slot];
    if constexpr (std::is_signed_v<T>) {
      return Steal(PyLong_FromLongLong(v));
    } else {
      return Steal(PyLong_FromUnsignedLongLong(v));
    }
  }
};

template <typename T>
class FloatConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    if constexpr (std::is_same_v<T, uint16_t>) {
      return Steal(PyFloat_FromDouble(HalfToDouble(values<uint16_t>()[slot])));
    } else {
      return Steal(PyFloat_FromDouble(static_cast<double>(values<T>()[slot])));
    }
  }
};

class BytesConverter final : public Base {
 public:
  BytesConverter(const Array& a, const ConvertOptions& o, ElementContext& c, bool text)
      : Base(a, o, c), text_(text) {}
  py::object Value(int64_t slot) override {
    const int64_t* offsets = values<int64_t>();
    const char* data = reinterpret_cast<const char*>(array_.buffers[2]->data());
    int64_t begin = offsets[slot];
    int64_t size = offsets[slot + 1] - begin;
    if (text_) return MakeStr(data + begin, size);
    return Steal(PyBytes_FromStringAndSize(data + begin, size));
  }

 private:
  bool text_;
};

class FixedBytesConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    int64_t width = array_.type->byte_width;
    const char* data = reinterpret_cast<const char*>(array_.buffers[1]->data());
    return Steal(PyBytes_FromStringAndSize(data + slot * width, width));
  }
};

class DecimalConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    int128 v;
    std::memcpy(&v, array_.buffers[1]->data() + slot * 16, 16);
    std::string text = DecimalText(v, array_.type->scale);
    py::object s = Steal(PyUnicode_FromStringAndSize(text.data(), text.size()));
    return Steal(PyObject_CallOneArg(decimal_class, s.ptr()));
  }
};

class DateConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    const CivilDate date = CivilFromDays(values<int32_t>()[slot]);
    if (date.year < 1 || date.year > 9999) {
      OutOfRange(context_, "date outside years 1-9999, which datetime.date cannot hold");
    }
    return Steal(PyDate_FromDate(static_cast<int>(date.year), static_cast<int>(date.month),
                                 static_cast<int>(date.day)));
  }
};

class TimeConverter final : public Base {
 public:
  using Base::Base;
  py::object Value(int64_t slot) override {
    TimeUnit unit = array_.type->unit;
    int64_t v =
        array_.type->id == TypeId::kTime32 ? values<int32_t>()[slot] : values<int64_t>()[slot];
    if (unit == TimeUnit::kNanos) {
      return Steal(PyObject_CallOneArg(options_.make_ns_time.ptr(), py::int_(v).ptr()));
    }
    int64_t per_second = unit == TimeUnit::kMillis ? 1000 : 1000000;
    if (v < 0 || v >= 86400 * per_second) OutOfRange(context_, "time of day outside 00:00-24:00");
    int64_t seconds = v / per_second;
    int64_t micros = (v % per_second) * (1000000 / per_second);
    return Steal(PyTime_FromTime(static_cast<int>(seconds / 3600),
                                 static_cast<int>(seconds / 60 % 60),
                                 static_cast<int>(seconds % 60), static_cast<int>(micros)));
  }
};

class TimestampConverter final : public Base {
 public:
  TimestampConverter(const Array& a, const ConvertOptions& o, ElementContext& c)
      : Base(a, o, c), utc_(!a.type->timezone.empty()) {}
  py::object Value(int64_t slot) override {
    int64_t v = values<int64_t>()[slot];
    TimeUnit unit = array_.type->unit;
    if (unit == TimeUnit::kNanos) {
      py::object tz = utc_ ? py::object(py::str(array_.type->timezone)) : py::none();
      return Steal(PyObject_CallFunctionObjArgs(options_.make_ns_timestamp.ptr(), py::int_(v).ptr(),
                                                tz.ptr(), nullptr));
    }
    // Milliseconds or microseconds here (nanoseconds went above): the split is exact.
    const cast::TimestampDay t = cast::SplitTimestamp(v, unit);
    const CivilDate date = CivilFromDays(t.day);
    if (date.year < 1 || date.year > 9999) {
      OutOfRange(context_, "timestamp outside years 1-9999, which datetime.datetime cannot hold");
    }
    const int64_t in_day = t.micros / 1000000;
    return Steal(PyDateTimeAPI->DateTime_FromDateAndTime(
        static_cast<int>(date.year), static_cast<int>(date.month), static_cast<int>(date.day),
        static_cast<int>(in_day / 3600), static_cast<int>(in_day / 60 % 60),
        static_cast<int>(in_day % 60), static_cast<int>(t.micros % 1000000),
        utc_ ? PyDateTime_TimeZone_UTC : Py_None, PyDateTimeAPI->DateTimeType));
  }

 private:
  bool utc_;
};

class ListConverter final : public Base {
 public:
  ListConverter(const Array& a, const ConvertOptions& o, ElementContext& c)
      : Base(a, o, c), child_(MakeElementConverter(*a.children[0], o, c)) {}
  py::object Value(int64_t slot) override {
    const int64_t* offsets = values<int64_t>();
    int64_t begin = offsets[slot], end = offsets[slot + 1];
    py::object list = Steal(PyList_New(end - begin));
    for (int64_t k = begin; k < end; ++k) {
      PyList_SET_ITEM(list.ptr(), k - begin, child_->Get(k).release().ptr());
    }
    return list;
  }

 private:
  std::unique_ptr<ElementConverter> child_;
};

class StructConverter final : public Base {
 public:
  StructConverter(const Array& a, const ConvertOptions& o, ElementContext& c) : Base(a, o, c) {
    for (size_t k = 0; k < a.children.size(); ++k) {
      names_.push_back(py::str(a.type->children[k].name));
      children_.push_back(MakeElementConverter(*a.children[k], o, c));
    }
  }
  py::object Value(int64_t slot) override {
    py::dict d;
    for (size_t k = 0; k < children_.size(); ++k) {
      // Children are not sliced with their parent (array.h): the slot is the child's index.
      d[names_[k]] = children_[k]->Get(slot);
    }
    return py::object(std::move(d));
  }

 private:
  std::vector<py::str> names_;
  std::vector<std::unique_ptr<ElementConverter>> children_;
};

class MapConverter final : public Base {
 public:
  MapConverter(const Array& a, const ConvertOptions& o, ElementContext& c) : Base(a, o, c) {
    const Array& entries = *a.children[0];
    keys_ = MakeElementConverter(*entries.children[0], o, c);
    values_ = MakeElementConverter(*entries.children[1], o, c);
    entries_offset_ = entries.offset;
  }
  py::object Value(int64_t slot) override {
    const int32_t* offsets = values<int32_t>();
    int64_t begin = offsets[slot], end = offsets[slot + 1];
    if (options_.maps == MapsAs::kPairs) {
      py::object list = Steal(PyList_New(end - begin));
      for (int64_t k = begin; k < end; ++k) {
        py::tuple pair(2);
        pair[0] = keys_->Get(entries_offset_ + k);
        pair[1] = values_->Get(entries_offset_ + k);
        PyList_SET_ITEM(list.ptr(), k - begin, pair.release().ptr());
      }
      return list;
    }
    py::dict d;
    for (int64_t k = begin; k < end; ++k) {
      py::object key = keys_->Get(entries_offset_ + k);
      if (options_.maps == MapsAs::kDictStrict && d.contains(key)) {
        throw StatusError(Status::InvalidArgument(
            "column '" + context_.column + "', row " + std::to_string(context_.row) +
            ": a map holds the key " + py::repr(key).cast<std::string>() +
            " twice (maps_as_pydicts='strict')"));
      }
      d[key] = values_->Get(entries_offset_ + k);
    }
    return py::object(std::move(d));
  }

 private:
  std::unique_ptr<ElementConverter> keys_;
  std::unique_ptr<ElementConverter> values_;
  int64_t entries_offset_ = 0;
};

// A dictionary array's element: its dictionary value.
class DictionaryConverter final : public Base {
 public:
  DictionaryConverter(const Array& a, const ConvertOptions& o, ElementContext& c)
      : Base(a, o, c), values_(MakeElementConverter(*a.dictionary, o, c)) {}

 private:
  py::object Value(int64_t slot) override {
    int32_t index;
    std::memcpy(&index, array_.buffers[1]->data() + slot * 4, sizeof(index));
    return values_->Get(index);
  }
  std::unique_ptr<ElementConverter> values_;
};

}  // namespace

bool IsAscii(const char* p, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if ((w & 0x8080808080808080ULL) != 0) return false;
  }
  for (; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) >= 0x80) return false;
  }
  return true;
}

py::object MakeAsciiStr(const char* data, int64_t size) {
  PyObject* s = PyUnicode_New(size, 127);
  if (s == nullptr) throw py::error_already_set();
  std::memcpy(PyUnicode_DATA(s), data, static_cast<size_t>(size));
  return py::reinterpret_steal<py::object>(s);
}

py::object MakeStr(const char* data, int64_t size) {
  if (IsAscii(data, size)) return MakeAsciiStr(data, size);
  return Steal(PyUnicode_DecodeUTF8(data, size, "replace"));
}

std::unique_ptr<ElementConverter> MakeElementConverter(const Array& a, const ConvertOptions& o,
                                                       ElementContext& c) {
  switch (a.type->id) {
    case TypeId::kNull: return std::make_unique<NullConverter>(a, o, c);
    case TypeId::kBoolean: return std::make_unique<BoolConverter>(a, o, c);
    case TypeId::kInt8: return std::make_unique<IntConverter<int8_t>>(a, o, c);
    case TypeId::kInt16: return std::make_unique<IntConverter<int16_t>>(a, o, c);
    case TypeId::kInt32: return std::make_unique<IntConverter<int32_t>>(a, o, c);
    case TypeId::kInt64: return std::make_unique<IntConverter<int64_t>>(a, o, c);
    case TypeId::kUInt8: return std::make_unique<IntConverter<uint8_t>>(a, o, c);
    case TypeId::kUInt16: return std::make_unique<IntConverter<uint16_t>>(a, o, c);
    case TypeId::kUInt32: return std::make_unique<IntConverter<uint32_t>>(a, o, c);
    case TypeId::kUInt64: return std::make_unique<IntConverter<uint64_t>>(a, o, c);
    case TypeId::kFloat16: return std::make_unique<FloatConverter<uint16_t>>(a, o, c);
    case TypeId::kFloat32: return std::make_unique<FloatConverter<float>>(a, o, c);
    case TypeId::kFloat64: return std::make_unique<FloatConverter<double>>(a, o, c);
    case TypeId::kLargeString: return std::make_unique<BytesConverter>(a, o, c, true);
    case TypeId::kLargeBinary: return std::make_unique<BytesConverter>(a, o, c, false);
    case TypeId::kFixedSizeBinary: return std::make_unique<FixedBytesConverter>(a, o, c);
    case TypeId::kDecimal128: return std::make_unique<DecimalConverter>(a, o, c);
    case TypeId::kDate32: return std::make_unique<DateConverter>(a, o, c);
    case TypeId::kTime32:
    case TypeId::kTime64: return std::make_unique<TimeConverter>(a, o, c);
    case TypeId::kTimestamp: return std::make_unique<TimestampConverter>(a, o, c);
    case TypeId::kLargeList: return std::make_unique<ListConverter>(a, o, c);
    case TypeId::kStruct: return std::make_unique<StructConverter>(a, o, c);
    case TypeId::kMap: return std::make_unique<MapConverter>(a, o, c);
    case TypeId::kDictionary: return std::make_unique<DictionaryConverter>(a, o, c);
  }
  return std::make_unique<NullConverter>(a, o, c);
}

void InitPyValues() {
  PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) throw py::error_already_set();
  decimal_class = py::object(py::module_::import("decimal").attr("Decimal")).release().ptr();
}

}  // namespace pqsift::python
