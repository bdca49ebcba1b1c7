// Reading a VARIANT column (VariantEncoding.md "Variant in Parquet", VariantShredding.md):
// the group annotated VARIANT holds a `metadata` binary, an optional `value` binary and an
// optional `typed_value` (a shredded primitive, an object of shredded fields, or a LIST of
// shredded elements, nested to any depth). Reading happens in two steps:
//
//   PlanShredding   the schema subtree -> a ShreddingPlan: which child is which, and for each
//                   typed_value the Variant type it holds. The spec's table of shredded types
//                   is checked here: an unsigned integer, a FIXED_LEN_BYTE_ARRAY that is not a
//                   UUID or decimal, a bad list/field layout are NotSupported / Corruption
//                   naming the column path, before any data is read.
//   Unshred         the Arrow struct the column layer assembled from that subtree (children in
//                   schema order) -> the unshredded variant: struct<metadata, value> of binaries
//                   with the canonical extension type arrow.parquet.variant. Each row is
//                   rebuilt by the spec's construct_variant: typed_value wins when present,
//                   `value` is the fallback, partially shredded objects are merged, a missing
//                   top-level value is Variant null, a missing array element is Variant null
//                   (as Iceberg reads it), a missing object field is left out. Errors
//                   (Corruption, naming the column, row and field path): both value and a
//                   non-object typed_value set; a shredded object whose value is not an
//                   object; a shredded field name also present in the value object; a field
//                   name missing from the metadata; any metadata or value bytes that do not
//                   decode (variant.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/schema.h"
#include "variant/variant.h"

namespace pqsift::variant {

inline constexpr std::string_view kVariantExtensionName = "arrow.parquet.variant";

// struct<metadata: large_binary not null, value: large_binary not null> named
// arrow.parquet.variant (the unshredded form: a null variant is a null struct slot).
std::shared_ptr<const DataType> VariantArrowType();
// Whether `type` is the variant extension type (any storage).
bool IsVariantType(const DataType& type);

// One (value, typed_value) pair of the shredding tree.
struct ShredNode {
  enum class Kind { kNone, kPrimitive, kObject, kArray };
  Kind kind = Kind::kNone;          // what typed_value holds; kNone: no typed_value
  int32_t value = -1;               // index of `value` among the group's children; -1: absent
  int32_t typed = -1;               // index of `typed_value`; -1: absent
  Type primitive = Type::kNull;     // kPrimitive: the Variant type of typed_value
  std::vector<std::string> names;   // kObject: the shredded field names, in schema order
  std::vector<ShredNode> children;  // kObject: one per field; kArray: the element
};

struct ShreddingPlan {
  std::string column;     // the group's path, for messages
  int32_t metadata = -1;  // index of `metadata` among the group's children
  ShredNode root;
};

// REQUIRES: `group` is a group node annotated VARIANT.
Result<ShreddingPlan> PlanShredding(const Schema& schema, int32_t group);

// `group` is the struct array read from the plan's schema subtree; the result has its length
// and validity. `first_row` numbers the rows in error messages.
Result<std::shared_ptr<Array>> Unshred(const ShreddingPlan& plan, const Array& group,
                                       int64_t first_row = 0);

}  // namespace pqsift::variant
