// Dictionary arrays (TypeId::kDictionary, pqsift/array.h): making them, reading them back as
// plain values, and gathering elements of several of them, whose dictionaries may differ, into
// one.
//
// Thread safety: pure functions over immutable arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift {

// `length` elements, each element `index` of `dictionary` (no nulls): a column holding one value
// throughout (a file's name under every row of a batch), at 4 bytes a row.
// REQUIRES: 0 <= index < dictionary->length, or length == 0.
std::shared_ptr<Array> RepeatDictionaryIndex(std::shared_ptr<Array> dictionary, int32_t index,
                                             int64_t length);

// The values a dictionary array's elements select, as one plain array of its value type (NULL
// where the element or its dictionary value is NULL): for consumers that store values, not
// indices. NotSupported for a nested value type. REQUIRES: ValidateArray accepted `array`.
Result<std::shared_ptr<Array>> DecodeDictionary(const Array& array);

// One dictionary for the elements of several dictionary arrays of one type: their distinct
// dictionaries (the same Array object counts once) one after another, and for each array the
// position of its own dictionary in it (add it to the array's indices).
struct UnifiedDictionary {
  std::shared_ptr<Array> dictionary;
  std::vector<int32_t> bases;  // per array
};
// REQUIRES: at least one array; all of one dictionary type with valid layouts; the distinct
// dictionaries hold fewer than 2^31 elements together.
UnifiedDictionary UnifyDictionaries(std::span<const Array* const> arrays);

}  // namespace pqsift
