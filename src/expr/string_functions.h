// The filter language's string functions on one value: lower(), upper() and length(), as
// DuckDB computes them (utf8proc, Debian's libutf8proc, for the case mappings, as DuckDB's own
// copy of it). Pure functions, any thread.
//
// Bytes that are not valid UTF-8 (a Parquet string column need not be) are kept as they are by
// the case mappings and count as one code point each where they start a sequence; DuckDB
// refuses such strings when it reads them, so no comparison is lost.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pqsift::expr {

// The code points of `s` (DuckDB's length(): 'é' is 1, a flag emoji 2): its bytes that are not
// UTF-8 continuation bytes (0x80-0xBF).
int64_t CodePointCount(std::string_view s);

// Appends `s` with each code point mapped to its lower (or upper) case by utf8proc's simple
// case mappings, as DuckDB's lower() and upper(): 'ẞ' lowers to 'ß' and 'ß' uppers to 'ẞ';
// ASCII without a table lookup.
void AppendCaseMapped(std::string_view s, bool upper, std::string* out);

// DuckDB's substring(s, offset[, length]) in code points: a 1-based offset (0 is one before
// the first; a negative one counts from the end), a length (negative: the characters before the
// offset; nullopt: to the end), clamped to the string. A view into `s`.
std::string_view SubstringOf(std::string_view s, int64_t offset, std::optional<int64_t> length);
// left(s, n): the first n code points (n < 0: all but the last -n); right(s, n): the last n
// (n < 0: all but the first -n). Views into `s`.
std::string_view LeftOf(std::string_view s, int64_t n);
std::string_view RightOf(std::string_view s, int64_t n);

}  // namespace pqsift::expr
