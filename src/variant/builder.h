// Encoding Variant values (VariantEncoding.md): primitives, and objects and arrays from
// already-encoded children. Used to rebuild the value of a shredded variant. Every function
// appends one complete value to `out`, with the smallest header sizes that fit.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "variant/variant.h"

namespace pqsift::variant {

// A metadata dictionary of `keys` (VariantEncoding.md: version 1, sorted_strings set when
// they are in byte order without duplicates; ids are their positions).
void EncodeMetadata(std::string& out, const std::vector<std::string_view>& keys);

void EncodeNull(std::string& out);
void EncodeBoolean(std::string& out, bool v);
// `type` is kInt8..kInt64; REQUIRES v fits in it.
void EncodeInteger(std::string& out, Type type, int64_t v);
void EncodeDouble(std::string& out, double v);
void EncodeFloat(std::string& out, float v);
// `type` is kDecimal4/8/16; REQUIRES the unscaled value fits in its width, scale 0..38.
void EncodeDecimal(std::string& out, Type type, const Decimal& v);
void EncodeDate(std::string& out, int32_t days);
// `type` is one of the timestamp types or kTimeNtzMicros.
void EncodeTicks(std::string& out, Type type, int64_t v);
void EncodeBinary(std::string& out, std::span<const uint8_t> v);
void EncodeString(std::string& out, std::string_view v);  // short string when under 64 bytes
void EncodeUuid(std::string& out, std::span<const uint8_t, 16> big_endian);

// One field of an object being built: its dictionary id, name, and encoded value.
struct FieldBytes {
  uint32_t id = 0;
  std::string_view name;
  std::span<const uint8_t> value;
};
// An object of `fields` (any order; sorted by name here). REQUIRES unique names.
void EncodeObject(std::string& out, std::vector<FieldBytes>& fields);
// An array of encoded elements, in order.
void EncodeArray(std::string& out, const std::vector<std::span<const uint8_t>>& elements);

}  // namespace pqsift::variant
