// Keeping some elements of an array: the kernel behind "decode a stretch of rows, then keep the
// rows the filter selected", which beats skipping row by row when the selected rows are many
// and scattered.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pqsift/array.h"

namespace pqsift {

// Elements [begin, end) of an array (relative to its offset).
struct ElementRange {
  int64_t begin = 0;
  int64_t end = 0;
};

// A new array holding, in order, the elements of `array` in `ranges`. REQUIRES: ranges sorted,
// disjoint, non-empty, inside [0, array.length); the array's layout is valid (as the scan builds
// it). Every type of array.h, nested ones included; the result has offset 0 and new buffers
// (but a dictionary array keeps its dictionary).
std::shared_ptr<Array> SelectRanges(const Array& array, std::span<const ElementRange> ranges);

// Some elements of one of several arrays of the same type.
struct RangesOf {
  const Array* array = nullptr;
  std::span<const ElementRange> ranges;  // as for SelectRanges
};

// One new array of the elements of every source in turn (the rows of several decoded windows
// gathered into one batch). REQUIRES: at least one source; all of one type. Dictionary arrays
// share their sources' dictionary when they all have the same one, else get their distinct
// dictionaries concatenated (UnifyDictionaries).
std::shared_ptr<Array> SelectRanges(std::span<const RangesOf> sources);

}  // namespace pqsift
