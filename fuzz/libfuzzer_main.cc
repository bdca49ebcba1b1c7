// The libFuzzer entry point of one target: compiled once per target with
// PQSIFT_FUZZ_FUNCTION set to its function (fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "fuzz_targets.h"

#ifndef PQSIFT_FUZZ_FUNCTION
#error "PQSIFT_FUZZ_FUNCTION names the target function (fuzz/CMakeLists.txt sets it)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pqsift::fuzz::PQSIFT_FUZZ_FUNCTION({data, size});
  return 0;
}
