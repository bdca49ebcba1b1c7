// Test helpers for files: where the test data lives, reading a file whole, and wrapping footer
// bytes into a whole Parquet file in memory ("PAR1" ... footer, u32 length, "PAR1").
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/io.h"
#include "testing/build_paths.h"

namespace pqsift::testing {

// The repository root: from this header's own path, else from the build's shared data folder
// (<root>/../shared/data/parquet-testing).
inline std::filesystem::path RepoRoot() {
  std::filesystem::path from_file = std::filesystem::path(__FILE__).parent_path().parent_path();
  from_file = from_file.parent_path();
  if (std::filesystem::exists(from_file / "tests" / "data" / "tiny.parquet")) return from_file;
  std::string_view data = BuildSharedDataDir();
  constexpr std::string_view kSuffix = "/../shared/data/parquet-testing";
  if (data.ends_with(kSuffix)) {
    std::filesystem::path candidate(data.substr(0, data.size() - kSuffix.size()));
    if (std::filesystem::exists(candidate / "tests" / "data" / "tiny.parquet")) return candidate;
  }
  return from_file;
}

// tests/data/<name> or examples/<name> under the repository root.
inline std::string TestDataPath(std::string_view name) {
  return (RepoRoot() / "tests" / "data" / name).string();
}
inline std::string ExamplePath(std::string_view name) {
  return (RepoRoot() / "examples" / name).string();
}

// The parquet-testing checkout (apache/parquet-testing: the folder holding data/ and
// bad_data/), or empty when absent. Looked up when the tests run, in this order:
//   1. $PARQUET_TEST_DATA, the convention of Arrow C++ and arrow-rs: the checkout's data folder
//      (its root is accepted too);
//   2. ../shared/data/parquet-testing beside the repository (BuildSharedDataDir), unless
//      PQSIFT_NO_SHARED_DATA=1 (to see what a clone without the files runs).
// Tests that need the files skip with kParquetTestingMissing, which scripts/test counts.
inline std::string ParquetTestingDir() {
  namespace fs = std::filesystem;
  auto checkout = [](const fs::path& dir) -> std::string {
    std::error_code ec;
    if (fs::is_directory(dir / "data", ec)) return dir.lexically_normal().string();
    // The data folder itself: its parent is the checkout (bad_data/ lives beside it).
    if (dir.filename() == "data" && fs::is_directory(dir, ec)) {
      return dir.parent_path().lexically_normal().string();
    }
    return {};
  };
  if (const char* env = std::getenv("PARQUET_TEST_DATA"); env != nullptr && *env != '\0') {
    fs::path dir(env);
    // "data/" and "data" alike: a trailing separator leaves an empty file name.
    if (dir.filename().empty()) dir = dir.parent_path();
    if (std::string found = checkout(dir); !found.empty()) return found;
  }
  const char* no_shared = std::getenv("PQSIFT_NO_SHARED_DATA");
  if (no_shared != nullptr && std::string_view(no_shared) == "1") return {};
  if (std::string found = checkout(BuildSharedDataDir()); !found.empty()) return found;
  return {};
}

// The message of every test skipped for want of the parquet-testing files. scripts/test counts
// the skips whose message holds it, so keep it one line and unchanged.
inline constexpr const char* kParquetTestingMissing =
    "parquet-testing data not found (set PARQUET_TEST_DATA to a checkout's data folder)";

// The *.parquet files in `sub` ("data" or "bad_data") of parquet-testing, sorted; empty when
// the folder is absent.
inline std::vector<std::string> ParquetTestingFiles(std::string_view sub) {
  std::vector<std::string> out;
  std::string dir = ParquetTestingDir();
  if (dir.empty()) return out;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(dir) / sub, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet") {
      out.push_back(entry.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A gtest-safe name for a file ("alltypes_tiny_pages.parquet" -> "alltypes_tiny_pages_parquet").
inline std::string SafeTestName(std::string_view path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

inline std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::span<const uint8_t> AsBytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}
inline std::string_view AsChars(std::span<const uint8_t> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

inline void AppendLE32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// "PAR1" + `body` + footer + u32 footer length + `magic`: a whole file around a footer.
inline std::string WrapFooter(std::string_view footer, std::string_view body = {},
                              std::string_view magic = "PAR1") {
  std::string out = "PAR1";
  out.append(body);
  out.append(footer);
  AppendLE32(out, static_cast<uint32_t>(footer.size()));
  out.append(magic);
  return out;
}

inline std::unique_ptr<RandomAccessFile> MemoryFile(std::string name, std::string_view bytes) {
  return MakeMemoryFile(std::move(name), AsBytes(bytes));
}

// The footer (FileMetaData bytes) of a whole Parquet file, or empty when it has none.
inline std::vector<uint8_t> FooterOf(const std::vector<uint8_t>& file) {
  if (file.size() < 12) return {};
  size_t n = file.size();
  uint32_t len = static_cast<uint32_t>(file[n - 8]) | static_cast<uint32_t>(file[n - 7]) << 8 |
                 static_cast<uint32_t>(file[n - 6]) << 16 |
                 static_cast<uint32_t>(file[n - 5]) << 24;
  if (len > n - 12) return {};
  return {file.end() - 8 - len, file.end() - 8};
}

// A temporary file holding `bytes`, removed with the object (one name per process and object).
class TempFile {
 public:
  explicit TempFile(std::string_view bytes, std::string_view suffix = ".parquet") {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("pqsift_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
              std::string(suffix)))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace pqsift::testing
