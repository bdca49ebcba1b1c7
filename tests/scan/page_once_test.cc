// A page is decompressed and decoded at most once per scan, whatever the slice size: files
// written with pages from one row to one page per column chunk, v1 and v2, with and without a
// page index, flat, dictionary-encoded and nested columns, scanned with slices of 1 row to the
// default. Every scan returns the rows of a scan in one slice per row group, and a scan that
// reads every row decompresses exactly the file's pages (data and dictionary), once each.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "arrow/layout.h"
#include "column/page_directory.h"
#include "write/written_file.h"

namespace pqsift {
namespace {

using testing::ScanWritten;
using testing::Write;

constexpr int64_t kRows = 3000;

// The rows written, then the footer read again with an 8-byte tail read: the metadata holds no
// chunk bytes, so every chunk byte a scan uses is fetched (and counted). Null metadata on failure.
testing::Written WriteFooterOnly(const RecordBatch& rows, const WriterOptions& write) {
  testing::Written w = Write(rows, write);
  if (w.metadata == nullptr) return w;
  OpenOptions footer_only;
  footer_only.tail_bytes = 8;
  auto md = ReadParquetMetadata(*w.file, footer_only);
  w.metadata = md.ok() ? *md : nullptr;
  return w;
}

// id int64 (sorted), k utf8 (7 values: dictionary pages), d float64 (nullable),
// tags list<int32> (0-3 elements, some lists null).
RecordBatch Rows() {
  auto element = Field{"element", Int32(), false};
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false},
                    {"k", LargeUtf8(), false},
                    {"d", Float64(), true},
                    {"tags", LargeList(element), true}};
  FixedWidthArrayBuilder<int64_t> id(Int64());
  BinaryArrayBuilder k(LargeUtf8());
  FixedWidthArrayBuilder<double> d(Float64());
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    k.Append(std::string_view("key" + std::to_string(i * 5 % 7)));
    if (i % 11 == 0) {
      d.AppendNull();
    } else {
      d.Append(static_cast<double>(i) / 4);
    }
  }
  auto tags = testing::SampleLists(kRows, schema->fields[3].type);
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRows;
  batch.columns = {id.Finish(), k.Finish(), d.Finish(), tags};
  return batch;
}

// Every page of the file (data and dictionary), from the chunks' headers.
int64_t PagesOf(const testing::Written& w) {
  int64_t pages = 0;
  const FileMetaData& file = w.metadata->file();
  for (size_t g = 0; g < file.row_groups.size(); ++g) {
    for (size_t c = 0; c < file.row_groups[g].columns.size(); ++c) {
      const ColumnMetaData& meta = *file.row_groups[g].columns[c].meta_data;
      auto range = column::ColumnChunkRange(meta, w.bytes.size(), "chunk");
      EXPECT_TRUE(range.ok());
      auto directory = column::BuildPageDirectory(
          std::span<const uint8_t>(w.bytes).subspan(range->offset, range->length), range->offset,
          w.metadata->schema().columns()[c].max_repetition_level == 0, "chunk");
      EXPECT_TRUE(directory.ok()) << directory.status().ToString();
      if (directory.ok()) pages += static_cast<int64_t>(directory->pages().size());
    }
  }
  return pages;
}

struct Layout {
  int64_t page_rows;
  int64_t row_group_rows;
  bool v2;
  bool page_index;
  CompressionCodec codec;
};

class PageOnce : public ::testing::TestWithParam<Layout> {};

TEST_P(PageOnce, EveryPageDecompressedOnceWhateverTheSlices) {
  const Layout& layout = GetParam();
  WriterOptions options;
  options.page_rows = layout.page_rows;
  options.row_group_rows = layout.row_group_rows;
  options.data_page_v2 = layout.v2;
  options.page_index = layout.page_index;
  options.compression = layout.codec;
  RecordBatch batch = Rows();
  testing::Written w = Write(batch, options);
  ASSERT_NE(w.metadata, nullptr);
  const int64_t pages = PagesOf(w);

  ScanOptions one_slice;
  one_slice.threads = 1;
  testing::ScannedBatches reference = ScanWritten(w, one_slice);
  ASSERT_EQ(reference.rows(), kRows);
  EXPECT_EQ(static_cast<int64_t>(reference.stats.pages_decompressed), pages);

  for (int64_t slice_rows : {1, 7, 100, 1499}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("slice_rows " + std::to_string(slice_rows) + ", threads " +
                   std::to_string(threads));
      ScanOptions options;
      options.threads = threads;
      options.slice_rows = slice_rows;
      options.batch_size = 64;
      // Two threads: chunks without an offset index get page locations from their headers.
      if (threads == 2) options.page_locations_min_chunk_bytes = 0;
      testing::ScannedBatches full = ScanWritten(w, options);
      ASSERT_EQ(full.rows(), kRows);
      testing::ExpectSameRows(full, reference);
      EXPECT_EQ(static_cast<int64_t>(full.stats.pages_decompressed), pages);

      // A filter column that is also returned, and one that is not; rows proven by the page
      // index (id is sorted) next to rows the filter decides.
      for (const char* filter : {"k = 'key2' OR d > 500", "id >= 1000 AND k <> 'key3'"}) {
        SCOPED_TRACE(filter);
        options.filter = filter;
        testing::ScannedBatches filtered = ScanWritten(w, options);
        options.slice_rows = 0;
        options.threads = 1;
        testing::ScannedBatches whole = ScanWritten(w, options);
        options.slice_rows = slice_rows;
        options.threads = threads;
        ASSERT_GT(whole.rows(), 0);
        testing::ExpectSameRows(filtered, whole);
        EXPECT_LE(static_cast<int64_t>(filtered.stats.pages_decompressed), pages);
        EXPECT_LE(filtered.stats.pages_decompressed, whole.stats.pages_decompressed);
      }
      options.filter.clear();

      // A top-k whose key is returned: the first slices decode it as an output column, later
      // ones (once the heap holds K rows) as the runtime filter's column, continuing the same
      // readers mid-page.
      options.order_by = "id DESC";
      options.limit = 5;
      testing::ScannedBatches top = ScanWritten(w, options);
      ASSERT_EQ(top.rows(), 5);
      std::vector<int64_t> ids;
      for (const auto& b : top.batches) {
        for (int64_t r = 0; r < b->num_rows; ++r) {
          ids.push_back(layout::LoadValue<int64_t>(*b->columns[0], r));
        }
      }
      EXPECT_EQ(ids, (std::vector<int64_t>{kRows - 1, kRows - 2, kRows - 3, kRows - 4, kRows - 5}));
      EXPECT_LE(static_cast<int64_t>(top.stats.pages_decompressed), pages);
      options.order_by.clear();
      options.limit = -1;
    }
  }
}

// A chunk without an offset index gets its page locations from its headers: a scan that needs
// only the last rows of a row group fetches only their pages (the page-header stage narrows the
// filter column, whose headers carry statistics; the other columns follow the selection) and
// returns the rows a scan of whole chunks does.
TEST(PageLocations, ChunksWithoutOffsetIndexFetchOnlyThePagesOfTheRowsRead) {
  WriterOptions write;
  write.page_rows = 300;
  write.row_group_rows = kRows;
  write.page_index = false;
  write.compression = CompressionCodec::kZstd;
  for (bool v2 : {false, true}) {
    SCOPED_TRACE(v2 ? "v2" : "v1");
    write.data_page_v2 = v2;
    testing::Written w = WriteFooterOnly(Rows(), write);
    ASSERT_NE(w.metadata, nullptr);
    ScanOptions options;
    options.threads = 2;
    options.filter = "id >= 2700";
    options.pruning.min_page_header_chunk_bytes = 0;
    options.slice_rows = 500;
    testing::ScannedBatches whole = ScanWritten(w, options);
    options.page_locations_min_chunk_bytes = 0;
    testing::ScannedBatches paged = ScanWritten(w, options);
    ASSERT_EQ(whole.rows(), 300);
    testing::ExpectSameRows(paged, whole);
    // The filter column's locations come from the page-header stage in both scans.
    EXPECT_GT(paged.stats.pages_not_fetched, whole.stats.pages_not_fetched);
    EXPECT_GT(paged.stats.bytes_not_fetched, whole.stats.bytes_not_fetched);
    // Pages before the rows read were passed over undecompressed in both.
    EXPECT_EQ(paged.stats.pages_decompressed, whole.stats.pages_decompressed);

    // Every row, in slices that start inside pages: the same rows, each page decompressed once.
    options.filter.clear();
    testing::ScannedBatches all = ScanWritten(w, options);
    ASSERT_EQ(all.rows(), kRows);
    EXPECT_EQ(static_cast<int64_t>(all.stats.pages_decompressed), PagesOf(w));
  }
}

// A reader given bytes of its own (some pages, not the whole chunk) lets go of them once its last
// page is decompressed into its own buffer, so a huge page is not held compressed and
// decompressed at once while its rows are decoded; a page stored uncompressed is read in place,
// and its bytes stay held.
TEST(PageLocations, ReaderLetsGoOfItsBytesOnceItsLastPageIsDecompressed) {
  for (CompressionCodec codec : {CompressionCodec::kZstd, CompressionCodec::kUncompressed}) {
    for (bool on_demand : {false, true}) {
      SCOPED_TRACE(codec == CompressionCodec::kZstd ? "zstd" : "uncompressed");
      SCOPED_TRACE(on_demand ? "pages arrive on demand" : "pages decompressed whole");
      // Arriving pages hold their stored bytes until they have arrived whole: these small pages
      // arrive whole at their first read.
      column::PageReaderOptions page_options;
      if (on_demand) page_options.on_demand_page_bytes = 0;
      WriterOptions write;
      write.page_rows = 1000;
      write.row_group_rows = kRows;
      write.compression = codec;
      testing::Written w = Write(Rows(), write);
      ASSERT_NE(w.metadata, nullptr);
      const ColumnMetaData& meta = *w.metadata->file().row_groups[0].columns[0].meta_data;  // id
      auto range = column::ColumnChunkRange(meta, w.bytes.size(), "chunk");
      ASSERT_TRUE(range.ok());
      auto bytes = std::make_shared<std::vector<uint8_t>>(
          w.bytes.begin() + static_cast<std::ptrdiff_t>(range->offset),
          w.bytes.begin() + static_cast<std::ptrdiff_t>(range->offset + range->length));
      auto directory = column::BuildPageDirectory(*bytes, range->offset, true, "chunk");
      ASSERT_TRUE(directory.ok()) << directory.status().ToString();
      std::vector<column::PageSpan> present;
      for (const column::PageInfo& page : directory->pages()) {
        if (page.is_data_page()) present.push_back({page.first_row, page.num_rows, -1});
      }
      ASSERT_EQ(present.size(), 3u);
      auto reader = column::LeafReader::Make(w.metadata->schema().columns()[0], meta, *bytes,
                                             range->offset, kRows, "chunk", page_options, present);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      (*reader)->KeepAlive(bytes, /*whole=*/false);
      ASSERT_TRUE((*reader)->ReadRecords(10).ok());
      // Held for the chunk's next pages and for the page being decoded.
      EXPECT_EQ(bytes.use_count(), 3);
      ASSERT_TRUE((*reader)->SkipRecords(2500 - 10).ok());
      ASSERT_TRUE((*reader)->ReadRecords(10).ok());  // in the last page
      EXPECT_EQ(bytes.use_count(), codec == CompressionCodec::kZstd ? 1 : 3);
      ASSERT_TRUE((*reader)->ReadRecords(kRows - 2510).ok());
      EXPECT_EQ(bytes.use_count(), codec == CompressionCodec::kZstd ? 1 : 3);
      column::LeafBatch batch = (*reader)->Flush();
      ASSERT_EQ(batch.values->length, kRows - 2500 + 10);
      const auto* ids = batch.values->buffers[1]->as<int64_t>() + batch.values->offset;
      EXPECT_EQ(ids[0], 0);
      EXPECT_EQ(ids[10], 2500);
      EXPECT_EQ(ids[batch.values->length - 1], kRows - 1);
    }
  }
}

// A full scan reads each byte of the column chunks about once, whatever the slice size: the
// readers of a chunk's pages take its dictionary region from the one that read it first, and
// no read spans the pages between the dictionary and a slice's own (pages other slices read).
// (Files of small pages scanned in small slices read 2x-7x their chunks before.)
TEST(PageOnceBytes, FullScanReadsEachChunkByteAboutOnceWhateverTheSlices) {
  WriterOptions write;
  write.page_rows = 50;
  write.row_group_rows = kRows;
  write.compression = CompressionCodec::kSnappy;
  for (bool page_index : {true, false}) {
    SCOPED_TRACE(page_index ? "offset index" : "no offset index");
    write.page_index = page_index;
    testing::Written w = WriteFooterOnly(Rows(), write);
    ASSERT_NE(w.metadata, nullptr);
    uint64_t chunk_bytes = 0, index_bytes = 0;
    for (const RowGroup& rg : w.metadata->file().row_groups) {
      for (const ColumnChunk& chunk : rg.columns) {
        chunk_bytes += static_cast<uint64_t>(chunk.meta_data->total_compressed_size);
        index_bytes += static_cast<uint64_t>(chunk.offset_index_length.value_or(0));
      }
    }
    for (int64_t slice_rows : {2000, 1000, 500, 100, 7}) {
      for (int threads : {1, 2}) {
        SCOPED_TRACE("slice_rows " + std::to_string(slice_rows) + ", threads " +
                     std::to_string(threads));
        ScanOptions options;
        options.threads = threads;
        options.slice_rows = slice_rows;
        options.batch_size = 64;
        // Without an offset index the chunks (under 1 MiB: no page locations from their
        // headers, whose walk would read 16 KiB at least) are read whole, once per row group.
        testing::ScannedBatches full = ScanWritten(w, options);
        ASSERT_EQ(full.rows(), kRows);
        EXPECT_LE(full.stats.bytes_read, chunk_bytes * 105 / 100 + index_bytes)
            << "chunks " << chunk_bytes << ", offset indexes " << index_bytes;
      }
    }
  }
}

// Pages as DuckDB writes them: ZSTD, PLAIN (columns of mostly distinct values), no page index,
// pages of `page_rows` rows whatever their bytes.
WriterOptions LargeZstdPages(int64_t page_rows, int64_t row_group_rows) {
  WriterOptions write;
  write.compression = CompressionCodec::kZstd;
  write.page_rows = page_rows;
  write.page_bytes = int64_t{64} << 20;
  write.row_group_rows = row_group_rows;
  write.page_index = false;
  write.dictionary = false;
  return write;
}

// A selective scan of a large ZSTD page (one page per column chunk, as DuckDB writes) decompresses
// the page only as far as the rows it reads: the first rows cost a fraction of the page, and
// every row of it costs the whole page, once.
TEST(PageOnDemand, ASelectiveScanDecompressesALargePageOnlyAsFarAsItReads) {
  constexpr int64_t kBig = 400'000;  // 3.2 MB of id values, in one page
  FixedWidthArrayBuilder<int64_t> id(Int64());
  FixedWidthArrayBuilder<double> d(Float64());
  for (int64_t i = 0; i < kBig; ++i) {
    id.Append(i);
    d.Append(static_cast<double>(i * 7919 % 1000003) / 8);
  }
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"d", Float64(), false}};
  RecordBatch batch{schema, kBig, {id.Finish(), d.Finish()}};
  testing::Written w = Write(batch, LargeZstdPages(kBig, kBig), 50'000);
  ASSERT_NE(w.metadata, nullptr);
  const uint64_t page_bytes = 2 * kBig * 8;  // both columns' values, whole

  ScanOptions options;
  options.threads = 2;
  testing::ScannedBatches all = ScanWritten(w, options);
  ASSERT_EQ(all.rows(), kBig);
  EXPECT_EQ(all.stats.pages_decompressed, 2u);
  EXPECT_GE(all.stats.bytes_decompressed, page_bytes);

  options.filter = "id < 1000";  // rows in the first slice
  testing::ScannedBatches first = ScanWritten(w, options);
  ASSERT_EQ(first.rows(), 1000);
  EXPECT_LE(first.stats.pages_decompressed, 2u);
  // id is read whole by the filter (its later slices have to be evaluated); d only as far as
  // row 1000, a step or two of the stream.
  EXPECT_LT(first.stats.bytes_decompressed, page_bytes * 3 / 4);
  options.filter = "id >= 399000";  // the last rows: the whole page, still once
  testing::ScannedBatches last = ScanWritten(w, options);
  ASSERT_EQ(last.rows(), 1000);
  EXPECT_LE(last.stats.pages_decompressed, 2u);
  EXPECT_LE(last.stats.bytes_decompressed, all.stats.bytes_decompressed);
}

// A row group of one page per column (DuckDB's 1M-row row groups) is still cut into slices,
// not one slice as long as its page: read alone (a selective query), its slices are what lets
// the output columns of one decode while the filter walks the next. Each page is still
// decompressed once.
TEST(PageOnDemand, ARowGroupOfOnePagePerColumnIsCutIntoSlices) {
  constexpr int64_t kRows = int64_t{1} << 20;
  FixedWidthArrayBuilder<int64_t> id(Int64());
  FixedWidthArrayBuilder<int32_t> k(Int32());
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    k.Append(static_cast<int32_t>(i / 1000 % 4));
  }
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"k", Int32(), false}};
  RecordBatch batch{schema, kRows, {id.Finish(), k.Finish()}};
  testing::Written w = WriteFooterOnly(batch, LargeZstdPages(kRows, kRows));
  ASSERT_NE(w.metadata, nullptr);

  ScanOptions options;
  options.threads = 2;
  options.batch_size = 64 * 1024;
  options.page_locations_min_chunk_bytes = 0;
  options.columns = {"id"};
  options.filter = "k <> 0";  // runs of 3,000 rows kept, 1,000 dropped: 3/4 of the rows
  testing::ScannedBatches kept = ScanWritten(w, options);
  EXPECT_LE(kept.stats.pages_decompressed, 2u);
  // The batches show the slices, as no batch spans two: one slice of the whole row group gives
  // batches of 64Ki kept rows (12 of them); slices of at most 128Ki rows keep about 96Ki rows
  // each, two batches per slice.
  EXPECT_GE(kept.batches.size(), 16u);
  int64_t next = 0;
  for (const auto& b : kept.batches) {
    const auto* ids = b->columns[0]->buffers[1]->as<int64_t>() + b->columns[0]->offset;
    for (int64_t r = 0; r < b->num_rows; ++r, ++next) {
      while (next / 1000 % 4 == 0) ++next;
      ASSERT_EQ(ids[r], next);
    }
  }
  while (next < kRows && next / 1000 % 4 == 0) ++next;
  EXPECT_EQ(next, kRows);
}

// Large arriving pages that slices cut, read by readers handed from slice to slice: a reader
// handed on mid-page continues on the next pages (fetched for it alone, from their headers'
// locations) while its page is still arriving, and the bytes it continues on outlive the page
// that arrives. Every row comes back as a one-slice scan gives it, each page decompressed once.
TEST(PageOnDemand, ReadersHandedOnMidPageContinueWhileThePageArrives) {
  constexpr int64_t kBig = 600'000;
  FixedWidthArrayBuilder<int64_t> id(Int64());
  FixedWidthArrayBuilder<double> d(Float64());
  BinaryArrayBuilder name(LargeUtf8());
  for (int64_t i = 0; i < kBig; ++i) {
    id.Append(i);
    d.Append(static_cast<double>(i * 7919 % 1000003) / 8);
    name.Append(std::string_view("n" + std::to_string(i * 104729 % 999983)));
  }
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"d", Float64(), false}, {"name", LargeUtf8(), false}};
  RecordBatch batch{schema, kBig, {id.Finish(), d.Finish(), name.Finish()}};
  // 1.2 MB pages of id and d: 4 per chunk, each arriving on demand
  testing::Written w = WriteFooterOnly(batch, LargeZstdPages(150'000, kBig));
  ASSERT_NE(w.metadata, nullptr);

  ScanOptions one_slice;
  one_slice.threads = 1;
  testing::ScannedBatches reference = ScanWritten(w, one_slice);
  ASSERT_EQ(reference.rows(), kBig);
  for (int64_t slice_rows : {40'000, 100'000}) {
    SCOPED_TRACE("slice_rows " + std::to_string(slice_rows));
    ScanOptions options;
    options.threads = 2;
    options.slice_rows = slice_rows;
    options.page_locations_min_chunk_bytes = 0;
    testing::ScannedBatches full = ScanWritten(w, options);
    ASSERT_EQ(full.rows(), kBig);
    testing::ExpectSameRows(full, reference);
    EXPECT_EQ(full.stats.pages_decompressed, reference.stats.pages_decompressed);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, PageOnce,
    ::testing::Values(Layout{1000000, 1000000, false, false, CompressionCodec::kZstd},  // DuckDB's
                      Layout{1000000, 1000000, true, true, CompressionCodec::kSnappy},
                      Layout{333, 1000, false, true, CompressionCodec::kSnappy},
                      Layout{333, 1000, true, false, CompressionCodec::kZstd},
                      Layout{7, 3000, false, true, CompressionCodec::kUncompressed},
                      Layout{50, 700, true, true, CompressionCodec::kGzip}));

}  // namespace
}  // namespace pqsift
