// Well-Known Text to ISO WKB (little-endian), the inverse of AppendWkt (wkb.h): what
// `pqsift convert --geometry col` stores for a text column.
//
// Accepted: the seven types, case-insensitive, with an optional Z, M or ZM tag (without a tag the
// first coordinate's count decides: 3 is Z, 4 is ZM), EMPTY anywhere a geometry or part may be,
// MULTIPOINT parts with or without parentheses, an EWKT "SRID=n;" prefix (ignored). Numbers as
// strtod reads them (nan, inf included). Errors are InvalidArgument naming the character offset;
// nesting is limited to kMaxDepth (wkb.h). Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "pqsift/status.h"

namespace pqsift::geo {

// Appends the WKB of `wkt` to `out` (on error `out` may hold a partial value).
Status AppendWkbFromWkt(std::string_view wkt, std::string& out);

}  // namespace pqsift::geo
