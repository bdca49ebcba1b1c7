#include "writer_handle.h"

#include <pybind11/numpy.h>

#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow_capsules.h"
#include "pqsift/io.h"
#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

std::vector<std::string> SplitSpec(const std::string& spec) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

std::shared_ptr<const DataType> TypeOfSpec(const std::string& spec) {
  static const std::pair<const char*, std::shared_ptr<const DataType> (*)()> kSimple[] = {
      {"bool", Boolean},     {"int8", Int8},         {"int16", Int16},     {"int32", Int32},
      {"int64", Int64},      {"uint8", UInt8},       {"uint16", UInt16},   {"uint32", UInt32},
      {"uint64", UInt64},    {"float32", Float32},   {"float64", Float64}, {"date32", Date32},
      {"string", LargeUtf8}, {"binary", LargeBinary}};
  for (const auto& [name, make] : kSimple) {
    if (spec == name) return make();
  }
  std::vector<std::string> parts = SplitSpec(spec);
  if (parts[0] == "time64" && parts.size() == 2) return Time64(TimeUnit::kMicros);
  if (parts[0] == "timestamp" && parts.size() == 3) {
    TimeUnit unit = parts[1] == "ms"   ? TimeUnit::kMillis
                    : parts[1] == "us" ? TimeUnit::kMicros
                                       : TimeUnit::kNanos;
    return Timestamp(unit, parts[2]);
  }
  if (parts[0] == "decimal" && parts.size() == 3) {
    return Decimal128(std::stoi(parts[1]), std::stoi(parts[2]));
  }
  throw StatusError(Status::InvalidArgument("internal: unknown column spec '" + spec + "'"));
}

std::shared_ptr<ArrowBuffer> CopyBuffer(const void* data, size_t bytes) {
  auto buffer = std::make_shared<ArrowBuffer>();
  buffer->Resize(bytes);
  if (bytes > 0) std::memcpy(buffer->data(), data, bytes);
  return buffer;
}

// Validity bits from a null mask (True = NULL); sets null_count. Null when none is NULL.
std::shared_ptr<ArrowBuffer> ValidityFromMask(const py::object& mask, int64_t n,
                                              int64_t* null_count) {
  *null_count = 0;
  if (mask.is_none()) return nullptr;
  auto m = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
  if (!m || m.size() != n) {
    throw StatusError(
        Status::InvalidArgument("internal: a mask's length differs from its values'"));
  }
  const bool* nulls = m.data();
  auto bits = std::make_shared<ArrowBuffer>();
  bits->Resize(static_cast<size_t>((n + 7) / 8));
  std::memset(bits->data(), 0, bits->size());
  for (int64_t i = 0; i < n; ++i) {
    if (nulls[i]) {
      ++*null_count;
    } else {
      bits->data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
  }
  if (*null_count == 0) return nullptr;
  return bits;
}

// str / bytes elements of an object array into large_utf8 / large_binary. None (or another
// missing marker the mask flags) is NULL.
void BytesFromObjects(const py::array& given, bool text, Array& out, const py::object& mask) {
  if (given.dtype().kind() != 'O') {
    throw StatusError(
        Status::InvalidArgument("internal: a string column's values are not objects"));
  }
  py::array values = py::array::ensure(given, py::array::c_style);
  const int64_t n = out.length;
  auto offsets = std::make_shared<ArrowBuffer>();
  offsets->Resize(static_cast<size_t>(n + 1) * sizeof(int64_t));
  auto data = std::make_shared<ArrowBuffer>();
  auto bits = std::make_shared<ArrowBuffer>();
  bits->Resize(static_cast<size_t>((n + 7) / 8));
  std::memset(bits->data(), 0, bits->size());
  const bool* nulls = nullptr;
  py::array_t<bool, py::array::c_style | py::array::forcecast> m;
  if (!mask.is_none()) {
    m = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
    nulls = m.data();
  }
  auto* o = offsets->as<int64_t>();
  o[0] = 0;
  int64_t null_count = 0;
  auto* items = static_cast<PyObject* const*>(values.data());
  for (int64_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    const char* p = nullptr;
    Py_ssize_t size = 0;
    if ((nulls != nullptr && nulls[i]) || item == Py_None) {
      ++null_count;
    } else if (text && PyUnicode_Check(item)) {
      p = PyUnicode_AsUTF8AndSize(item, &size);
      if (p == nullptr) throw py::error_already_set();
    } else if (!text && PyBytes_Check(item)) {
      char* bp;
      if (PyBytes_AsStringAndSize(item, &bp, &size) != 0) throw py::error_already_set();
      p = bp;
    } else {
      throw StatusError(Status::InvalidArgument(std::string("a ") + (text ? "string" : "binary") +
                                                " column holds a " + Py_TYPE(item)->tp_name +
                                                " at row " + std::to_string(i)));
    }
    if (p != nullptr) {
      data->Append(p, static_cast<size_t>(size));
      bits->data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
    o[i + 1] = static_cast<int64_t>(data->size());
  }
  out.null_count = null_count;
  out.buffers = {null_count > 0 ? bits : nullptr, offsets, data};
}

size_t ByteWidth(const DataType& type) {
  switch (type.id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16: return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32: return 4;
    default: return 8;  // int64, uint64, float64, time64, timestamp
  }
}

std::shared_ptr<Array> ArrayFromColumn(const py::tuple& column) {
  std::string spec = column[0].cast<std::string>();
  py::array values = column[1].cast<py::array>();
  py::object mask = column[2];
  auto array = std::make_shared<Array>();
  array->type = TypeOfSpec(spec);
  array->length = values.shape(0);
  const int64_t n = array->length;
  switch (array->type->id) {
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      BytesFromObjects(values, array->type->id == TypeId::kLargeString, *array, mask);
      return array;
    case TypeId::kBoolean: {
      auto v = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(values);
      auto bits = std::make_shared<ArrowBuffer>();
      bits->Resize(static_cast<size_t>((n + 7) / 8));
      std::memset(bits->data(), 0, bits->size());
      for (int64_t i = 0; i < n; ++i) {
        if (v.data()[i] != 0) bits->data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
      }
      array->buffers = {ValidityFromMask(mask, n, &array->null_count), bits};
      return array;
    }
    case TypeId::kDecimal128: {
      auto v = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(values);
      array->buffers = {ValidityFromMask(mask, n, &array->null_count),
                        CopyBuffer(v.data(), static_cast<size_t>(n) * 16)};
      return array;
    }
    default: break;
  }
  py::array contiguous = py::array::ensure(values, py::array::c_style);
  size_t bytes = static_cast<size_t>(contiguous.nbytes());
  if (contiguous.ndim() != 1 || bytes != static_cast<size_t>(n) * ByteWidth(*array->type)) {
    throw StatusError(
        Status::InvalidArgument("internal: values of '" + spec + "' have the wrong item size"));
  }
  array->buffers = {ValidityFromMask(mask, n, &array->null_count),
                    CopyBuffer(contiguous.data(), bytes)};
  return array;
}

}  // namespace

WriterHandle::WriterHandle(std::string path, WriterOptions options,
                           PartitionedWriteOptions partitioning)
    : path_(std::move(path)),
      options_(std::move(options)),
      partitioning_(std::move(partitioning)) {}

WriterHandle::~WriterHandle() = default;

void WriterHandle::Open(std::shared_ptr<const BatchSchema> schema) {
  if (!partitioning_.partition_by.empty()) {
    auto writer = PartitionedWriter::Open(path_, schema, partitioning_, options_);
    if (!writer.ok()) throw StatusError(writer.status().WithContext(path_));
    partitioned_ = std::move(*writer);
    schema_ = std::move(schema);
    return;
  }
  auto file = OpenLocalWritableFile(path_);
  if (!file.ok()) throw StatusError(file.status());
  auto writer = ParquetWriter::Open(std::move(*file), schema, options_);
  if (!writer.ok()) throw StatusError(writer.status().WithContext(path_));
  writer_ = std::move(*writer);
  schema_ = std::move(schema);
}

Status WriterHandle::WriteBatch(const RecordBatch& batch) {
  return writer_ ? writer_->Write(batch) : partitioned_->Write(batch);
}

Status WriterHandle::Named(const Status& status) const {
  return writer_ ? status.WithContext(path_) : status;  // a part file's errors name that file
}

void WriterHandle::Write(const RecordBatch& batch) {
  Status status;
  {
    py::gil_scoped_release no_gil;
    status = WriteBatch(batch);
  }
  if (!status.ok()) throw StatusError(Named(status));
}

void WriterHandle::WriteColumns(const py::list& names, const py::list& columns) {
  auto batch = std::make_shared<RecordBatch>();
  auto schema = std::make_shared<BatchSchema>();
  for (size_t c = 0; c < columns.size(); ++c) {
    py::tuple column = columns[c].cast<py::tuple>();
    std::shared_ptr<Array> array = ArrayFromColumn(column);
    schema->fields.push_back(
        Field{names[c].cast<std::string>(), array->type, !column[2].is_none()});
    if (c == 0) batch->num_rows = array->length;
    if (array->length != batch->num_rows) {
      throw StatusError(Status::InvalidArgument("columns of different lengths"));
    }
    batch->columns.push_back(std::move(array));
  }
  if (!opened()) Open(schema);
  batch->schema = schema_;
  Write(*batch);
}

void WriterHandle::WriteStream(py::handle producer) {
  ArrowArrayStream stream = TakeStream(producer);
  struct StreamGuard {
    ArrowArrayStream* s;
    ~StreamGuard() {
      if (s->release != nullptr) s->release(s);
    }
  } guard{&stream};
  auto failed = [&](int code, const char* what) {
    const char* message = stream.get_last_error(&stream);
    return StatusError(Status::IOError(std::string("the Arrow stream's ") + what + " failed: " +
                                       (message != nullptr ? message : std::strerror(code))));
  };
  ArrowSchema c_schema{};
  int code;
  {
    py::gil_scoped_release no_gil;
    code = stream.get_schema(&stream, &c_schema);
  }
  if (code != 0) throw failed(code, "get_schema");
  struct SchemaGuard {
    ArrowSchema* s;
    ~SchemaGuard() {
      if (s->release != nullptr) s->release(s);
    }
  } schema_guard{&c_schema};
  Result<std::shared_ptr<BatchSchema>> schema = ImportSchema(&c_schema);
  if (!schema.ok()) throw StatusError(schema.status());
  if (!opened()) Open(*schema);
  for (;;) {
    ArrowArray c_array{};
    std::shared_ptr<RecordBatch> batch;
    Status status;
    {
      py::gil_scoped_release no_gil;
      code = stream.get_next(&stream, &c_array);
      if (code == 0 && c_array.release != nullptr) {
        Result<std::shared_ptr<RecordBatch>> imported = ImportRecordBatch(&c_array, &c_schema);
        if (imported.ok()) {
          batch = std::move(*imported);
          batch->schema = schema_;
          status = WriteBatch(*batch);
        } else {
          status = imported.status();
        }
      }
    }
    if (code != 0) throw failed(code, "get_next");
    if (!status.ok()) throw StatusError(Named(status));
    if (batch == nullptr) break;
  }
}

void WriterHandle::Close() {
  if (!opened())
    throw StatusError(Status::InvalidArgument(path_ + ": nothing to write (no columns)"));
  Status status;
  {
    py::gil_scoped_release no_gil;
    status = writer_ ? writer_->Close() : partitioned_->Close();
  }
  if (!status.ok()) throw StatusError(Named(status));
}

}  // namespace pqsift::python
