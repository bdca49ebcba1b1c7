// Nested columns as Parquet leaves: the schema subtree a top-level Arrow field is stored as, and
// its values "shredded" into each leaf's repetition and definition levels (the Dremel encoding,
// parquet.thrift and LogicalTypes.md). The inverse of column/nested.h, so that what pqsift writes
// reads back as the same Arrow type (field names and nullability included):
//
//   struct<a, b>      -> group (optional when nullable) { a; b }
//   large_list<item>  -> group (LIST) { repeated group list { item } }   (3-level list)
//   map<key, value>   -> group (MAP) { repeated group key_value { required key; value } }
//   anything else     -> a leaf (leaf_spec.h)
//
// Levels of one leaf, walking from the top-level field down: every nullable node that is valid
// adds one definition level; a list or map adds one more when it has at least one element, and
// its elements after the first repeat at its repetition level (the number of lists and maps
// around and including it). A null or empty node ends the walk with the levels so far: one
// level entry and no value. A record (a top-level row) starts at every repetition level 0.
//
// Thread safety: plans are immutable; Shred writes only to its output.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"
#include "write/leaf_spec.h"

namespace pqsift::write {

// One node on the path from a top-level field to a leaf: the Arrow array at that depth.
struct PathStep {
  enum class Kind { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  bool nullable = false;         // an optional node: a valid slot adds a definition level
  int32_t child = 0;             // kStruct: the field the path goes on through
  int16_t repetition_level = 0;  // kList, kMap: the level its elements after the first repeat at
};

struct LeafPlan {
  std::vector<std::string> path_parts;  // the schema node names from the field to the leaf
  std::string path;                     // joined with '.', as readers name the column
  LeafSpec spec;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  std::vector<PathStep> steps;  // the field's node first, the leaf last

  // A top-level leaf: levels are its validity alone (the flat write path).
  bool is_flat() const { return steps.size() == 1; }
};

// How one top-level field is stored. Elements' names are views into `names`, which stays in
// place however the plan is moved (and a plan cannot be copied).
struct ColumnPlan {
  std::vector<LeafPlan> leaves;         // in schema order
  std::vector<SchemaElement> elements;  // the field's subtree, depth first
  std::unique_ptr<std::deque<std::string>> names = std::make_unique<std::deque<std::string>>();
};

// NotSupported naming the type for what cannot be stored (null type, a struct without fields,
// and the flat types leaf_spec.h rejects).
Result<ColumnPlan> PlanColumn(const Field& field);

// One leaf's share of some records of a top-level column.
struct ShreddedLeaf {
  const Array* values = nullptr;           // the leaf's Arrow array (inside the column)
  std::vector<int16_t> definition_levels;  // one per level entry; empty when the maximum is 0
  std::vector<int16_t> repetition_levels;  // one per level entry; empty when the maximum is 0
  // Slots of `values` (its offset included) of the entries whose definition level is the
  // maximum, in order: the values to store.
  std::vector<int64_t> slots;
  // Per record r: its first level entry and its first slot index; one more entry at the end.
  std::vector<int64_t> record_entries;
  std::vector<int64_t> record_values;

  int64_t num_records() const { return static_cast<int64_t>(record_entries.size()) - 1; }
  int64_t num_entries() const { return record_entries.back(); }
};

// The levels and value slots of rows [offset, offset + length) of `column` for `leaf` (the
// buffers are reused). REQUIRES: column has the plan's type and passes ValidateArrayLayout.
// InvalidArgument for a null under a non-nullable field or a list's offsets out of order or
// out of its child's range.
Status Shred(const LeafPlan& leaf, const Array& column, int64_t offset, int64_t length,
             ShreddedLeaf& out);

}  // namespace pqsift::write
