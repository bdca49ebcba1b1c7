// Tiny files whose pages honestly or dishonestly claim far more rows than their bytes: the scan
// keeps its memory bounded (slices of at most 2^20 rows) and refuses counts the chunk cannot
// hold, with an error naming the file, row group, column and page.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "format/metadata_encoder.h"
#include "pqsift/scan.h"
#include "testing/files.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

using pqsift::testing::Chunk;
using pqsift::testing::Leaf;
using pqsift::testing::Root;

std::string PageHeaderBytes(PageType type, size_t body_size, int32_t num_values,
                            Encoding encoding) {
  format::PageHeader h;
  h.type = type;
  h.uncompressed_page_size = static_cast<int32_t>(body_size);
  h.compressed_page_size = static_cast<int32_t>(body_size);
  if (type == PageType::kDictionaryPage) {
    h.dictionary_page_header.emplace().num_values = num_values;
  } else {
    format::DataPageHeader& d = h.data_page_header.emplace();
    d.num_values = num_values;
    d.encoding = encoding;
  }
  return format::MetadataEncoder().PageHeader(h).Take();
}

// One INT32 column "x" (`repetition`) of `rows` rows: a dictionary page holding 42, then one
// data page of `page_values` levels whose body is `body`.
std::string OneChunkFile(Repetition repetition, int64_t rows, int32_t page_values,
                         const std::string& body) {
  std::string dictionary = PageHeaderBytes(PageType::kDictionaryPage, 4, 1, Encoding::kPlain);
  pqsift::testing::AppendLE32(dictionary, 42);
  const std::string data =
      PageHeaderBytes(PageType::kDataPage, body.size(), page_values, Encoding::kRleDictionary) +
      body;
  FileMetaData m;
  m.version = 1;
  m.schema = {Root(1), Leaf("x", PhysicalType::kInt32, repetition)};
  m.num_rows = rows;
  RowGroup rg;
  const auto chunk_size = static_cast<int64_t>(dictionary.size() + data.size());
  rg.columns = {Chunk(PhysicalType::kInt32, {"x"}, 4, chunk_size, rows)};
  ColumnMetaData& meta = *rg.columns[0].meta_data;
  meta.dictionary_page_offset = 4;
  meta.data_page_offset = 4 + static_cast<int64_t>(dictionary.size());
  meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  rg.num_rows = rows;
  rg.total_byte_size = chunk_size;
  m.row_groups = {rg};
  return pqsift::testing::WrapFooter(format::EncodeFooter(m), dictionary + data);
}

// An RLE run of `count` copies of one value of `bit_width` bits (0 bytes of value at width 0).
std::string RleRun(uint32_t count, int bit_width) {
  std::string out;
  for (uint64_t v = uint64_t{count} << 1;; v >>= 7) {
    if (v < 0x80) {
      out.push_back(static_cast<char>(v));
      break;
    }
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  }
  out.append(static_cast<size_t>((bit_width + 7) / 8), '\1');
  return out;
}

Result<std::unique_ptr<Scanner>> Open(const std::string& bytes, ScanOptions options) {
  std::shared_ptr<RandomAccessFile> file = pqsift::testing::MemoryFile("tiny.parquet", bytes);
  options.threads = 2;
  PQSIFT_ASSIGN_OR_RETURN(auto metadata, ReadParquetMetadata(*file));
  return Scanner::Open({file}, {metadata}, options);
}

// A file of 60 bytes that honestly holds 2^31 - 1 rows of 42 (one dictionary entry, one RLE run
// of indices): a scan with a limit returns at once, decoding slices of at most 2^20 rows, not
// 8 GiB of values.
TEST(HostileScan, BillionsOfRowsInAFewBytesDecodeInBoundedSlices) {
  const std::string file = OneChunkFile(Repetition::kRequired, INT32_MAX, INT32_MAX,
                                        std::string(1, '\0') + RleRun(INT32_MAX, 0));
  ASSERT_LT(file.size(), 200u);
  ScanOptions options;
  options.limit = 5;
  auto scanner = Open(file, options);
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  auto batch = (*scanner)->Next();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_NE(*batch, nullptr);
  EXPECT_EQ((*batch)->num_rows, 5);
}

TEST(HostileScan, APageWithMoreLevelsThanTheChunksRowsIsRefused) {
  // An optional column of 10 rows whose page claims 100000 levels (one RLE run of 1s).
  std::string levels = RleRun(100000, 1);
  std::string body;
  pqsift::testing::AppendLE32(body, static_cast<uint32_t>(levels.size()));
  body += levels + std::string(1, '\0') + RleRun(100000, 0);
  auto scanner = Open(OneChunkFile(Repetition::kOptional, 10, 100000, body), ScanOptions{});
  ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
  Result<std::shared_ptr<RecordBatch>> batch = (*scanner)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), StatusCode::kCorruption);
  const std::string& message = batch.status().message();
  EXPECT_NE(message.find("tiny.parquet: row group 0, column 'x', page at offset "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("100000 values, more than the 10 rows"), std::string::npos) << message;
}

}  // namespace
}  // namespace pqsift
