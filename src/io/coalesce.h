// Byte-range coalescing: fewer, larger reads when the ranges a reader needs lie close together.
#pragma once

#include <cstdint>
#include <vector>

#include "pqsift/io.h"

namespace pqsift::io {

// The ranges sorted and merged where they overlap or the gap between two is at most `max_gap`
// bytes (a gap that small costs less to read than a second request). Empty ranges are dropped.
std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, uint64_t max_gap);

}  // namespace pqsift::io
