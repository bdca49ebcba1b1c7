// Paths into a variant, as variant_get takes them: "$", "$.a.b", "$.a[0]", "$['a b'][2].c"
// (JSONPath's member and index steps; a leading "$" is optional, so "a.b" is "$.a.b"). The
// groundwork of variant filters: Extract finds the value a path names, if there is one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/status.h"
#include "variant/variant.h"

namespace pqsift::variant {

struct PathStep {
  bool is_index = false;
  std::string name;    // a member step
  uint32_t index = 0;  // an index step
};

// InvalidArgument naming the offset of the first character that does not fit.
Result<std::vector<PathStep>> ParsePath(std::string_view path);

// `path` as ParsePath reads it back: "$", "$.a[0]", "$['a b']" (names that are not plain in
// brackets, quotes doubled).
std::string FormatPath(const std::vector<PathStep>& path);

// The value at `path` in `v`: nullopt when a step names a member of a non-object or a missing
// member, or an index of a non-array or past its end (SQL: the result is NULL).
std::optional<Value> Extract(const Value& v, const std::vector<PathStep>& path);

}  // namespace pqsift::variant
