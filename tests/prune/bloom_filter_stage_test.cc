// The bloom-filter stage over files written by pqsift's writer with bloom filters: absent values
// skip row groups, present ones never do, AND/OR combine as three-valued logic allows, floating
// zeros are probed in both signs, and every hostile filter (outside the file, a lying length,
// garbage, another algorithm) means "may contain", never an error or a lost row. Each filter's
// result is also compared with an unpruned scan.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>

#include "arrow/builder.h"
#include "format/bloom_filter_reader.h"
#include "format/metadata_encoder.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "prune/access_plan.h"
#include "scan/scanner_internals.h"
#include "testing/files.h"
#include "testing/parquet_files.h"

namespace pqsift::prune {
namespace {

namespace files = ::pqsift::testing;

constexpr int64_t kRowGroups = 8;
constexpr int64_t kRowsPerGroup = 1000;
constexpr int64_t kRows = kRowGroups * kRowsPerGroup;

// Row r holds key "k%05d" of a permutation of the rows (every row group spans the whole key
// range, so min/max prove nothing), n = r (no bloom filter), id32 = 3 * r, and f = -0.0 in the
// middle row of each row group, else r + 0.25.
std::string KeyOf(int64_t r) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%05lld", static_cast<long long>((r * 7919) % kRows));
  return buf;
}

std::vector<uint8_t> WriteSample(const WriterOptions& options) {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"key", LargeUtf8(), false},
                    {"n", Int64(), false},
                    {"id32", Int32(), false},
                    {"f", Float64(), false}};
  BinaryArrayBuilder keys(LargeUtf8());
  FixedWidthArrayBuilder<int64_t> n(Int64());
  FixedWidthArrayBuilder<int32_t> id32(Int32());
  FixedWidthArrayBuilder<double> f(Float64());
  for (int64_t r = 0; r < kRows; ++r) {
    keys.Append(KeyOf(r));
    n.Append(r);
    id32.Append(static_cast<int32_t>(3 * r));
    f.Append(r % kRowsPerGroup == kRowsPerGroup / 2 ? -0.0 : static_cast<double>(r) + 0.25);
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRows;
  batch.columns = {keys.Finish(), n.Finish(), id32.Finish(), f.Finish()};
  std::vector<uint8_t> bytes;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("b.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

WriterOptions SampleOptions() {
  WriterOptions o;
  o.row_group_rows = kRowsPerGroup;
  o.bloom_filters = {{"key", {0, 0.001}}, {"id32", {}}, {"f", {}}};
  return o;
}

struct Outcome {
  int64_t rows = 0;
  int64_t unpruned_rows = 0;
  int64_t skipped_by_bloom = 0;
  std::vector<bool> skipped;  // per row group, by the bloom stage
  uint64_t bloom_bytes_read = 0;
  int64_t considered = 0;
};

int64_t CountRows(const std::vector<uint8_t>& bytes, const std::string& filter, bool prune,
                  prune::AccessPlan* plan = nullptr) {
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", bytes);
  OpenOptions open;
  open.tail_bytes = 8;  // the filters are not in the footer's read: every filter byte counts
  auto metadata = ReadParquetMetadata(*file, open);
  EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
  ScanOptions options;
  options.filter = filter;
  options.prune = prune;
  options.count_only = true;
  options.threads = 1;
  auto scanner = Scanner::Open({file}, {*metadata}, options);
  EXPECT_TRUE(scanner.ok()) << filter << ": " << scanner.status().ToString();
  if (!scanner.ok()) return -1;
  if (plan) *plan = ScannerInternals::Plan(**scanner);
  int64_t rows = 0;
  for (;;) {
    auto batch = (*scanner)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    rows += (*batch)->num_rows;
  }
  return rows;
}

Outcome Evaluate(const std::vector<uint8_t>& bytes, const std::string& filter) {
  Outcome out;
  prune::AccessPlan plan;
  out.rows = CountRows(bytes, filter, true, &plan);
  out.unpruned_rows = CountRows(bytes, filter, false);
  EXPECT_EQ(out.rows, out.unpruned_rows) << filter;
  if (plan.files.empty()) return out;
  for (const RowGroupPlan& rg : plan.files[0].row_groups) {
    bool skipped = rg.decision() == Decision::kSkip && rg.decided_by == "bloom filter";
    out.skipped.push_back(skipped);
    out.skipped_by_bloom += skipped;
  }
  for (const StageReport& s : plan.stages) {
    if (s.stage != "bloom filter") continue;
    out.bloom_bytes_read = s.bytes_read;
    out.considered = s.row_groups_considered;
    EXPECT_EQ(s.row_groups_skipped, out.skipped_by_bloom);
  }
  return out;
}

class BloomFilterStageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { bytes_ = new std::vector<uint8_t>(WriteSample(SampleOptions())); }
  static void TearDownTestSuite() { delete bytes_; }
  static const std::vector<uint8_t>& bytes() { return *bytes_; }

 private:
  static std::vector<uint8_t>* bytes_;
};
std::vector<uint8_t>* BloomFilterStageTest::bytes_ = nullptr;

TEST_F(BloomFilterStageTest, AbsentKeySkipsEveryRowGroup) {
  Outcome o = Evaluate(bytes(), "key = 'k00042x'");
  EXPECT_EQ(o.rows, 0);
  EXPECT_EQ(o.skipped_by_bloom, kRowGroups);
  EXPECT_EQ(o.considered, kRowGroups);
  // The key column's filters (2 KiB each: 1000 values at 0.1%), in one read from the first to
  // the last (the other columns' filters between them are smaller than a request is worth).
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", bytes());
  auto metadata = ReadParquetMetadata(*file);
  ASSERT_TRUE(metadata.ok());
  const auto& groups = (*metadata)->file().row_groups;
  const ColumnMetaData& first = *groups.front().columns[0].meta_data;
  const ColumnMetaData& last = *groups.back().columns[0].meta_data;
  EXPECT_EQ(*first.bloom_filter_length, 2048 + 16);  // the header takes 16 bytes
  EXPECT_EQ(o.bloom_bytes_read,
            static_cast<uint64_t>(*last.bloom_filter_offset + *last.bloom_filter_length -
                                  *first.bloom_filter_offset));
}

TEST_F(BloomFilterStageTest, PresentKeysKeepTheirRowGroup) {
  int64_t others_skipped = 0;
  for (int64_t r = 3; r < kRows; r += 397) {
    SCOPED_TRACE(r);
    Outcome o = Evaluate(bytes(), "key = '" + KeyOf(r) + "'");
    EXPECT_EQ(o.rows, 1);
    ASSERT_EQ(o.skipped.size(), static_cast<size_t>(kRowGroups));
    EXPECT_FALSE(o.skipped[r / kRowsPerGroup]);
    others_skipped += o.skipped_by_bloom;
  }
  // 21 probes, 7 other row groups each, at a false-positive rate of about 0.1%.
  EXPECT_GE(others_skipped, 21 * 7 - 2);
}

TEST_F(BloomFilterStageTest, InListNeedsEveryValueAbsent) {
  EXPECT_EQ(Evaluate(bytes(), "key IN ('a1', 'k00042x', 'k99999')").skipped_by_bloom, kRowGroups);
  Outcome o = Evaluate(bytes(), "key IN ('k00042x', '" + KeyOf(2500) + "')");
  EXPECT_EQ(o.rows, 1);
  EXPECT_FALSE(o.skipped[2]);
  EXPECT_GE(o.skipped_by_bloom, kRowGroups - 2);
  // NOT IN is never proven by a filter.
  EXPECT_EQ(Evaluate(bytes(), "key NOT IN ('k00042x')").skipped_by_bloom, 0);
}

TEST_F(BloomFilterStageTest, AndNeedsOneConjunctOrNeedsEveryBranch) {
  EXPECT_EQ(Evaluate(bytes(), "key = 'k00042x' AND n >= 0").skipped_by_bloom, kRowGroups);
  EXPECT_EQ(Evaluate(bytes(), "n >= 0 AND (key = 'k00042x' OR key = 'k00043x')").skipped_by_bloom,
            kRowGroups);
  EXPECT_EQ(Evaluate(bytes(), "key = 'k00042x' OR key = 'k00043x'").skipped_by_bloom, kRowGroups);
  Outcome o = Evaluate(bytes(), "key = 'k00042x' OR n = 1500");
  EXPECT_EQ(o.rows, 1);
  EXPECT_EQ(o.skipped_by_bloom, 0);  // n has no filter: the OR may match everywhere
  EXPECT_EQ(o.considered, 0);        // and no filter was read for it
  EXPECT_EQ(o.bloom_bytes_read, 0u);
  EXPECT_EQ(Evaluate(bytes(), "NOT (key = 'k00042x')").skipped_by_bloom, 0);
  EXPECT_EQ(Evaluate(bytes(), "key IS NOT DISTINCT FROM 'k00042x'").skipped_by_bloom, kRowGroups);
  EXPECT_EQ(Evaluate(bytes(), "key IS DISTINCT FROM 'k00042x'").skipped_by_bloom, 0);
}

TEST_F(BloomFilterStageTest, IntegersInTheirPhysicalWidth) {
  // Only row group 1's range holds 3001 (the statistics skip the others); its filter does not.
  Outcome absent = Evaluate(bytes(), "id32 = 3001");
  EXPECT_EQ(absent.rows, 0);
  EXPECT_EQ(absent.skipped_by_bloom, 1);
  EXPECT_TRUE(absent.skipped[1]);
  Outcome o = Evaluate(bytes(), "id32 = 3003");
  EXPECT_EQ(o.rows, 1);
  EXPECT_FALSE(o.skipped[1]);
  // Between two integers: rewritten to a range by the binder, which no filter can test.
  EXPECT_EQ(Evaluate(bytes(), "id32 = 3001.5").rows, 0);
  // Out of INT32's range: no stored form (the statistics prove it instead).
  EXPECT_EQ(Evaluate(bytes(), "id32 = 5000000000").skipped_by_bloom, 0);
  EXPECT_EQ(Evaluate(bytes(), "id32 = 3 * 2").rows, 1);  // arithmetic is folded or evaluated
}

TEST_F(BloomFilterStageTest, FloatZeroIsProbedInBothSigns) {
  // Every row group holds -0.0, which equals 0.
  Outcome zero = Evaluate(bytes(), "f = 0");
  EXPECT_EQ(zero.rows, kRowGroups);
  EXPECT_EQ(zero.skipped_by_bloom, 0);
  EXPECT_EQ(Evaluate(bytes(), "f = -0.0").rows, kRowGroups);
  EXPECT_EQ(Evaluate(bytes(), "f IN (0.0, 7.5)").skipped_by_bloom, 0);
  Outcome half = Evaluate(bytes(), "f = 2.5");
  EXPECT_EQ(half.rows, 0);
  EXPECT_EQ(half.skipped_by_bloom, kRowGroups);
  Outcome present = Evaluate(bytes(), "f = 1001.25");
  EXPECT_EQ(present.rows, 1);
  EXPECT_FALSE(present.skipped[1]);
}

// ---- hostile filters: never an error, never a lost row ----

// The sample with its footer rewritten by `edit` (the bloom filter fields of key's chunks).
std::vector<uint8_t> WithFooterEdit(const std::vector<uint8_t>& bytes,
                                    const std::function<void(ColumnMetaData&)>& edit,
                                    std::vector<uint8_t>* patch_region = nullptr) {
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", bytes);
  auto metadata = ReadParquetMetadata(*file);
  EXPECT_TRUE(metadata.ok());
  FileMetaData m = (*metadata)->file();
  for (RowGroup& rg : m.row_groups) edit(*rg.columns[0].meta_data);
  std::vector<uint8_t> footer = files::FooterOf(bytes);
  std::vector<uint8_t> out(bytes.begin(), bytes.end() - 8 - static_cast<ptrdiff_t>(footer.size()));
  if (patch_region) *patch_region = out;
  std::string encoded = format::MetadataEncoder().FileMetaData(m).Take();
  out.insert(out.end(), encoded.begin(), encoded.end());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(encoded.size() >> (8 * i)));
  for (char c : std::string("PAR1")) out.push_back(static_cast<uint8_t>(c));
  return out;
}

TEST_F(BloomFilterStageTest, WithoutLengthTheFilterIsReadInAPrefix) {
  std::vector<uint8_t> edited =
      WithFooterEdit(bytes(), [](ColumnMetaData& m) { m.bloom_filter_length.reset(); });
  Outcome o = Evaluate(edited, "key = 'k00042x'");
  EXPECT_EQ(o.skipped_by_bloom, kRowGroups);
  // The filters (about 2 KiB each) lie together: their headers are read in one coalesced read,
  // then the blocks of the probed value.
  EXPECT_LT(o.bloom_bytes_read, 2 * kRowGroups * 2200);
}

TEST(BloomFilterLoadTest, ALookupReadsOnlyTheBlocksOfItsHashes) {
  // 128 KiB filters (sized for 100,000 values), with and without bloom_filter_length: a probe
  // of a few hashes reads each header and the blocks they fall in, and answers exactly as the
  // whole filter for them.
  WriterOptions options = SampleOptions();
  options.bloom_filters = {{"key", {100'000, 0.01}}};
  const std::vector<uint8_t> with_length = WriteSample(options);
  const std::vector<uint8_t> without_length =
      WithFooterEdit(with_length, [](ColumnMetaData& m) { m.bloom_filter_length.reset(); });
  std::vector<uint64_t> hashes;
  for (int64_t r = 0; r < 6; ++r) {  // three present keys, three absent ones
    const std::string key = r < 3 ? KeyOf(r * 1001) : "absent" + std::to_string(r);
    hashes.push_back(
        format::BloomFilterHash({reinterpret_cast<const uint8_t*>(key.data()), key.size()}));
  }
  for (const std::vector<uint8_t>* bytes : {&with_length, &without_length}) {
    std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", *bytes);
    OpenOptions open;
    open.tail_bytes = 8;
    auto metadata = ReadParquetMetadata(*file, open);
    ASSERT_TRUE(metadata.ok());
    std::vector<format::BloomFilterRequest> whole, blocks;
    for (size_t g = 0; g < kRowGroups; ++g) {
      whole.push_back({g, 0, {}});
      blocks.push_back({g, 0, hashes});
    }
    uint64_t whole_read = 0, blocks_read = 0;
    auto a =
        format::LoadBloomFilters(*file, **metadata, whole, UINT64_MAX, kRowGroups, &whole_read);
    auto b =
        format::LoadBloomFilters(*file, **metadata, blocks, UINT64_MAX, kRowGroups, &blocks_read);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_GE(whole_read, kRowGroups * 128 * 1024);
    // Blocks within 4 KiB of each other are read together.
    EXPECT_LE(blocks_read, kRowGroups * (format::kBloomFilterHeaderProbeBytes + 6 * (32 + 4096)));
    int64_t absent = 0;
    for (size_t g = 0; g < kRowGroups; ++g) {
      ASSERT_TRUE(a->filters[g] && b->filters[g]);
      EXPECT_TRUE(a->filters[g]->whole());
      EXPECT_FALSE(b->filters[g]->whole());
      EXPECT_EQ(b->filters[g]->num_bytes(), 128 * 1024);
      for (uint64_t h : hashes) {
        EXPECT_EQ(a->filters[g]->MightContain(h), b->filters[g]->MightContain(h));
        absent += !b->filters[g]->MightContain(h);
      }
    }
    EXPECT_GT(absent, 0);  // the comparison above compared some "absent" answers
  }
}

TEST(BloomFilterLoadTest, ALookupInLargeFiltersReadsAFewBlocks) {
  WriterOptions options = SampleOptions();
  options.bloom_filters = {{"key", {100'000, 0.01}}};
  Outcome o = Evaluate(WriteSample(options), "key IN ('k00042x', 'k00043x')");
  EXPECT_EQ(o.skipped_by_bloom, kRowGroups);
  EXPECT_LE(o.bloom_bytes_read,
            kRowGroups * (format::kBloomFilterHeaderProbeBytes + 2 * (32 + 4096)));
}

TEST(BloomFilterLoadTest, LargeFiltersWithoutLengthLoadWithinTheBudget) {
  // 128 KiB filters (sized for 100,000 values) without bloom_filter_length: each needs a second
  // read past the 64 KiB prefix, and a budget of 100,000 bytes admits one such rest at a time.
  WriterOptions options = SampleOptions();
  options.bloom_filters = {{"key", {100'000, 0.01}}};
  std::vector<uint8_t> bytes = WithFooterEdit(WriteSample(options), [](ColumnMetaData& m) {
    if (m.bloom_filter_length) m.bloom_filter_length.reset();
  });
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", bytes);
  auto metadata = ReadParquetMetadata(*file);
  ASSERT_TRUE(metadata.ok());
  std::vector<format::BloomFilterRequest> requests;
  for (size_t g = 0; g < kRowGroups; ++g) requests.push_back({g, 0, {}});
  uint64_t read = 0;
  size_t done = 0, calls = 0;
  while (done < requests.size()) {
    auto loaded = format::LoadBloomFilters(*file, **metadata, std::span(requests).subspan(done),
                                           100'000, 1, &read);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    ASSERT_GE(loaded->complete, 1u);
    EXPECT_LE(loaded->complete, 1u);  // the budget holds one rest
    for (size_t i = 0; i < loaded->complete; ++i) {
      ASSERT_TRUE(loaded->filters[i].has_value());
      EXPECT_EQ(loaded->filters[i]->num_bytes(), 128 * 1024);
      EXPECT_FALSE(loaded->filters[i]->MightContain(
          format::BloomFilterHash({reinterpret_cast<const uint8_t*>("k00042x"), 7})));
    }
    done += loaded->complete;
    ++calls;
  }
  EXPECT_EQ(calls, static_cast<size_t>(kRowGroups));
  // The stage's own budget takes them all at once, and prunes.
  EXPECT_EQ(Evaluate(bytes, "key = 'k00042x'").skipped_by_bloom, kRowGroups);
}

TEST_F(BloomFilterStageTest, HostileFootersMeanMayContain) {
  const auto file_size = static_cast<int64_t>(bytes().size());
  const std::vector<std::function<void(ColumnMetaData&)>> edits = {
      [&](ColumnMetaData& m) { m.bloom_filter_offset = file_size; },
      [&](ColumnMetaData& m) { m.bloom_filter_offset = file_size - 3; },
      [&](ColumnMetaData& m) { m.bloom_filter_offset = -5; },
      [&](ColumnMetaData& m) {
        m.bloom_filter_offset = file_size - 20;
        m.bloom_filter_length.reset();
      },
      [](ColumnMetaData& m) { m.bloom_filter_length = 5; },
      [](ColumnMetaData& m) { *m.bloom_filter_length -= 1; },
      [](ColumnMetaData& m) { m.bloom_filter_length = INT32_MAX; },
      [](ColumnMetaData& m) { m.bloom_filter_length = -1; },
      [](ColumnMetaData& m) { *m.bloom_filter_offset += 1; },
      [](ColumnMetaData& m) { m.bloom_filter_offset = m.data_page_offset; },
      [](ColumnMetaData& m) {
        m.bloom_filter_offset = m.data_page_offset;
        m.bloom_filter_length.reset();
      },
  };
  for (size_t i = 0; i < edits.size(); ++i) {
    SCOPED_TRACE(i);
    Outcome o = Evaluate(WithFooterEdit(bytes(), edits[i]), "key = 'k00042x'");
    EXPECT_EQ(o.rows, 0);
    EXPECT_EQ(o.skipped_by_bloom, 0);
    // A present key is found whatever the filters say.
    EXPECT_EQ(Evaluate(WithFooterEdit(bytes(), edits[i]), "key = '" + KeyOf(77) + "'").rows, 1);
  }
}

TEST_F(BloomFilterStageTest, HostileFilterBytesMeanMayContain) {
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("b.parquet", bytes());
  auto metadata = ReadParquetMetadata(*file);
  ASSERT_TRUE(metadata.ok());
  const ColumnMetaData& key0 = *(*metadata)->file().row_groups[0].columns[0].meta_data;
  const auto offset = static_cast<size_t>(*key0.bloom_filter_offset);
  const auto length = static_cast<size_t>(*key0.bloom_filter_length);
  auto patched = [&](const std::vector<uint8_t>& header) {
    std::vector<uint8_t> out = bytes();
    std::copy(header.begin(), header.end(), out.begin() + static_cast<ptrdiff_t>(offset));
    return out;
  };
  format::BloomFilterHeader other;
  other.num_bytes = static_cast<int32_t>(length - 15);
  other.algorithm = 2;  // unknown: may contain
  other.hash = other.compression = 1;
  std::string other_bytes = format::MetadataEncoder().BloomFilterHeader(other).Take();
  format::BloomFilterHeader huge = other;
  huge.algorithm = 1;
  huge.num_bytes = 1 << 30;  // beyond the 128 MiB limit
  std::string huge_bytes = format::MetadataEncoder().BloomFilterHeader(huge).Take();
  const std::vector<std::vector<uint8_t>> headers = {
      std::vector<uint8_t>(16, 0xFF),
      std::vector<uint8_t>(16, 0x00),
      {other_bytes.begin(), other_bytes.end()},
      {huge_bytes.begin(), huge_bytes.end()},
  };
  for (size_t i = 0; i < headers.size(); ++i) {
    SCOPED_TRACE(i);
    Outcome o = Evaluate(patched(headers[i]), "key = 'k00042x'");
    EXPECT_EQ(o.rows, 0);
    EXPECT_FALSE(o.skipped[0]);  // row group 0's filter is unusable
    EXPECT_EQ(o.skipped_by_bloom, kRowGroups - 1);
  }
}

// ---- a parquet-mr file with a bloom filter (no bloom_filter_length, no usable statistics) ----

namespace parquet_testing {

int64_t Count(const std::string& path, const std::string& filter, prune::AccessPlan* plan) {
  ScanOptions options;
  options.filter = filter;
  options.count_only = true;
  options.threads = 1;
  auto scanner = Scanner::Open({path}, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return -1;
  *plan = ScannerInternals::Plan(**scanner);
  int64_t rows = 0;
  for (;;) {
    auto batch = (*scanner)->Next();
    EXPECT_TRUE(batch.ok());
    if (!batch.ok() || *batch == nullptr) break;
    rows += (*batch)->num_rows;
  }
  return rows;
}

TEST(BloomFilterParquetTestingTest, PresentValuesFoundAbsentOnesPruned) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, "data_index_bloom_encoding_stats.parquet");
  for (const char* present : {"Hello", "This is", "a", "test", "How", "are you", "doing ", "today",
                              "the quick", "brown fox", "jumps", "over", "the lazy", "dog"}) {
    SCOPED_TRACE(present);
    prune::AccessPlan plan;
    EXPECT_EQ(Count(path, "\"String\" = '" + std::string(present) + "'", &plan), 1);
    EXPECT_EQ(plan.files[0].row_groups[0].decision(), Decision::kScan);
  }
  // DuckDB's parquet_bloom_probe excludes these too.
  for (const char* absent : {"Hellox", "hello", "doing", "cat", "Hello "}) {
    SCOPED_TRACE(absent);
    prune::AccessPlan plan;
    EXPECT_EQ(Count(path, "\"String\" = '" + std::string(absent) + "'", &plan), 0);
    EXPECT_EQ(plan.files[0].row_groups[0].decision(), Decision::kSkip);
    EXPECT_EQ(plan.files[0].row_groups[0].decided_by, "bloom filter");
  }
  prune::AccessPlan plan;
  EXPECT_EQ(Count(path, "\"String\" IN ('cat', 'dog')", &plan), 1);
  EXPECT_EQ(Count(path, "\"String\" IN ('cat', 'hello')", &plan), 0);
  EXPECT_EQ(plan.files[0].row_groups[0].decided_by, "bloom filter");
}

}  // namespace parquet_testing

}  // namespace
}  // namespace pqsift::prune
