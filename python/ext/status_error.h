// pqsift's Status as Python exceptions: one class per status code, all under pqsift.Error
// (python/src/pqsift/_errors.py), carrying the Status's message, which is the message the CLI
// prints. C++ code of the module throws StatusError; the translator registered by
// RegisterStatusErrors raises the class the package registered for its code.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <string>
#include <utility>

#include "pqsift/status.h"

namespace pqsift::python {

class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)) {}
  const char* what() const noexcept override { return status_.message().c_str(); }
  const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw StatusError(status);
}

template <typename T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) throw StatusError(result.status());
  return std::move(result).value();
}

// Adds `_register_errors(dict)` to the module (the package hands it {code: class} at import)
// and the translator of StatusError.
void RegisterStatusErrors(pybind11::module_& m);

}  // namespace pqsift::python
