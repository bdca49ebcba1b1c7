// The two paths the build knows and the tests need, compiled into this one file only: every
// other test object then compiles the same in any checkout, so a compiler cache shared by
// several worktrees serves them (the paths are absolute and differ between checkouts).
#include "testing/build_paths.h"

namespace pqsift::testing {

const char* BuildCliPath() { return PQSIFT_CLI_PATH; }
const char* BuildSharedDataDir() { return PQSIFT_TESTING_DATA_DIR; }

}  // namespace pqsift::testing
