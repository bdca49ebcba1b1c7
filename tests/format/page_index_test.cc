// Column index and offset index: real ones from parquet-testing (read at the offsets the footer
// gives, checked against each other, the row group and the page headers they point at), and
// hand-built malformed ones.
#include "format/page_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "format/page_header.h"
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
using thrift::CompactWriter;
using thrift::CType;

// Checks every column chunk of `path` that has a page index; returns how many it checked.
int CheckPageIndexes(const std::string& path) {
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  if (!f.file) return 0;
  const FileMetaData& meta = f.metadata->file();
  int checked = 0;
  for (size_t g = 0; g < meta.row_groups.size(); ++g) {
    const RowGroup& rg = meta.row_groups[g];
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& chunk = rg.columns[c];
      SCOPED_TRACE("row group " + std::to_string(g) + ", column " + std::to_string(c));
      if (!chunk.offset_index_offset) continue;
      EXPECT_TRUE(chunk.offset_index_length.has_value());
      Buffer oi_bytes = f.Read(*chunk.offset_index_offset, chunk.offset_index_length.value_or(0));
      OffsetIndex oi;
      Status st = DecodeOffsetIndex(oi_bytes.span(), oi);
      EXPECT_TRUE(st.ok()) << st.ToString();
      if (!st.ok()) continue;
      ++checked;

      // Pages: first_row_index starts at 0 and increases; the page rows add up to the group's.
      const std::vector<PageLocation>& pages = oi.page_locations;
      EXPECT_FALSE(pages.empty());
      if (pages.empty()) continue;
      EXPECT_EQ(pages[0].first_row_index, 0);
      int64_t rows = 0;
      for (size_t p = 0; p < pages.size(); ++p) {
        int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : rg.num_rows;
        EXPECT_GT(end, pages[p].first_row_index) << "page " << p;
        rows += end - pages[p].first_row_index;
      }
      EXPECT_EQ(rows, rg.num_rows);

      // Locations lie inside the chunk, the first at data_page_offset, in order, and each page
      // header there is a data page whose header plus body fills the location exactly.
      const ColumnMetaData& md = *chunk.meta_data;
      int64_t chunk_start = md.dictionary_page_offset.value_or(md.data_page_offset);
      if (md.dictionary_page_offset && *md.dictionary_page_offset == 0) {
        chunk_start = md.data_page_offset;  // some writers write 0 for "no dictionary"
      }
      int64_t chunk_end = chunk_start + md.total_compressed_size;
      // The first data page is at data_page_offset, or (parquet-mr 1.12 with no
      // dictionary_page_offset) after a dictionary page that sits at data_page_offset.
      EXPECT_GE(pages[0].offset, md.data_page_offset);
      if (pages[0].offset != md.data_page_offset) {
        Buffer dict = f.Read(md.data_page_offset, pages[0].offset - md.data_page_offset);
        PageHeader dh;
        size_t dh_size = 0;
        Status ds = DecodePageHeader(dict.span(), dh, &dh_size);
        EXPECT_TRUE(ds.ok()) << ds.ToString();
        EXPECT_EQ(dh.type, PageType::kDictionaryPage);
        EXPECT_EQ(static_cast<int64_t>(dh_size) + dh.compressed_page_size,
                  pages[0].offset - md.data_page_offset);
      }
      int64_t values = 0;
      for (size_t p = 0; p < pages.size(); ++p) {
        SCOPED_TRACE("page " + std::to_string(p));
        const PageLocation& loc = pages[p];
        EXPECT_GE(loc.offset, chunk_start);
        EXPECT_LE(loc.offset + loc.compressed_page_size, chunk_end);
        if (p > 0) {
          EXPECT_EQ(loc.offset, pages[p - 1].offset + pages[p - 1].compressed_page_size);
        }
        Buffer page = f.Read(loc.offset, loc.compressed_page_size);
        PageHeader h;
        size_t header_size = 0;
        Status hs = DecodePageHeader(page.span(), h, &header_size);
        EXPECT_TRUE(hs.ok()) << hs.ToString();
        if (!hs.ok()) continue;
        EXPECT_TRUE(h.type == PageType::kDataPage || h.type == PageType::kDataPageV2);
        EXPECT_EQ(static_cast<int64_t>(header_size) + h.compressed_page_size,
                  loc.compressed_page_size);
        values +=
            h.data_page_header ? h.data_page_header->num_values : h.data_page_header_v2->num_values;
        if (h.data_page_header_v2) {
          int64_t page_rows = (p + 1 < pages.size() ? pages[p + 1].first_row_index : rg.num_rows) -
                              loc.first_row_index;
          EXPECT_EQ(h.data_page_header_v2->num_rows, page_rows);
        }
      }
      EXPECT_EQ(values, md.num_values);
      if (!oi.unencoded_byte_array_data_bytes.empty()) {
        EXPECT_EQ(oi.unencoded_byte_array_data_bytes.size(), pages.size());
      }

      // The column index, when present, has one entry per page in every list.
      if (!chunk.column_index_offset) continue;
      Buffer ci_bytes = f.Read(*chunk.column_index_offset, chunk.column_index_length.value_or(0));
      ColumnIndex ci;
      Status cs = DecodeColumnIndex(ci_bytes.span(), ci);
      EXPECT_TRUE(cs.ok()) << cs.ToString();
      if (!cs.ok()) continue;
      EXPECT_EQ(ci.null_pages.size(), pages.size());
      EXPECT_EQ(ci.min_values.size(), pages.size());
      EXPECT_EQ(ci.max_values.size(), pages.size());
      if (ci.null_counts) {
        EXPECT_EQ(ci.null_counts->size(), pages.size());
      }
      EXPECT_GE(static_cast<int>(ci.boundary_order), 0);
      EXPECT_LE(static_cast<int>(ci.boundary_order), 2);
      // Views point into the bytes read.
      for (std::string_view v : ci.min_values) {
        if (v.empty()) continue;
        EXPECT_GE(reinterpret_cast<const uint8_t*>(v.data()), ci_bytes.data());
        EXPECT_LE(reinterpret_cast<const uint8_t*>(v.data() + v.size()),
                  ci_bytes.data() + ci_bytes.size());
      }
      // Fixed-width types have fixed-width bounds on pages that are not all null.
      size_t width = 0;
      switch (md.type) {
        case PhysicalType::kInt32:
        case PhysicalType::kFloat: width = 4; break;
        case PhysicalType::kInt64:
        case PhysicalType::kDouble: width = 8; break;
        default: break;
      }
      for (size_t p = 0; p < pages.size() && width > 0; ++p) {
        if (ci.null_pages[p]) continue;
        EXPECT_EQ(ci.min_values[p].size(), width) << "page " << p;
        EXPECT_EQ(ci.max_values[p].size(), width) << "page " << p;
      }
    }
  }
  return checked;
}

TEST(PageIndexTest, AlltypesTinyPagesHasAPageIndexForEveryColumn) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  const RowGroup& rg = f.metadata->file().row_groups.at(0);
  EXPECT_EQ(rg.num_rows, 7300);
  for (const ColumnChunk& c : rg.columns) {
    EXPECT_TRUE(c.offset_index_offset.has_value());
    // parquet-mr writes no column index for INT96 (its order is undefined).
    EXPECT_EQ(c.column_index_offset.has_value(), c.meta_data->type != PhysicalType::kInt96);
  }
  EXPECT_EQ(CheckPageIndexes(path), static_cast<int>(rg.columns.size()));
}

TEST(PageIndexTest, AlltypesTinyPagesIdColumnBounds) {
  // The "id" column (INT32, 0..7299): every page has bounds, and together they span it.
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  const ColumnDescriptor* id = f.metadata->schema().FindColumn("id");
  ASSERT_NE(id, nullptr);
  const ColumnChunk& chunk =
      f.metadata->file().row_groups[0].columns[f.metadata->schema().nodes()[id->node].column_index];
  Buffer ci_bytes = f.Read(*chunk.column_index_offset, *chunk.column_index_length);
  Buffer oi_bytes = f.Read(*chunk.offset_index_offset, *chunk.offset_index_length);
  ColumnIndex ci;
  OffsetIndex oi;
  ASSERT_TRUE(DecodeColumnIndex(ci_bytes.span(), ci).ok());
  ASSERT_TRUE(DecodeOffsetIndex(oi_bytes.span(), oi).ok());
  ASSERT_GT(ci.min_values.size(), 1u);
  auto load = [](std::string_view v) {
    int32_t x;
    std::memcpy(&x, v.data(), 4);
    return x;
  };
  EXPECT_EQ(ci.min_values.size(), oi.page_locations.size());
  int32_t lowest = INT32_MAX;
  int32_t highest = INT32_MIN;
  for (size_t p = 0; p < ci.min_values.size(); ++p) {
    int32_t lo = load(ci.min_values[p]);
    int32_t hi = load(ci.max_values[p]);
    EXPECT_LE(lo, hi) << "page " << p;
    EXPECT_FALSE(ci.null_pages[p]);
    if (ci.null_counts) {
      EXPECT_EQ((*ci.null_counts)[p], 0);
    }
    lowest = std::min(lowest, lo);
    highest = std::max(highest, hi);
  }
  EXPECT_EQ(lowest, 0);
  EXPECT_EQ(highest, 7299);
}

TEST(PageIndexTest, EveryParquetTestingFileWithAPageIndexIsConsistent) {
  std::vector<std::string> files = pqsift::testing::ParquetTestingFiles("data");
  if (files.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  int files_with_index = 0;
  for (const std::string& path : files) {
    if (path.find("nation.dict-malformed") != std::string::npos) continue;  // broken on purpose
    SCOPED_TRACE(path);
    if (CheckPageIndexes(path) > 0) ++files_with_index;
  }
  // The README lists 14 files with an offset index (CI+OI or OI).
  EXPECT_GE(files_with_index, 14);
}

// ---- hand-built ----

OffsetIndex SampleOffsetIndex() {
  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 90, 10}, {194, 80, 25}};
  oi.unencoded_byte_array_data_bytes = {7, 8, 9};
  return oi;
}

ColumnIndex SampleColumnIndex() {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", std::string_view("\x00\x01", 2)};
  ci.max_values = {"m", "", "zz"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = std::vector<int64_t>{0, 15, 2};
  ci.repetition_level_histograms = {1, 2, 3, 4, 5, 6};
  ci.definition_level_histograms = {6, 5, 4, 3, 2, 1};
  ci.nan_counts = std::vector<int64_t>{0, 0, 1};
  return ci;
}

TEST(PageIndexTest, OffsetIndexRoundTrips) {
  for (bool noise : {false, true}) {
    EncodeOptions o;
    o.unknown_fields = noise;
    std::string bytes = MetadataEncoder(o).OffsetIndex(SampleOffsetIndex()).Take();
    OffsetIndex out;
    Status st = DecodeOffsetIndex(AsBytes(bytes), out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(DumpToString(out), DumpToString(SampleOffsetIndex()));
  }
}

TEST(PageIndexTest, ColumnIndexRoundTrips) {
  for (bool noise : {false, true}) {
    EncodeOptions o;
    o.unknown_fields = noise;
    std::string bytes = MetadataEncoder(o).ColumnIndex(SampleColumnIndex()).Take();
    ColumnIndex out;
    Status st = DecodeColumnIndex(AsBytes(bytes), out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(DumpToString(out), DumpToString(SampleColumnIndex()));
  }
}

TEST(PageIndexTest, ColumnIndexNullPagesAcceptBothFalseEncodings) {
  ColumnIndex ci = SampleColumnIndex();
  std::string bytes = MetadataEncoder().ColumnIndex(ci).Take();
  // null_pages is the first field: header 0x19, list header 0x31, then 02 01 02. Rewrite the
  // false elements as 0, as some writers do.
  ASSERT_EQ(bytes.substr(0, 5), std::string("\x19\x31\x02\x01\x02", 5));
  bytes[2] = '\0';
  bytes[4] = '\0';
  ColumnIndex out;
  ASSERT_TRUE(DecodeColumnIndex(AsBytes(bytes), out).ok());
  EXPECT_EQ(out.null_pages, (std::vector<bool>{false, true, false}));
}

TEST(PageIndexTest, MistypedFieldsOfAColumnIndexAreSkippedAsAbsent) {
  ColumnIndex ci = SampleColumnIndex();
  ci.null_counts.reset();
  ci.repetition_level_histograms.clear();
  ci.definition_level_histograms.clear();
  ci.nan_counts.reset();
  const std::string plain = MetadataEncoder().ColumnIndex(ci).Take();
  // The last field is boundary_order (4); before the stop, append null_counts (5) as an i64
  // (header: delta 1, type 6; value zigzag 7) and nan_counts (8) as a binary (delta 3, type 8).
  ASSERT_EQ(plain.back(), '\0');
  std::string mistyped =
      plain.substr(0, plain.size() - 1) + std::string("\x16\x0e\x38\x01x\x00", 6);
  ColumnIndex want, got;
  ASSERT_TRUE(DecodeColumnIndex(AsBytes(plain), want).ok());
  Status st = DecodeColumnIndex(AsBytes(mistyped), got);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_FALSE(got.null_counts);
  EXPECT_FALSE(got.nan_counts);
  EXPECT_EQ(DumpToString(got), DumpToString(want));
}

TEST(PageIndexTest, AMistypedPageLocationFieldIsMissing) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteListFieldHeader(1, CType::kStruct, 1);
  w.BeginStruct();
  w.WriteI64Field(1, 4);
  w.WriteBinaryField(2, "10");  // compressed_page_size as binary
  w.WriteI64Field(3, 0);
  w.EndStruct();
  w.EndStruct();
  OffsetIndex out;
  Status st = DecodeOffsetIndex(AsBytes(w.Take()), out);
  EXPECT_EQ(
      st.message().rfind(
          "malformed offset index: PageLocation.compressed_page_size (required) is missing", 0),
      0u)
      << st.message();
}

TEST(PageIndexTest, OffsetIndexMissingRequiredFields) {
  for (const char* field : {"OffsetIndex.page_locations", "PageLocation.offset",
                            "PageLocation.compressed_page_size", "PageLocation.first_row_index"}) {
    SCOPED_TRACE(field);
    std::string bytes =
        MetadataEncoder(EncodeOptions::Omit(field)).OffsetIndex(SampleOffsetIndex()).Take();
    OffsetIndex out;
    Status st = DecodeOffsetIndex(AsBytes(bytes), out);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_EQ(
        st.message().rfind(
            "malformed offset index: " + std::string(field) + " (required) is missing at byte ", 0),
        0u)
        << st.message();
  }
}

TEST(PageIndexTest, ColumnIndexMissingRequiredFields) {
  for (const char* field : {"ColumnIndex.null_pages", "ColumnIndex.min_values",
                            "ColumnIndex.max_values", "ColumnIndex.boundary_order"}) {
    SCOPED_TRACE(field);
    std::string bytes =
        MetadataEncoder(EncodeOptions::Omit(field)).ColumnIndex(SampleColumnIndex()).Take();
    ColumnIndex out;
    Status st = DecodeColumnIndex(AsBytes(bytes), out);
    EXPECT_EQ(st.code(), StatusCode::kCorruption);
    EXPECT_EQ(
        st.message().rfind(
            "malformed column index: " + std::string(field) + " (required) is missing at byte ", 0),
        0u)
        << st.message();
  }
}

void ExpectOffsetIndexError(const OffsetIndex& oi, const std::string& message) {
  std::string bytes = MetadataEncoder().OffsetIndex(oi).Take();
  OffsetIndex out;
  Status st = DecodeOffsetIndex(AsBytes(bytes), out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), message);
}

TEST(PageIndexTest, OffsetIndexLocationsMustBeNonNegativeAndIncreasing) {
  const std::string bad_page1 =
      "offset index: page 1 has a negative location or a first_row_index that does not increase";
  OffsetIndex oi = SampleOffsetIndex();
  oi.page_locations[1].first_row_index = 0;  // equal to the previous
  ExpectOffsetIndexError(oi, bad_page1);
  oi = SampleOffsetIndex();
  oi.page_locations[1].first_row_index = 30;  // beyond the next one: page 2 goes back
  ExpectOffsetIndexError(oi,
                         "offset index: page 2 has a negative location or a first_row_index that "
                         "does not increase");
  oi = SampleOffsetIndex();
  oi.page_locations[1].offset = -1;
  ExpectOffsetIndexError(oi, bad_page1);
  oi = SampleOffsetIndex();
  oi.page_locations[1].compressed_page_size = -1;
  ExpectOffsetIndexError(oi, bad_page1);
  oi = SampleOffsetIndex();
  oi.page_locations[0].first_row_index = -3;
  ExpectOffsetIndexError(oi,
                         "offset index: page 0 has a negative location or a first_row_index that "
                         "does not increase");
}

void ExpectColumnIndexError(const ColumnIndex& ci, const std::string& message) {
  std::string bytes = MetadataEncoder().ColumnIndex(ci).Take();
  ColumnIndex out;
  Status st = DecodeColumnIndex(AsBytes(bytes), out);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), message);
}

TEST(PageIndexTest, ColumnIndexListsOfDifferentLengths) {
  const std::string msg = "column index: its lists disagree on the number of pages";
  ColumnIndex ci = SampleColumnIndex();
  ci.min_values.pop_back();
  ExpectColumnIndexError(ci, msg);
  ci = SampleColumnIndex();
  ci.max_values.push_back("extra");
  ExpectColumnIndexError(ci, msg);
  ci = SampleColumnIndex();
  ci.null_pages.push_back(false);
  ExpectColumnIndexError(ci, msg);
  ci = SampleColumnIndex();
  ci.null_counts->pop_back();
  ExpectColumnIndexError(ci, msg);
  ci = SampleColumnIndex();
  ci.nan_counts->push_back(0);
  ExpectColumnIndexError(ci, msg);
}

TEST(PageIndexTest, ColumnIndexWithNoPagesIsEmptyButValid) {
  ColumnIndex ci;
  std::string bytes = MetadataEncoder().ColumnIndex(ci).Take();
  ColumnIndex out;
  ASSERT_TRUE(DecodeColumnIndex(AsBytes(bytes), out).ok());
  EXPECT_TRUE(out.null_pages.empty());
  EXPECT_FALSE(out.null_counts.has_value());
}

TEST(PageIndexTest, HostileListCountsFailCleanly) {
  // A page_locations list claiming 2^30 entries in a few bytes.
  CompactWriter w;
  w.WriteFieldHeader(1, CType::kList);
  w.WriteRaw(std::string(1, '\xfc'));
  w.WriteVarint(uint64_t{1} << 30);
  w.WriteRaw(std::string(8, '\0'));
  std::string bytes = w.Take();
  OffsetIndex oi;
  Status st = DecodeOffsetIndex(AsBytes(bytes), oi);
  EXPECT_NE(st.message().find("list of 1073741824 elements exceeds the 8 bytes left"),
            std::string::npos)
      << st.message();
  // A bool list for null_pages likewise.
  CompactWriter b;
  b.WriteFieldHeader(1, CType::kList);
  b.WriteRaw(std::string(1, '\xf1'));
  b.WriteVarint(uint64_t{1} << 30);
  b.WriteRaw(std::string(8, '\x01'));
  std::string bbytes = b.Take();
  ColumnIndex ci;
  st = DecodeColumnIndex(AsBytes(bbytes), ci);
  EXPECT_NE(st.message().find("exceeds the 8 bytes left"), std::string::npos) << st.message();
}

TEST(PageIndexTest, LargeListsOfSmallValuesDecode) {
  // 100,000 one-byte i64 entries: small when decoded, within the budget.
  CompactWriter w;
  w.WriteListFieldHeader(1, CType::kStruct, 0);
  w.WriteListFieldHeader(2, CType::kI64, 100'000);
  w.WriteRaw(std::string(100'000, '\x02'));
  w.WriteRaw(std::string(1, '\0'));
  std::string bytes = w.Take();
  OffsetIndex oi;
  Status st = DecodeOffsetIndex(AsBytes(bytes), oi);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(oi.unencoded_byte_array_data_bytes.size(), 100'000u);
  EXPECT_EQ(oi.unencoded_byte_array_data_bytes[5], 1);
}

TEST(PageIndexTest, EveryTruncationOfARealIndexIsAnError) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
  pqsift::testing::OpenedFile f = pqsift::testing::OpenParquet(path);
  ASSERT_TRUE(f.file);
  const ColumnChunk& chunk = f.metadata->file().row_groups[0].columns[0];
  Buffer oi_bytes = f.Read(*chunk.offset_index_offset, *chunk.offset_index_length);
  Buffer ci_bytes = f.Read(*chunk.column_index_offset, *chunk.column_index_length);
  for (size_t len = 0; len < oi_bytes.size(); ++len) {
    OffsetIndex oi;
    ASSERT_FALSE(DecodeOffsetIndex(oi_bytes.span().first(len), oi).ok()) << len;
  }
  for (size_t len = 0; len < ci_bytes.size(); ++len) {
    ColumnIndex ci;
    ASSERT_FALSE(DecodeColumnIndex(ci_bytes.span().first(len), ci).ok()) << len;
  }
}

TEST(PageIndexTest, EnumNames) {
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kUnordered), "UNORDERED");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kDescending), "DESCENDING");
  EXPECT_EQ(BoundaryOrderName(static_cast<BoundaryOrder>(3)), "UNKNOWN(3)");
}

}  // namespace
}  // namespace pqsift::format
