// Paths fixed by the build (tests/CMakeLists.txt defines them for build_paths.cc alone).
#pragma once

namespace pqsift::testing {

// The pqsift CLI binary of this build.
const char* BuildCliPath();
// <repository>/../shared/data/parquet-testing: where the shared test data sits beside a clone.
const char* BuildSharedDataDir();

}  // namespace pqsift::testing
