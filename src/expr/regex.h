// DuckDB's regular expressions for the filter language: regexp_matches(s, pattern[, options])
// (the pattern found anywhere in s), regexp_full_match(s, pattern[, options]) and its operator
// forms `s ~ pattern`, `s SIMILAR TO pattern` (the whole of s), and the values
// regexp_extract(s, pattern[, group]) and regexp_replace(s, pattern, rewrite[, options]). Patterns
// are RE2's syntax and are matched by RE2 (Debian's libre2, the engine DuckDB embeds), over UTF-8,
// with DuckDB's defaults ('.' does not match a newline) and options, each letter in turn, the last
// one winning:
//   'c' case-sensitive (the default), 'i' case-insensitive, 'l' the pattern is literal text,
//   's' '.' matches a newline too, 'm' / 'n' / 'p' a match never spans a newline.
//
// Thread safety: a compiled Regex is immutable; Matches may be called from any number of threads.
// Errors: Compile gives InvalidArgument with DuckDB's wording for an unknown option, 'g' and a
// pattern RE2 rejects ("missing ): (").
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "pqsift/status.h"

namespace re2 {
class RE2;
}

namespace pqsift::expr {

class Regex {
 public:
  // `full`: the whole value must match (regexp_full_match), else any part (regexp_matches).
  // `replacing`: for regexp_replace, whose options may hold 'g' (every match, not the first).
  static Result<std::shared_ptr<const Regex>> Compile(std::string_view pattern,
                                                      std::string_view options, bool full,
                                                      bool replacing = false);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  bool Matches(std::string_view value) const;

  // The largest capture group regexp_extract takes (the binder's bound, as \0..\9 in rewrites).
  static constexpr int kMaxGroup = 9;

  // regexp_extract(value, pattern, group): appends capture group `group` (0: the whole match)
  // of the first match, nothing when there is none or no such group.
  void AppendExtracted(std::string_view value, int group, std::string* out) const;

  // InvalidArgument when `rewrite` names a group the pattern lacks (\3 of a pattern of two).
  Status CheckRewrite(std::string_view rewrite) const;
  // regexp_replace(value, pattern, rewrite): appends `value` with its first match (every match
  // with the 'g' option) replaced by `rewrite`, in which \0..\9 are the match's groups.
  // REQUIRES: CheckRewrite(rewrite) is OK.
  void AppendReplaced(std::string_view value, std::string_view rewrite, std::string* out) const;

  const std::string& pattern() const { return pattern_; }
  const std::string& options() const { return options_; }
  bool full() const { return full_; }

 private:
  Regex(std::string pattern, std::string options, bool full);

  std::string pattern_;
  std::string options_;  // as written ("" when none was given)
  bool full_;
  bool global_ = false;  // regexp_replace's 'g'
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace pqsift::expr
