// Value decoders: one class per encoding (Encodings.md), each a template over the physical type
// tag (types.h), behind one batch-level virtual interface. The column reader creates one per
// page encoding with MakeValueDecoder and calls it for runs of values, never per value.
//
// Input is hostile: decoders read only inside the span given to SetData, check every count and
// bit width, and report Corruption ("DELTA_BINARY_PACKED: ...") instead of reading past it.
// No decoder allocates more than its input justifies: memory is bounded by the page size and
// by the values the caller asks for (DELTA_BYTE_ARRAY, whose values share prefixes, holds the
// values it reconstructed until the next SetData).
//
// Errors: Corruption for malformed or too short data (also when asked for more than
// values_left()); InvalidArgument for a negative count. After an error the decoder stays safe
// to call but its values are meaningless until the next SetData.
//
// What comes out, per physical type (types.h): BOOLEAN one byte 0/1 per value; INT32, INT64,
// INT96, FLOAT, DOUBLE their C++ values; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY ByteViews, which
// point into the page data (PLAIN, DELTA_LENGTH_BYTE_ARRAY, and DELTA_BYTE_ARRAY values with no
// new suffix bytes) or into storage the decoder owns (DELTA_BYTE_ARRAY values it rebuilt,
// BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY, dictionary entries). Either way they stay valid until
// the next SetData, the page data's end, or the decoder's destruction, whichever is first.
//
// Thread safety: a decoder is used by one thread at a time.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>

#include "encoding/byte_supply.h"
#include "encoding/types.h"
#include "pqsift/status.h"

namespace pqsift::encoding {

// Where ValueDecoder::DecodeBinary writes byte arrays in Arrow's binary layout: the bytes of the
// values it appends one after the other in bytes[used, capacity), and after each the new `used`
// in the next entry of `ends`.
struct BinaryAppend {
  uint8_t* bytes = nullptr;
  size_t used = 0;      // advanced past each value appended
  size_t capacity = 0;  // of `bytes`: a value to append that does not fit stops the call
  int64_t* ends = nullptr;
  const uint8_t* keep = nullptr;  // value i of the call is appended only if keep[i] != 0; null: all
  int64_t appended = 0;           // set on return: the values appended (ends[0, appended))
  size_t next_size = 0;           // set when a value did not fit: its length
  size_t bytes_left = 0;          // set on return: the page's encoded bytes beyond the values read
};

template <typename DType>
class ValueDecoder {
 public:
  using Value = typename DType::Value;
  virtual ~ValueDecoder() = default;

  // Starts decoding a page's value section: `data` holds the encoded non-null values,
  // `num_values` of them at most (the page's count; a decoder may find fewer and then fails
  // when asked for more). `data` must stay alive while values are decoded from it.
  virtual Status SetData(std::span<const uint8_t> data, int64_t num_values) = 0;

  // SetData for a page whose bytes are still arriving (byte_supply.h): `data` holds those there
  // now and `more` (not null) brings the rest; it must outlive the page's decoding. Decoders
  // that read front to back (PLAIN, dictionary indices) ask for bytes as they go, so a reader
  // that stops early never has the rest produced; the others take the whole page first.
  virtual Status SetArrivingData(std::span<const uint8_t> data, int64_t num_values,
                                 ByteSupply* more) {
    const uint8_t* end = more->Grow(data.data() + data.size(), std::numeric_limits<size_t>::max());
    return SetData({data.data(), end}, num_values);
  }

  // Decodes the next `n` values into out[0, n). Corruption when the data holds fewer.
  // ByteViews stay valid until the next SetData or until the page data goes away, whichever
  // is first; the column reader copies them before either.
  virtual Status Decode(Value* out, int64_t n) = 0;

  // Skips the next `n` values without producing them (run decoders advance, nothing is
  // materialised where the encoding allows it). Corruption when the data holds fewer.
  virtual Status Skip(int64_t n) = 0;

  // Byte arrays without views, for decoders whose values lie in the page as they are (PLAIN):
  // whether DecodeBinary works. The others decode views (Decode) for the caller to copy.
  virtual bool DecodesBinary() const { return false; }
  // Reads the next values, at most `n`, appending those out->keep keeps to `*out` (see
  // BinaryAppend), and returns how many it read: fewer than `n` when the next value to append
  // does not fit in out->capacity (its length is then in out->next_size: grow and call again).
  // The same checks and errors as Decode. REQUIRES: DecodesBinary().
  virtual Result<int64_t> DecodeBinary(int64_t n, BinaryAppend* out) {
    (void)n;
    (void)out;
    return Status::Internal("DecodeBinary of a decoder without it");
  }

  // At most how many more values Decode/Skip may give: SetData's num_values (or the count an
  // encoding's header declares, if smaller) minus those already decoded or skipped. After an
  // error in the data it is 0; a request for more than values_left() fails and changes nothing.
  virtual int64_t values_left() const = 0;
};

// The decoder for `encoding` of the physical type `DType` (type_length: FIXED_LEN_BYTE_ARRAY
// width, else ignored). NotSupported for an encoding not defined for that type (BIT_PACKED is
// for levels only: LevelDecoder); InvalidArgument for a FIXED_LEN_BYTE_ARRAY type_length < 1
// and for the dictionary encodings, which are not made here: see DictionaryDecoder.
//
//   PLAIN                    every type
//   RLE                      BOOLEAN (4-byte length prefix, then the hybrid at bit width 1)
//   DELTA_BINARY_PACKED      INT32, INT64
//   DELTA_LENGTH_BYTE_ARRAY  BYTE_ARRAY
//   DELTA_BYTE_ARRAY         BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
//   BYTE_STREAM_SPLIT        INT32, INT64, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY
template <typename DType>
Result<std::unique_ptr<ValueDecoder<DType>>> MakeValueDecoder(Encoding encoding,
                                                              int32_t type_length);

}  // namespace pqsift::encoding
