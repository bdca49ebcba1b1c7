// The filter language's string functions on one value: lower(), upper(), length(), substring,
// trim, strpos and replace, as DuckDB computes them (utf8proc, Debian's libutf8proc, for the case
// mappings, as DuckDB's own copy of it). Pure functions, any thread.
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

// One of DuckDB's substring functions with its integer arguments, read once and applied to
// many values, in code points:
//   kSubstring: substring(s, first[, length]): a 1-based offset (0 is one before the first
//     character; a negative one counts from the end), a length (negative: the characters before
//     the offset; none: to the end);
//   kLeft: left(s, first): the first `first` code points (negative: all but the last -first);
//   kRight: right(s, first): the last `first` (negative: all but the first -first).
// The window is clipped to the string. Arguments are at most 2^32 either way (the binder's
// range, DuckDB's): no overflow.
struct SubstringCall {
  enum class Kind : uint8_t { kSubstring, kLeft, kRight };
  Kind kind = Kind::kSubstring;
  int64_t first = 0;
  std::optional<int64_t> length;

  // The result on `s`: a view into it.
  std::string_view Apply(std::string_view s) const;
};

// trim(s, chars) (ltrim: `left` only, rtrim: `right` only): `s` without the leading and/or
// trailing code points that occur in `chars` (DuckDB's trim(s) is trim(s, ' '): spaces only).
// A view into `s`.
std::string_view Trimmed(std::string_view s, std::string_view chars, bool left, bool right);

// strpos(s, needle) (instr): the 1-based code point position of the first occurrence of the
// bytes `needle` in `s`, 0 when there is none; 1 for an empty needle.
int64_t CodePointPosition(std::string_view s, std::string_view needle);

// replace(s, from, to): appends `s` with every occurrence of `from`, left to right and not
// overlapping, replaced by `to`; `s` itself when `from` is empty.
void AppendReplaced(std::string_view s, std::string_view from, std::string_view to,
                    std::string* out);

}  // namespace pqsift::expr
