#include "seeds.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "arrow/builder.h"
#include "column/page_reader.h"
#include "compression/codec.h"
#include "encoding/dictionary_encoder.h"
#include "encoding/rle_bit_packed.h"
#include "encoding/value_encoder.h"
#include "fuzz_targets.h"
#include "geo/wkt.h"
#include "pqsift/parquet_file.h"
#include "pqsift/writer.h"
#include "variant/builder.h"

namespace pqsift::fuzz {

namespace {

using namespace pqsift::encoding;

// Larger sections are cut: the targets' counts are 16-bit, and small inputs fuzz faster.
constexpr size_t kMaxSection = 60000;
constexpr size_t kMaxScanFile = 256 * 1024;
constexpr size_t kMaxChunksPerFile = 24;

using Bytes = std::vector<uint8_t>;

class SeedSink {
 public:
  void Add(const std::string& target, const std::string& name, Bytes bytes) {
    seeds_.push_back({target, name, std::move(bytes)});
  }
  std::vector<Seed> Take() { return std::move(seeds_); }

 private:
  std::vector<Seed> seeds_;
};

void PutU16(Bytes& out, size_t v) {
  v = std::min<size_t>(v, 0xffff);
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}

void Append(Bytes& out, std::span<const uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// The leading bytes of the value decoder targets (decoder_targets.cc).
Bytes DecoderHeader(size_t type_index, int32_t type_length, int64_t num_values) {
  Bytes out = {static_cast<uint8_t>(type_index),
               static_cast<uint8_t>(std::max(type_length, 1) - 1)};
  PutU16(out, static_cast<size_t>(num_values));
  out.push_back(static_cast<uint8_t>(num_values % 101));
  return out;
}

// The value decoder target of each encoding and its types, as decoder_targets.cc lists them.
struct EncodingTarget {
  Encoding encoding;
  const char* target;
  std::vector<PhysicalType> types;
};

const std::vector<EncodingTarget>& EncodingTargets() {
  using P = PhysicalType;
  static const std::vector<EncodingTarget> targets = {
      {Encoding::kPlain,
       "plain",
       {P::kBoolean, P::kInt32, P::kInt64, P::kInt96, P::kFloat, P::kDouble, P::kByteArray,
        P::kFixedLenByteArray}},
      {Encoding::kRleDictionary,
       "dictionary",
       {P::kBoolean, P::kInt32, P::kInt64, P::kInt96, P::kFloat, P::kDouble, P::kByteArray,
        P::kFixedLenByteArray}},
      {Encoding::kDeltaBinaryPacked, "delta_binary_packed", {P::kInt32, P::kInt64}},
      {Encoding::kDeltaLengthByteArray, "delta_length_byte_array", {P::kByteArray}},
      {Encoding::kDeltaByteArray, "delta_byte_array", {P::kByteArray, P::kFixedLenByteArray}},
      {Encoding::kByteStreamSplit,
       "byte_stream_split",
       {P::kInt32, P::kInt64, P::kFloat, P::kDouble, P::kFixedLenByteArray}},
  };
  return targets;
}

// The target and type index of a data page's value section, or null.
const EncodingTarget* TargetFor(Encoding encoding, PhysicalType type, size_t* type_index) {
  if (encoding == Encoding::kPlainDictionary) encoding = Encoding::kRleDictionary;
  for (const EncodingTarget& t : EncodingTargets()) {
    if (t.encoding != encoding) continue;
    auto it = std::find(t.types.begin(), t.types.end(), type);
    if (it == t.types.end()) return nullptr;
    *type_index = static_cast<size_t>(it - t.types.begin());
    return &t;
  }
  return nullptr;
}

// ---- seeds from real files ----

Bytes ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The seeds of one column chunk's pages: value sections (with the dictionary for dictionary
// pages), v1 RLE definition levels, compressed bodies.
void PageSeeds(std::span<const uint8_t> chunk, const ColumnMetaData& meta,
               const ColumnDescriptor& column, const std::string& name, SeedSink& sink) {
  column::PageReader pages(chunk, 0, meta.codec, name);
  Bytes dictionary;
  int64_t dictionary_entries = 0;
  for (int page_number = 0; page_number < 4; ++page_number) {
    Result<bool> more = pages.Next();
    if (!more.ok() || !*more) return;
    const std::string page_name = name + "_p" + std::to_string(page_number);
    Result<column::Page> page = pages.Read();
    if (!page.ok()) return;
    if (page->type == PageType::kDictionaryPage) {
      dictionary.assign(page->body.begin(), page->body.end());
      dictionary_entries = page->num_values;
      continue;
    }
    if (meta.codec != CompressionCodec::kUncompressed && page->body.size() <= kMaxSection) {
      // Compressed again with our codec: the same content the decompressor saw.
      Bytes compressed;
      if (compression::Compress(meta.codec, 0, page->body, compressed).ok()) {
        Bytes seed = {static_cast<uint8_t>(meta.codec)};
        PutU16(seed, page->body.size() & 0xffff);
        seed.push_back(static_cast<uint8_t>(page->body.size() >> 16));
        Append(seed, compressed);
        sink.Add("decompress", page_name, std::move(seed));
      }
    }
    if (column.max_repetition_level > 0) continue;
    std::span<const uint8_t> values = page->body;
    if (column.max_definition_level > 0) {
      if (page->is_v2) {
        values = page->body;
      } else {
        if (page->definition_level_encoding != Encoding::kRle || values.size() < 4) continue;
        uint32_t length = 0;
        std::memcpy(&length, values.data(), 4);
        if (length > values.size() - 4) continue;
        Bytes levels = {1, static_cast<uint8_t>(column.max_definition_level)};
        Append(levels, DecoderHeader(0, 1, page->num_values));
        Append(levels, values.subspan(0, std::min<size_t>(4 + length, kMaxSection)));
        sink.Add("rle", page_name, std::move(levels));
        values = values.subspan(4 + length);
      }
    }
    size_t type_index = 0;
    const EncodingTarget* target = TargetFor(page->encoding, column.physical_type, &type_index);
    if (target == nullptr) continue;
    Bytes seed = DecoderHeader(type_index, column.type_length, page->num_values);
    if (target->encoding == Encoding::kRleDictionary) {
      if (dictionary.size() > kMaxSection) continue;
      PutU16(seed, static_cast<size_t>(dictionary_entries));
      PutU16(seed, dictionary.size());
      Append(seed, dictionary);
    }
    Append(seed, values.subspan(0, std::min(values.size(), kMaxSection)));
    sink.Add(target->target, page_name, std::move(seed));
  }
}

// The scan options of the encrypted_scan seeds (after its key byte): every column, no filter;
// a filter with pruning; the same without pruning, chunks fetched on their own.
const Bytes kEncryptedScanOptions[] = {
    {0, 0, 0, 0, 0, 0}, {0, 1, 1, 0, 16, 0}, {3, 6, 0, 1, 1 | 32, 0}};

// encrypted_scan seeds of an encrypted file: with every key, through the retriever, without
// keys, and with the column keys but no footer key.
void EncryptedScanSeeds(const Bytes& file, const std::string& base, SeedSink& sink) {
  if (file.size() > kMaxScanFile) return;
  const uint8_t key_choices[] = {1 | 4 | 16, 8 | 16, 0, 4 | 32};
  for (size_t k = 0; k < std::size(key_choices); ++k) {
    Bytes seed = {key_choices[k]};
    Append(seed, kEncryptedScanOptions[k % std::size(kEncryptedScanOptions)]);
    Append(seed, file);
    sink.Add("encrypted_scan", base + "_" + std::to_string(k), std::move(seed));
  }
}

void FileSeeds(const std::string& path, SeedSink& sink) {
  const Bytes file = ReadWholeFile(path);
  const std::string base = BaseName(path);
  if (path.ends_with(".parquet.encrypted")) {
    EncryptedScanSeeds(file, base, sink);
    return;
  }
  if (file.size() < 12 || std::memcmp(file.data() + file.size() - 4, "PAR1", 4) != 0) return;
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, file.data() + file.size() - 8, 4);
  if (footer_length > file.size() - 8) return;
  sink.Add("footer", base, Bytes(file.end() - 8 - footer_length, file.end() - 8));
  if (file.size() <= kMaxScanFile) {
    // No filter, every column; a filter on the first column with pruning and small batches;
    // the same without pruning, with CRCs checked and the chunks fetched on their own.
    const Bytes options[] = {
        {0, 0, 0, 0, 0, 0}, {0, 2, 0, 1, 16, 0}, {3, 6, 1, 0, 1 | 2 | 32, 0}, {0, 4, 2, 0, 4, 0}};
    for (size_t k = 0; k < std::size(options); ++k) {
      Bytes seed = options[k];
      Append(seed, file);
      sink.Add("scan", base + "_" + std::to_string(k), std::move(seed));
    }
  }
  std::unique_ptr<RandomAccessFile> memory = MakeMemoryFile(base, file);
  Result<std::shared_ptr<const ParquetMetadata>> metadata = ReadParquetMetadata(*memory);
  if (!metadata.ok()) return;
  const ParquetMetadata& md = **metadata;
  size_t chunks = 0;
  for (size_t g = 0; g < md.num_row_groups() && chunks < kMaxChunksPerFile; ++g) {
    const RowGroup& row_group = md.file().row_groups[g];
    for (size_t c = 0; c < row_group.columns.size() && chunks < kMaxChunksPerFile; ++c, ++chunks) {
      const ColumnMetaData& meta = *row_group.columns[c].meta_data;
      int64_t start = meta.data_page_offset;
      if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) {
        start = std::min(start, *meta.dictionary_page_offset);
      }
      if (start < 0 || meta.total_compressed_size < 0 ||
          static_cast<uint64_t>(start) > file.size() ||
          static_cast<uint64_t>(meta.total_compressed_size) > file.size() - start) {
        continue;
      }
      std::span<const uint8_t> chunk(file.data() + start,
                                     static_cast<size_t>(meta.total_compressed_size));
      const std::string name = base + "_rg" + std::to_string(g) + "_c" + std::to_string(c);
      Bytes header_seed = {static_cast<uint8_t>(static_cast<int>(meta.codec) | 8)};
      Append(header_seed, chunk.subspan(0, std::min(chunk.size(), kMaxSection)));
      sink.Add("page_header", name, std::move(header_seed));
      PageSeeds(chunk, meta, md.schema().columns()[c], name, sink);
    }
  }
}

// ---- synthetic seeds ----

// Values of every physical type, the same shapes for each: runs, steps, repeats.
template <typename DType>
struct SampleValues {
  std::vector<typename DType::Value> values;
  std::vector<std::string> storage;  // bytes of ByteViews
};

template <typename DType>
SampleValues<DType> MakeSamples(int32_t type_length, int count) {
  SampleValues<DType> s;
  s.storage.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int v = (i % 7 == 0) ? 3 : i * 13 % 50 - 20;
    if constexpr (kIsByteArrayLike<DType>) {
      std::string bytes = "value_" + std::to_string(v / 3);
      bytes.resize(type_length > 0 ? static_cast<size_t>(type_length) : bytes.size(), 'x');
      s.storage.push_back(std::move(bytes));
    } else if constexpr (std::is_same_v<DType, Int96Type>) {
      s.values.push_back(Int96{{static_cast<uint32_t>(v), 0, 2440588}});
    } else if constexpr (kIsBoolean<DType>) {
      s.values.push_back(static_cast<uint8_t>(v > 0));
    } else {
      s.values.push_back(static_cast<typename DType::Value>(v));
    }
  }
  if constexpr (kIsByteArrayLike<DType>) {
    for (const std::string& b : s.storage) {
      s.values.push_back(
          ByteView{reinterpret_cast<const uint8_t*>(b.data()), static_cast<uint32_t>(b.size())});
    }
  }
  return s;
}

template <typename DType>
void EncodedSeeds(const EncodingTarget& target, size_t type_index, SeedSink& sink) {
  const int32_t type_length = DType::kPhysical == PhysicalType::kFixedLenByteArray ? 5 : 0;
  for (int count : {1, 9, 200}) {
    SampleValues<DType> samples = MakeSamples<DType>(type_length, count);
    Bytes seed = DecoderHeader(type_index, type_length, count);
    if (target.encoding == Encoding::kRleDictionary) {
      DictionaryEncoder<DType> encoder(type_length);
      encoder.Put(samples.values.data(), count);
      Bytes dictionary;
      encoder.AppendDictionaryPage(dictionary);
      PutU16(seed, static_cast<size_t>(encoder.num_entries()));
      PutU16(seed, dictionary.size());
      Append(seed, dictionary);
      encoder.FinishInto(seed);
    } else {
      Result<std::unique_ptr<ValueEncoder<DType>>> encoder =
          MakeValueEncoder<DType>(target.encoding, type_length);
      if (!encoder.ok()) return;
      (*encoder)->Put(samples.values.data(), count);
      (*encoder)->FinishInto(seed);
    }
    sink.Add(target.target,
             "synthetic_t" + std::to_string(type_index) + "_n" + std::to_string(count),
             std::move(seed));
  }
}

template <typename DType>
void EncodedSeedsIfDefined(PhysicalType type, SeedSink& sink) {
  if (DType::kPhysical != type) return;
  for (const EncodingTarget& target : EncodingTargets()) {
    size_t type_index = 0;
    if (TargetFor(target.encoding, type, &type_index) == &target) {
      EncodedSeeds<DType>(target, type_index, sink);
    }
  }
}

// Target "variant": 2-byte metadata length, metadata, value; values of every type from the
// encoder, an object over the dictionary and arrays nesting them.
void VariantSeeds(SeedSink& sink) {
  using variant::Type;
  const std::string metadata(
      "\x11\x03\x00\x01\x02\x05"
      "abcde",
      11);  // sorted: a, b, cde
  std::vector<std::string> values(16);
  variant::EncodeNull(values[0]);
  variant::EncodeBoolean(values[1], true);
  variant::EncodeInteger(values[2], Type::kInt16, -1234);
  variant::EncodeInteger(values[3], Type::kInt64, 1234567890123);
  variant::EncodeDouble(values[4], -14.3);
  variant::EncodeFloat(values[5], 2.5f);
  variant::EncodeDecimal(values[6], Type::kDecimal16, variant::Decimal{-123456789012345, 7});
  variant::EncodeDate(values[7], 20000);
  variant::EncodeTicks(values[8], Type::kTimestampNtzNanos, 1730982834123456789);
  const uint8_t bytes[4] = {0, 1, 2, 255};
  variant::EncodeBinary(values[9], bytes);
  variant::EncodeString(values[10], "short");
  variant::EncodeString(values[11], std::string(80, 'L'));
  const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  variant::EncodeUuid(values[12], std::span<const uint8_t, 16>(uuid, 16));
  auto span = [](const std::string& v) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()), v.size());
  };
  std::vector<variant::FieldBytes> fields = {
      {2, "cde", span(values[10])}, {0, "a", span(values[3])}, {1, "b", span(values[0])}};
  variant::EncodeObject(values[13], fields);
  variant::EncodeArray(values[14], {span(values[13]), span(values[2]), span(values[11])});
  std::vector<variant::FieldBytes> outer = {{0, "a", span(values[14])}};
  variant::EncodeObject(values[15], outer);
  for (size_t i = 0; i < values.size(); ++i) {
    Bytes seed = {static_cast<uint8_t>(metadata.size()), 0};
    seed.insert(seed.end(), metadata.begin(), metadata.end());
    seed.insert(seed.end(), values[i].begin(), values[i].end());
    sink.Add("variant", "synthetic_" + std::to_string(i), std::move(seed));
  }
}

// Target "wkb": one value of every type and dimension (from WKT, geo/wkt.h), EMPTY ones, a
// big-endian point and an EWKB point with an SRID.
void WkbSeeds(SeedSink& sink) {
  const char* kWkt[] = {
      "POINT (30 10)",
      "POINT Z (30 10 40)",
      "POINT M (30 10 300)",
      "POINT ZM (30 10 40 300)",
      "POINT EMPTY",
      "LINESTRING (30 10, 10 30, 40 40)",
      "LINESTRING Z EMPTY",
      "POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10), (20 30, 35 35, 30 20, 20 30))",
      "MULTIPOINT ((10 40), (40 30), EMPTY)",
      "MULTILINESTRING M ((10 10 1, 20 20 2), (40 40 3, 30 30 4))",
      "MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))",
      "GEOMETRYCOLLECTION ZM (POINT ZM (1 2 3 4), LINESTRING ZM (1 2 3 4, 5 6 7 8))",
      "GEOMETRYCOLLECTION (GEOMETRYCOLLECTION (POINT (nan 1)), POLYGON EMPTY)",
  };
  int i = 0;
  for (const char* wkt : kWkt) {
    std::string wkb;
    if (!geo::AppendWkbFromWkt(wkt, wkb).ok()) continue;
    sink.Add("wkb", "synthetic_" + std::to_string(i++), Bytes(wkb.begin(), wkb.end()));
  }
  // POINT (1 2), big-endian; and as EWKB with the SRID flag and 4326.
  sink.Add("wkb", "synthetic_big_endian",
           {0, 0, 0, 0, 1, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0});
  sink.Add("wkb", "synthetic_ewkb_srid", {1, 1, 0,    0,    0x20, 0xe6, 0x10, 0, 0, 0, 0, 0,   0,
                                          0, 0, 0xf0, 0x3f, 0,    0,    0,    0, 0, 0, 0, 0x40});
}

// Small files pqsift writes with Parquet modular encryption, in each footer mode and algorithm,
// with page indexes, dictionaries and bloom filters to decrypt, under the fuzz keys.
void EncryptedFileSeeds(SeedSink& sink) {
  FixedWidthArrayBuilder<int64_t> ids(Int64());
  BinaryArrayBuilder names(LargeUtf8());
  FixedWidthArrayBuilder<double> values(Float64());
  for (int64_t i = 0; i < 3000; ++i) {
    ids.Append(i);
    names.Append(std::string_view("v" + std::to_string(i % 37)));
    if (i % 11 == 0) {
      values.AppendNull();
    } else {
      values.Append(static_cast<double>(i) / 7);
    }
  }
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(BatchSchema{
      {{"id", Int64(), true}, {"name", LargeUtf8(), true}, {"double_field", Float64(), true}}});
  batch.num_rows = 3000;
  batch.columns = {ids.Finish(), names.Finish(), values.Finish()};
  for (int mode = 0; mode < 3; ++mode) {
    WriterOptions options;
    options.row_group_rows = 1000;
    options.page_rows = 250;
    options.compression = CompressionCodec::kUncompressed;
    options.bloom_filters["name"] = {};
    auto e = std::make_shared<EncryptionOptions>();
    e->footer_key = kFuzzFooterKey;
    e->footer_key_metadata = "kf";
    e->aad_prefix = "tester";
    if (mode >= 1) {
      e->columns["name"] = {kFuzzColumnKey1, "kc1"};
      e->columns["double_field"] = {kFuzzColumnKey2, "kc2"};
    }
    e->plaintext_footer = mode == 1;
    e->ctr = mode == 1;
    e->store_aad_prefix = mode != 2;
    options.encryption = e;
    Bytes file;
    auto writer = ParquetWriter::Open(MakeMemoryWritableFile("seed", &file), batch.schema, options);
    if (!writer.ok() || !(*writer)->Write(batch).ok() || !(*writer)->Close().ok()) continue;
    EncryptedScanSeeds(file, "pqsift_encrypted_" + std::to_string(mode), sink);
  }
}

void SyntheticSeeds(SeedSink& sink) {
  EncryptedFileSeeds(sink);
  for (int t = 0; t < 8; ++t) {
    const auto type = static_cast<PhysicalType>(t);
#define PQSIFT_SEEDS_FOR(DType) EncodedSeedsIfDefined<DType>(type, sink);
    PQSIFT_FOR_EACH_DTYPE(PQSIFT_SEEDS_FOR)
#undef PQSIFT_SEEDS_FOR
  }
  // RLE: booleans with their length prefix, levels, the bare hybrid at several widths.
  for (int width : {1, 3, 8, 17, 32}) {
    RleBitPackedEncoder encoder(width);
    for (uint32_t i = 0; i < 300; ++i)
      encoder.Put(i % 40 < 20 ? 1u : (i * 7) & ((1u << std::min(width, 31)) - 1));
    Bytes hybrid = encoder.Finish();
    Bytes seed = {4, static_cast<uint8_t>(width)};
    Append(seed, DecoderHeader(0, 1, 300));
    Append(seed, hybrid);
    sink.Add("rle", "synthetic_hybrid_w" + std::to_string(width), std::move(seed));
  }
  for (int mode : {1, 2, 3}) {
    std::vector<int16_t> levels(100);
    for (size_t i = 0; i < levels.size(); ++i)
      levels[i] = static_cast<int16_t>(i % 9 < 6 ? 2 : i % 3);
    Bytes encoded;
    if (mode == 3) {
      AppendLevelsV2(2, levels.data(), 100, encoded);
    } else {
      AppendLevelsV1(mode == 1 ? Encoding::kRle : Encoding::kBitPacked, 2, levels.data(), 100,
                     encoded);
    }
    Bytes seed = {static_cast<uint8_t>(mode), 2};
    Append(seed, DecoderHeader(0, 1, 100));
    Append(seed, encoded);
    sink.Add("rle", "synthetic_levels_m" + std::to_string(mode), std::move(seed));
  }
  {
    Result<std::unique_ptr<ValueEncoder<BooleanType>>> encoder =
        MakeValueEncoder<BooleanType>(Encoding::kRle, 0);
    SampleValues<BooleanType> samples = MakeSamples<BooleanType>(0, 150);
    (*encoder)->Put(samples.values.data(), 150);
    Bytes seed = {0, 0};
    Append(seed, DecoderHeader(0, 1, 150));
    (*encoder)->FinishInto(seed);
    sink.Add("rle", "synthetic_boolean", std::move(seed));
  }
  // Every codec over the same text.
  std::string text;
  for (int i = 0; i < 200; ++i) text += "row " + std::to_string(i % 17) + ", ";
  std::span<const uint8_t> plain(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  for (int codec = 0; codec < 8; ++codec) {
    Bytes compressed;
    if (!compression::Compress(static_cast<CompressionCodec>(codec), 0, plain, compressed).ok()) {
      continue;
    }
    Bytes seed = {static_cast<uint8_t>(codec)};
    PutU16(seed, text.size());
    seed.push_back(0);
    Append(seed, compressed);
    sink.Add("decompress", "synthetic_codec" + std::to_string(codec), std::move(seed));
  }
  // A page of several PageStream steps for the codecs that stream it piece by piece, filled by
  // the plans of small, step-sized and large requests (decompress_target.cc).
  std::string rows;
  for (uint32_t i = 0; rows.size() < 640 * 1024; ++i) {
    rows += "row " + std::to_string(i) + ", value " + std::to_string(i * 2654435761u % 9973) + "\n";
  }
  std::span<const uint8_t> page(reinterpret_cast<const uint8_t*>(rows.data()), rows.size());
  for (CompressionCodec codec : {CompressionCodec::kGzip, CompressionCodec::kZstd}) {
    Bytes compressed;
    if (!compression::Compress(codec, 0, page, compressed).ok()) continue;
    for (unsigned plan : {1u, 9u, 14u}) {
      Bytes seed = {static_cast<uint8_t>(static_cast<unsigned>(codec) | plan << 3)};
      PutU16(seed, rows.size() & 0xffff);
      seed.push_back(static_cast<uint8_t>(rows.size() >> 16));
      Append(seed, compressed);
      sink.Add("decompress",
               "synthetic_stream_codec" + std::to_string(static_cast<int>(codec)) + "_plan" +
                   std::to_string(plan),
               std::move(seed));
    }
  }
  // Filters: every form of docs/filter-language.md over the filter target's schema.
  const char* filters[] = {
      "i64 > 5 AND s = 'x'",
      "i8 BETWEEN -3 AND 7 OR u64 IN (1, 18446744073709551615, NULL)",
      "dec >= 12.34 AND big < -1.0001",
      "f32 IS NOT NULL AND f64 <> 1.5e300 AND h > 0.5",
      "s LIKE 'ab\\%c_%' OR s ILIKE '%X' OR starts_with(s, 'pre')",
      "bin = 'abc' AND uuid IS NULL AND fsb = 'xyz'",
      "d = DATE '2024-02-29' AND ts < TIMESTAMP '2024-01-01 12:00:00.123456'",
      "tsz >= TIMESTAMP '2024-01-01 00:00:00+02:00' AND t > '12:00:00'",
      "NOT b AND st.a + 3 * 2 - 1 / 4 > 0 AND st.b IS DISTINCT FROM NULL",
      "CAST(i64 AS DOUBLE) > 3 AND \"st\".\"a\" IS NOT DISTINCT FROM 4",
      "((i64 = 1) OR (i64 = 2)) AND NOT (i8 NOT IN (1, 2, 3))",
      "f64 = 'nan' OR f64 > 'inf' OR f32 < -'inf'",
      "l > 3",
      "i64 % 7 = 0 AND dec % 0.5 > 0 AND f64 % 0e0 <> 1 AND 10 % 3 = i8 % -4",
      "ts::DATE = '2024-02-29' AND CAST(tsz AS DATE) BETWEEN DATE '2024-01-01' AND "
      "TIMESTAMP '2024-03-01 10:00'::date AND -i64::double precision < s::varchar::bigint",
      "contains(s, '%_') OR ends_with(bin, X'00') OR suffix(s, '') OR prefix(s, 'a')",
      "year(ts) = 2024 AND extract(doy FROM d) < 60 AND date_part('isodow', tsz) IN (6, 7) "
      "AND hour(tsz) BETWEEN 9 AND 17 AND quarter(d) <> dayofweek(ts)",
      "date_trunc('week', d) = '2024-01-01' OR date_trunc('hour', tsz) < ts OR "
      "date_trunc('month', ts) BETWEEN DATE '2024-01-01' AND '2024-03-01'",
      "lower(s) = 'x' OR upper(s) LIKE 'A%' OR length(s) > 3 OR strlen(s) = octet_length(bin) "
      "OR abs(i8) < abs(dec) OR coalesce(i64, i8, 7) > 1 OR ifnull(b, FALSE) IS NOT TRUE "
      "OR coalesce(f32, 1e0) > 0 OR s ILIKE '%\u1e9e%'",
      "d <= DATE '1998-12-01' - INTERVAL '90' DAY AND ts < DATE '1994-01-01' + INTERVAL 1 YEAR "
      "AND tsz >= TIMESTAMP '2024-01-31 10:00' + INTERVAL '1 month -2 days 1.5 hours' AND "
      "d = DATE '2024-01-01' + 5 AND substring(s FROM -2 FOR 3) = left(s, -1) AND "
      "right(s, 2) <> substr(s, 0) AND ts < now() - INTERVAL 1 DAY AND d < current_date AND "
      "NOT isnan(f32) AND isfinite(f64 / i64) AND NOT isinf(dec)",
      "regexp_matches(s, '^(a|b)+\\d{2,}$', 'i') OR regexp_full_match(s, '.*', 'sl') OR "
      "s ~ '[[:alpha:]]' OR s !~ 'x' OR s NOT SIMILAR TO '(?i)\u00e9.' OR "
      "regexp_matches(s, NULL) IS NULL",
      "trim(s) || '-' || rtrim(s, 'xy') = concat(s, NULL, ltrim(s)) OR strpos(s, '\u00e9') > 2 "
      "OR replace(s, 'a', '') = '' OR floor(f64) = ceil(dec) OR round(f32) > trunc(i8) OR "
      "greatest(i64, i8) < least(i64, 3) OR d + INTERVAL 1 MONTH > ts - INTERVAL '2 days' OR "
      "d - 3 = DATE '2024-01-01' OR tsz > TIMESTAMPTZ '2024-01-01 10:00'",
      "CASE WHEN i64 > 1 THEN s ELSE 'x' END LIKE 'a%' OR CASE i8 WHEN 1 THEN b WHEN 2 THEN NULL "
      "ELSE i64 < 0 END OR (CASE WHEN f64 IS NULL THEN 0 END) IS NULL",
  };
  int k = 0;
  for (const char* f : filters) {
    sink.Add("filter", "synthetic_" + std::to_string(k++), Bytes(f, f + std::strlen(f)));
  }
  VariantSeeds(sink);
  WkbSeeds(sink);
}

}  // namespace

std::vector<Seed> MakeSeeds(const std::vector<std::string>& paths) {
  SeedSink sink;
  for (const std::string& path : paths) FileSeeds(path, sink);
  SyntheticSeeds(sink);
  return sink.Take();
}

}  // namespace pqsift::fuzz
