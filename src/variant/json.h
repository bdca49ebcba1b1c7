// A Variant value as JSON text, the one text form every output uses (CSV and table cells,
// JSON Lines values). Shapes:
//   null, true/false; integers, floats and doubles as JSON numbers (shortest round-trip text;
//   NaN and infinities as the strings "NaN", "Infinity", "-Infinity", as the other outputs);
//   decimals as exact JSON numbers ("12.34", scale digits kept); dates, times and timestamps
//   as strings in the text forms of common/value_format.h ("2025-04-16",
//   "12:33:54.123456", "2025-04-16 16:34:56.78+00" for instants, no suffix for local ones);
//   strings as JSON strings; binary as base64 strings; UUIDs as 8-4-4-4-12 hex strings;
//   arrays as JSON arrays; objects as JSON objects with their fields in name order.
#pragma once

#include <string>

#include "variant/variant.h"

namespace pqsift::variant {

// REQUIRES: `v` comes from a successful Value::Parse (or an element of one).
void AppendJson(std::string& out, const Value& v);
std::string ToJson(const Value& v);

// `s` as a JSON string literal (quotes included): '"', '\\' and control characters escaped,
// invalid UTF-8 bytes replaced by U+FFFD, everything else (UTF-8 included) as is. The one JSON
// string escaper: the CLI's JSON output uses it too.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace pqsift::variant
