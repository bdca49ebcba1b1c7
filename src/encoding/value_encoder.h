// Value encoders: the writer's side of value_decoder.h, one class per encoding beside its
// decoder, each a template over the physical type tag (types.h), behind one batch interface.
//
// Contract of every encoder:
//   - Put(values, n) appends n non-null values. It copies what it needs (ByteView bytes too)
//     before returning, so the caller's buffers may be reused at once.
//     REQUIRES: FIXED_LEN_BYTE_ARRAY values are type_length bytes long; BOOLEAN values are 0
//     or 1 (any non-zero byte counts as 1); a BYTE_ARRAY value is shorter than 2^32 bytes.
//   - FinishInto(out) appends the page's value section (exactly what the matching decoder's
//     SetData takes) for the values put since the last Finish, then starts a new page: the
//     encoder is reusable and keeps no page state (a dictionary encoder keeps its dictionary).
//   - EstimatedSize() is about the bytes FinishInto would append now (exact for PLAIN), for
//     page-size decisions; num_values() counts the values put since the last Finish.
// Encoders never fail: every input a caller may pass is encodable.
//
// Thread safety: an encoder is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "encoding/types.h"
#include "pqsift/status.h"

namespace pqsift::encoding {

template <typename DType>
class ValueEncoder {
 public:
  using Value = typename DType::Value;
  virtual ~ValueEncoder() = default;

  virtual Encoding encoding() const = 0;
  virtual void Put(const Value* values, int64_t n) = 0;
  virtual int64_t num_values() const = 0;
  virtual size_t EstimatedSize() const = 0;
  virtual void FinishInto(std::vector<uint8_t>& out) = 0;

  std::vector<uint8_t> Finish() {
    std::vector<uint8_t> out;
    FinishInto(out);
    return out;
  }
};

// The encoder for `encoding` of `DType` (type_length: FIXED_LEN_BYTE_ARRAY width, else
// ignored), for the same encodings and types as MakeValueDecoder. NotSupported for an encoding
// not defined for the type; InvalidArgument for a FIXED_LEN_BYTE_ARRAY type_length < 1 and for
// the dictionary encodings (see DictionaryEncoder).
template <typename DType>
Result<std::unique_ptr<ValueEncoder<DType>>> MakeValueEncoder(Encoding encoding,
                                                              int32_t type_length);

}  // namespace pqsift::encoding
