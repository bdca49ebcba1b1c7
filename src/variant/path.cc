#include "variant/path.h"

namespace pqsift::variant {
namespace {

Status PathError(std::string_view path, size_t at, std::string_view what) {
  return Status::InvalidArgument("variant path '" + std::string(path) + "' at offset " +
                                 std::to_string(at) + ": " + std::string(what));
}

bool IsNameChar(char c) {
  return c != '.' && c != '[' && c != ']' && c != '\'' && c != '"' && c != ' ';
}

}  // namespace

Result<std::vector<PathStep>> ParsePath(std::string_view path) {
  std::vector<PathStep> steps;
  size_t i = 0;
  if (i < path.size() && path[i] == '$') ++i;
  bool first = true;
  while (i < path.size()) {
    PathStep step;
    if (path[i] == '.' || (first && i == 0 && IsNameChar(path[i]))) {
      if (path[i] == '.') ++i;
      const size_t start = i;
      while (i < path.size() && IsNameChar(path[i])) ++i;
      if (i == start) return PathError(path, i, "expected a member name");
      step.name = std::string(path.substr(start, i - start));
    } else if (path[i] == '[') {
      ++i;
      if (i < path.size() && (path[i] == '\'' || path[i] == '"')) {
        const char quote = path[i++];
        for (;;) {
          if (i >= path.size()) return PathError(path, i, "unterminated quoted name");
          if (path[i] == quote) {
            if (i + 1 < path.size() && path[i + 1] == quote) {  // a doubled quote is one
              step.name += quote;
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          step.name += path[i++];
        }
      } else {
        const size_t start = i;
        uint64_t v = 0;
        while (i < path.size() && path[i] >= '0' && path[i] <= '9') {
          v = v * 10 + static_cast<uint64_t>(path[i] - '0');
          if (v > UINT32_MAX) return PathError(path, start, "index too large");
          ++i;
        }
        if (i == start) return PathError(path, i, "expected an index or a quoted name");
        step.is_index = true;
        step.index = static_cast<uint32_t>(v);
      }
      if (i >= path.size() || path[i] != ']') return PathError(path, i, "expected ']'");
      ++i;
    } else {
      return PathError(path, i, "expected '.' or '['");
    }
    first = false;
    steps.push_back(std::move(step));
  }
  return steps;
}

std::string FormatPath(const std::vector<PathStep>& path) {
  std::string out = "$";
  for (const PathStep& step : path) {
    if (step.is_index) {
      out += "[" + std::to_string(step.index) + "]";
      continue;
    }
    bool plain = !step.name.empty();
    for (char c : step.name) plain = plain && IsNameChar(c);
    if (plain) {
      out += "." + step.name;
      continue;
    }
    out += "['";
    for (char c : step.name) {
      if (c == '\'') out += '\'';
      out += c;
    }
    out += "']";
  }
  return out;
}

std::optional<Value> Extract(const Value& v, const std::vector<PathStep>& path) {
  Value at = v;
  for (const PathStep& step : path) {
    if (step.is_index) {
      if (at.type() != Type::kArray || step.index >= at.num_elements()) return std::nullopt;
      at = at.element(step.index);
    } else {
      if (at.type() != Type::kObject) return std::nullopt;
      std::optional<Value> next = at.Get(step.name);
      if (!next) return std::nullopt;
      at = *next;
    }
  }
  return at;
}

}  // namespace pqsift::variant
