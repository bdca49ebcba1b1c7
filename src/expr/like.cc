#include "expr/like.h"

#include "arrow/utf8.h"
#include "expr/string_functions.h"

namespace pqsift::expr {
namespace {

constexpr uint8_t kByte = 0;
constexpr uint8_t kOne = 1;
constexpr uint8_t kAny = 2;

// One code point's length at s[i]; an invalid byte counts as one character.
size_t CharLength(std::string_view s, size_t i) {
  if (static_cast<uint8_t>(s[i]) < 0x80) return 1;
  size_t n = utf8::SequenceLength(s, i);
  return n == 0 ? 1 : n;
}

}  // namespace

LikeMatcher::LikeMatcher(std::string_view pattern, bool case_insensitive)
    : case_insensitive_(case_insensitive) {
  std::string folded;
  if (case_insensitive) {
    AppendCaseMapped(pattern, /*upper=*/false, &folded);
    pattern = folded;
  }
  for (size_t k = 0; k < pattern.size(); ++k) {
    char c = pattern[k];
    if (c == '%') {
      if (!kinds_.empty() && kinds_.back() == kAny) continue;  // %% is %
      literal_.push_back(0);
      kinds_.push_back(kAny);
    } else if (c == '_') {
      literal_.push_back(0);
      kinds_.push_back(kOne);
    } else {
      literal_.push_back(c);
      kinds_.push_back(kByte);
    }
  }
  // Shapes with a fast test: no '_', and '%' only at the ends.
  size_t n = kinds_.size();
  bool inner_wildcard = false;
  for (size_t k = 0; k < n; ++k) {
    bool at_end = k == 0 || k + 1 == n;
    if (kinds_[k] == kOne || (kinds_[k] == kAny && !at_end)) inner_wildcard = true;
  }
  if (inner_wildcard) return;
  bool leading = n > 0 && kinds_[0] == kAny;
  size_t begin = leading ? 1 : 0;
  bool trailing = n > begin && kinds_[n - 1] == kAny;
  size_t end = trailing ? n - 1 : n;
  std::string text = literal_.substr(begin, end - begin);
  // A lone '%' is "contains the empty string".
  shape_ = leading && (trailing || n == 1) ? Shape::kContains
           : leading                       ? Shape::kSuffix
           : trailing                      ? Shape::kPrefix
                                           : Shape::kExact;
  literal_ = std::move(text);
  kinds_.clear();
}

bool LikeMatcher::Matches(std::string_view value) {
  if (case_insensitive_) {
    scratch_.clear();
    AppendCaseMapped(value, /*upper=*/false, &scratch_);
    value = scratch_;
  }
  switch (shape_) {
    case Shape::kExact: return value == literal_;
    case Shape::kPrefix: return value.starts_with(literal_);
    case Shape::kSuffix: return value.ends_with(literal_);
    case Shape::kContains: return value.find(literal_) != std::string_view::npos;
    case Shape::kGeneral: return MatchGeneral(value);
  }
  return false;
}

// Greedy matching with backtracking to the last '%': O(|s| * |pattern|) at worst.
bool LikeMatcher::MatchGeneral(std::string_view s) const {
  size_t si = 0;
  size_t pi = 0;
  size_t star = std::string::npos;  // token after the last '%' seen
  size_t star_s = 0;                // where that '%' currently stops in s
  size_t n = kinds_.size();
  while (si < s.size()) {
    if (pi < n && kinds_[pi] == kByte && s[si] == literal_[pi]) {
      ++si;
      ++pi;
    } else if (pi < n && kinds_[pi] == kOne) {
      si += CharLength(s, si);
      ++pi;
    } else if (pi < n && kinds_[pi] == kAny) {
      star = ++pi;
      star_s = si;
    } else if (star != std::string::npos) {
      star_s += CharLength(s, star_s);
      si = star_s;
      pi = star;
    } else {
      return false;
    }
  }
  while (pi < n && kinds_[pi] == kAny) ++pi;
  return pi == n;
}

}  // namespace pqsift::expr
