// SQL LIKE / ILIKE matching over UTF-8 bytes: '%' matches any run of characters, '_' exactly one
// code point; there is no escape character (as in DuckDB: '\' is itself). ILIKE lowers both sides
// as lower() does (string_functions.h: utf8proc's simple mappings, as DuckDB's ILIKE).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pqsift::expr {

// A compiled pattern. REQUIRES: the pattern does not end with a lone '\' (the binder rejects it).
// Not thread-safe (ILIKE folds each value into a scratch buffer).
class LikeMatcher {
 public:
  LikeMatcher(std::string_view pattern, bool case_insensitive);
  bool Matches(std::string_view value);

 private:
  enum class Shape : uint8_t { kExact, kPrefix, kSuffix, kContains, kGeneral };
  bool MatchGeneral(std::string_view s) const;

  bool case_insensitive_;
  Shape shape_ = Shape::kGeneral;
  std::string literal_;         // kExact..kContains: the literal text; kGeneral: one byte per token
  std::vector<uint8_t> kinds_;  // kGeneral: per token 0 = the byte in literal_, 1 = '_', 2 = '%'
  std::string scratch_;
};

}  // namespace pqsift::expr
