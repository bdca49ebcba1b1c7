#include "expr/string_functions.h"

#include <utf8proc.h>

#include <algorithm>

namespace pqsift::expr {

int64_t CodePointCount(std::string_view s) {
  int64_t continuation = 0;
  for (char c : s) continuation += (static_cast<uint8_t>(c) & 0xC0) == 0x80 ? 1 : 0;
  return static_cast<int64_t>(s.size()) - continuation;
}

void AppendCaseMapped(std::string_view s, bool upper, std::string* out) {
  out->reserve(out->size() + s.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<utf8proc_ssize_t>(s.size());
  utf8proc_ssize_t i = 0;
  while (i < n) {
    const uint8_t b = bytes[i];
    if (b < 0x80) {
      const bool change = upper ? (b >= 'a' && b <= 'z') : (b >= 'A' && b <= 'Z');
      out->push_back(static_cast<char>(change ? b ^ 0x20 : b));
      ++i;
      continue;
    }
    utf8proc_int32_t code_point = 0;
    const utf8proc_ssize_t length = utf8proc_iterate(bytes + i, n - i, &code_point);
    if (length <= 0) {  // not UTF-8: the byte as it is
      out->push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    const utf8proc_int32_t mapped =
        upper ? utf8proc_toupper(code_point) : utf8proc_tolower(code_point);
    utf8proc_uint8_t encoded[4];
    const utf8proc_ssize_t written = utf8proc_encode_char(mapped, encoded);
    out->append(reinterpret_cast<const char*>(encoded), static_cast<size_t>(written));
    i += length;
  }
}

namespace {

// The code points [begin, end) of `s`, which has `size` of them (clamped to those), as a view.
std::string_view CodePointRange(std::string_view s, int64_t size, int64_t begin, int64_t end) {
  begin = std::clamp<int64_t>(begin, 0, size);
  end = std::clamp<int64_t>(end, 0, size);
  if (begin >= end) return {};
  if (size == static_cast<int64_t>(s.size())) {  // ASCII (or one byte per code point)
    return s.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
  }
  size_t first = s.size();
  size_t last = s.size();
  int64_t index = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<uint8_t>(s[i]) & 0xC0) == 0x80) continue;  // inside a code point
    ++index;
    if (index == begin) first = i;
    if (index == end) {
      last = i;
      break;
    }
  }
  return s.substr(first, last - first);
}

}  // namespace

std::string_view SubstringCall::Apply(std::string_view s) const {
  const int64_t size = CodePointCount(s);
  switch (kind) {
    case Kind::kLeft: return CodePointRange(s, size, 0, first >= 0 ? first : size + first);
    case Kind::kRight: return CodePointRange(s, size, first >= 0 ? size - first : -first, size);
    case Kind::kSubstring: break;
  }
  int64_t count = length.value_or(size + 1);
  if (count == 0) return {};
  int64_t start = 0;
  if (first > 0) {
    start = first - 1;
  } else if (first < 0) {
    start = size + first;
  } else {  // one before the first character: a character of the length falls before it
    if (--count <= 0) return {};
  }
  return count > 0 ? CodePointRange(s, size, start, start + count)
                   : CodePointRange(s, size, start + count, start);
}

}  // namespace pqsift::expr
