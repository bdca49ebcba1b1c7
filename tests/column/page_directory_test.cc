// The page directory (src/column/page_directory.h): pages walked from their headers alone, in
// files pqsift wrote (v1 and v2 pages, checksums, page index) and files of other writers
// (parquet-testing), read whole or header by header; and hostile chunks: truncations, byte
// changes, limits, each refused with an error naming the chunk and the page's offset.
#include "column/page_directory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "column/leaf_reader.h"
#include "format/metadata_encoder.h"
#include "format/page_index.h"
#include "pqsift/parquet_file.h"
#include "pqsift/writer.h"
#include "scan/scan_test_file.h"
#include "testing/parquet_files.h"

namespace pqsift::column {
namespace {

// The bytes of chunk (g, leaf) of `file` and their offset.
struct ChunkBytes {
  Buffer bytes;
  uint64_t offset = 0;
  ByteRange range;
};
ChunkBytes ReadChunk(const RandomAccessFile& file, const ParquetMetadata& md, size_t g,
                     size_t leaf) {
  ChunkBytes out;
  const ColumnMetaData& meta = *md.file().row_groups[g].columns[leaf].meta_data;
  Result<ByteRange> range = ColumnChunkRange(meta, md.file_size(), "chunk");
  EXPECT_TRUE(range.ok()) << range.status().ToString();
  if (!range.ok()) return out;
  out.range = *range;
  out.offset = range->offset;
  Result<Buffer> bytes = file.Read(*range);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (bytes.ok()) out.bytes = std::move(bytes).value();
  return out;
}

format::OffsetIndex ReadOffsetIndex(const RandomAccessFile& file, const ColumnChunk& chunk) {
  format::OffsetIndex oi;
  EXPECT_TRUE(chunk.offset_index_offset && chunk.offset_index_length);
  if (!chunk.offset_index_offset || !chunk.offset_index_length) return oi;
  Result<Buffer> bytes = file.Read({static_cast<uint64_t>(*chunk.offset_index_offset),
                                    static_cast<uint64_t>(*chunk.offset_index_length)});
  EXPECT_TRUE(bytes.ok());
  if (bytes.ok()) {
    EXPECT_TRUE(format::DecodeOffsetIndex(bytes->span(), oi).ok());
  }
  return oi;
}

// The directory from the bytes in memory and from the file header by header (with a tiny
// window, so headers are read in several growing steps) must agree.
void ExpectSamePages(const PageDirectory& a, const PageDirectory& b) {
  ASSERT_EQ(a.pages().size(), b.pages().size());
  for (size_t i = 0; i < a.pages().size(); ++i) {
    const PageInfo& x = a.pages()[i];
    const PageInfo& y = b.pages()[i];
    EXPECT_EQ(x.offset, y.offset) << i;
    EXPECT_EQ(x.header_size, y.header_size) << i;
    EXPECT_EQ(x.compressed_size, y.compressed_size) << i;
    EXPECT_EQ(x.type, y.type) << i;
    EXPECT_EQ(x.num_values, y.num_values) << i;
    EXPECT_EQ(x.num_rows, y.num_rows) << i;
    EXPECT_EQ(x.first_row, y.first_row) << i;
    EXPECT_EQ(x.statistics.has_value(), y.statistics.has_value()) << i;
  }
}

TEST(PageDirectory, PqsiftFileWithV1PagesAndAPageIndex) {
  testing::ScanTestFile f;  // 10 row groups of 1000 rows, pages of 100 rows, page index
  ASSERT_NE(f.metadata, nullptr);
  auto file = MakeMemoryFile("test.parquet", f.bytes);
  const ParquetMetadata& md = *f.metadata;
  for (size_t g = 0; g < md.num_row_groups(); ++g) {
    for (size_t leaf = 0; leaf < md.schema().num_columns(); ++leaf) {
      SCOPED_TRACE("row group " + std::to_string(g) + ", leaf " + std::to_string(leaf));
      ChunkBytes chunk = ReadChunk(*file, md, g, leaf);
      Result<PageDirectory> dir = BuildPageDirectory(chunk.bytes.span(), chunk.offset, true, "x");
      ASSERT_TRUE(dir.ok()) << dir.status().ToString();
      EXPECT_EQ(dir->data_pages(), 10u);
      EXPECT_EQ(dir->num_rows(), 1000);
      uint64_t at = chunk.offset;
      int64_t row = 0;
      for (const PageInfo& p : dir->pages()) {
        EXPECT_EQ(p.offset, at);
        at = p.end();
        EXPECT_FALSE(p.crc);
        if (p.type == PageType::kDictionaryPage) {
          EXPECT_EQ(&p, &dir->pages().front());
          EXPECT_EQ(p.first_row, -1);
          continue;
        }
        ASSERT_EQ(p.type, PageType::kDataPage);
        EXPECT_EQ(p.num_values, 100);
        EXPECT_EQ(p.num_rows, 100);
        EXPECT_EQ(p.first_row, row);
        row += 100;
      }
      EXPECT_EQ(at, chunk.range.end());
      // The offset index lists every data page, at the rows the headers give.
      const ColumnChunk& cc = md.file().row_groups[g].columns[leaf];
      format::OffsetIndex oi = ReadOffsetIndex(*file, cc);
      PageDirectory owned = std::move(dir).value();
      EXPECT_TRUE(MatchOffsetIndex(oi, 1000, owned).empty());
      for (const PageInfo& p : owned.pages()) {
        ASSERT_EQ(p.offset_index.has_value(), p.is_data_page());
        if (!p.offset_index) continue;
        EXPECT_EQ(p.offset_index->first_row, p.first_row);
        EXPECT_EQ(p.offset_index->num_rows, p.num_rows);
        EXPECT_TRUE(p.offset_index->size_matches);
      }
      // Read from the file header by header: the same pages, fewer bytes than the chunk when
      // pages are larger than the window.
      PageDirectory read;
      PageDirectoryOptions small;
      small.read_window = 5;
      uint64_t bytes_read = 0;
      Status st = ReadPageDirectory(*file, chunk.range, true, "x", read, small, &bytes_read);
      ASSERT_TRUE(st.ok()) << st.ToString();
      ExpectSamePages(owned, read);
      EXPECT_GT(bytes_read, 0u);
      PageDirectory windowed;
      bytes_read = 0;
      ASSERT_TRUE(ReadPageDirectory(*file, chunk.range, true, "x", windowed, {}, &bytes_read).ok());
      ExpectSamePages(owned, windowed);
      EXPECT_LE(bytes_read, chunk.range.length + 64 * 1024);
    }
  }
}

// A small file with v2 pages and checksums: a nullable and a required column, pages of 64 rows.
std::vector<uint8_t> WriteV2File() {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"a", Int64(), false}, {"b", Int64(), true}};
  FixedWidthArrayBuilder<int64_t> a(Int64()), b(Int64());
  for (int64_t i = 0; i < 300; ++i) {
    a.Append(i);
    if (i % 3 == 0) {
      b.AppendNull();
    } else {
      b.Append(i * 10);
    }
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 300;
  batch.columns = {a.Finish(), b.Finish()};
  WriterOptions options;
  options.page_rows = 64;
  options.data_page_v2 = true;
  options.page_checksums = true;
  std::vector<uint8_t> bytes;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("v2.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return bytes;
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

TEST(PageDirectory, PqsiftFileWithV2PagesAndChecksums) {
  std::vector<uint8_t> bytes = WriteV2File();
  auto file = MakeMemoryFile("v2.parquet", bytes);
  auto md = ReadParquetMetadata(*file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  for (size_t leaf = 0; leaf < 2; ++leaf) {
    ChunkBytes chunk = ReadChunk(*file, **md, 0, leaf);
    // v2 pages give their rows whether or not the column is flat.
    Result<PageDirectory> dir = BuildPageDirectory(chunk.bytes.span(), chunk.offset, false, "x");
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    EXPECT_EQ(dir->num_rows(), 300);
    EXPECT_EQ(dir->data_pages(), 5u);  // 64 * 4 + 44
    int64_t nulls = 0;
    for (const PageInfo& p : dir->pages()) {
      EXPECT_TRUE(p.crc) << p.offset;
      if (!p.is_data_page()) continue;
      EXPECT_EQ(p.type, PageType::kDataPageV2);
      EXPECT_EQ(p.num_values, p.num_rows);
      nulls += p.num_nulls;
      EXPECT_EQ(p.v2_repetition_levels_bytes, 0);
      EXPECT_EQ(p.v2_definition_levels_bytes > 0, leaf == 1);
    }
    EXPECT_EQ(nulls, leaf == 1 ? 100 : 0);
  }
}

TEST(PageDirectory, LargePagesAreReadHeaderByHeader) {
  // 10 pages of 20000 int64 values, PLAIN and uncompressed: 160 KB each.
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"x", Int64(), false}};
  FixedWidthArrayBuilder<int64_t> x(Int64());
  for (int64_t i = 0; i < 200'000; ++i) x.Append(i * 7919);
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 200'000;
  batch.columns = {x.Finish()};
  WriterOptions options;
  options.compression = CompressionCodec::kUncompressed;
  options.dictionary = false;
  options.page_rows = 20'000;
  std::vector<uint8_t> bytes;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("big.parquet", &bytes), schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto file = MakeMemoryFile("big.parquet", bytes);
  auto md = ReadParquetMetadata(*file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  ChunkBytes chunk = ReadChunk(*file, **md, 0, 0);
  Result<PageDirectory> whole = BuildPageDirectory(chunk.bytes.span(), chunk.offset, true, "x");
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  ASSERT_EQ(whole->data_pages(), 10u);
  IoStats before = file->stats();
  PageDirectory read;
  uint64_t bytes_read = 0;
  ASSERT_TRUE(ReadPageDirectory(*file, chunk.range, true, "x", read, {}, &bytes_read).ok());
  ExpectSamePages(*whole, read);
  EXPECT_EQ(read.num_rows(), 200'000);
  // The first window, then 4 KiB per header.
  EXPECT_LE(bytes_read, (64u << 10) + 9 * (4u << 10));
  EXPECT_EQ(file->stats().bytes_read - before.bytes_read, bytes_read);
  EXPECT_EQ(file->stats().read_requests - before.read_requests, 10u);
}

// Pages of parquet-testing files (parquet-mr, Arrow C++, ...).
PageDirectory WalkTestingChunk(const std::string& path, size_t g, size_t leaf) {
  testing::OpenedFile f = testing::OpenParquet(path);
  PageDirectory dir;
  if (!f.file) return dir;
  const ColumnDescriptor& col = f.metadata->schema().columns()[leaf];
  ChunkBytes chunk = ReadChunk(*f.file, *f.metadata, g, leaf);
  Status st = BuildPageDirectory(chunk.bytes.span(), chunk.offset, col.max_repetition_level == 0,
                                 path, dir);
  EXPECT_TRUE(st.ok()) << st.ToString();
  PageDirectory read;
  EXPECT_TRUE(
      ReadPageDirectory(*f.file, chunk.range, col.max_repetition_level == 0, path, read).ok());
  ExpectSamePages(dir, read);
  return dir;
}

TEST(PageDirectory, ParquetTestingFiles) {
  {
    PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_plain.parquet");
    PageDirectory dir = WalkTestingChunk(path, 0, 0);  // id: dictionary + one v1 page of 8 rows
    ASSERT_EQ(dir.pages().size(), 2u);
    EXPECT_EQ(dir.pages()[0].type, PageType::kDictionaryPage);
    EXPECT_EQ(dir.pages()[0].num_values, 8);
    EXPECT_EQ(dir.pages()[1].type, PageType::kDataPage);
    EXPECT_EQ(dir.pages()[1].encoding, Encoding::kPlainDictionary);
    EXPECT_EQ(dir.num_rows(), 8);
  }
  {
    PQSIFT_TESTING_FILE_OR_SKIP(path, "datapage_v2.snappy.parquet");
    testing::OpenedFile f = testing::OpenParquet(path);
    ASSERT_NE(f.file, nullptr);
    for (size_t leaf = 0; leaf < f.metadata->schema().num_columns(); ++leaf) {
      PageDirectory dir = WalkTestingChunk(path, 0, leaf);
      EXPECT_EQ(dir.num_rows(), f.metadata->file().row_groups[0].num_rows) << leaf;
      bool any_stats = false;
      for (const PageInfo& p : dir.pages()) {
        if (p.is_data_page()) {
          EXPECT_EQ(p.type, PageType::kDataPageV2);
        }
        any_stats |= p.statistics.has_value();
      }
      EXPECT_TRUE(any_stats) << leaf;
    }
  }
  {
    PQSIFT_TESTING_FILE_OR_SKIP(path, "alltypes_tiny_pages.parquet");
    testing::OpenedFile f = testing::OpenParquet(path);
    ASSERT_NE(f.file, nullptr);
    const RowGroup& rg = f.metadata->file().row_groups[0];
    for (size_t leaf = 0; leaf < f.metadata->schema().num_columns(); ++leaf) {
      SCOPED_TRACE(leaf);
      PageDirectory dir = WalkTestingChunk(path, 0, leaf);
      EXPECT_GT(dir.data_pages(), 1u);
      EXPECT_EQ(dir.num_rows(), rg.num_rows);
      format::OffsetIndex oi = ReadOffsetIndex(*f.file, rg.columns[leaf]);
      EXPECT_TRUE(MatchOffsetIndex(oi, rg.num_rows, dir).empty());
      for (const PageInfo& p : dir.pages()) {
        if (!p.is_data_page()) continue;
        ASSERT_TRUE(p.offset_index) << p.offset;
        EXPECT_EQ(p.offset_index->first_row, p.first_row);
        EXPECT_EQ(p.offset_index->num_rows, p.num_rows);
        EXPECT_TRUE(p.offset_index->size_matches);
      }
    }
  }
  {
    // Nested v1 pages: a page's levels are not its rows; only the first page's first row is known.
    PQSIFT_TESTING_FILE_OR_SKIP(path, "nested_lists.snappy.parquet");
    PageDirectory dir = WalkTestingChunk(path, 0, 0);
    ASSERT_GE(dir.data_pages(), 1u);
    for (const PageInfo& p : dir.pages()) {
      if (p.is_data_page()) {
        EXPECT_EQ(p.num_rows, -1);
      }
    }
    EXPECT_EQ(dir.num_rows(), -1);
  }
}

// ---- hand-built chunks ----

std::vector<uint8_t> Page(format::PageHeader h, size_t body) {
  h.compressed_page_size = static_cast<int32_t>(body);
  h.uncompressed_page_size = static_cast<int32_t>(body);
  std::string bytes = format::MetadataEncoder().PageHeader(h).Take();
  std::vector<uint8_t> out(bytes.begin(), bytes.end());
  out.resize(out.size() + body, 0xab);
  return out;
}

format::PageHeader V1(int32_t values) {
  format::PageHeader h;
  h.type = PageType::kDataPage;
  h.data_page_header.emplace().num_values = values;
  return h;
}

// A dictionary page, a v1 page with statistics, an index page, a v1 page.
std::vector<uint8_t> HandChunk(std::vector<size_t>* page_starts = nullptr) {
  std::vector<uint8_t> chunk;
  auto add = [&](const std::vector<uint8_t>& page) {
    if (page_starts) page_starts->push_back(chunk.size());
    chunk.insert(chunk.end(), page.begin(), page.end());
  };
  format::PageHeader dict;
  dict.type = PageType::kDictionaryPage;
  dict.dictionary_page_header.emplace().num_values = 3;
  dict.dictionary_page_header->is_sorted = true;
  add(Page(dict, 12));
  format::PageHeader v1 = V1(7);
  Statistics& s = v1.data_page_header->statistics.emplace();
  s.min_value = std::string_view("\x01\x00\x00\x00", 4);
  s.max_value = std::string_view("\x09\x00\x00\x00", 4);
  s.null_count = 2;
  v1.crc = 12345;
  add(Page(v1, 20));
  format::PageHeader index;
  index.type = PageType::kIndexPage;
  add(Page(index, 3));
  add(Page(V1(5), 8));
  return chunk;
}

TEST(PageDirectory, HandBuiltChunkOwnsItsStatistics) {
  std::vector<size_t> starts;
  std::vector<uint8_t> chunk = HandChunk(&starts);
  Result<PageDirectory> dir = BuildPageDirectory(chunk, 1000, true, "f: row group 0, column 'x'");
  ASSERT_TRUE(dir.ok()) << dir.status().ToString();
  std::fill(chunk.begin(), chunk.end(), 0);  // the directory must not point into the chunk
  PageDirectory d = std::move(dir).value();
  const std::vector<PageInfo>& pages = d.pages();
  ASSERT_EQ(pages.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(pages[i].offset, 1000 + starts[i]);
  EXPECT_EQ(pages[0].dictionary_is_sorted, true);
  EXPECT_EQ(pages[1].crc, 12345u);
  ASSERT_TRUE(pages[1].statistics && pages[1].statistics->min_value);
  EXPECT_EQ(*pages[1].statistics->min_value, std::string_view("\x01\x00\x00\x00", 4));
  EXPECT_EQ(*pages[1].statistics->max_value, std::string_view("\x09\x00\x00\x00", 4));
  EXPECT_EQ(pages[1].statistics->null_count, 2);
  EXPECT_EQ(pages[1].first_row, 0);
  EXPECT_EQ(pages[2].type, PageType::kIndexPage);
  EXPECT_FALSE(pages[2].encoding);
  EXPECT_EQ(pages[2].num_values, -1);
  EXPECT_EQ(pages[3].first_row, 7);
  EXPECT_EQ(d.num_rows(), 12);
  // Not flat: v1 pages give no rows; the first data page still starts at row 0.
  Result<PageDirectory> nested = BuildPageDirectory(HandChunk(), 1000, false, "x");
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(nested->pages()[1].first_row, 0);
  EXPECT_EQ(nested->pages()[1].num_rows, -1);
  EXPECT_EQ(nested->pages()[3].first_row, -1);
  EXPECT_EQ(nested->num_rows(), -1);
}

TEST(PageDirectory, OffsetIndexIsComparedNotBelieved) {
  std::vector<size_t> starts;
  std::vector<uint8_t> chunk = HandChunk(&starts);
  Result<PageDirectory> dir = BuildPageDirectory(chunk, 1000, false, "x");
  ASSERT_TRUE(dir.ok());
  format::OffsetIndex oi;
  auto size_of = [&](size_t i) {
    return static_cast<int32_t>((i + 1 < starts.size() ? starts[i + 1] : chunk.size()) - starts[i]);
  };
  oi.page_locations = {{static_cast<int64_t>(1000 + starts[1]), size_of(1), 0},
                       {static_cast<int64_t>(1000 + starts[3]), size_of(3) + 1, 4},
                       {5, 10, 9}};  // matches no page
  EXPECT_EQ(MatchOffsetIndex(oi, 12, *dir), std::vector<size_t>{2});
  const std::vector<PageInfo>& pages = dir->pages();
  ASSERT_TRUE(pages[1].offset_index);
  EXPECT_EQ(pages[1].offset_index->num_rows, 4);
  EXPECT_TRUE(pages[1].offset_index->size_matches);
  ASSERT_TRUE(pages[3].offset_index);
  EXPECT_EQ(pages[3].offset_index->first_row, 4);
  EXPECT_EQ(pages[3].offset_index->num_rows, 5);  // up to the next entry's first row
  EXPECT_FALSE(pages[3].offset_index->size_matches);
  EXPECT_FALSE(pages[0].offset_index);
  // The rows the headers give are left alone.
  EXPECT_EQ(pages[3].first_row, -1);
}

TEST(PageDirectory, AMalformedHeaderStopsTheWalkAndKeepsThePagesBefore) {
  std::vector<size_t> starts;
  std::vector<uint8_t> chunk = HandChunk(&starts);
  chunk[starts[2]] = 0xff;  // the index page's header
  PageDirectory dir;
  Status st = BuildPageDirectory(chunk, 1000, true, "f: row group 1, column 'x'", dir);
  ASSERT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message().rfind("f: row group 1, column 'x', page at offset " +
                                   std::to_string(1000 + starts[2]) + ": ",
                               0),
            0u)
      << st.message();
  EXPECT_EQ(dir.pages().size(), 2u);
  EXPECT_FALSE(BuildPageDirectory(chunk, 1000, true, "x").ok());
}

TEST(PageDirectory, APageOverrunningTheChunkIsRefused) {
  std::vector<size_t> starts;
  std::vector<uint8_t> chunk = HandChunk(&starts);
  chunk.resize(chunk.size() - 1);
  PageDirectory dir;
  Status st = BuildPageDirectory(chunk, 0, true, "x", dir);
  ASSERT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("page at offset " + std::to_string(starts[3]) +
                              ": page of 8 bytes overruns the column chunk (7 bytes left)"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(dir.pages().size(), 3u);
}

TEST(PageDirectory, EveryTruncationAndByteChangeEndsWithPagesOrAnError) {
  const std::vector<uint8_t> good = HandChunk();
  PageDirectoryOptions tiny;
  tiny.read_window = 3;
  auto check = [&](std::span<const uint8_t> chunk) {
    PageDirectory a;
    Status sa = BuildPageDirectory(chunk, 0, true, "w", a);
    auto f = MakeMemoryFile("f", chunk);
    PageDirectory b;
    Status sb = ReadPageDirectory(*f, {0, chunk.size()}, true, "w", b, tiny);
    EXPECT_EQ(sa.ok(), sb.ok()) << sa.ToString() << " / " << sb.ToString();
    if (!sa.ok()) {
      EXPECT_EQ(sa.message().rfind("w, page at offset ", 0), 0u) << sa.message();
    }
    uint64_t end = 0;
    for (const PageInfo& p : a.pages()) {
      EXPECT_EQ(p.offset, end);
      end = p.end();
    }
    EXPECT_LE(end, chunk.size());
    if (sa.ok()) {
      EXPECT_EQ(end, chunk.size());
    }
    ExpectSamePages(a, b);
  };
  for (size_t n = 0; n <= good.size(); ++n) check(std::span(good).first(n));
  std::vector<uint8_t> changed = good;
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t v : {uint8_t{0}, uint8_t{0xff}, static_cast<uint8_t>(good[i] ^ 1)}) {
      changed[i] = v;
      check(changed);
    }
    changed[i] = good[i];
  }
}

TEST(PageDirectory, LimitsOnPagesAndHeaderBytes) {
  std::vector<uint8_t> chunk = HandChunk();
  PageDirectoryOptions options;
  options.max_pages = 2;
  PageDirectory dir;
  Status st = BuildPageDirectory(chunk, 0, true, "x", dir, options);
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("more than 2 pages"), std::string::npos) << st.message();
  EXPECT_EQ(dir.pages().size(), 2u);

  options = {};
  options.max_header_bytes = 4;
  options.read_window = 1;
  auto file = MakeMemoryFile("f", chunk);
  PageDirectory read;
  st = ReadPageDirectory(*file, {0, chunk.size()}, true, "x", read, options);
  EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
  EXPECT_NE(st.message().find("read up to 4 bytes"), std::string::npos) << st.message();

  // The range is checked against the file.
  st = ReadPageDirectory(*file, {1, chunk.size()}, true, "x", read);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("x: column chunk"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace pqsift::column
