// Page headers: every page of every column chunk in parquet-testing's data files, walked from
// the offsets the footer gives; and hand-built headers, round trips and malformed ones.
#include "format/page_header.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "testing/files.h"
#include "testing/metadata_dump.h"
#include "testing/metadata_encoder.h"
#include "testing/parquet_files.h"
#include "thrift/compact_writer.h"

namespace pqsift::format {
namespace {

using pqsift::testing::AsBytes;
using pqsift::testing::DumpToString;
using pqsift::testing::EncodeOptions;
using pqsift::testing::MetadataEncoder;

struct ChunkWalk {
  int pages = 0;
  int dictionary_pages = 0;
  int v1_pages = 0;
  int v2_pages = 0;
  int pages_with_crc = 0;
  int64_t values = 0;
  int64_t v2_rows = 0;
  std::optional<PageHeader> first_v2;  // statistics views not valid after the walk
};

// Walks the pages of one column chunk, checking each header; returns what it saw.
ChunkWalk WalkChunk(const pqsift::testing::OpenedFile& f, const ColumnChunk& chunk) {
  ChunkWalk walk;
  const ColumnMetaData& md = *chunk.meta_data;
  // The chunk starts at its dictionary page when it has one. Writers disagree: some leave out
  // dictionary_page_offset and point data_page_offset at the dictionary page, some write a
  // data_page_offset of 0 for a chunk without data pages (no rows).
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 &&
      (start < 4 || *md.dictionary_page_offset < start)) {
    start = *md.dictionary_page_offset;
  }
  EXPECT_GE(start, 4);
  EXPECT_GE(md.total_compressed_size, 0);
  Buffer bytes = f.Read(start, md.total_compressed_size);
  std::span<const uint8_t> rest = bytes.span();
  while (!rest.empty()) {
    SCOPED_TRACE("page " + std::to_string(walk.pages) + " at chunk byte " +
                 std::to_string(bytes.size() - rest.size()));
    PageHeader h;
    size_t header_size = 0;
    Status st = DecodePageHeader(rest, h, &header_size);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) break;
    EXPECT_GT(header_size, 0u);
    EXPECT_GE(h.compressed_page_size, 0);
    EXPECT_GE(h.uncompressed_page_size, 0);
    EXPECT_LE(header_size + static_cast<size_t>(h.compressed_page_size), rest.size())
        << "page overruns the chunk";
    if (header_size + static_cast<size_t>(h.compressed_page_size) > rest.size()) break;
    ++walk.pages;
    if (h.crc) ++walk.pages_with_crc;
    switch (h.type) {
      case PageType::kDictionaryPage:
        EXPECT_EQ(walk.pages, 1) << "a dictionary page comes first";
        EXPECT_TRUE(h.dictionary_page_header.has_value());
        ++walk.dictionary_pages;
        break;
      case PageType::kDataPage:
        ++walk.v1_pages;
        walk.values += h.data_page_header->num_values;
        break;
      case PageType::kDataPageV2: {
        const DataPageHeaderV2& v2 = *h.data_page_header_v2;
        ++walk.v2_pages;
        if (!walk.first_v2) walk.first_v2 = h;
        walk.values += v2.num_values;
        walk.v2_rows += v2.num_rows;
        EXPECT_LE(v2.num_nulls, v2.num_values);
        EXPECT_LE(int64_t{v2.definition_levels_byte_length} + v2.repetition_levels_byte_length,
                  h.compressed_page_size);
        break;
      }
      default: ADD_FAILURE() << "unexpected page type " << PageTypeName(h.type);
    }
    rest = rest.subspan(header_size + static_cast<size_t>(h.compressed_page_size));
  }
  EXPECT_TRUE(rest.empty()) << rest.size() << " bytes of the chunk not walked";
  EXPECT_EQ(walk.values, md.num_values);
  return walk;
}

// Up to 1 KiB from `offset` (a page header is shorter), within the file.
Buffer ReadFrom(const pqsift::testing::OpenedFile& f, int64_t offset) {
  int64_t size = static_cast<int64_t>(f.file->size());
  return f.Read(offset, std::min<int64_t>(1024, size - offset));
}

TEST(PageHeaderTest, EveryPageOfEveryParquetTestingDataFile) {
  std::vector<std::string> files = pqsift::testing::ParquetTestingFiles("data");
  if (files.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  int chunks = 0;
  for (const std::string& path : files) {
    if (path.find("nation.dict-malformed") != std::string::npos) continue;  // broken on purpose
    SCOPED_TRACE(path);
    pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
    if (!f.file) continue;
    for (const RowGroup& rg : f.metadata->file().row_groups) {
      for (size_t c = 0; c < rg.columns.size(); ++c) {
        SCOPED_TRACE("column " + std::to_string(c));
        ChunkWalk walk = WalkChunk(f, rg.columns[c]);
        if (walk.v2_pages > 0 && walk.v1_pages == 0) {
          EXPECT_EQ(walk.v2_rows, rg.num_rows);
        }
        ++chunks;
      }
    }
  }
  EXPECT_GT(chunks, 100);
}

TEST(PageHeaderTest, DatapageV2HasV2PagesWithLevelLengths) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "datapage_v2.snappy.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  const RowGroup& rg = f.metadata->file().row_groups.at(0);
  EXPECT_EQ(rg.num_rows, 5);
  int v2 = 0;
  for (const ColumnChunk& chunk : rg.columns) {
    ChunkWalk walk = WalkChunk(f, chunk);
    v2 += walk.v2_pages;
    EXPECT_EQ(walk.v1_pages, 0);
    EXPECT_EQ(walk.v2_rows, 5);
  }
  EXPECT_GE(v2, static_cast<int>(rg.columns.size()));

  // The first data page of the first column (after its dictionary page), field by field.
  ChunkWalk walk = WalkChunk(f, rg.columns[0]);
  EXPECT_EQ(walk.dictionary_pages, 1);
  ASSERT_TRUE(walk.first_v2.has_value());
  const PageHeader& h = *walk.first_v2;
  ASSERT_EQ(h.type, PageType::kDataPageV2);
  ASSERT_TRUE(h.data_page_header_v2.has_value());
  EXPECT_FALSE(h.data_page_header.has_value());
  EXPECT_EQ(h.data_page_header_v2->num_rows, 5);
  EXPECT_GT(h.data_page_header_v2->definition_levels_byte_length, 0);
  EXPECT_GT(h.uncompressed_page_size, 0);
}

TEST(PageHeaderTest, FirstPagesOfTheBloomFilterFileHaveCrcs) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "data_index_bloom_encoding_stats.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  ChunkWalk walk = WalkChunk(f, f.metadata->file().row_groups.at(0).columns.at(0));
  EXPECT_EQ(walk.pages, walk.pages_with_crc);
  EXPECT_GE(walk.pages, 1);
  EXPECT_EQ(walk.values, 14);
}

TEST(PageHeaderTest, EveryTruncationOfRealHeadersIsAnError) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "datapage_v2.snappy.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  for (const ColumnChunk& chunk : f.metadata->file().row_groups.at(0).columns) {
    const ColumnMetaData& md = *chunk.meta_data;
    Buffer bytes = ReadFrom(f, md.data_page_offset);
    PageHeader full;
    size_t header_size = 0;
    ASSERT_TRUE(DecodePageHeader(bytes.span(), full, &header_size).ok());
    for (size_t len = 0; len < header_size; ++len) {
      PageHeader h;
      size_t n = 12345;
      Status st = DecodePageHeader(bytes.span().first(len), h, &n);
      ASSERT_FALSE(st.ok()) << len;
      EXPECT_EQ(st.code(), StatusCode::kCorruption);
      EXPECT_EQ(n, 12345u) << "header_size is set only on success";
    }
  }
}

// ---- hand-built ----

PageHeader V1Header() {
  PageHeader h;
  h.type = PageType::kDataPage;
  h.uncompressed_page_size = 120;
  h.compressed_page_size = 100;
  h.crc = -12345;
  DataPageHeader& d = h.data_page_header.emplace();
  d.num_values = 42;
  d.encoding = Encoding::kRleDictionary;
  d.definition_level_encoding = Encoding::kRle;
  d.repetition_level_encoding = Encoding::kBitPacked;
  Statistics& s = d.statistics.emplace();
  s.min_value = "a";
  s.max_value = "z";
  s.null_count = 3;
  return h;
}

PageHeader V2Header() {
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = 300;
  h.compressed_page_size = 200;
  DataPageHeaderV2& d = h.data_page_header_v2.emplace();
  d.num_values = 50;
  d.num_nulls = 5;
  d.num_rows = 20;
  d.encoding = Encoding::kDeltaBinaryPacked;
  d.definition_levels_byte_length = 10;
  d.repetition_levels_byte_length = 7;
  d.is_compressed = false;
  d.statistics.emplace().nan_count = 1;
  return h;
}

PageHeader DictionaryHeader() {
  PageHeader h;
  h.type = PageType::kDictionaryPage;
  h.uncompressed_page_size = 64;
  h.compressed_page_size = 64;
  DictionaryPageHeader& d = h.dictionary_page_header.emplace();
  d.num_values = 8;
  d.encoding = Encoding::kPlainDictionary;
  d.is_sorted = true;
  return h;
}

Status DecodeBytes(const std::string& bytes, PageHeader& out, size_t* size) {
  return DecodePageHeader(AsBytes(bytes), out, size);
}

TEST(PageHeaderTest, EachVariantRoundTripsAndReportsItsSize) {
  for (const PageHeader& in : {V1Header(), V2Header(), DictionaryHeader()}) {
    for (bool noise : {false, true}) {
      SCOPED_TRACE(PageTypeName(in.type) + (noise ? " with unknown fields" : ""));
      EncodeOptions o;
      o.unknown_fields = noise;
      std::string header = MetadataEncoder(o).PageHeader(in).Take();
      std::string bytes = header + std::string(100, '\x7f');  // the page body follows
      PageHeader out;
      size_t size = 0;
      Status st = DecodeBytes(bytes, out, &size);
      ASSERT_TRUE(st.ok()) << st.ToString();
      EXPECT_EQ(size, header.size());
      EXPECT_EQ(DumpToString(out), DumpToString(in));
    }
  }
}

TEST(PageHeaderTest, V2IsCompressedDefaultsToTrue) {
  thrift::CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, static_cast<int32_t>(PageType::kDataPageV2));
  w.WriteI32Field(2, 10);
  w.WriteI32Field(3, 10);
  w.WriteStructFieldHeader(8);
  w.BeginStruct();
  for (int16_t id = 1; id <= 6; ++id) w.WriteI32Field(id, 0);
  w.EndStruct();
  w.EndStruct();
  PageHeader out;
  size_t size = 0;
  ASSERT_TRUE(DecodeBytes(w.Take(), out, &size).ok());
  EXPECT_TRUE(out.data_page_header_v2->is_compressed);
}

TEST(PageHeaderTest, MissingRequiredFields) {
  struct Case {
    const char* field;
    PageHeader header;
  };
  const Case cases[] = {
      {"PageHeader.type", V1Header()},
      {"PageHeader.uncompressed_page_size", V1Header()},
      {"PageHeader.compressed_page_size", V1Header()},
      {"DataPageHeader.num_values", V1Header()},
      {"DataPageHeader.encoding", V1Header()},
      {"DataPageHeader.definition_level_encoding", V1Header()},
      {"DataPageHeader.repetition_level_encoding", V1Header()},
      {"DataPageHeaderV2.num_values", V2Header()},
      {"DataPageHeaderV2.num_nulls", V2Header()},
      {"DataPageHeaderV2.num_rows", V2Header()},
      {"DataPageHeaderV2.encoding", V2Header()},
      {"DataPageHeaderV2.definition_levels_byte_length", V2Header()},
      {"DataPageHeaderV2.repetition_levels_byte_length", V2Header()},
      {"DictionaryPageHeader.num_values", DictionaryHeader()},
      {"DictionaryPageHeader.encoding", DictionaryHeader()},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.field);
    std::string bytes = MetadataEncoder(EncodeOptions::Omit(c.field)).PageHeader(c.header).Take();
    PageHeader out;
    size_t size = 0;
    Status st = DecodeBytes(bytes, out, &size);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_EQ(st.message().rfind("malformed page header: " + std::string(c.field) +
                                     " (required) is missing at byte ",
                                 0),
              0u)
        << st.message();
  }
}

void ExpectInvalid(const PageHeader& h, const std::string& what) {
  std::string bytes = MetadataEncoder().PageHeader(h).Take();
  PageHeader out;
  size_t size = 0;
  Status st = DecodeBytes(bytes, out, &size);
  EXPECT_EQ(st, Status::Corruption("invalid page header: " + what));
}

TEST(PageHeaderTest, NegativeSizesAndCounts) {
  PageHeader h = V1Header();
  h.compressed_page_size = -1;
  ExpectInvalid(h, "negative page size");
  h = V1Header();
  h.uncompressed_page_size = INT32_MIN;
  ExpectInvalid(h, "negative page size");
  h = V1Header();
  h.data_page_header->num_values = -1;
  ExpectInvalid(h, "negative num_values");
  h = DictionaryHeader();
  h.dictionary_page_header->num_values = -8;
  ExpectInvalid(h, "negative dictionary num_values");
  for (int field = 0; field < 3; ++field) {
    h = V2Header();
    DataPageHeaderV2& v2 = *h.data_page_header_v2;
    (field == 0 ? v2.num_values : field == 1 ? v2.num_nulls : v2.num_rows) = -1;
    ExpectInvalid(h, "negative or inconsistent value counts in a v2 data page");
  }
}

TEST(PageHeaderTest, V2NullsBeyondValues) {
  PageHeader h = V2Header();
  h.data_page_header_v2->num_nulls = 51;
  ExpectInvalid(h, "negative or inconsistent value counts in a v2 data page");
  h.data_page_header_v2->num_nulls = 50;  // all null is fine
  std::string bytes = MetadataEncoder().PageHeader(h).Take();
  PageHeader out;
  size_t size = 0;
  EXPECT_TRUE(DecodeBytes(bytes, out, &size).ok());
}

TEST(PageHeaderTest, V2LevelLengthsBeyondThePage) {
  const std::string msg = "v2 level lengths exceed the compressed page size";
  PageHeader h = V2Header();
  h.data_page_header_v2->definition_levels_byte_length = 201;
  h.data_page_header_v2->repetition_levels_byte_length = 0;
  ExpectInvalid(h, msg);
  h = V2Header();
  h.data_page_header_v2->definition_levels_byte_length = 150;
  h.data_page_header_v2->repetition_levels_byte_length = 51;  // sum 201 > 200
  ExpectInvalid(h, msg);
  h = V2Header();
  h.data_page_header_v2->definition_levels_byte_length = INT32_MAX;  // no int overflow
  h.data_page_header_v2->repetition_levels_byte_length = INT32_MAX;
  ExpectInvalid(h, msg);
  h = V2Header();
  h.data_page_header_v2->repetition_levels_byte_length = -1;
  ExpectInvalid(h, msg);
  h = V2Header();
  h.data_page_header_v2->definition_levels_byte_length = 100;
  h.data_page_header_v2->repetition_levels_byte_length = 100;  // exactly the page: fine
  std::string bytes = MetadataEncoder().PageHeader(h).Take();
  PageHeader out;
  size_t size = 0;
  EXPECT_TRUE(DecodeBytes(bytes, out, &size).ok());
}

TEST(PageHeaderTest, VariantHeaderMustMatchTheType) {
  PageHeader h = V1Header();
  h.data_page_header.reset();
  ExpectInvalid(h, "DATA_PAGE without data_page_header");
  h = V2Header();
  h.data_page_header_v2.reset();
  ExpectInvalid(h, "DATA_PAGE_V2 without data_page_header_v2");
  h = DictionaryHeader();
  h.dictionary_page_header.reset();
  ExpectInvalid(h, "DICTIONARY_PAGE without dictionary_page_header");
  // A v1 type with only a v2 header is missing its v1 header.
  h = V2Header();
  h.type = PageType::kDataPage;
  ExpectInvalid(h, "DATA_PAGE without data_page_header");
}

TEST(PageHeaderTest, IndexAndUnknownPageTypesAreAccepted) {
  for (PageType t : {PageType::kIndexPage, static_cast<PageType>(9)}) {
    PageHeader h;
    h.type = t;
    h.compressed_page_size = 5;
    h.uncompressed_page_size = 5;
    std::string bytes = MetadataEncoder().PageHeader(h).Take();
    PageHeader out;
    size_t size = 0;
    Status st = DecodeBytes(bytes, out, &size);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(out.type, t);
    EXPECT_EQ(size, bytes.size());
  }
  EXPECT_EQ(PageTypeName(static_cast<PageType>(9)), "UNKNOWN(9)");
  EXPECT_EQ(PageTypeName(PageType::kDataPageV2), "DATA_PAGE_V2");
}

TEST(PageHeaderTest, WrongWireTypeForTheVariantHeaderIsAbsent) {
  thrift::CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 0);
  w.WriteI32Field(2, 1);
  w.WriteI32Field(3, 1);
  w.WriteI32Field(5, 7);  // data_page_header as an i32: skipped
  w.EndStruct();
  PageHeader out;
  size_t size = 0;
  Status st = DecodeBytes(w.Take(), out, &size);
  EXPECT_EQ(st.message(), "invalid page header: DATA_PAGE without data_page_header");
}

TEST(PageHeaderTest, MistypedKnownFieldsAreSkippedAsAbsent) {
  // A v2 data page header whose crc, statistics, num_nulls' neighbour is_compressed and an
  // extra dictionary_page_header carry other wire types: each is skipped, the rest decodes.
  auto encode = [](bool mistyped) {
    thrift::CompactWriter w;
    w.BeginStruct();
    w.WriteI32Field(1, static_cast<int32_t>(PageType::kDataPageV2));
    w.WriteI32Field(2, 10);
    w.WriteI32Field(3, 10);
    if (mistyped) w.WriteBinaryField(4, "crc");  // crc as binary
    if (mistyped) w.WriteI64Field(7, 3);         // dictionary_page_header as i64
    w.WriteStructFieldHeader(8);
    w.BeginStruct();
    w.WriteI32Field(1, 4);
    w.WriteI32Field(2, 1);
    w.WriteI32Field(3, 4);
    w.WriteI32Field(4, 0);
    w.WriteI32Field(5, 2);
    w.WriteI32Field(6, 0);
    if (mistyped) {
      w.WriteI32Field(7, 0);  // is_compressed as i32: skipped, so the default (true)
      w.WriteListFieldHeader(8, thrift::CType::kStruct, 1);  // statistics as list<struct>
      w.BeginStruct();
      w.WriteI64Field(3, 1);
      w.EndStruct();
    }
    w.EndStruct();
    w.EndStruct();
    return w.Take();
  };
  PageHeader plain, mistyped;
  size_t plain_size = 0, mistyped_size = 0;
  std::string plain_bytes = encode(false), mistyped_bytes = encode(true);
  ASSERT_TRUE(DecodeBytes(plain_bytes, plain, &plain_size).ok());
  Status st = DecodeBytes(mistyped_bytes, mistyped, &mistyped_size);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(mistyped_size, mistyped_bytes.size());
  EXPECT_EQ(DumpToString(mistyped), DumpToString(plain));
  EXPECT_FALSE(mistyped.crc);
  EXPECT_FALSE(mistyped.dictionary_page_header);
  EXPECT_TRUE(mistyped.data_page_header_v2->is_compressed);
  EXPECT_FALSE(mistyped.data_page_header_v2->statistics);
}

TEST(PageHeaderTest, MistypedRequiredFieldIsMissing) {
  thrift::CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 0);
  w.WriteDoubleField(2, 1.0);  // uncompressed_page_size as double
  w.WriteI32Field(3, 1);
  w.EndStruct();
  PageHeader out;
  size_t size = 0;
  Status st = DecodeBytes(w.Take(), out, &size);
  EXPECT_EQ(
      st.message().rfind(
          "malformed page header: PageHeader.uncompressed_page_size (required) is missing", 0),
      0u)
      << st.message();
}

TEST(PageHeaderTest, EmptyInput) {
  PageHeader out;
  size_t size = 0;
  EXPECT_EQ(DecodeBytes("", out, &size).message(),
            "malformed page header: truncated struct (no stop field) at byte 0");
}

}  // namespace
}  // namespace pqsift::format
