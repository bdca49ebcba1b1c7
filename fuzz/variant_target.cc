// Target "variant": the Variant binary encoding (src/variant/variant.h). Input layout: a
// 2-byte little-endian metadata length m, then m bytes of metadata (fewer if the input ends),
// then the value's bytes. Parse errors are Corruption; a value that parses must render as JSON,
// equal itself, find each of its object fields by name, and survive a rebuild through the
// encoder (variant/builder.h) as an Equal value; anything else traps.
#include <string>
#include <vector>

#include "fuzz_targets.h"
#include "variant/builder.h"
#include "variant/json.h"
#include "variant/variant.h"

namespace pqsift::fuzz {
namespace {

using variant::Type;
using variant::Value;

// Re-encodes `v` from its accessors (as the shredded reader builds values).
void Rebuild(const Value& v, std::string& out) {
  switch (v.type()) {
    case Type::kNull: variant::EncodeNull(out); return;
    case Type::kBoolean: variant::EncodeBoolean(out, v.boolean()); return;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: variant::EncodeInteger(out, v.type(), v.integer()); return;
    case Type::kDouble: variant::EncodeDouble(out, v.float64()); return;
    case Type::kFloat: variant::EncodeFloat(out, v.float32()); return;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16: variant::EncodeDecimal(out, v.type(), v.decimal()); return;
    case Type::kDate: variant::EncodeDate(out, v.date()); return;
    case Type::kBinary: variant::EncodeBinary(out, v.binary()); return;
    case Type::kString: variant::EncodeString(out, v.string()); return;
    case Type::kUuid:
      variant::EncodeUuid(out, std::span<const uint8_t, 16>(v.binary().data(), 16));
      return;
    case Type::kArray: {
      std::vector<std::string> parts(v.num_elements());
      std::vector<std::span<const uint8_t>> spans;
      for (uint32_t i = 0; i < v.num_elements(); ++i) Rebuild(v.element(i), parts[i]);
      for (const auto& p : parts) {
        spans.emplace_back(reinterpret_cast<const uint8_t*>(p.data()), p.size());
      }
      variant::EncodeArray(out, spans);
      return;
    }
    case Type::kObject: {
      std::vector<std::string> parts(v.num_elements());
      std::vector<variant::FieldBytes> fields;
      for (uint32_t i = 0; i < v.num_elements(); ++i) Rebuild(v.field_value(i), parts[i]);
      for (uint32_t i = 0; i < v.num_elements(); ++i) {
        fields.push_back({v.field_id(i),
                          v.field_name(i),
                          {reinterpret_cast<const uint8_t*>(parts[i].data()), parts[i].size()}});
      }
      variant::EncodeObject(out, fields);
      return;
    }
    default: variant::EncodeTicks(out, v.type(), v.ticks()); return;
  }
}

}  // namespace

void FuzzVariant(std::span<const uint8_t> input) {
  if (input.size() < 2) return;
  const size_t m = std::min<size_t>(input[0] | (input[1] << 8), input.size() - 2);
  auto md = variant::Metadata::Parse(input.subspan(2, m));
  if (!md.ok()) return;
  for (uint32_t i = 0; i < md->size(); ++i) {
    if (md->Find(md->key(i)) == std::nullopt) __builtin_trap();
  }
  auto v = Value::Parse(*md, input.subspan(2 + m));
  if (!v.ok()) return;
  const std::string json = variant::ToJson(*v);
  if (json.empty()) __builtin_trap();
  if (!variant::Equal(*v, *v)) __builtin_trap();
  if (v->type() == Type::kObject) {
    for (uint32_t i = 0; i < v->num_elements(); ++i) {
      if (!v->Get(v->field_name(i)).has_value()) __builtin_trap();
    }
  }
  std::string rebuilt;
  Rebuild(*v, rebuilt);
  auto again = Value::Parse(
      *md,
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(rebuilt.data()), rebuilt.size()));
  if (!again.ok() || !variant::Equal(*v, *again)) __builtin_trap();
}

}  // namespace pqsift::fuzz
