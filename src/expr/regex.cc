#include "expr/regex.h"

#include <re2/re2.h>

#include <utility>

namespace pqsift::expr {

Regex::Regex(std::string pattern, std::string options, bool full)
    : pattern_(std::move(pattern)), options_(std::move(options)), full_(full) {}

Regex::~Regex() = default;

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern,
                                                    std::string_view options, bool full) {
  RE2::Options re2_options;
  re2_options.set_log_errors(false);  // the error goes to the caller, not to stderr
  for (char c : options) {
    switch (c) {
      case 'c': re2_options.set_case_sensitive(true); break;
      case 'i': re2_options.set_case_sensitive(false); break;
      case 'l': re2_options.set_literal(true); break;
      case 's': re2_options.set_dot_nl(true); break;
      case 'm':
      case 'n':
      case 'p': re2_options.set_never_nl(true); break;
      case 'g':
        return Status::InvalidArgument(
            "regular expression option 'g' (global replace) is only valid for regexp_replace");
      default:
        return Status::InvalidArgument("unrecognized regular expression option '" +
                                       std::string(1, c) + "'");
    }
  }
  std::shared_ptr<Regex> regex(new Regex(std::string(pattern), std::string(options), full));
  regex->re_ = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), re2_options);
  if (!regex->re_->ok()) {
    return Status::InvalidArgument("invalid regular expression '" + std::string(pattern) +
                                   "': " + regex->re_->error());
  }
  return std::shared_ptr<const Regex>(std::move(regex));
}

bool Regex::Matches(std::string_view value) const {
  return re_->Match(re2::StringPiece(value.data(), value.size()), 0, value.size(),
                    full_ ? RE2::ANCHOR_BOTH : RE2::UNANCHORED, nullptr, 0);
}

}  // namespace pqsift::expr
