// Corrupt files made from real ones (written by pqsift, by DuckDB, and parquet-testing's): the
// footer cut at every byte (the file cut there, and the footer's Thrift cut there inside an
// intact trailer), and a seeded sample of whole-file truncations and of single-bit and
// single-byte changes anywhere. Each variant is opened and scanned whole (every column, one
// thread, in memory). Outcomes:
//   same       the scan succeeds with the original data
//   different  the scan succeeds with other data: only where the format has no checksum (a
//              changed value byte in a page, a changed statistic or type in the footer); never
//              for a truncation, and never for a page byte when CRCs are written and verified
//   error      a Status naming the file
// A crash or a sanitizer report ends the test run; a variant taking over 10 s fails it.
// PQSIFT_CORRUPT_SCALE=N multiplies the sampled variants (N=50 for a long run by hand); the
// counts per outcome are printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <random>

#include "format/page_header.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "testing/files.h"
#include "testing/parquet_files.h"

namespace pqsift {
namespace {

using Bytes = std::vector<uint8_t>;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

constexpr const char* kName = "variant.parquet";

#if defined(__SANITIZE_ADDRESS__)
constexpr int kSanitizerDivisor = 4;
#else
constexpr int kSanitizerDivisor = 1;
#endif

int Scale() {
  const char* s = std::getenv("PQSIFT_CORRUPT_SCALE");
  return s != nullptr && std::atoi(s) > 0 ? std::atoi(s) : 1;
}

Result<Batches> ScanAll(const Bytes& bytes, bool verify_crc) {
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile(kName, bytes);
  ScanOptions options;
  options.threads = 1;
  options.verify_crc = verify_crc;
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> metadata,
                          ReadParquetMetadata(*file, options.open));
  PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<Scanner> scanner,
                          Scanner::Open({file}, {metadata}, options));
  Batches out;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, scanner->Next());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

bool SameData(const Batches& a, const Batches& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]->num_rows != b[i]->num_rows || a[i]->columns.size() != b[i]->columns.size()) {
      return false;
    }
    for (size_t c = 0; c < a[i]->columns.size(); ++c) {
      if (!ArrayEquals(*a[i]->columns[c], *b[i]->columns[c])) return false;
    }
  }
  return true;
}

struct PageBody {
  int64_t begin = 0;  // [begin, end) in the file
  int64_t end = 0;
  bool has_crc = false;
};

enum class Kind { kFooterCut, kFooterThriftCut, kFileCut, kFooterFlip, kPageBodyFlip, kOtherFlip };

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kFooterCut: return "footer cut";
    case Kind::kFooterThriftCut: return "footer Thrift cut";
    case Kind::kFileCut: return "file cut";
    case Kind::kFooterFlip: return "footer byte/bit change";
    case Kind::kPageBodyFlip: return "page body byte/bit change";
    case Kind::kOtherFlip: return "page header (or other) byte/bit change";
  }
  return "?";
}

struct Tally {
  std::map<std::string, int64_t> counts;  // "<kind>: <outcome>"
  int64_t variants = 0;
};

// Prints the counts (the figures of a long run by hand, PQSIFT_CORRUPT_SCALE).
void Report(const std::string& test, const Tally& tally) {
  std::cout << test << ": " << tally.variants << " corrupt-file variants\n";
  for (const auto& [key, count] : tally.counts) std::cout << "  " << key << ": " << count << '\n';
}

class CorruptFiles {
 public:
  CorruptFiles(Tally& tally, std::string label, Bytes original, bool has_crc)
      : tally_(tally), label_(std::move(label)), original_(std::move(original)), has_crc_(has_crc) {
    Result<Batches> reference = ScanAll(original_, has_crc_);
    EXPECT_TRUE(reference.ok()) << label_ << ": " << reference.status().ToString();
    if (reference.ok()) reference_ = std::move(reference).value();
    uint32_t footer_length = 0;
    std::memcpy(&footer_length, original_.data() + original_.size() - 8, 4);
    footer_start_ = original_.size() - 8 - footer_length;
    FindPageBodies();
    // The CRC assertion would be vacuous for a file without page CRCs.
    if (has_crc_) {
      EXPECT_GT(crc_pages_, 0) << label_ << ": no page has a CRC";
    }
  }

  // `crc_covered`: the change is inside the body of a page whose header has a CRC.
  void Check(Kind kind, const Bytes& variant, const std::string& what, bool crc_covered = false) {
    const auto start = std::chrono::steady_clock::now();
    Result<Batches> got = ScanAll(variant, has_crc_);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0) << label_ << ", " << what << ": too slow";
    std::string outcome;
    if (!got.ok()) {
      outcome = "error";
      EXPECT_NE(got.status().message().find(kName), std::string::npos)
          << label_ << ", " << what
          << ": the error does not name the file: " << got.status().ToString();
    } else if (SameData(*got, reference_)) {
      outcome = "same";
    } else {
      outcome = "different";
      const bool cut =
          kind == Kind::kFooterCut || kind == Kind::kFooterThriftCut || kind == Kind::kFileCut;
      EXPECT_FALSE(cut) << label_ << ", " << what << ": a truncated file scanned successfully";
      EXPECT_FALSE(crc_covered && has_crc_)
          << label_ << ", " << what << ": a changed page byte passed the CRC check";
    }
    ++tally_.counts[std::string(KindName(kind)) + ": " + outcome];
    ++tally_.variants;
  }

  void Run(int samples, uint64_t seed) {
    const size_t size = original_.size();
    // The file cut at every byte of the footer and its trailer.
    for (size_t k = footer_start_; k < size; ++k) {
      Check(Kind::kFooterCut, Bytes(original_.begin(), original_.begin() + k),
            "cut at " + std::to_string(k));
    }
    // The footer's Thrift cut at every byte, inside a correct length and magic.
    for (size_t k = 0; k < size - 8 - footer_start_; ++k) {
      Bytes v(original_.begin(), original_.begin() + footer_start_ + k);
      const auto length = static_cast<uint32_t>(k);
      v.insert(v.end(), reinterpret_cast<const uint8_t*>(&length),
               reinterpret_cast<const uint8_t*>(&length) + 4);
      v.insert(v.end(), {'P', 'A', 'R', '1'});
      Check(Kind::kFooterThriftCut, v, "footer cut to " + std::to_string(k) + " bytes");
    }
    std::mt19937_64 rng(seed);
    for (int i = 0; i < samples; ++i) {
      const size_t k = rng() % size;
      Check(Kind::kFileCut, Bytes(original_.begin(), original_.begin() + k),
            "cut at " + std::to_string(k));
    }
    for (int i = 0; i < 2 * samples; ++i) {
      Bytes v = original_;
      const size_t at = 4 + rng() % (size - 12);  // the magic numbers are checked on their own
      if (i % 2 == 0) {
        v[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
      } else {
        v[at] = static_cast<uint8_t>(v[at] + 1 + rng() % 255);
      }
      const PageBody* body = PageBodyAt(at);
      Check(at >= footer_start_ ? Kind::kFooterFlip
            : body != nullptr   ? Kind::kPageBodyFlip
                                : Kind::kOtherFlip,
            v, (i % 2 == 0 ? "bit flip at " : "byte change at ") + std::to_string(at),
            body != nullptr && body->has_crc);
    }
  }

 private:
  // Where the page bodies are (the bytes a page CRC covers; headers are not covered).
  void FindPageBodies() {
    std::shared_ptr<RandomAccessFile> file = MakeMemoryFile(kName, original_);
    Result<std::shared_ptr<const ParquetMetadata>> md = ReadParquetMetadata(*file);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    for (const RowGroup& row_group : (*md)->file().row_groups) {
      for (const ColumnChunk& chunk : row_group.columns) {
        const ColumnMetaData& meta = *chunk.meta_data;
        int64_t pos = meta.data_page_offset;
        if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) {
          pos = std::min(pos, *meta.dictionary_page_offset);
        }
        const int64_t end = pos + meta.total_compressed_size;
        while (pos < end) {
          format::PageHeader header;
          size_t header_size = 0;
          std::span<const uint8_t> rest(original_.data() + pos, static_cast<size_t>(end - pos));
          ASSERT_TRUE(format::DecodePageHeader(rest, header, &header_size).ok());
          pos += static_cast<int64_t>(header_size);
          bodies_.push_back({pos, pos + header.compressed_page_size, header.crc.has_value()});
          crc_pages_ += header.crc.has_value() ? 1 : 0;
          pos += header.compressed_page_size;
        }
      }
    }
  }
  const PageBody* PageBodyAt(size_t at) const {
    const auto a = static_cast<int64_t>(at);
    auto it = std::find_if(bodies_.begin(), bodies_.end(),
                           [a](const PageBody& b) { return a >= b.begin && a < b.end; });
    return it == bodies_.end() ? nullptr : &*it;
  }

  Tally& tally_;
  std::string label_;
  Bytes original_;
  bool has_crc_;
  Batches reference_;
  size_t footer_start_ = 0;
  std::vector<PageBody> bodies_;
  int crc_pages_ = 0;
};

// alltypes_plain.parquet rewritten by pqsift: several row groups, dictionary and PLAIN pages,
// page indexes, page CRCs.
Bytes PqsiftWritten(const std::string& source) {
  Result<Batches> batches = ScanAll(pqsift::testing::ReadFileBytes(source), false);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  Bytes out;
  if (!batches.ok() || batches->empty()) return out;
  WriterOptions options;
  options.row_group_rows = 3;
  options.page_rows = 2;
  options.page_checksums = true;
  Result<std::unique_ptr<ParquetWriter>> writer = ParquetWriter::Open(
      MakeMemoryWritableFile("pqsift.parquet", &out), batches->front()->schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  for (const auto& b : *batches) EXPECT_TRUE((*writer)->Write(*b).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return out;
}

int Samples(int per_file) { return per_file * Scale() / kSanitizerDivisor; }

TEST(CorruptFile, PqsiftAndDuckDBWritten) {
  PQSIFT_TESTING_FILE_OR_SKIP(source, "alltypes_plain.parquet");
  Tally tally;
  CorruptFiles(tally, "pqsift-written alltypes_plain", PqsiftWritten(source), true)
      .Run(Samples(150), 1);
  CorruptFiles(tally, "DuckDB-written tiny.parquet",
               pqsift::testing::ReadFileBytes(pqsift::testing::TestDataPath("tiny.parquet")), false)
      .Run(Samples(150), 2);
  Report("pqsift- and DuckDB-written", tally);
}

TEST(CorruptFile, ParquetTestingFiles) {
  struct File {
    const char* name;
    bool crc;
  };
  const File files[] = {
      {"alltypes_plain.parquet", false},
      {"alltypes_dictionary.parquet", false},
      {"datapage_v2.snappy.parquet", false},
      {"nested_lists.snappy.parquet", false},
      {"nested_maps.snappy.parquet", false},
      {"delta_length_byte_array.parquet", true},
      {"byte_stream_split.zstd.parquet", false},
      {"lz4_raw_compressed.parquet", false},
      {"nulls.snappy.parquet", false},
      {"rle_boolean_encoding.parquet", false},
      {"rle-dict-snappy-checksum.parquet", true},
      {"plain-dict-uncompressed-checksum.parquet", true},
      {"datapage_v1-snappy-compressed-checksum.parquet", true},
  };
  uint64_t seed = 10;
  Tally tally;
  for (const File& f : files) {
    PQSIFT_TESTING_FILE_OR_SKIP(path, f.name);
    CorruptFiles(tally, f.name, pqsift::testing::ReadFileBytes(path), f.crc)
        .Run(Samples(100), seed++);
  }
  Report("parquet-testing files", tally);
}

}  // namespace
}  // namespace pqsift
