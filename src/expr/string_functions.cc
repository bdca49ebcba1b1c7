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

namespace {

// The length of the code point starting at s[i] (its lead byte and the continuation bytes after
// it; a stray continuation byte is one on its own).
size_t CodePointBytes(std::string_view s, size_t i) {
  size_t k = i + 1;
  while (k < s.size() && (static_cast<uint8_t>(s[k]) & 0xC0) == 0x80) ++k;
  return k - i;
}

bool Contains(std::string_view set, std::string_view code_point) {
  for (size_t i = 0; i < set.size();) {
    const size_t n = CodePointBytes(set, i);
    if (set.substr(i, n) == code_point) return true;
    i += n;
  }
  return false;
}

}  // namespace

std::string_view Trimmed(std::string_view s, std::string_view chars, bool left, bool right) {
  if (left) {
    size_t i = 0;
    while (i < s.size()) {
      const size_t n = CodePointBytes(s, i);
      if (!Contains(chars, s.substr(i, n))) break;
      i += n;
    }
    s.remove_prefix(i);
  }
  if (right) {
    while (!s.empty()) {
      size_t start = s.size() - 1;  // the last code point's lead byte
      while (start > 0 && (static_cast<uint8_t>(s[start]) & 0xC0) == 0x80) --start;
      if (!Contains(chars, s.substr(start))) break;
      s.remove_suffix(s.size() - start);
    }
  }
  return s;
}

int64_t CodePointPosition(std::string_view s, std::string_view needle) {
  const size_t at = s.find(needle);
  if (at == std::string_view::npos) return 0;
  return CodePointCount(s.substr(0, at)) + 1;
}

void AppendReplaced(std::string_view s, std::string_view from, std::string_view to,
                    std::string* out) {
  if (from.empty()) {
    *out += s;
    return;
  }
  size_t at = 0;
  for (size_t hit = s.find(from); hit != std::string_view::npos; hit = s.find(from, at)) {
    *out += s.substr(at, hit - at);
    *out += to;
    at = hit + from.size();
  }
  *out += s.substr(at);
}

}  // namespace pqsift::expr
