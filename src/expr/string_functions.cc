#include "expr/string_functions.h"

#include <utf8proc.h>

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

}  // namespace pqsift::expr
