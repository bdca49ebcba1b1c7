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
//
// "plain", "dictionary" and "rle" (BOOLEAN values, the hybrid decoder alone) also decode the
// page as one arriving while it is decoded (SetArrivingData, byte_supply.h): a supply reveals it
// in steps drawn from byte 4's seed and the page (how many bytes are there at the start, how
// many more than asked each Grow gives), with the bytes not yet revealed poisoned under
// AddressSanitizer; that decoder must agree with the one given the whole page, request by
// request (the same ok-ness, values_left() and values).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

#include "arriving_bytes.h"
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

// The page of an arriving decode (arriving_bytes.h): its first bytes (none, a few, or all) and
// each Grow's few bytes beyond what was asked drawn from the input's seed and the page; a
// request that starts outside the revealed bytes traps.
class Arriving {
 public:
  Arriving(std::span<const uint8_t> page, uint32_t seed)
      : state_(seed * 2246822519u + static_cast<uint32_t>(page.size()) * 3266489917u +
               (page.empty() ? 0u : page[0])),
        bytes_(
            page,
            [this] {
              const uint32_t r = Next();
              return (r & 3) < 2 ? size_t{0} : (r & 3) == 2 ? 1 + (r >> 2) % 8 : (r >> 2) % 256;
            },
            [] { __builtin_trap(); }) {}

  std::span<const uint8_t> Start() {
    const uint32_t r = Next();
    const size_t size = bytes_.size();
    return bytes_.Start(r % 4 == 0 ? 0 : r % 4 == 1 ? size : std::min<size_t>(size, (r >> 2) % 64));
  }
  encoding::ByteSupply* supply() { return &bytes_; }

 private:
  uint32_t Next() {
    state_ = state_ * 1103515245u + 12345u;
    return state_ >> 8;
  }

  uint32_t state_;
  fuzz::ArrivingBytes bytes_;
};

// Bit-exact equality of decoded values (ByteViews by their bytes).
template <typename Value>
bool Same(const Value* a, const Value* b, int64_t n) {
  if constexpr (std::is_same_v<Value, ByteView>) {
    for (int64_t i = 0; i < n; ++i) {
      if (a[i].size != b[i].size) return false;
      if (a[i].size > 0 && std::memcmp(a[i].data, b[i].data, a[i].size) != 0) return false;
    }
    return true;
  } else {
    return n <= 0 || std::memcmp(a, b, static_cast<size_t>(n) * sizeof(Value)) == 0;
  }
}

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

// The next `n` values through DecodeBinary (Arrow's layout), those `keep` keeps (null: all) as
// views into `bytes` at out[0, *kept): the room starts at `room` bytes and grows when a value does
// not fit, as a sink grows its buffer. Traps where DecodeBinary breaks its contract (more values
// than asked, bytes beyond the room, ends that go back, a value said not to fit that fits).
template <typename DType>
Status DecodeBinaryViews(ValueDecoder<DType>& decoder, int64_t n, size_t room, const uint8_t* keep,
                         std::vector<uint8_t>& bytes, std::vector<int64_t>& ends, ByteView* out,
                         int64_t* kept) {
  bytes.assign(room, 0);
  ends.assign(static_cast<size_t>(n), 0);
  size_t used = 0;
  int64_t appended = 0;
  for (int64_t done = 0; done < n;) {
    BinaryAppend append{bytes.data(), used, bytes.size(), ends.data() + appended};
    append.keep = keep == nullptr ? nullptr : keep + done;
    Result<int64_t> got = decoder.DecodeBinary(n - done, &append);
    if (!got.ok()) return got.status();
    if (*got < 0 || *got > n - done || append.used > bytes.size()) __builtin_trap();
    if (append.appended < 0 || append.appended > *got) __builtin_trap();
    used = append.used;
    appended += append.appended;
    done += *got;
    if (done < n) {
      if (append.next_size <= bytes.size() - used) __builtin_trap();
      bytes.resize(std::max(bytes.size() * 2, used + append.next_size));
    }
  }
  size_t start = 0;
  for (int64_t i = 0; i < appended; ++i) {
    const auto end = static_cast<size_t>(ends[static_cast<size_t>(i)]);
    if (end < start || end > used) __builtin_trap();
    out[i] = ByteView{bytes.data() + start, static_cast<uint32_t>(end - start)};
    start = end;
  }
  *kept = appended;
  return Status::OK();
}

// Decodes the page through `decoder` in random runs of Decode and Skip until it is exhausted,
// fails, or has given kMaxValuesPerInput values; then checks the contract's end states. With
// `arriving` (the same page arriving), the same runs through it must give the same.
template <typename DType>
void DecodeRuns(ValueDecoder<DType>& decoder, uint32_t seed,
                ValueDecoder<DType>* arriving = nullptr) {
  using Value = typename DType::Value;
  std::vector<Value> out(kMaxRun), out_arriving(arriving != nullptr ? kMaxRun : 0);
  Runs runs(seed);
  std::vector<uint8_t> binary_bytes;  // DecodeBinaryViews' room
  std::vector<int64_t> binary_ends;
  // Every third value left out, for half the inputs: a filter's output column.
  std::vector<uint8_t> keep(kMaxRun);
  for (size_t i = 0; i < keep.size(); ++i) keep[i] = (i + seed) % 3 != 0 ? 1 : 0;
  const uint8_t* binary_keep = (seed & 2) != 0 ? keep.data() : nullptr;
  std::vector<Value> kept_values(kMaxRun);
  volatile uint32_t sink = 0;
  for (int64_t total = 0; total < kMaxValuesPerInput;) {
    const int64_t left = decoder.values_left();
    if (left < 0) __builtin_trap();
    auto [n, skip] = runs.Next();
    Status st = skip ? decoder.Skip(n) : decoder.Decode(out.data(), n);
    if (arriving != nullptr) {
      int64_t compared = n;                   // values in out_arriving
      const uint8_t* applied_keep = nullptr;  // the keep mask they went through
      Status other;
      if (skip) {
        other = arriving->Skip(n);
      } else if constexpr (std::is_same_v<DType, ByteArrayType>) {
        // Byte arrays the arriving decoder writes in Arrow's layout where it can: the same
        // values as the views of the whole page.
        if (arriving->DecodesBinary()) {
          applied_keep = binary_keep;
          other = DecodeBinaryViews(*arriving, n, seed % 64, binary_keep, binary_bytes, binary_ends,
                                    out_arriving.data(), &compared);
        } else {
          other = arriving->Decode(out_arriving.data(), n);
        }
      } else {
        other = arriving->Decode(out_arriving.data(), n);
      }
      if (st.ok() != other.ok()) __builtin_trap();  // arriving bytes changed the outcome
      if (decoder.values_left() != arriving->values_left()) __builtin_trap();
      if (st.ok() && !skip) {
        // The whole page's values, through the same keep mask.
        const Value* expected = out.data();
        int64_t count = n;
        if (applied_keep != nullptr) {
          count = 0;
          for (int64_t i = 0; i < n; ++i) {
            if (applied_keep[i] != 0) kept_values[static_cast<size_t>(count++)] = out[i];
          }
          expected = kept_values.data();
        }
        if (count != compared || !Same(expected, out_arriving.data(), count)) __builtin_trap();
      }
    }
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

// Starts `arriving` on the page arriving through `supply`: whether it fails must be whether
// the same page given whole did (`whole_ok`).
template <typename DType>
void StartArriving(ValueDecoder<DType>& arriving, Arriving& supply, int64_t num_values,
                   bool whole_ok) {
  if (arriving.SetArrivingData(supply.Start(), num_values, supply.supply()).ok() != whole_ok) {
    __builtin_trap();
  }
}

// `also_arriving`: decode the page arriving too, and compare.
template <typename DType>
void FuzzEncoding(Encoding encoding, const Header& h, std::span<const uint8_t> data,
                  bool also_arriving = false) {
  Result<std::unique_ptr<ValueDecoder<DType>>> decoder =
      MakeValueDecoder<DType>(encoding, h.type_length);
  if (!decoder.ok()) __builtin_trap();  // every (encoding, type) pair here is defined
  ExactCopy page(data);
  const bool ok = (*decoder)->SetData(page.span(), h.num_values).ok();
  if (also_arriving) {
    Result<std::unique_ptr<ValueDecoder<DType>>> arriving =
        MakeValueDecoder<DType>(encoding, h.type_length);
    if (!arriving.ok()) __builtin_trap();
    Arriving supply(data, h.seed);
    StartArriving(**arriving, supply, h.num_values, ok);
    if (ok) DecodeRuns(**decoder, h.seed, arriving->get());
    return;
  }
  if (!ok) return;
  DecodeRuns(**decoder, h.seed);
}

template <typename... DTypes>
void FuzzEncodingOver(Encoding encoding, std::span<const uint8_t> input,
                      bool also_arriving = false) {
  FuzzInput in(input);
  const size_t type = in.Byte() % sizeof...(DTypes);
  const Header h = ReadHeader(in);
  std::span<const uint8_t> data = in.Rest();
  size_t k = 0;
  ((k++ == type ? FuzzEncoding<DTypes>(encoding, h, data, also_arriving) : void()), ...);
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
  const bool ok = (*decoder)->SetData(page.span(), h.num_values).ok();
  std::unique_ptr<DictionaryDecoder<DType>> arriving = (*decoder)->Share();
  Arriving supply(page.span(), h.seed);
  StartArriving(*arriving, supply, h.num_values, ok);
  if (ok) DecodeRuns(**decoder, h.seed, arriving.get());
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

// The hybrid decoder alone, and again over the page arriving: both must give the same counts,
// ok() and values (Visit's calls by a checksum).
void FuzzHybrid(int bit_width, const Header& h, std::span<const uint8_t> data) {
  ExactCopy page(data);
  RleBitPackedDecoder decoder(page.span(), bit_width);
  Arriving supply(data, h.seed);
  RleBitPackedDecoder arriving;
  arriving.Reset(supply.Start(), bit_width, supply.supply());
  std::vector<uint32_t> out(kMaxRun), out_arriving(kMaxRun);
  Runs runs(h.seed);
  const uint64_t limit = bit_width == 32 ? UINT64_MAX : (uint64_t{1} << bit_width);
  auto visit = [](RleBitPackedDecoder& d, int64_t n, uint64_t* sum) {
    return d.Visit(
        n,
        [sum](uint32_t value, int64_t count) {
          *sum = *sum * 31 + uint64_t{value} * static_cast<uint64_t>(count) + 7;
        },
        [sum](const uint32_t* values, int64_t count) {
          for (int64_t i = 0; i < count; ++i) *sum = *sum * 31 + values[i];
          *sum = *sum * 31 + static_cast<uint64_t>(count) + 11;
        });
  };
  for (int64_t total = 0; total < kMaxValuesPerInput;) {
    auto [n, skip] = runs.Next();
    int64_t got = 0, got_arriving = 0;
    if (skip) {
      got = decoder.Skip(n);
      got_arriving = arriving.Skip(n);
    } else if (n % 2 == 0) {
      got = decoder.GetBatch(out.data(), n);
      got_arriving = arriving.GetBatch(out_arriving.data(), n);
      for (int64_t i = 0; i < got; ++i) {
        if (out[i] >= limit) __builtin_trap();  // a value wider than the bit width
      }
      if (got == got_arriving && !Same(out.data(), out_arriving.data(), got)) __builtin_trap();
    } else {
      // The same runs, cut into the same pieces: the same checksum of the calls.
      uint64_t sum = 0, sum_arriving = 0;
      got = visit(decoder, n, &sum);
      got_arriving = visit(arriving, n, &sum_arriving);
      if (sum != sum_arriving) __builtin_trap();
    }
    if (got < 0 || got > n) __builtin_trap();
    if (got != got_arriving || decoder.ok() != arriving.ok()) __builtin_trap();
    if (got < n) return;
    total += got;
  }
}

}  // namespace

void FuzzPlain(std::span<const uint8_t> input) {
  FuzzEncodingOver<BooleanType, Int32Type, Int64Type, Int96Type, FloatType, DoubleType,
                   ByteArrayType, FixedLenByteArrayType>(Encoding::kPlain, input,
                                                         /*also_arriving=*/true);
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
    FuzzEncoding<BooleanType>(Encoding::kRle, h, data, /*also_arriving=*/true);
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
