// Every (physical type, encoding) pair the encoding layer supports, as test parameters, and
// the one switch from a runtime physical type to the tag type the templates take.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "encoding/types.h"
#include "pqsift/metadata.h"

namespace pqsift::encoding::testing {

struct Case {
  PhysicalType type;
  Encoding encoding;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY
};

inline std::vector<Case> AllCases() {
  using P = PhysicalType;
  using E = Encoding;
  std::vector<Case> cases = {
      {P::kBoolean, E::kPlain},
      {P::kBoolean, E::kRle},
      {P::kBoolean, E::kRleDictionary},
      {P::kInt32, E::kPlain},
      {P::kInt32, E::kDeltaBinaryPacked},
      {P::kInt32, E::kByteStreamSplit},
      {P::kInt32, E::kRleDictionary},
      {P::kInt64, E::kPlain},
      {P::kInt64, E::kDeltaBinaryPacked},
      {P::kInt64, E::kByteStreamSplit},
      {P::kInt64, E::kRleDictionary},
      {P::kInt96, E::kPlain},
      {P::kInt96, E::kRleDictionary},
      {P::kFloat, E::kPlain},
      {P::kFloat, E::kByteStreamSplit},
      {P::kFloat, E::kRleDictionary},
      {P::kDouble, E::kPlain},
      {P::kDouble, E::kByteStreamSplit},
      {P::kDouble, E::kRleDictionary},
      {P::kByteArray, E::kPlain},
      {P::kByteArray, E::kDeltaLengthByteArray},
      {P::kByteArray, E::kDeltaByteArray},
      {P::kByteArray, E::kRleDictionary},
  };
  for (int32_t len : {1, 3, 16}) {
    for (E e : {E::kPlain, E::kDeltaByteArray, E::kByteStreamSplit, E::kRleDictionary}) {
      cases.push_back({P::kFixedLenByteArray, e, len});
    }
  }
  return cases;
}

inline std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = PhysicalTypeName(info.param.type) + "_" + EncodingName(info.param.encoding);
  if (info.param.type == PhysicalType::kFixedLenByteArray) {
    name += "_" + std::to_string(info.param.type_length);
  }
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// Calls f(Tag{}) with the tag type of `type`.
template <typename F>
void DispatchType(PhysicalType type, F&& f) {
  switch (type) {
    case PhysicalType::kBoolean: return f(BooleanType{});
    case PhysicalType::kInt32: return f(Int32Type{});
    case PhysicalType::kInt64: return f(Int64Type{});
    case PhysicalType::kInt96: return f(Int96Type{});
    case PhysicalType::kFloat: return f(FloatType{});
    case PhysicalType::kDouble: return f(DoubleType{});
    case PhysicalType::kByteArray: return f(ByteArrayType{});
    case PhysicalType::kFixedLenByteArray: return f(FixedLenByteArrayType{});
  }
}

}  // namespace pqsift::encoding::testing
