// Micro-benchmarks of the hot decoders (src/encoding/). Each decodes one page of 1M values
// (encoded once, outside the timing) in batches of 4096, as the column reader does.
// bytes_per_second counts the decoded output (values x value size; 16 bytes per ByteView), so
// encodings of the same type compare directly; items_per_second counts values.
//
//   build/bench/micro/pqsift_encoding_bench --benchmark_min_time=0.5 (or bench/run --micro-only)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/dictionary_decoder.h"
#include "encoding/dictionary_encoder.h"
#include "encoding/plain.h"
#include "encoding/rle_bit_packed.h"
#include "encoding/value_decoder.h"
#include "encoding/value_encoder.h"

namespace pqsift::encoding {
namespace {

constexpr int64_t kValues = 1 << 20;
constexpr int64_t kBatch = 4096;

void Report(benchmark::State& state, size_t value_size) {
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * static_cast<int64_t>(value_size));
}

// Decodes the whole page with `d` in batches, every iteration.
template <typename DType>
void DecodePage(benchmark::State& state, ValueDecoder<DType>& d, const std::vector<uint8_t>& page) {
  std::vector<typename DType::Value> out(kBatch);
  for (auto _ : state) {
    if (!d.SetData({page.data(), page.size()}, kValues).ok()) state.SkipWithError("SetData");
    for (int64_t done = 0; done < kValues; done += kBatch) {
      if (!d.Decode(out.data(), kBatch).ok()) state.SkipWithError("Decode");
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  Report(state, sizeof(typename DType::Value));
}

template <typename DType>
std::vector<uint8_t> EncodePage(Encoding encoding, const std::vector<typename DType::Value>& v) {
  auto encoder = MakeValueEncoder<DType>(encoding, 0);
  (*encoder)->Put(v.data(), static_cast<int64_t>(v.size()));
  return (*encoder)->Finish();
}

// ---- RLE / bit-packed hybrid: random values, so (almost) all bit-packed runs ----

void BM_RleBitUnpack(benchmark::State& state) {
  const int bit_width = static_cast<int>(state.range(0));
  std::mt19937_64 rng(1);
  RleBitPackedEncoder e(bit_width);
  for (int64_t i = 0; i < kValues; ++i)
    e.Put(static_cast<uint32_t>(rng() & ((1ull << bit_width) - 1)));
  const std::vector<uint8_t> data = e.Finish();
  std::vector<int32_t> out(kBatch);
  for (auto _ : state) {
    RleBitPackedDecoder d({data.data(), data.size()}, bit_width);
    for (int64_t done = 0; done < kValues; done += kBatch) d.GetBatch(out.data(), kBatch);
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, sizeof(int32_t));
}
BENCHMARK(BM_RleBitUnpack)->Arg(1)->Arg(3)->Arg(8)->Arg(17);

// Definition levels of a mostly non-null column: long runs of 1 with scattered 0s.
void BM_RleLevelRuns(benchmark::State& state) {
  std::mt19937_64 rng(2);
  std::vector<int16_t> levels(kValues);
  for (auto& l : levels) l = rng() % 100 == 0 ? 0 : 1;
  std::vector<uint8_t> data;
  AppendLevelsV2(1, levels.data(), kValues, data);
  std::vector<int16_t> out(kBatch);
  for (auto _ : state) {
    LevelDecoder d;
    if (!d.InitV2(1, kValues, {data.data(), data.size()}).ok()) state.SkipWithError("Init");
    for (int64_t done = 0; done < kValues; done += kBatch) {
      if (!d.Decode(out.data(), kBatch).ok()) state.SkipWithError("Decode");
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, sizeof(int16_t));
}
BENCHMARK(BM_RleLevelRuns);

// ---- PLAIN ----

void BM_PlainInt64(benchmark::State& state) {
  std::vector<int64_t> v(kValues);
  std::mt19937_64 rng(3);
  for (auto& x : v) x = static_cast<int64_t>(rng());
  const std::vector<uint8_t> page = EncodePage<Int64Type>(Encoding::kPlain, v);
  PlainDecoder<Int64Type> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_PlainInt64);

void BM_PlainDouble(benchmark::State& state) {
  std::vector<double> v(kValues);
  std::mt19937_64 rng(4);
  for (auto& x : v) x = static_cast<double>(rng() % 1000000) / 100;
  const std::vector<uint8_t> page = EncodePage<DoubleType>(Encoding::kPlain, v);
  PlainDecoder<DoubleType> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_PlainDouble);

// Strings of 0..31 bytes (16 on average).
std::vector<std::string> RandomStrings(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> strings(kValues);
  for (auto& s : strings) {
    s.resize(rng() % 32);
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
  }
  return strings;
}

std::vector<ByteView> ViewsOf(const std::vector<std::string>& strings) {
  std::vector<ByteView> views;
  for (const auto& s : strings) {
    views.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  }
  return views;
}

void BM_PlainByteArray(benchmark::State& state) {
  const std::vector<std::string> strings = RandomStrings(5);
  const std::vector<uint8_t> page = EncodePage<ByteArrayType>(Encoding::kPlain, ViewsOf(strings));
  PlainDecoder<ByteArrayType> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_PlainByteArray);

void BM_DeltaLengthByteArray(benchmark::State& state) {
  const std::vector<std::string> strings = RandomStrings(5);
  const std::vector<uint8_t> page =
      EncodePage<ByteArrayType>(Encoding::kDeltaLengthByteArray, ViewsOf(strings));
  auto d = MakeValueDecoder<ByteArrayType>(Encoding::kDeltaLengthByteArray, 0);
  DecodePage(state, **d, page);
}
BENCHMARK(BM_DeltaLengthByteArray);

// Sorted strings, so that neighbours share prefixes (what DELTA_BYTE_ARRAY is for).
void BM_DeltaByteArraySorted(benchmark::State& state) {
  std::vector<std::string> strings = RandomStrings(12);
  std::sort(strings.begin(), strings.end());
  const std::vector<uint8_t> page =
      EncodePage<ByteArrayType>(Encoding::kDeltaByteArray, ViewsOf(strings));
  auto d = MakeValueDecoder<ByteArrayType>(Encoding::kDeltaByteArray, 0);
  DecodePage(state, **d, page);
}
BENCHMARK(BM_DeltaByteArraySorted);

// ---- dictionary gather: 1000 entries (10-bit indices), random indices ----

template <typename DType>
void DictionaryGather(benchmark::State& state, const std::vector<typename DType::Value>& pool) {
  std::mt19937_64 rng(6);
  std::vector<typename DType::Value> v(kValues);
  for (auto& x : v) x = pool[rng() % pool.size()];
  DictionaryEncoder<DType> e;
  e.Put(v.data(), kValues);
  const std::vector<uint8_t> page = e.Finish();
  std::vector<uint8_t> dictionary;
  e.AppendDictionaryPage(dictionary);
  auto d =
      DictionaryDecoder<DType>::Make({dictionary.data(), dictionary.size()}, e.num_entries(), 0);
  DecodePage(state, **d, page);
}

void BM_DictionaryGatherInt64(benchmark::State& state) {
  std::vector<int64_t> pool(1000);
  for (size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int64_t>(i * 7919);
  DictionaryGather<Int64Type>(state, pool);
}
BENCHMARK(BM_DictionaryGatherInt64);

void BM_DictionaryGatherByteArray(benchmark::State& state) {
  static const std::vector<std::string> strings = RandomStrings(7);
  std::vector<ByteView> views = ViewsOf(strings);
  views.resize(1000);
  DictionaryGather<ByteArrayType>(state, views);
}
BENCHMARK(BM_DictionaryGatherByteArray);

// ---- DELTA_BINARY_PACKED ----

void BM_DeltaBinaryPackedInt64Timestamps(benchmark::State& state) {
  // Increasing timestamps with jitter: small deltas (about 11-bit miniblocks).
  std::mt19937_64 rng(8);
  std::vector<int64_t> v(kValues);
  int64_t t = 1700000000000000;
  for (auto& x : v) x = t += 1000 + static_cast<int64_t>(rng() % 1000);
  const std::vector<uint8_t> page = EncodePage<Int64Type>(Encoding::kDeltaBinaryPacked, v);
  DeltaBinaryPackedDecoder<Int64Type> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_DeltaBinaryPackedInt64Timestamps);

void BM_DeltaBinaryPackedInt32Random(benchmark::State& state) {
  std::mt19937_64 rng(9);
  std::vector<int32_t> v(kValues);
  for (auto& x : v) x = static_cast<int32_t>(rng() % 100000);
  const std::vector<uint8_t> page = EncodePage<Int32Type>(Encoding::kDeltaBinaryPacked, v);
  DeltaBinaryPackedDecoder<Int32Type> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_DeltaBinaryPackedInt32Random);

// ---- BYTE_STREAM_SPLIT ----

void BM_ByteStreamSplitFloat(benchmark::State& state) {
  std::mt19937_64 rng(10);
  std::vector<float> v(kValues);
  for (auto& x : v) x = static_cast<float>(rng() % 100000) / 7;
  const std::vector<uint8_t> page = EncodePage<FloatType>(Encoding::kByteStreamSplit, v);
  ByteStreamSplitDecoder<FloatType> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_ByteStreamSplitFloat);

void BM_ByteStreamSplitDouble(benchmark::State& state) {
  std::mt19937_64 rng(11);
  std::vector<double> v(kValues);
  for (auto& x : v) x = static_cast<double>(rng() % 100000) / 7;
  const std::vector<uint8_t> page = EncodePage<DoubleType>(Encoding::kByteStreamSplit, v);
  ByteStreamSplitDecoder<DoubleType> d;
  DecodePage(state, d, page);
}
BENCHMARK(BM_ByteStreamSplitDouble);

}  // namespace
}  // namespace pqsift::encoding

BENCHMARK_MAIN();
