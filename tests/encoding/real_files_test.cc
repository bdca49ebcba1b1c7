// The decoders against pages written by other implementations (parquet-testing, when present):
// every flat column of every valid file decodes, and values match what is known about them:
// the *_expect.csv files of the DELTA_* files, and the PLAIN twin of each BYTE_STREAM_SPLIT
// column. Pages are walked here with the format and compression layers only, so a failure
// points at an encoding, not at the column reader.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "compression/codec.h"
#include "encoding/dictionary_decoder.h"
#include "encoding/rle_bit_packed.h"
#include "encoding/value_decoder.h"
#include "encoding_cases.h"
#include "format/page_header.h"
#include "testing/parquet_files.h"

namespace pqsift::encoding {
namespace {

using testing::DispatchType;

using Cell = std::optional<std::string>;  // nullopt: null

template <typename Value>
std::string Format(const Value& v) {
  if constexpr (std::is_same_v<Value, ByteView>) {
    return std::string(v.str());
  } else if constexpr (std::is_same_v<Value, int32_t> || std::is_same_v<Value, int64_t>) {
    return std::to_string(v);
  } else {
    return std::string(reinterpret_cast<const char*>(&v), sizeof(v));  // the bits
  }
}

Result<std::vector<uint8_t>> Decompressed(CompressionCodec codec, std::span<const uint8_t> in,
                                          int64_t size) {
  if (size < 0) return Status::Corruption("negative page size");
  std::vector<uint8_t> out(static_cast<size_t>(size));
  if (codec == CompressionCodec::kUncompressed) {
    if (in.size() != out.size()) return Status::Corruption("page size mismatch");
    std::copy(in.begin(), in.end(), out.begin());
    return out;
  }
  PQSIFT_RETURN_IF_ERROR(compression::Decompress(codec, in, out));
  return out;
}

// Every value of one flat column chunk, nulls included, in order.
template <typename DType>
Result<std::vector<Cell>> ReadChunk(const ::pqsift::testing::OpenedFile& f,
                                    const ColumnDescriptor& column, const ColumnMetaData& md) {
  using Value = typename DType::Value;
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 &&
      *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  if (start < 0 || md.total_compressed_size < 0) return Status::Corruption("negative range");
  PQSIFT_ASSIGN_OR_RETURN(Buffer chunk,
                          f.file->Read({static_cast<uint64_t>(start),
                                        static_cast<uint64_t>(md.total_compressed_size)}));
  std::span<const uint8_t> rest = chunk.span();
  std::unique_ptr<DictionaryDecoder<DType>> dictionary;
  std::map<Encoding, std::unique_ptr<ValueDecoder<DType>>> decoders;
  std::vector<Cell> cells;
  while (!rest.empty()) {
    format::PageHeader h;
    size_t header_size = 0;
    PQSIFT_RETURN_IF_ERROR(format::DecodePageHeader(rest, h, &header_size));
    if (h.compressed_page_size > static_cast<int64_t>(rest.size() - header_size)) {
      return Status::Corruption("page past the chunk");
    }
    std::span<const uint8_t> body = rest.subspan(header_size, h.compressed_page_size);
    rest = rest.subspan(header_size + h.compressed_page_size);
    if (h.type == PageType::kDictionaryPage) {
      PQSIFT_ASSIGN_OR_RETURN(auto bytes, Decompressed(md.codec, body, h.uncompressed_page_size));
      PQSIFT_ASSIGN_OR_RETURN(
          dictionary,
          DictionaryDecoder<DType>::Make({bytes.data(), bytes.size()},
                                         h.dictionary_page_header->num_values, column.type_length));
      continue;
    }
    if (h.type != PageType::kDataPage && h.type != PageType::kDataPageV2) continue;
    std::vector<uint8_t> values_bytes;
    std::span<const uint8_t> values;
    std::vector<int16_t> def;
    LevelDecoder levels;
    int64_t n = 0;
    Encoding encoding;
    if (h.type == PageType::kDataPage) {
      n = h.data_page_header->num_values;
      encoding = h.data_page_header->encoding;
      PQSIFT_ASSIGN_OR_RETURN(values_bytes, Decompressed(md.codec, body, h.uncompressed_page_size));
      size_t consumed = 0;
      PQSIFT_RETURN_IF_ERROR(levels.InitV1(h.data_page_header->definition_level_encoding,
                                           column.max_definition_level, n,
                                           {values_bytes.data(), values_bytes.size()}, &consumed));
      values = std::span<const uint8_t>(values_bytes).subspan(consumed);
    } else {
      const auto& v2 = *h.data_page_header_v2;
      n = v2.num_values;
      encoding = v2.encoding;
      const auto levels_size = static_cast<size_t>(v2.repetition_levels_byte_length) +
                               static_cast<size_t>(v2.definition_levels_byte_length);
      PQSIFT_RETURN_IF_ERROR(
          levels.InitV2(column.max_definition_level, n,
                        body.subspan(static_cast<size_t>(v2.repetition_levels_byte_length),
                                     static_cast<size_t>(v2.definition_levels_byte_length))));
      if (v2.is_compressed) {
        PQSIFT_ASSIGN_OR_RETURN(values_bytes, Decompressed(md.codec, body.subspan(levels_size),
                                                           h.uncompressed_page_size -
                                                               static_cast<int64_t>(levels_size)));
        values = values_bytes;
      } else {
        values = body.subspan(levels_size);
      }
    }
    def.resize(static_cast<size_t>(n));
    PQSIFT_RETURN_IF_ERROR(levels.Decode(def.data(), n));
    int64_t non_null = 0;
    for (int16_t d : def) non_null += d == column.max_definition_level;
    ValueDecoder<DType>* decoder = nullptr;
    if (encoding == Encoding::kRleDictionary || encoding == Encoding::kPlainDictionary) {
      if (!dictionary) return Status::Corruption("no dictionary page");
      decoder = dictionary.get();
    } else {
      auto& slot = decoders[encoding];
      if (!slot) {
        PQSIFT_ASSIGN_OR_RETURN(slot, MakeValueDecoder<DType>(encoding, column.type_length));
      }
      decoder = slot.get();
    }
    PQSIFT_RETURN_IF_ERROR(decoder->SetData(values, n));
    std::vector<Value> out(static_cast<size_t>(non_null));
    PQSIFT_RETURN_IF_ERROR(decoder->Decode(out.data(), non_null));
    size_t next = 0;
    for (int16_t d : def) {
      cells.push_back(d == column.max_definition_level ? Cell(Format(out[next++])) : std::nullopt);
    }
  }
  return cells;
}

// Every flat column of row group 0 (all these files have one), by path.
// With `errors`, a column that fails is recorded there instead of failing the test.
std::map<std::string, std::vector<Cell>> ReadFile(const std::string& path,
                                                  std::vector<Status>* errors = nullptr) {
  std::map<std::string, std::vector<Cell>> out;
  ::pqsift::testing::OpenedFile f;
  if (errors == nullptr) {
    f = ::pqsift::testing::OpenParquet(path);
  } else {
    auto file = OpenLocalFile(path);
    if (!file.ok()) return out;
    f.file = std::move(*file);
    auto md = ReadParquetMetadata(*f.file);
    if (!md.ok()) return out;  // refused before any page: not this layer's business
    f.metadata = *md;
  }
  if (!f.file) return out;
  const Schema& schema = f.metadata->schema();
  for (size_t rg = 0; rg < f.metadata->num_row_groups(); ++rg) {
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      const ColumnDescriptor& column = schema.columns()[c];
      if (column.max_repetition_level > 0) continue;
      const ColumnMetaData& md = *f.metadata->file().row_groups[rg].columns[c].meta_data;
      if (md.num_values == 0) continue;  // some writers leave no pages (or junk) here
      Result<std::vector<Cell>> cells = Status::Internal("unset");
      DispatchType(column.physical_type,
                   [&](auto tag) { cells = ReadChunk<decltype(tag)>(f, column, md); });
      if (!cells.ok() && cells.status().code() == StatusCode::kNotSupported) continue;
      if (errors != nullptr && cells.ok() && static_cast<int64_t>(cells->size()) != md.num_values) {
        cells = Status::Corruption("value count differs from the metadata");
      }
      if (!cells.ok() && errors != nullptr) {
        errors->push_back(cells.status());
        continue;
      }
      EXPECT_TRUE(cells.ok()) << path << " column " << column.path << " row group " << rg << ": "
                              << cells.status().ToString();
      if (!cells.ok()) continue;
      EXPECT_EQ(static_cast<int64_t>(cells->size()), md.num_values) << path << " " << column.path;
      auto& all = out[column.path];
      all.insert(all.end(), cells->begin(), cells->end());
    }
  }
  return out;
}

// A CSV with a header row; "" and empty fields are null; quotes are removed.
std::vector<std::vector<Cell>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<Cell>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    std::vector<Cell> row;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (size_t i = 0; i <= line.size(); ++i) {
      const char c = i < line.size() ? line[i] : ',';
      if (quoted) {
        if (c == '"')
          quoted = false;
        else
          field += c;
      } else if (c == '"') {
        quoted = was_quoted = true;
      } else if (c == ',') {
        row.push_back(field.empty() && !was_quoted ? std::nullopt : Cell(field));
        field.clear();
        was_quoted = false;
      } else {
        field += c;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

void ExpectMatchesCsv(const std::string& name) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, name + ".parquet");
  const auto columns = ReadFile(path);
  ::pqsift::testing::OpenedFile f = ::pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  const auto rows = ReadCsv(path.substr(0, path.size() - 8) + "_expect.csv");
  ASSERT_FALSE(rows.empty());
  const auto& schema = f.metadata->schema();
  for (size_t c = 0; c < schema.num_columns(); ++c) {
    const auto& cells = columns.at(schema.columns()[c].path);
    ASSERT_EQ(cells.size(), rows.size()) << schema.columns()[c].path;
    for (size_t r = 0; r < rows.size(); ++r) {
      ASSERT_EQ(cells[r], rows[r].at(c))
          << name << " column " << schema.columns()[c].path << " row " << r;
    }
  }
}

TEST(EncodingRealFilesTest, DeltaBinaryPackedMatchesExpectedValues) {
  ExpectMatchesCsv("delta_binary_packed");
}
TEST(EncodingRealFilesTest, DeltaByteArrayMatchesExpectedValues) {
  ExpectMatchesCsv("delta_byte_array");
}
TEST(EncodingRealFilesTest, DeltaEncodingRequiredColumnMatchesExpectedValues) {
  ExpectMatchesCsv("delta_encoding_required_column");
}
TEST(EncodingRealFilesTest, DeltaEncodingOptionalColumnMatchesExpectedValues) {
  ExpectMatchesCsv("delta_encoding_optional_column");
}

TEST(EncodingRealFilesTest, ByteStreamSplitColumnsEqualTheirPlainTwins) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "byte_stream_split_extended.gzip.parquet");
  const auto columns = ReadFile(path);
  int pairs = 0;
  for (const auto& [name, cells] : columns) {
    const std::string suffix = "_byte_stream_split";
    if (!name.ends_with(suffix)) continue;
    const auto& plain = columns.at(name.substr(0, name.size() - suffix.size()) + "_plain");
    EXPECT_EQ(cells, plain) << name;
    EXPECT_EQ(cells.size(), 200u);
    ++pairs;
  }
  EXPECT_EQ(pairs, 7);
}

TEST(EncodingRealFilesTest, EveryFlatColumnOfEveryValidFileDecodes) {
  if (::pqsift::testing::ParquetTestingDir().empty())
    GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  int files = 0;
  for (const std::string& path : ::pqsift::testing::ParquetTestingFiles("data")) {
    // Malformed by design: see BadFilesFailCleanly.
    if (path.ends_with("nation.dict-malformed.parquet")) continue;
    SCOPED_TRACE(path);
    ReadFile(path);
    ++files;
  }
  EXPECT_GT(files, 20);
}

TEST(EncodingRealFilesTest, BadFilesFailCleanly) {
  if (::pqsift::testing::ParquetTestingDir().empty())
    GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  std::vector<std::string> paths = ::pqsift::testing::ParquetTestingFiles("bad_data");
  paths.push_back(::pqsift::testing::ParquetTestingDir() + "/data/nation.dict-malformed.parquet");
  int failures = 0;
  for (const std::string& path : paths) {
    std::vector<Status> errors;
    ReadFile(path, &errors);  // the sanitizer build checks that nothing reads out of bounds
    for (const Status& st : errors) {
      EXPECT_NE(st.code(), StatusCode::kInternal) << path << ": " << st.ToString();
    }
    failures += errors.empty() ? 0 : 1;
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace pqsift::encoding
