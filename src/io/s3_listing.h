// The parts of S3's ListObjectsV2 response a listing needs, read from its XML without an XML
// library: each <Contents>' Key, Size, ETag and LastModified, IsTruncated and
// NextContinuationToken. Entities (&amp; &lt; &gt; &quot; &apos; &#N; &#xN;) are decoded.
//
// Hostile input: a malformed page (a Contents without Key or Size, a size that is no number,
// an unknown entity) is Corruption naming `where`; nothing is read past the body.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/status.h"

namespace pqsift::io {

struct S3Object {
  std::string key;
  uint64_t size = 0;
  std::string etag;      // as S3 quotes it: "\"abc...\""
  int64_t mtime_ns = 0;  // LastModified (0 when absent or unparsable)
};

struct S3ListPage {
  std::vector<S3Object> objects;
  bool truncated = false;
  std::string next_token;
};

Result<S3ListPage> ParseListObjectsV2(std::string_view xml, std::string_view where);

// Percent-encodes every byte but the unreserved ones (A-Z a-z 0-9 - _ . ~) and, when
// `keep_slash`, '/': the encoding SigV4's canonical requests use for paths and query values.
std::string UriEncode(std::string_view s, bool keep_slash);

// "2026-01-05T10:20:30.000Z" as nanoseconds since the epoch; 0 when it does not parse.
int64_t ParseIsoTime(std::string_view text);

}  // namespace pqsift::io
