// Turns what leaf readers produced (levels + dense values) into Arrow arrays of the column's
// shape: nulls spread into a validity bitmap for flat columns; lists, structs and maps rebuilt
// from definition and repetition levels for nested ones (the Dremel encoding, per the spec's
// "Nested Encoding" and LogicalTypes.md for LIST and MAP, including the legacy layouts).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "column/leaf_reader.h"
#include "pqsift/array.h"
#include "pqsift/schema.h"

namespace pqsift::column {

// A flat column (max repetition level 0): `batch.num_records` slots, null where the
// definition level is below `max_def`. Values are shared, not copied, when nothing is null.
Result<std::shared_ptr<Array>> AssembleFlat(LeafBatch batch, int16_t max_def);

// `slot_defs.size()` slots (or `length` when `slot_defs` is empty: all valid), slot i valid when
// slot_defs[i] == max_def, taking the next value of `dense` (no validity) for each valid slot.
Result<std::shared_ptr<Array>> SpreadValues(std::shared_ptr<Array> dense,
                                            const std::vector<int16_t>& slot_defs, int64_t length,
                                            int16_t max_def);

}  // namespace pqsift::column
