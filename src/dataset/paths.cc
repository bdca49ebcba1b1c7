// Path expansion: files, folders (recursively) and glob patterns to a list of files.
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <span>
#include <system_error>

#include "pqsift/dataset.h"

namespace pqsift {
namespace {

namespace fs = std::filesystem;

bool HasWildcard(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// Hive, Spark and Arrow leave out names starting with '.' or '_' (_SUCCESS, .crc files, the
// manifest): they are not data.
bool IsHidden(std::string_view name) { return !name.empty() && (name[0] == '.' || name[0] == '_'); }

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > pos) parts.push_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return parts;
}

bool MatchParts(std::span<const std::string_view> pattern, std::span<const std::string_view> path) {
  if (pattern.empty()) return path.empty();
  if (pattern.front() == "**") {
    for (size_t skip = 0; skip <= path.size(); ++skip) {
      if (MatchParts(pattern.subspan(1), path.subspan(skip))) return true;
    }
    return false;
  }
  if (path.empty()) return false;
  std::string p(pattern.front());
  std::string name(path.front());
  if (fnmatch(p.c_str(), name.c_str(), 0) != 0) return false;
  return MatchParts(pattern.subspan(1), path.subspan(1));
}

Result<DatasetFile> Stat(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::IOError(path + ": no such file or folder");
  DatasetFile f;
  f.path = path;
  f.size = static_cast<uint64_t>(st.st_size);
  f.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return f;
}

// Every non-hidden regular file below `folder`, sorted by path.
Result<std::vector<std::string>> WalkFolder(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::follow_directory_symlink, ec);
  if (ec) return Status::IOError(folder + ": " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IOError(folder + ": " + ec.message());
    std::string name = it->path().filename().string();
    if (IsHidden(name)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  if (ec) return Status::IOError(folder + ": " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

// The folder part of `pattern` before its first segment with a wildcard ("." when none).
std::string LiteralPrefix(std::string_view pattern) {
  std::string prefix = pattern.starts_with('/') ? "/" : "";
  for (std::string_view part : SplitPath(pattern)) {
    if (HasWildcard(part)) break;
    prefix += std::string(part) + "/";
  }
  if (prefix.empty()) return ".";
  if (prefix.size() > 1) prefix.pop_back();
  return prefix;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  std::vector<std::string_view> p = SplitPath(pattern);
  std::vector<std::string_view> s = SplitPath(path);
  return MatchParts(p, s);
}

Result<std::vector<DatasetFile>> ExpandPaths(const std::vector<std::string>& inputs) {
  std::vector<DatasetFile> out;
  for (const std::string& input : inputs) {
    std::vector<std::string> paths;
    if (HasWildcard(input)) {
      std::string root = LiteralPrefix(input);
      // A relative pattern matches relative paths: walk "." and drop its "./".
      PQSIFT_ASSIGN_OR_RETURN(std::vector<std::string> all, WalkFolder(root));
      for (std::string& p : all) {
        std::string_view shown = p;
        if (root == "." && shown.starts_with("./")) shown.remove_prefix(2);
        if (GlobMatch(input, shown)) paths.emplace_back(shown);
      }
      if (paths.empty()) return Status::IOError(input + ": no file matches the pattern");
    } else {
      std::error_code ec;
      if (fs::is_directory(input, ec)) {
        PQSIFT_ASSIGN_OR_RETURN(paths, WalkFolder(input));
        if (paths.empty()) return Status::IOError(input + ": the folder holds no file");
      } else {
        paths.push_back(input);
      }
    }
    for (const std::string& p : paths) {
      PQSIFT_ASSIGN_OR_RETURN(DatasetFile f, Stat(p));
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace pqsift
