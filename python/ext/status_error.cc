#include "status_error.h"

namespace pqsift::python {

namespace py = pybind11;

namespace {

// {int(StatusCode): exception class}, set once by the package at import. A strong reference
// held for the life of the process (the module is never unloaded).
PyObject* error_classes = nullptr;

void RaiseStatus(const Status& status) {
  PyObject* cls = nullptr;
  if (error_classes != nullptr) {
    PyObject* key = PyLong_FromLong(static_cast<long>(status.code()));
    cls = PyDict_GetItem(error_classes, key);  // borrowed
    Py_XDECREF(key);
  }
  PyErr_SetString(cls != nullptr ? cls : PyExc_RuntimeError, status.message().c_str());
}

}  // namespace

void RegisterStatusErrors(py::module_& m) {
  m.def(
      "_register_errors",
      [](py::dict classes) {
        Py_XDECREF(error_classes);
        error_classes = classes.release().ptr();
      },
      "Internal: the exception class for each pqsift status code.");
  // pybind11's translator type takes the exception_ptr by value.
  py::register_exception_translator(
      [](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
        try {
          if (p) std::rethrow_exception(p);
        } catch (const StatusError& e) {
          RaiseStatus(e.status());
        }
      });
}

}  // namespace pqsift::python
