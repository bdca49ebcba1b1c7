// MakeValueEncoder: the encoders of value_encoder.h by encoding, mirroring MakeValueDecoder.
#include "encoding/value_encoder.h"

#include <string>

#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/plain.h"
#include "encoding/rle_boolean.h"

namespace pqsift::encoding {

template <typename DType>
Result<std::unique_ptr<ValueEncoder<DType>>> MakeValueEncoder(Encoding encoding,
                                                              int32_t type_length) {
  using Ptr = std::unique_ptr<ValueEncoder<DType>>;
  constexpr bool kFlba = std::is_same_v<DType, FixedLenByteArrayType>;
  if (kFlba && type_length < 1) {
    return Status::InvalidArgument("FIXED_LEN_BYTE_ARRAY type_length " +
                                   std::to_string(type_length) + " is not positive");
  }
  switch (encoding) {
    case Encoding::kPlain: return Ptr(new PlainEncoder<DType>(type_length));
    case Encoding::kRle:
      if constexpr (kIsBoolean<DType>) return Ptr(new RleBooleanEncoder());
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<DType, Int32Type> || std::is_same_v<DType, Int64Type>) {
        return Ptr(new DeltaBinaryPackedEncoder<DType>());
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if constexpr (std::is_same_v<DType, ByteArrayType>) {
        return Ptr(new DeltaLengthByteArrayEncoder());
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (kIsByteArrayLike<DType>) return Ptr(new DeltaByteArrayEncoder<DType>());
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (!kIsBoolean<DType> && !std::is_same_v<DType, Int96Type> &&
                    !std::is_same_v<DType, ByteArrayType>) {
        return Ptr(new ByteStreamSplitEncoder<DType>(type_length));
      }
      break;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return Status::InvalidArgument(EncodingName(encoding) +
                                     " pages are written by a DictionaryEncoder");
    default: break;
  }
  return Status::NotSupported("encoding " + EncodingName(encoding) + " is not supported for " +
                              PhysicalTypeName(DType::kPhysical) + " values");
}

#define PQSIFT_INSTANTIATE(DType) \
  template Result<std::unique_ptr<ValueEncoder<DType>>> MakeValueEncoder<DType>(Encoding, int32_t);
PQSIFT_FOR_EACH_DTYPE(PQSIFT_INSTANTIATE)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
