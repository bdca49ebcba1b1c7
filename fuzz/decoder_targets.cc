// Targets "plain", "dictionary", "rle", "delta_binary_packed", "delta_length_byte_array",
// "delta_byte_array", "byte_stream_split": one value encoding each, over every physical type
// it is defined for, through the decoders' batch interface (SetData, then Decode and Skip in
// runs of random length, as the column reader calls them).
//
//   byte 0:    the physical type (an index into the encoding's types, below)
//   byte 1:    FIXED_LEN_BYTE_ARRAY type_length - 1
//   bytes 2-3: the page's value count (little-endian)
//   byte 4:    bit 7: the value count is 2^31 - 1 instead; bits 0-6: seed of the Decode/Skip
//              run lengths
//   dictionary only: bytes 5-6 the dictionary's entry count, 7-8 its byte length, then the
//              dictionary page (PLAIN)
//   rest:      the page's value section
//
// "rle" reads its own layout: byte 0 chooses what decodes the hybrid (0: BOOLEAN values with
// their length prefix, 1: v1 RLE levels, 2: v1 BIT_PACKED levels, 3: v2 levels, 4: the hybrid
// decoder alone), byte 1 the max level (or the bit width mod 33), then bytes 1-4 of the layout
// above (type_length unused), then the data.
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

#include "encoding/dictionary_decoder.h"
#include "encoding/rle_bit_packed.h"
#include "encoding/value_decoder.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

namespace pqsift::fuzz {

namespace {

using namespace pqsift::encoding;

// Values one input may decode at most: a few bytes of RLE can honestly declare 2^31 values.
constexpr int64_t kMaxValuesPerInput = int64_t{1} << 20;
constexpr int64_t kMaxRun = 700;

// Run lengths and Decode/Skip choices from a small generator seeded by the input.
class Runs {
 public:
  explicit Runs(uint32_t seed) : state_(seed * 2654435761u + 1) {}
  // The next run: its length (1..kMaxRun, short runs more often) and whether to skip it.
  std::pair<int64_t, bool> Next() {
    state_ = state_ * 1103515245u + 12345u;
    const uint32_t r = state_ >> 8;
    const int64_t n = (r & 3) == 0 ? 1 + (r >> 2) % kMaxRun : 1 + (r >> 2) % 17;
    return {n, ((r >> 20) & 3) == 0};
  }

 private:
  uint32_t state_;
};

uint32_t Touch(std::span<const uint8_t> bytes) {
  uint32_t sum = 0;
  for (uint8_t b : bytes) sum += b;
  return sum;
}

// An exact-size heap copy of `bytes`, so that the sanitizers see any read past its end.
struct ExactCopy {
  explicit ExactCopy(std::span<const uint8_t> bytes)
      : data(std::make_unique<uint8_t[]>(bytes.size())), size(bytes.size()) {
    if (!bytes.empty()) std::memcpy(data.get(), bytes.data(), bytes.size());
  }
  std::span<const uint8_t> span() const { return {data.get(), size}; }
  std::unique_ptr<uint8_t[]> data;
  size_t size;
};

struct Header {
  int32_t type_length;
  int64_t num_values;
  uint32_t seed;
};

Header ReadHeader(FuzzInput& in) {
  Header h;
  h.type_length = in.Byte() + 1;
  h.num_values = in.U16();
  const uint8_t b = in.Byte();
  if (b & 0x80) h.num_values = INT32_MAX;
  h.seed = b & 0x7f;
  return h;
}

// Decodes the page through `decoder` in random runs of Decode and Skip until it is exhausted,
// fails, or has given kMaxValuesPerInput values; then checks the contract's end states.
template <typename DType>
void DecodeRuns(ValueDecoder<DType>& decoder, uint32_t seed) {
  using Value = typename DType::Value;
  std::vector<Value> out(kMaxRun);
  Runs runs(seed);
  volatile uint32_t sink = 0;
  for (int64_t total = 0; total < kMaxValuesPerInput;) {
    const int64_t left = decoder.values_left();
    if (left < 0) __builtin_trap();
    auto [n, skip] = runs.Next();
    Status st = skip ? decoder.Skip(n) : decoder.Decode(out.data(), n);
    if (!st.ok()) {
      // The contract: 0 after an error in the data (a request beyond values_left() changes
      // nothing).
      if (n <= left && decoder.values_left() != 0) __builtin_trap();
      if (n > left && decoder.values_left() != left) __builtin_trap();
      return;
    }
    if (n > left) __builtin_trap();  // more values than values_left() promised
    if constexpr (kIsByteArrayLike<DType>) {
      if (!skip) {
        for (int64_t i = 0; i < n; ++i) sink = sink + Touch({out[i].data, out[i].size});
      }
    }
    total += n;
  }
}

template <typename DType>
void FuzzEncoding(Encoding encoding, const Header& h, std::span<const uint8_t> data) {
  Result<std::unique_ptr<ValueDecoder<DType>>> decoder =
      MakeValueDecoder<DType>(encoding, h.type_length);
  if (!decoder.ok()) __builtin_trap();  // every (encoding, type) pair here is defined
  ExactCopy page(data);
  if (!(*decoder)->SetData(page.span(), h.num_values).ok()) return;
  DecodeRuns(**decoder, h.seed);
}

template <typename... DTypes>
void FuzzEncodingOver(Encoding encoding, std::span<const uint8_t> input) {
  FuzzInput in(input);
  const size_t type = in.Byte() % sizeof...(DTypes);
  const Header h = ReadHeader(in);
  std::span<const uint8_t> data = in.Rest();
  size_t k = 0;
  ((k++ == type ? FuzzEncoding<DTypes>(encoding, h, data) : void()), ...);
}

template <typename DType>
void FuzzDictionaryOf(const Header& h, FuzzInput& in) {
  const int64_t entries = in.U16();
  ExactCopy dictionary(in.Bytes(in.U16()));
  ExactCopy page(in.Rest());
  Result<std::unique_ptr<DictionaryDecoder<DType>>> decoder =
      DictionaryDecoder<DType>::Make(dictionary.span(), entries, h.type_length);
  if (!decoder.ok()) return;
  // The decoder keeps its own copy of the dictionary: views must outlive the page buffer.
  dictionary.data.reset();
  dictionary.size = 0;
  if (!(*decoder)->SetData(page.span(), h.num_values).ok()) return;
  DecodeRuns(**decoder, h.seed);
}

template <typename... DTypes>
void FuzzDictionaryOver(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const size_t type = in.Byte() % sizeof...(DTypes);
  const Header h = ReadHeader(in);
  size_t k = 0;
  ((k++ == type ? FuzzDictionaryOf<DTypes>(h, in) : void()), ...);
}

void FuzzLevels(int mode, int16_t max_level, const Header& h, std::span<const uint8_t> data) {
  ExactCopy page(data);
  LevelDecoder levels;
  Status st;
  if (mode == 3) {
    st = levels.InitV2(max_level, h.num_values, page.span());
  } else {
    size_t consumed = 0;
    st = levels.InitV1(mode == 1 ? Encoding::kRle : Encoding::kBitPacked, max_level, h.num_values,
                       page.span(), &consumed);
    if (st.ok() && consumed > page.size) __builtin_trap();
  }
  if (!st.ok()) return;
  levels.RestAllEqual(max_level);
  std::vector<int16_t> out(kMaxRun);
  Runs runs(h.seed);
  for (int64_t total = 0; total < kMaxValuesPerInput && levels.levels_left() > 0;) {
    auto [n, skip] = runs.Next();
    n = std::min(n, levels.levels_left());
    if (!(skip ? levels.Skip(n) : levels.Decode(out.data(), n)).ok()) return;
    for (int64_t i = 0; i < (skip ? 0 : n); ++i) {
      if (out[i] < 0 || out[i] > max_level) __builtin_trap();  // levels are range-checked
    }
    total += n;
  }
}

void FuzzHybrid(int bit_width, const Header& h, std::span<const uint8_t> data) {
  ExactCopy page(data);
  RleBitPackedDecoder decoder(page.span(), bit_width);
  std::vector<uint32_t> out(kMaxRun);
  Runs runs(h.seed);
  const uint64_t limit = bit_width == 32 ? UINT64_MAX : (uint64_t{1} << bit_width);
  for (int64_t total = 0; total < kMaxValuesPerInput;) {
    auto [n, skip] = runs.Next();
    int64_t got = 0;
    if (skip) {
      got = decoder.Skip(n);
    } else if (n % 2 == 0) {
      got = decoder.GetBatch(out.data(), n);
      for (int64_t i = 0; i < got; ++i) {
        if (out[i] >= limit) __builtin_trap();  // a value wider than the bit width
      }
    } else {
      got = decoder.Visit(
          n, [](uint32_t, int64_t) {}, [](const uint32_t*, int64_t) {});
    }
    if (got < 0 || got > n) __builtin_trap();
    if (got < n) return;
    total += got;
  }
}

}  // namespace

void FuzzPlain(std::span<const uint8_t> input) {
  FuzzEncodingOver<BooleanType, Int32Type, Int64Type, Int96Type, FloatType, DoubleType,
                   ByteArrayType, FixedLenByteArrayType>(Encoding::kPlain, input);
}

void FuzzDictionary(std::span<const uint8_t> input) {
  FuzzDictionaryOver<BooleanType, Int32Type, Int64Type, Int96Type, FloatType, DoubleType,
                     ByteArrayType, FixedLenByteArrayType>(input);
}

void FuzzRle(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const int mode = in.Byte() % 5;
  const uint8_t level_or_width = in.Byte();
  Header h = ReadHeader(in);
  std::span<const uint8_t> data = in.Rest();
  if (mode == 0) {
    h.type_length = 0;
    FuzzEncoding<BooleanType>(Encoding::kRle, h, data);
  } else if (mode < 4) {
    FuzzLevels(mode, level_or_width, h, data);
  } else {
    FuzzHybrid(level_or_width % 33, h, data);
  }
}

void FuzzDeltaBinaryPacked(std::span<const uint8_t> input) {
  FuzzEncodingOver<Int32Type, Int64Type>(Encoding::kDeltaBinaryPacked, input);
}

void FuzzDeltaLengthByteArray(std::span<const uint8_t> input) {
  FuzzEncodingOver<ByteArrayType>(Encoding::kDeltaLengthByteArray, input);
}

void FuzzDeltaByteArray(std::span<const uint8_t> input) {
  FuzzEncodingOver<ByteArrayType, FixedLenByteArrayType>(Encoding::kDeltaByteArray, input);
}

void FuzzByteStreamSplit(std::span<const uint8_t> input) {
  FuzzEncodingOver<Int32Type, Int64Type, FloatType, DoubleType, FixedLenByteArrayType>(
      Encoding::kByteStreamSplit, input);
}

}  // namespace pqsift::fuzz
