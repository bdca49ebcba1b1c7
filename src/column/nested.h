// Reading a projected schema node (a leaf or a whole group) as one Arrow column.
//
// The node is first mapped to an AssemblyNode tree that says, for every Arrow array in the
// result, when a level entry of a leaf starts one of its slots and when that slot is valid:
//
//   entry i starts a slot   iff  rep[i] <= rep_level  and  def[i] >= def_exist
//   the slot is valid       iff  def[i] >= def_valid
//
// (rep_level: the number of lists around the slot; def_exist: the definition level at which
// the innermost list element around it exists; def_valid: the level at which the node itself
// is defined.) The mapping follows LogicalTypes.md, including its backward-compatibility rules
// for 2-level lists and unannotated repeated fields. Assembly then rebuilds validity bitmaps,
// list offsets and struct children from each leaf's levels; a struct or list takes its slots
// from its first leaf.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "column/leaf_reader.h"
#include "pqsift/array.h"
#include "pqsift/schema.h"
#include "variant/shredding.h"

namespace pqsift::column {

struct AssemblyNode {
  // kVariant: a group annotated VARIANT, assembled as its struct (the one child) and then
  // unshredded into the arrow.parquet.variant extension type (variant/shredding.h).
  enum class Kind { kLeaf, kStruct, kList, kMap, kVariant };
  Kind kind = Kind::kLeaf;
  std::shared_ptr<const DataType> type;
  int16_t rep_level = 0;
  int16_t def_exist = 0;
  int16_t def_valid = 0;
  int32_t leaf = -1;                   // kLeaf: the column index in the schema
  int32_t first_leaf = -1;             // the leaf whose levels give this node's slots
  std::vector<AssemblyNode> children;  // struct: fields; list: element; map: entries struct
  std::shared_ptr<const variant::ShreddingPlan> variant;  // kVariant
};

// The assembly tree and Arrow type for schema node `node`. InvalidArgument when the node lies
// inside a repeated field (it would give several values per row); NotSupported for shapes
// Arrow cannot hold. `*leaves` receives the column indices of the node's leaves, in order.
Result<AssemblyNode> PlanNode(const Schema& schema, int32_t node, std::vector<int32_t>* leaves);

// Builds the Arrow array of `plan` from the batches of its leaves (`batches[i]` is the batch of
// column index `leaves[i]`, all covering the same records). Corruption when the leaves disagree.
Result<std::shared_ptr<Array>> Assemble(const AssemblyNode& plan,
                                        const std::vector<int32_t>& leaves,
                                        std::vector<LeafBatch>& batches);

}  // namespace pqsift::column
