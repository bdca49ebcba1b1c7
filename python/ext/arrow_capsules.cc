#include "arrow_capsules.h"

#include <cstdlib>
#include <new>

#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

constexpr const char* kSchemaName = "arrow_schema";
constexpr const char* kArrayName = "arrow_array";
constexpr const char* kStreamName = "arrow_array_stream";

template <typename T>
T* Allocate() {
  T* p = static_cast<T*>(std::calloc(1, sizeof(T)));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// Capsule destructors: release what the consumer did not take, then free the struct.
template <typename T>
void ReleaseCapsule(PyObject* capsule, const char* name) {
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule, name));
  if (p == nullptr) {
    PyErr_Clear();
    return;
  }
  if (p->release != nullptr) p->release(p);
  std::free(p);
}
void ReleaseSchemaCapsule(PyObject* c) { ReleaseCapsule<ArrowSchema>(c, kSchemaName); }
void ReleaseArrayCapsule(PyObject* c) { ReleaseCapsule<ArrowArray>(c, kArrayName); }
void ReleaseStreamCapsule(PyObject* c) { ReleaseCapsule<ArrowArrayStream>(c, kStreamName); }

template <typename T>
py::capsule Wrap(T* p, const char* name, void (*destructor)(PyObject*)) {
  PyObject* capsule = PyCapsule_New(p, name, destructor);
  if (capsule == nullptr) {
    if (p->release != nullptr) p->release(p);
    std::free(p);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

}  // namespace

py::capsule SchemaCapsule(const BatchSchema& schema) {
  auto* out = Allocate<ArrowSchema>();
  Status status = ExportSchema(schema, out);
  if (!status.ok()) {
    std::free(out);
    throw StatusError(status);
  }
  return Wrap(out, kSchemaName, ReleaseSchemaCapsule);
}

py::tuple BatchCapsules(const RecordBatch& batch) {
  auto* schema = Allocate<ArrowSchema>();
  auto* array = Allocate<ArrowArray>();
  Status status = ExportRecordBatch(batch, array, schema);
  if (!status.ok()) {
    std::free(schema);
    std::free(array);
    throw StatusError(status);
  }
  py::capsule schema_capsule = Wrap(schema, kSchemaName, ReleaseSchemaCapsule);
  py::capsule array_capsule = Wrap(array, kArrayName, ReleaseArrayCapsule);
  return py::make_tuple(schema_capsule, array_capsule);
}

py::capsule StreamCapsule(std::shared_ptr<BatchReader> reader) {
  auto* out = Allocate<ArrowArrayStream>();
  Status status = ExportBatchStream(std::move(reader), out);
  if (!status.ok()) {
    std::free(out);
    throw StatusError(status);
  }
  return Wrap(out, kStreamName, ReleaseStreamCapsule);
}

ArrowArrayStream TakeStream(py::handle producer) {
  if (!py::hasattr(producer, "__arrow_c_stream__")) {
    throw StatusError(Status::InvalidArgument(
        "expected a pandas DataFrame or an object with __arrow_c_stream__, got " +
        py::str(py::type::of(producer)).cast<std::string>()));
  }
  py::object capsule = producer.attr("__arrow_c_stream__")();
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), kStreamName));
  if (stream == nullptr) throw py::error_already_set();
  if (stream->release == nullptr) {
    throw StatusError(Status::InvalidArgument("the Arrow stream was already consumed"));
  }
  ArrowArrayStream taken = *stream;  // moved: the capsule keeps a released shell
  stream->release = nullptr;
  return taken;
}

}  // namespace pqsift::python
