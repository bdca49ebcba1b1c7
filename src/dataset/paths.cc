// Path expansion: files, folders (recursively) and glob patterns to a list of files, listed
// through the dataset's Storage (local folders, S3 prefixes).
#include <fnmatch.h>

#include <algorithm>
#include <span>

#include "dataset/paths.h"
#include "pqsift/dataset.h"
#include "pqsift/storage.h"

namespace pqsift {
namespace {

bool HasWildcard(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// The part of `input` a pattern may be in: after a URL's scheme; for http(s), before its query
// or fragment, where '?' starts the query (a signed URL's "?X-Amz-Signature=...") and is no
// wildcard.
std::string_view PatternPart(std::string_view input) {
  std::string_view scheme = PathScheme(input);
  if (scheme.empty()) return input;
  std::string_view rest = input.substr(scheme.size() + 3);
  // Storage maps schemes as written (io/storage.cc): "http" and "https" only.
  if (scheme == "http" || scheme == "https") rest = rest.substr(0, rest.find_first_of("?#"));
  return rest;
}

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

DatasetFile FromInfo(FileInfo info) {
  DatasetFile f;
  f.path = std::move(info.path);
  f.size = info.size;
  f.mtime_ns = info.mtime_ns;
  f.version = std::move(info.version);
  f.known = info.known;
  return f;
}

// Whether a path below `folder` has a hidden segment (a hidden folder hides what it holds).
bool HiddenBelow(std::string_view folder, std::string_view path) {
  std::string_view rest = path.substr(std::min(folder.size(), path.size()));
  for (std::string_view part : SplitPath(rest)) {
    if (IsHidden(part)) return true;
  }
  return false;
}

// Every non-hidden file below `folder`, sorted by path; the hidden ones go to `*hidden`.
Result<std::vector<FileInfo>> WalkFolder(FileSystem& fs, const std::string& folder,
                                         std::vector<FileInfo>* hidden) {
  PQSIFT_ASSIGN_OR_RETURN(std::vector<FileInfo> all, fs.List(folder));
  std::vector<FileInfo> shown;
  for (FileInfo& f : all) {
    if (!HiddenBelow(folder, f.path)) {
      shown.push_back(std::move(f));
    } else if (hidden != nullptr) {
      hidden->push_back(std::move(f));
    }
  }
  return shown;
}

// The folder part of `pattern` before its first segment with a wildcard ("." when none). A URL
// keeps its scheme and ends with '/' ("s3://bucket/data/"), as remote stores name folders.
std::string LiteralPrefix(std::string_view pattern) {
  std::string_view scheme = PathScheme(pattern);
  if (!scheme.empty()) {
    std::string prefix(pattern.substr(0, scheme.size() + 3));
    for (std::string_view part : SplitPath(pattern.substr(scheme.size() + 3))) {
      if (HasWildcard(part)) break;
      prefix += std::string(part) + "/";
    }
    return prefix;
  }
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

Result<std::vector<DatasetFile>> ExpandPaths(const std::vector<std::string>& inputs,
                                             const std::shared_ptr<Storage>& given) {
  return dataset::ExpandPathsListing(inputs, given, nullptr);
}

namespace dataset {

Result<std::vector<DatasetFile>> ExpandPathsListing(const std::vector<std::string>& inputs,
                                                    const std::shared_ptr<Storage>& given,
                                                    std::vector<FileInfo>* hidden) {
  std::shared_ptr<Storage> storage = given ? given : Storage::Default();
  std::vector<DatasetFile> out;
  for (const std::string& input : inputs) {
    PQSIFT_ASSIGN_OR_RETURN(FileSystem * fs, storage->For(input));
    std::vector<FileInfo> found;
    if (HasWildcard(PatternPart(input))) {
      std::string root = LiteralPrefix(input);
      // A relative pattern matches relative paths: walk "." and drop its "./".
      PQSIFT_ASSIGN_OR_RETURN(std::vector<FileInfo> all, WalkFolder(*fs, root, hidden));
      for (FileInfo& f : all) {
        std::string_view shown = f.path;
        if (root == "." && shown.starts_with("./")) shown.remove_prefix(2);
        if (GlobMatch(input, shown)) {
          f.path = std::string(shown);
          found.push_back(std::move(f));
        }
      }
      if (found.empty()) return Status::IOError(RedactUrl(input) + ": no file matches the pattern");
    } else if (fs->IsFolder(input)) {
      PQSIFT_ASSIGN_OR_RETURN(found, WalkFolder(*fs, input, hidden));
      if (found.empty()) return Status::IOError(RedactUrl(input) + ": the folder holds no file");
    } else {
      PQSIFT_ASSIGN_OR_RETURN(FileInfo f, fs->Stat(input));
      found.push_back(std::move(f));
    }
    for (FileInfo& f : found) out.push_back(FromInfo(std::move(f)));
  }
  return out;
}

}  // namespace dataset
}  // namespace pqsift
