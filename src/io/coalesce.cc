#include "io/coalesce.h"

#include <algorithm>

namespace pqsift::io {

std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, uint64_t max_gap) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.length == 0; });
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (!out.empty() && r.offset <= out.back().end() + max_gap) {
      uint64_t end = std::max(out.back().end(), r.end());
      out.back().length = end - out.back().offset;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace pqsift::io
