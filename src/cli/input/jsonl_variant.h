// A JSON Lines column written as VARIANT (`pqsift convert --variant col`): each row's JSON value
// encoded as a Variant (VariantEncoding.md: a metadata dictionary of the row's object keys,
// sorted; integers in the smallest integer type that holds them, other numbers as doubles,
// strings, booleans, null, arrays, objects), optionally shredded (VariantShredding.md) into
// typed columns for chosen top-level fields of objects.
//
// The Arrow form is the arrow.parquet.variant extension over its Parquet storage, which the
// writer stores as a group annotated VARIANT as it is:
//   struct<metadata: binary not null, value: binary,
//          typed_value: struct<f: struct<value: binary, typed_value: T> not null, ...>>
// Per row: JSON null or a missing key -> a NULL variant; an object -> typed_value set, each
// shredded field in its typed_value when its JSON value is of the field's type (int64: an
// integer in range; double: a non-integer number; string; boolean), else in its value (JSON
// null there is Variant null), both NULL when the key is missing; the object's other fields as
// an object in `value` (NULL when there are none); anything else -> `value`, typed_value NULL.
// With no shredded fields the storage is the unshredded struct<metadata, value>.
//
// Thread safety: one thread per object.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift::cli {

enum class ShredType { kInt64, kDouble, kString, kBoolean };

struct ShredField {
  std::string name;
  ShredType type = ShredType::kString;
};

// --shred 'col:a:int64,b:string' (types int64, double, string, boolean; `col:` alone: not
// shredded); several columns separated by ';'. InvalidArgument naming the problem.
Result<std::vector<std::pair<std::string, std::vector<ShredField>>>> ParseShredList(
    const std::string& text);

// The shredded fields the sample's values suggest: each top-level key of the objects whose
// non-null values are all integers (int64), all non-integer numbers (double), all strings or
// all booleans, in first-seen order.
std::vector<ShredField> InferShredding(const std::vector<const nlohmann::ordered_json*>& sample);

// The Arrow type of a variant column shredded as `fields` (see above).
std::shared_ptr<const DataType> ShreddedVariantType(const std::vector<ShredField>& fields);

class JsonVariantColumn {
 public:
  explicit JsonVariantColumn(std::vector<ShredField> fields);
  ~JsonVariantColumn();
  // `v` null: a missing key. InvalidArgument when the value nests deeper than 64 levels.
  Status Append(const nlohmann::ordered_json* v);
  // The rows so far (the builder starts again, empty).
  std::shared_ptr<Array> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pqsift::cli
