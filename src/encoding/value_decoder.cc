// MakeValueDecoder, the one place where a page's encoding becomes a decoder class, and the
// shared error helpers of decoder_util.h.
#include "encoding/value_decoder.h"

#include <string>

#include "encoding/byte_stream_split.h"
#include "encoding/decoder_util.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/plain.h"
#include "encoding/rle_boolean.h"

namespace pqsift::encoding {

Status CheckRequest(const char* encoding, int64_t n, int64_t left) {
  if (n >= 0 && n <= left) return Status::OK();
  if (n < 0) {
    return Status::InvalidArgument(std::string(encoding) + ": negative value count " +
                                   std::to_string(n));
  }
  return Status::Corruption(std::string(encoding) + ": asked for " + std::to_string(n) +
                            " values, the page has " + std::to_string(left) + " left");
}

Status Corrupt(const char* encoding, const std::string& what) {
  return Status::Corruption(std::string(encoding) + ": " + what);
}

template <typename DType>
Result<std::unique_ptr<ValueDecoder<DType>>> MakeValueDecoder(Encoding encoding,
                                                              int32_t type_length) {
  using Ptr = std::unique_ptr<ValueDecoder<DType>>;
  constexpr bool kFlba = std::is_same_v<DType, FixedLenByteArrayType>;
  if (kFlba && type_length < 1) {
    return Status::InvalidArgument("FIXED_LEN_BYTE_ARRAY type_length " +
                                   std::to_string(type_length) + " is not positive");
  }
  switch (encoding) {
    case Encoding::kPlain: return Ptr(new PlainDecoder<DType>(type_length));
    case Encoding::kRle:
      if constexpr (kIsBoolean<DType>) return Ptr(new RleBooleanDecoder());
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<DType, Int32Type> || std::is_same_v<DType, Int64Type>) {
        return Ptr(new DeltaBinaryPackedDecoder<DType>());
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if constexpr (std::is_same_v<DType, ByteArrayType>) {
        return Ptr(new DeltaLengthByteArrayDecoder());
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (kIsByteArrayLike<DType>)
        return Ptr(new DeltaByteArrayDecoder<DType>(type_length));
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (!kIsBoolean<DType> && !std::is_same_v<DType, Int96Type> &&
                    !std::is_same_v<DType, ByteArrayType>) {
        return Ptr(new ByteStreamSplitDecoder<DType>(type_length));
      }
      break;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return Status::InvalidArgument(EncodingName(encoding) +
                                     " pages are decoded by a DictionaryDecoder");
    default: break;
  }
  return Status::NotSupported("encoding " + EncodingName(encoding) + " is not supported for " +
                              PhysicalTypeName(DType::kPhysical) + " values");
}

#define PQSIFT_INSTANTIATE(DType) \
  template Result<std::unique_ptr<ValueDecoder<DType>>> MakeValueDecoder<DType>(Encoding, int32_t);
PQSIFT_FOR_EACH_DTYPE(PQSIFT_INSTANTIATE)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
