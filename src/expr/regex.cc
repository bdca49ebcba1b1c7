#include "expr/regex.h"

#include <re2/re2.h>

#include <array>
#include <utility>

namespace pqsift::expr {

Regex::Regex(std::string pattern, std::string options, bool full)
    : pattern_(std::move(pattern)), options_(std::move(options)), full_(full) {}

Regex::~Regex() = default;

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern,
                                                    std::string_view options, bool full,
                                                    bool replacing) {
  RE2::Options re2_options;
  bool global = false;
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
        if (replacing) {
          global = true;
          break;
        }
        return Status::InvalidArgument(
            "regular expression option 'g' (global replace) is only valid for regexp_replace");
      default:
        return Status::InvalidArgument("unrecognized regular expression option '" +
                                       std::string(1, c) + "'");
    }
  }
  std::shared_ptr<Regex> regex(new Regex(std::string(pattern), std::string(options), full));
  regex->global_ = global;
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

void Regex::AppendExtracted(std::string_view value, int group, std::string* out) const {
  if (group < 0 || group > re_->NumberOfCapturingGroups()) return;
  std::array<re2::StringPiece, kMaxGroup + 1> groups;  // on the stack: called per row
  if (group > kMaxGroup || !re_->Match(re2::StringPiece(value.data(), value.size()), 0,
                                       value.size(), RE2::UNANCHORED, groups.data(), group + 1)) {
    return;
  }
  const re2::StringPiece& g = groups[static_cast<size_t>(group)];
  if (g.data() != nullptr) out->append(g.data(), g.size());
}

Status Regex::CheckRewrite(std::string_view rewrite) const {
  std::string error;
  if (!re_->CheckRewriteString(re2::StringPiece(rewrite.data(), rewrite.size()), &error)) {
    return Status::InvalidArgument("regexp_replace: " + error);
  }
  return Status::OK();
}

void Regex::AppendReplaced(std::string_view value, std::string_view rewrite,
                           std::string* out) const {
  std::string text(value);
  const re2::StringPiece with(rewrite.data(), rewrite.size());
  if (global_) {
    RE2::GlobalReplace(&text, *re_, with);
  } else {
    RE2::Replace(&text, *re_, with);
  }
  *out += text;
}

}  // namespace pqsift::expr
