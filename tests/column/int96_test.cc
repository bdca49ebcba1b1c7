// INT96 timestamps read as microseconds in Spark's wrapping int64 arithmetic: every value Spark
// wrote (to year 294,247) reads back as Spark's own microseconds, including those Spark stored
// with a wrapped, negative Julian day; values inside the int64 range read as before.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/metadata_encoder.h"
#include "pqsift/scan.h"
#include "testing/files.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

constexpr int64_t kMicrosPerDay = 86400000000;
constexpr int64_t kJulianEpochDay = 2440588;

struct Int96Value {
  int64_t nanos_of_day;
  int32_t julian_day;
};

// What Spark's writer stores for `micros` (DateTimeUtils.toJulianDay): micros plus the epoch's
// Julian day in wrapping long arithmetic, then truncating division and remainder.
Int96Value SparkWrites(int64_t micros) {
  auto julian_micros = static_cast<int64_t>(static_cast<uint64_t>(micros) +
                                            static_cast<uint64_t>(kJulianEpochDay * kMicrosPerDay));
  return {julian_micros % kMicrosPerDay * 1000,
          static_cast<int32_t>(julian_micros / kMicrosPerDay)};
}

// One required INT96 column "t", PLAIN, uncompressed, holding `values`.
std::string Int96File(const std::vector<Int96Value>& values) {
  std::string body;
  for (const Int96Value& v : values) {
    auto nanos = static_cast<uint64_t>(v.nanos_of_day);
    testing::AppendLE32(body, static_cast<uint32_t>(nanos));
    testing::AppendLE32(body, static_cast<uint32_t>(nanos >> 32));
    testing::AppendLE32(body, static_cast<uint32_t>(v.julian_day));
  }
  format::PageHeader h;
  h.type = PageType::kDataPage;
  h.uncompressed_page_size = static_cast<int32_t>(body.size());
  h.compressed_page_size = static_cast<int32_t>(body.size());
  h.data_page_header.emplace().num_values = static_cast<int32_t>(values.size());
  std::string page = format::MetadataEncoder().PageHeader(h).Take() + body;
  const auto rows = static_cast<int64_t>(values.size());
  FileMetaData m;
  m.version = 1;
  m.schema = {testing::Root(1), testing::Leaf("t", PhysicalType::kInt96)};
  m.num_rows = rows;
  RowGroup rg;
  const auto size = static_cast<int64_t>(page.size());
  rg.columns = {testing::Chunk(PhysicalType::kInt96, {"t"}, 4, size, rows)};
  rg.num_rows = rows;
  rg.total_byte_size = size;
  m.row_groups = {rg};
  return testing::WrapFooter(format::EncodeFooter(m), page);
}

// Scans column 0 of `file` and returns its values (nulls as INT64_MIN with a failure).
Result<std::vector<int64_t>> ScanTimestamps(std::shared_ptr<RandomAccessFile> file) {
  PQSIFT_ASSIGN_OR_RETURN(auto metadata, ReadParquetMetadata(*file));
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({file}, {metadata}, ScanOptions{}));
  std::vector<int64_t> out;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (batch == nullptr) break;
    const Array& a = *batch->columns[0];
    EXPECT_EQ(a.type->id, TypeId::kTimestamp);
    const int64_t* v = a.buffers[1]->as<int64_t>() + a.offset;
    for (int64_t i = 0; i < a.length; ++i) out.push_back(a.IsValid(i) ? v[i] : INT64_MIN);
  }
  return out;
}

Result<std::vector<int64_t>> ScanInt96(const std::vector<Int96Value>& values) {
  return ScanTimestamps(testing::MemoryFile("int96.parquet", Int96File(values)));
}

TEST(Int96, SparkValuesBeyondTheNanosecondRangeReadAsSparkWroteThem) {
  const int64_t micros[] = {
      0,
      1704141296123456,     // 2024-01-01 20:34:56.123456
      10413792000000000,    // 2300-01-01, past the int64 nanosecond range (2262)
      253402300799999999,   // 9999-12-31 23:59:59.999999
      -62135596800000000,   // 0001-01-01
      9089380393200000000,  // year 290,000 (parquet-testing's int96_from_spark.parquet)
      9215576668800000000,  // 294000-01-01: Spark stores a wrapped, negative Julian day
      INT64_MAX,            // Spark's largest timestamp
      INT64_MIN,            // and its smallest
  };
  std::vector<Int96Value> stored;
  for (int64_t m : micros) stored.push_back(SparkWrites(m));
  // The far ones really are stored wrapped: a negative day and negative nanoseconds.
  EXPECT_LT(stored[6].julian_day, 0);
  EXPECT_LT(stored[6].nanos_of_day, 0);
  auto got = ScanInt96(stored);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, std::vector<int64_t>(std::begin(micros), std::end(micros)));
}

TEST(Int96, ValuesWithinRangeReadAsBefore) {
  // Whole days and nanoseconds as Impala and Hive store them; sub-microsecond nanoseconds are
  // dropped towards the past (floor), also for times before 1970.
  auto got = ScanInt96({{0, static_cast<int32_t>(kJulianEpochDay)},
                        {1999, static_cast<int32_t>(kJulianEpochDay)},
                        {86399999999999, static_cast<int32_t>(kJulianEpochDay - 1)},
                        {-1, static_cast<int32_t>(kJulianEpochDay)},
                        {0, 2454892}});  // 2009-03-01
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, (std::vector<int64_t>{0, 1, -1, -1, 1235865600000000}));
}

TEST(Int96, AValueNoWriterStoresWrapsInsteadOfFailing) {
  // Julian day INT32_MAX is no date: its exact microseconds exceed int64, and the result is the
  // wrapped one (as Spark reads it), not an error.
  auto got = ScanInt96({{0, INT32_MAX}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto expected = static_cast<int64_t>(static_cast<uint64_t>(int64_t{INT32_MAX} - kJulianEpochDay) *
                                       static_cast<uint64_t>(kMicrosPerDay));
  EXPECT_EQ(*got, std::vector<int64_t>{expected});
}

TEST(Int96, SparkFileFromParquetTesting) {
  std::string path = testing::ParquetTestingDir();
  if (path.empty()) GTEST_SKIP() << ::pqsift::testing::kParquetTestingMissing;
  auto file = OpenLocalFile(path + "/data/int96_from_spark.parquet");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto got = ScanTimestamps(std::move(*file));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  // The microseconds its README gives (int96_from_spark.md); row 4 is null.
  EXPECT_EQ(*got, (std::vector<int64_t>{1704141296123456, 1704070800000000, 253402225200000000,
                                        1735599600000000, INT64_MIN, 9089380393200000000}));
}

}  // namespace
}  // namespace pqsift
