// The dataset layer: path expansion and globs, hive partition parsing and typing, schema
// unification (added columns read as NULL, widened types, conflicts naming both files),
// partition pruning before any file is opened, and the footer cache.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "dataset/partition.h"
#include "pqsift/dataset.h"
#include "pqsift/writer.h"

namespace pqsift {
namespace {

namespace fs = std::filesystem;

TEST(GlobMatchTest, SegmentsAndDoubleStar) {
  EXPECT_TRUE(GlobMatch("data/*.parquet", "data/a.parquet"));
  EXPECT_FALSE(GlobMatch("data/*.parquet", "data/x/a.parquet"));
  EXPECT_TRUE(GlobMatch("data/**/*.parquet", "data/a.parquet"));
  EXPECT_TRUE(GlobMatch("data/**/*.parquet", "data/day=1/r=eu/a.parquet"));
  EXPECT_FALSE(GlobMatch("data/**/*.parquet", "other/a.parquet"));
  EXPECT_TRUE(GlobMatch("data/day=?/*", "data/day=1/x"));
  EXPECT_FALSE(GlobMatch("data/day=?/*", "data/day=10/x"));
  EXPECT_TRUE(GlobMatch("data/day=[12]/*", "data/day=2/x"));
  EXPECT_FALSE(GlobMatch("data/day=[12]/*", "data/day=3/x"));
  EXPECT_TRUE(GlobMatch("**", "a/b/c"));
}

TEST(HiveSegmentsTest, KeysValuesDecodedAndNull) {
  auto s = HiveSegments("/root/day=2024-01-05/region=eu%2Fwest/name=a%20b/part=0.parquet");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].first, "day");
  EXPECT_EQ(*s[0].second, "2024-01-05");
  EXPECT_EQ(*s[1].second, "eu/west");
  EXPECT_EQ(*s[2].second, "a b");
  auto n = HiveSegments("x=__HIVE_DEFAULT_PARTITION__/f.parquet");
  ASSERT_EQ(n.size(), 1u);
  EXPECT_FALSE(n[0].second.has_value());
  EXPECT_TRUE(HiveSegments("plain/f.parquet").empty());
  EXPECT_TRUE(HiveSegments("f.parquet").empty());
}

TEST(PartitionTypeTest, InferredAsDuckDbDoes) {
  using V = std::vector<std::optional<std::string>>;
  EXPECT_EQ(dataset::InferPartitionType(V{"1", "-20", std::nullopt}), PartitionType::kInt64);
  EXPECT_EQ(dataset::InferPartitionType(V{"2024-01-01", "2024-02-29"}), PartitionType::kDate);
  EXPECT_EQ(dataset::InferPartitionType(V{"2024-01-01 10:00:00"}), PartitionType::kTimestamp);
  EXPECT_EQ(dataset::InferPartitionType(V{"1", "x"}), PartitionType::kString);
  EXPECT_EQ(dataset::InferPartitionType(V{"1.5"}), PartitionType::kString);
  EXPECT_EQ(dataset::InferPartitionType(V{"99999999999999999999"}), PartitionType::kString);
  EXPECT_EQ(dataset::InferPartitionType(V{std::nullopt}), PartitionType::kString);
  auto v = dataset::ParsePartitionValue(std::string("2024-01-02"), PartitionType::kDate);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->i, 19724);
  EXPECT_FALSE(dataset::ParsePartitionValue(std::string("x"), PartitionType::kInt64));
  EXPECT_TRUE(dataset::ParsePartitionValue(std::nullopt, PartitionType::kInt64)->is_null());
}

TEST(PartitionSchemaTest, Parses) {
  auto s = ParsePartitionSchema("day:date, region:STRING,n:bigint,x:double");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->size(), 4u);
  EXPECT_EQ((*s)[0].type, PartitionType::kDate);
  EXPECT_EQ((*s)[1].type, PartitionType::kString);
  EXPECT_EQ((*s)[2].type, PartitionType::kInt64);
  EXPECT_EQ((*s)[3].type, PartitionType::kFloat64);
  EXPECT_FALSE(ParsePartitionSchema("day").ok());
  EXPECT_FALSE(ParsePartitionSchema("day:month").ok());
}

// A temporary folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("pqsift_dataset_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }
  std::string str() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::shared_ptr<Array> Int64s(const std::vector<int64_t>& v) {
  FixedWidthArrayBuilder<int64_t> b(Int64());
  for (int64_t x : v) b.Append(x);
  return b.Finish();
}
std::shared_ptr<Array> Int32s(const std::vector<int32_t>& v) {
  FixedWidthArrayBuilder<int32_t> b(Int32());
  for (int32_t x : v) b.Append(x);
  return b.Finish();
}
std::shared_ptr<Array> Strings(const std::vector<std::string>& v) {
  BinaryArrayBuilder b(LargeUtf8());
  for (const auto& x : v) b.Append(x);
  return b.Finish();
}

void WriteFile(const std::string& path,
               std::vector<std::pair<std::string, std::shared_ptr<Array>>> columns) {
  fs::create_directories(fs::path(path).parent_path());
  auto schema = std::make_shared<BatchSchema>();
  RecordBatch batch;
  for (auto& [name, array] : columns) {
    schema->fields.push_back({name, array->type, true});
    batch.num_rows = array->length;
    batch.columns.push_back(array);
  }
  batch.schema = schema;
  auto file = OpenLocalWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  WriterOptions options;
  options.row_group_rows = 2;
  auto writer = ParquetWriter::Open(std::move(*file), schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  ASSERT_TRUE((*writer)->Write(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

void Touch(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << "x";
}

TEST(ExpandPathsTest, FoldersSortedRecursiveHiddenLeftOut) {
  TempDir dir;
  Touch(dir / "b/2.parquet");
  Touch(dir / "a/1.parquet");
  Touch(dir / "a/sub/0.parquet");
  Touch(dir / "_SUCCESS");
  Touch(dir / ".hidden/x.parquet");
  Touch(dir / "a/.crc");
  auto files = ExpandPaths({dir.str()});
  ASSERT_TRUE(files.ok()) << files.status().message();
  std::vector<std::string> paths;
  for (const auto& f : *files) paths.push_back(f.path);
  EXPECT_EQ(paths, (std::vector<std::string>{dir / "a/1.parquet", dir / "a/sub/0.parquet",
                                             dir / "b/2.parquet"}));
  auto globbed = ExpandPaths({dir.str() + "/**/*.parquet"});
  ASSERT_TRUE(globbed.ok());
  EXPECT_EQ(globbed->size(), 3u);
  auto one = ExpandPaths({dir.str() + "/a/*.parquet"});
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().size, 1u);
  EXPECT_FALSE(ExpandPaths({dir.str() + "/none/*.parquet"}).ok());
  EXPECT_FALSE(ExpandPaths({dir / "missing.parquet"}).ok());
}

struct Rows {
  std::vector<std::string> names;
  std::vector<std::string> lines;  // one per row: values joined by '|', NULL as "null"
  ScanStats stats;
};

std::string Cell(const Array& a, int64_t i) {
  if (!a.IsValid(i)) return "null";
  int64_t k = a.offset + i;
  switch (a.type->id) {
    case TypeId::kInt64: return std::to_string(a.buffers[1]->as<int64_t>()[k]);
    case TypeId::kInt32:
    case TypeId::kDate32: return std::to_string(a.buffers[1]->as<int32_t>()[k]);
    case TypeId::kLargeString: {
      const int64_t* offsets = a.buffers[1]->as<int64_t>();
      return std::string(reinterpret_cast<const char*>(a.buffers[2]->data()) + offsets[k],
                         offsets[k + 1] - offsets[k]);
    }
    default: return "?";
  }
}

Result<Rows> ScanDataset(const std::vector<std::string>& paths, const std::string& where,
                         std::vector<std::string> columns = {}, bool prune = true,
                         DatasetOptions dataset_options = {}) {
  PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, Dataset::Discover(paths, dataset_options));
  ScanOptions options;
  options.filter = where;
  options.columns = std::move(columns);
  options.prune = prune;
  options.threads = 2;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, OpenDatasetScan(dataset, options));
  Rows out;
  for (const Field& f : scanner->schema()->fields)
    out.names.push_back(f.name + ":" + f.type->ToString());
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      std::string line;
      for (size_t c = 0; c < batch->columns.size(); ++c) {
        line += (c ? "|" : "") + Cell(*batch->columns[c], r);
      }
      out.lines.push_back(line);
    }
  }
  out.stats = scanner->stats();
  return out;
}

TEST(DatasetScanTest, UnifiesAddedColumnsAndWiderTypesWithPartitions) {
  TempDir dir;
  WriteFile(dir / "day=2024-01-01/region=eu/a.parquet", {{"id", Int32s({1, 2, 3})}});
  WriteFile(dir / "day=2024-01-02/region=us/b.parquet",
            {{"name", Strings({"x", "y"})}, {"id", Int64s({4, 5})}});
  WriteFile(dir / "day=2024-01-02/region=__HIVE_DEFAULT_PARTITION__/c.parquet",
            {{"id", Int64s({6})}});
  ClearFooterCache();
  auto all = ScanDataset({dir.str()}, "");
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->names, (std::vector<std::string>{"id:int64", "name:large_string",
                                                  "day:date32[day]", "region:large_string"}));
  EXPECT_EQ(all->lines, (std::vector<std::string>{
                            "1|null|19723|eu", "2|null|19723|eu", "3|null|19723|eu",
                            // sorted paths: region=__HIVE_DEFAULT_PARTITION__ before region=us
                            "6|null|19724|null", "4|x|19724|us", "5|y|19724|us"}));
  EXPECT_EQ(all->stats.files_total, 3u);
  EXPECT_EQ(all->stats.footers_read, 3u);

  // A partition predicate: the other day's file is never opened; the filter needs no rows.
  auto day = ScanDataset({dir.str()}, "day = DATE '2024-01-02'", {"id", "region"});
  ASSERT_TRUE(day.ok()) << day.status().message();
  EXPECT_EQ(day->lines, (std::vector<std::string>{"6|null", "4|us", "5|us"}));
  EXPECT_EQ(day->stats.files_skipped_by_partition, 1u);
  EXPECT_EQ(day->stats.files, 2u);
  EXPECT_EQ(day->stats.footers_read, 0u);  // the cache had them
  EXPECT_EQ(day->stats.rows_decoded, 3);   // id only: the filter was proven per file

  // Mixed: the partition conjunct prunes, the rest filters rows; a missing column is NULL.
  auto mixed = ScanDataset({dir.str()}, "region = 'eu' AND id >= 2", {"id", "name"});
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  EXPECT_EQ(mixed->lines, (std::vector<std::string>{"2|null", "3|null"}));
  EXPECT_EQ(mixed->stats.files_skipped_by_partition, 2u);
  auto nulls = ScanDataset({dir.str()}, "name IS NULL AND region IS NULL", {"id"});
  ASSERT_TRUE(nulls.ok()) << nulls.status().message();
  EXPECT_EQ(nulls->lines, (std::vector<std::string>{"6"}));

  // Any function of partition values decides a file: evaluated on its values.
  auto upper = ScanDataset({dir.str()}, "upper(region) = 'US' OR coalesce(region, 'x') = 'x'",
                           {"id", "region"});
  ASSERT_TRUE(upper.ok()) << upper.status().message();
  EXPECT_EQ(upper->lines, (std::vector<std::string>{"6|null", "4|us", "5|us"}));
  EXPECT_EQ(upper->stats.files_skipped_by_partition, 1u);
  EXPECT_EQ(upper->stats.rows_decoded, 3);  // id and region: proven per file, no row filter

  // Unpruned: the same rows.
  auto unpruned = ScanDataset({dir.str()}, "region = 'eu' AND id >= 2", {"id", "name"}, false);
  ASSERT_TRUE(unpruned.ok());
  EXPECT_EQ(unpruned->lines, mixed->lines);
  EXPECT_EQ(unpruned->stats.files_skipped_by_partition, 0u);

  // A column only in a file pruning skipped still binds (its footer joins the schema).
  auto skipped_column = ScanDataset({dir.str()}, "region = 'eu'", {"name"});
  ASSERT_TRUE(skipped_column.ok()) << skipped_column.status().message();
  EXPECT_EQ(skipped_column->lines, (std::vector<std::string>{"null", "null", "null"}));
  // A predicate no partition matches: nothing opened for data.
  auto none = ScanDataset({dir.str()}, "day > DATE '2030-01-01'", {"id"});
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none->lines.empty());
  EXPECT_EQ(none->stats.files, 0u);
}

TEST(DatasetScanTest, MoreFilesThanTheProcessMayOpen) {
  // 150 files under a descriptor limit of 64: a scan holds every file it reads until it ends,
  // so those of a large dataset must not hold descriptors between reads.
  TempDir dir;
  constexpr int kFiles = 150;
  for (int f = 0; f < kFiles; ++f) {
    WriteFile(dir / ("part=" + std::to_string(f % 3) + "/f" + std::to_string(f) + ".parquet"),
              {{"id", Int64s({2 * f, 2 * f + 1})}});
  }
  ClearFooterCache();
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  struct rlimit low = saved;
  low.rlim_cur = std::min<rlim_t>(saved.rlim_cur, 64);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  auto all = ScanDataset({dir.str()}, "id >= 100 AND id < 250", {"id"});
  ::setrlimit(RLIMIT_NOFILE, &saved);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->stats.files_total, static_cast<uint64_t>(kFiles));
  EXPECT_EQ(all->lines.size(), 150u);
}

TEST(LocalFileOnDemandTest, AFileReplacedAfterOpeningIsAnError) {
  TempDir dir;
  const std::string path = dir / "a.parquet";
  WriteFile(path, {{"id", Int64s({1, 2, 3})}});
  auto file = OpenLocalFileOnDemand(path);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE((*file)->Read({0, 4}).ok());
  WriteFile(path, {{"id", Int64s({1, 2, 3, 4, 5, 6})}});  // another size
  auto read = (*file)->Read({0, 4});
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("changed during the scan"), std::string::npos)
      << read.status().message();
  EXPECT_NE(read.status().message().find(path), std::string::npos);
}

TEST(DatasetScanTest, PartitionSchemaOverridesInference) {
  TempDir dir;
  WriteFile(dir / "n=1/a.parquet", {{"id", Int64s({1})}});
  WriteFile(dir / "n=10/a.parquet", {{"id", Int64s({2})}});
  DatasetOptions options;
  options.partition_schema = {{"n", PartitionType::kString}};
  auto rows = ScanDataset({dir.str()}, "n < '2'", {"id", "n"}, true, options);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(rows->lines, (std::vector<std::string>{"1|1", "2|10"}));  // string order
  auto ints = ScanDataset({dir.str()}, "n < 2", {"id"});
  ASSERT_TRUE(ints.ok()) << ints.status().message();
  EXPECT_EQ(ints->lines, (std::vector<std::string>{"1"}));
  options.partition_schema = {{"n", PartitionType::kDate}};
  auto bad = Dataset::Discover({dir.str()}, options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("is not a date"), std::string::npos);
}

TEST(DatasetScanTest, ConflictsNameBothFiles) {
  TempDir dir;
  WriteFile(dir / "a.parquet", {{"id", Int64s({1})}});
  WriteFile(dir / "b.parquet", {{"id", Strings({"x"})}});
  auto rows = ScanDataset({dir.str()}, "");
  ASSERT_FALSE(rows.ok());
  const std::string& m = rows.status().message();
  EXPECT_NE(m.find("a.parquet"), std::string::npos) << m;
  EXPECT_NE(m.find("b.parquet"), std::string::npos) << m;
  EXPECT_NE(m.find("'id'"), std::string::npos) << m;

  TempDir keys;
  WriteFile(keys / "x=1/a.parquet", {{"id", Int64s({1})}});
  WriteFile(keys / "y=1/b.parquet", {{"id", Int64s({1})}});
  auto d = Dataset::Discover({keys.str()});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("partition keys differ"), std::string::npos);

  TempDir clash;
  WriteFile(clash / "id=1/a.parquet", {{"id", Int64s({1})}});
  auto c = ScanDataset({clash.str()}, "");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("both a hive partition key"), std::string::npos);
}

// count(*) through the library, with its stats.
Result<std::pair<int64_t, ScanStats>> CountDataset(const std::string& path,
                                                   const std::string& where, bool prune = true) {
  PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, Dataset::Discover({path}));
  ScanOptions options;
  options.filter = where;
  options.count_only = true;
  options.prune = prune;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, OpenDatasetScan(dataset, options));
  int64_t rows = 0;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    rows += batch->num_rows;
  }
  return std::make_pair(rows, scanner->stats());
}

TEST(ManifestTest, CountsFullyMatchedFilesFromTheManifestAlone) {
  TempDir dir;
  WriteFile(dir / "part=1/a.parquet", {{"id", Int64s({1, 2, 3})}});
  WriteFile(dir / "part=1/b.parquet", {{"id", Int64s({10, 11})}});
  WriteFile(dir / "part=2/c.parquet", {{"id", Int64s({20, 21, 22, 23})}});
  auto dataset = Dataset::Discover({dir.str()});
  ASSERT_TRUE(dataset.ok());
  ASSERT_TRUE(WriteManifest(*dataset, dir / std::string(kManifestName)).ok());
  struct Case {
    std::string where;
    int64_t rows;
    uint64_t counted;  // files answered by the manifest's row counts
    uint64_t opened;
  };
  for (const Case& c : std::vector<Case>{{"", 9, 3, 0},
                                         {"id >= 0", 9, 3, 0},
                                         {"part = 1", 5, 2, 0},   // c skipped by its partition
                                         {"id >= 10", 6, 2, 0},   // a skipped by the manifest
                                         {"id > 2", 7, 2, 1}}) {  // a is opened: 1 of its rows
    SCOPED_TRACE(c.where);
    ClearFooterCache();
    auto counted = CountDataset(dir.str(), c.where);
    ASSERT_TRUE(counted.ok()) << counted.status().message();
    EXPECT_EQ(counted->first, c.rows);
    EXPECT_EQ(counted->second.files_counted_by_manifest, c.counted);
    EXPECT_EQ(counted->second.files, c.opened);
    EXPECT_EQ(counted->second.footers_read, c.opened);
    auto unpruned = CountDataset(dir.str(), c.where, false);
    ASSERT_TRUE(unpruned.ok());
    EXPECT_EQ(unpruned->first, c.rows);
  }
  // A file rewritten since: its stale entry is not used.
  WriteFile(dir / "part=2/c.parquet", {{"id", Int64s({20, 21})}});
  ClearFooterCache();
  auto stale = CountDataset(dir.str(), "id >= 0");
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->first, 7);
  EXPECT_EQ(stale->second.files_counted_by_manifest, 2u);
  EXPECT_EQ(stale->second.files, 1u);
}

TEST(ManifestTest, SkipsFilesWithoutFootersAndIgnoresStaleEntries) {
  TempDir dir;
  WriteFile(dir / "a.parquet", {{"id", Int64s({1, 2, 3})}});
  WriteFile(dir / "b.parquet", {{"id", Int64s({10, 11})}, {"name", Strings({"x", "y"})}});
  WriteFile(dir / "c.parquet", {{"id", Int64s({20, 21})}});
  auto dataset = Dataset::Discover({dir.str()});
  ASSERT_TRUE(dataset.ok()) << dataset.status().message();
  ASSERT_TRUE(WriteManifest(*dataset, dir / std::string(kManifestName)).ok());
  ClearFooterCache();
  auto rows = ScanDataset({dir.str()}, "id >= 10 AND id < 15", {"id", "name"});
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(rows->lines, (std::vector<std::string>{"10|x", "11|y"}));
  EXPECT_EQ(rows->stats.files_skipped_by_manifest, 2u);
  EXPECT_EQ(rows->stats.footers_read, 1u);              // the schema came from the manifest
  EXPECT_EQ(rows->stats.row_groups_fully_matched, 1u);  // proven by the manifest
  // A column some file lacks is NULL there: the manifest proves it for that file.
  auto nulls = ScanDataset({dir.str()}, "name = 'x'", {"id"});
  ASSERT_TRUE(nulls.ok()) << nulls.status().message();
  EXPECT_EQ(nulls->lines, (std::vector<std::string>{"10"}));
  EXPECT_EQ(nulls->stats.files_skipped_by_manifest, 2u);

  // c.parquet rewritten: its entry is stale and must not be used.
  WriteFile(dir / "c.parquet", {{"id", Int64s({12, 13, 14, 99})}});
  ClearFooterCache();
  auto stale = ScanDataset({dir.str()}, "id >= 10 AND id < 15", {"id"});
  ASSERT_TRUE(stale.ok()) << stale.status().message();
  EXPECT_EQ(stale->lines, (std::vector<std::string>{"10", "11", "12", "13", "14"}));
  EXPECT_EQ(stale->stats.files_skipped_by_manifest, 1u);
  auto unpruned = ScanDataset({dir.str()}, "id >= 10 AND id < 15", {"id"}, false);
  ASSERT_TRUE(unpruned.ok());
  EXPECT_EQ(unpruned->lines, stale->lines);

  // Not a manifest: ignored, never an error.
  WriteFile(dir / std::string(kManifestName), {{"path", Int64s({1})}});
  auto ignored = ScanDataset({dir.str()}, "id >= 10 AND id < 15", {"id"});
  ASSERT_TRUE(ignored.ok()) << ignored.status().message();
  EXPECT_EQ(ignored->lines, stale->lines);
  EXPECT_EQ(ignored->stats.files_skipped_by_manifest, 0u);
}

TEST(SplitsTest, EveryRowGroupInExactlyOneSplit) {
  TempDir dir;
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 9; ++i) ids.push_back(i);
  WriteFile(dir / "a.parquet", {{"id", Int64s(ids)}});  // row groups of 2 rows: 5 of them
  WriteFile(dir / "b.parquet", {{"id", Int64s({100, 101, 102})}});
  auto dataset = Dataset::Discover({dir.str()});
  ASSERT_TRUE(dataset.ok());
  for (uint64_t target : {1ull, 50ull, 200ull, 1ull << 40}) {
    for (const std::string& where : {std::string(), std::string("id >= 3")}) {
      ScanOptions options;
      options.filter = where;
      auto splits = PlanSplits(*dataset, options, target);
      ASSERT_TRUE(splits.ok()) << splits.status().message();
      std::vector<std::string> all;
      for (const Split& split : *splits) {
        DatasetOptions none;
        auto one = Dataset::Discover({split.path}, none);
        ASSERT_TRUE(one.ok());
        options.columns = {"id"};
        auto scanner = OpenDatasetScan(*one, options, &split);
        ASSERT_TRUE(scanner.ok()) << scanner.status().message();
        for (;;) {
          auto batch = (*scanner)->Next();
          ASSERT_TRUE(batch.ok());
          if (!*batch) break;
          for (int64_t r = 0; r < (*batch)->num_rows; ++r)
            all.push_back(Cell(*(*batch)->columns[0], r));
        }
      }
      auto whole = ScanDataset({dir.str()}, where, {"id"});
      ASSERT_TRUE(whole.ok());
      EXPECT_EQ(all, whole->lines) << "target " << target << " where '" << where << "'";
      if (target == 1) {
        EXPECT_GE(splits->size(), where.empty() ? 7u : 4u);
      }
    }
  }
  EXPECT_FALSE(ParseSplit("a.parquet:5").ok());
  EXPECT_FALSE(ParseSplit("a.parquet:9:5").ok());
  auto parsed = ParseSplit("x:y.parquet:4:100");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->path, "x:y.parquet");
  EXPECT_EQ(parsed->start, 4u);
  EXPECT_EQ(parsed->end, 100u);
}

// PartitionedWriter: a batch written as a hive dataset scans back as the same table, the
// partition columns from the folder names (escaped, NULL and '' as the default partition), and
// a filter on them opens only their folders. Few open files force part files.
TEST(PartitionedWriterTest, ScansBackAsTheTableItWasWrittenFrom) {
  TempDir dir;
  const std::string root = dir / "out";
  const std::vector<std::optional<std::string>> regions = {"eu", "us", std::nullopt, "", "a/b=c%d"};
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false},
                    {"region", LargeUtf8(), true},
                    {"day", Date32(), false},
                    {"qty", Int32(), true}};
  PartitionedWriteOptions partitioning;
  partitioning.partition_by = {"day", "region"};
  partitioning.max_open_files = 2;
  WriterOptions options;
  options.row_group_rows = 7;
  auto writer = PartitionedWriter::Open(root, schema, partitioning, options);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  std::map<int64_t, std::string> expected;  // id -> "id|qty|day|region"
  int64_t id = 0;
  for (int batch_number = 0; batch_number < 3; ++batch_number) {
    FixedWidthArrayBuilder<int64_t> ids(Int64());
    BinaryArrayBuilder region(LargeUtf8());
    FixedWidthArrayBuilder<int32_t> day(Date32());
    FixedWidthArrayBuilder<int32_t> qty(Int32());
    for (int r = 0; r < 40; ++r, ++id) {
      const auto& value = regions[(id / 3 + batch_number) % regions.size()];  // runs of 3
      const int32_t days = 19723 + static_cast<int32_t>(id % 2);
      ids.Append(id);
      value ? region.Append(*value) : region.AppendNull();
      day.Append(days);
      if (id % 5 == 0) {
        qty.AppendNull();
      } else {
        qty.Append(static_cast<int32_t>(id * 7));
      }
      const std::string read_back = value && !value->empty() ? *value : "null";
      expected[id] = std::to_string(id) + "|" + (id % 5 == 0 ? "null" : std::to_string(id * 7)) +
                     "|" + std::to_string(days) + "|" + read_back;
    }
    RecordBatch batch;
    batch.schema = schema;
    batch.num_rows = 40;
    batch.columns = {ids.Finish(), region.Finish(), day.Finish(), qty.Finish()};
    ASSERT_TRUE((*writer)->Write(batch).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->num_rows(), 120);
  EXPECT_GT((*writer)->num_files(), 10);  // 10 folders, some in several parts
  EXPECT_TRUE(fs::exists(root + "/day=2024-01-01/region=a%2Fb%3Dc%25d/part-0.parquet"));
  EXPECT_TRUE(fs::exists(root + "/day=2024-01-02/region=__HIVE_DEFAULT_PARTITION__"));

  ClearFooterCache();
  auto all = ScanDataset({root}, "");
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->names, (std::vector<std::string>{"id:int64", "qty:int32", "day:date32[day]",
                                                  "region:large_string"}));
  std::map<int64_t, std::string> got;
  for (const std::string& line : all->lines) got[std::stoll(line)] = line;
  EXPECT_EQ(got, expected);

  auto one = ScanDataset({root}, "region = 'a/b=c%d' AND day = DATE '2024-01-02'", {"id"});
  ASSERT_TRUE(one.ok()) << one.status().message();
  size_t matching = 0;
  for (const auto& [row_id, line] : expected) {
    matching += line.ends_with("|19724|a/b=c%d") ? 1 : 0;
  }
  EXPECT_EQ(one->lines.size(), matching);
  EXPECT_GT(matching, 0u);
  EXPECT_EQ(one->stats.files, one->stats.files_total - one->stats.files_skipped_by_partition);
  EXPECT_LE(one->stats.files, 3u);  // that folder's parts only
}

// The writer tests' table: ids, and the key `k` they are partitioned by.
std::shared_ptr<BatchSchema> IdAndKeySchema() {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"k", Int64(), false}};
  return schema;
}

RecordBatch IdsAndKeys(const std::shared_ptr<BatchSchema>& schema, const std::vector<int64_t>& ids,
                       const std::vector<int64_t>& keys) {
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = static_cast<int64_t>(ids.size());
  batch.columns = {Int64s(ids), Int64s(keys)};
  return batch;
}

// Appending writers with their own prefixes add files beside the ones there, never over them.
TEST(PartitionedWriterTest, AppendsBesideWhatIsThere) {
  TempDir dir;
  const std::string root = dir / "ds";
  auto schema = IdAndKeySchema();
  const RecordBatch batch = IdsAndKeys(schema, {1, 2, 3}, {7, 7, 8});
  auto write = [&](const std::string& prefix, bool append) {
    PartitionedWriteOptions partitioning;
    partitioning.partition_by = {"k"};
    partitioning.file_prefix = prefix;
    partitioning.append = append;
    auto writer = PartitionedWriter::Open(root, schema, partitioning);
    if (!writer.ok()) return writer.status();
    PQSIFT_RETURN_IF_ERROR((*writer)->Write(batch));
    return (*writer)->Close();
  };
  ASSERT_TRUE(write("part", false).ok());
  EXPECT_EQ(write("part", false).code(), StatusCode::kInvalidArgument);  // not empty
  ASSERT_TRUE(write("part", true).ok());
  ASSERT_TRUE(write("w1", true).ok());
  EXPECT_EQ(write("a/b", true).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(write(".hidden", true).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(fs::exists(root + "/k=7/part-0.parquet"));
  EXPECT_TRUE(fs::exists(root + "/k=7/part-1.parquet"));  // part-0 was taken
  EXPECT_TRUE(fs::exists(root + "/k=8/w1-0.parquet"));
  ClearFooterCache();
  auto all = ScanDataset({root}, "k = 7", {"id"});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->lines.size(), 6u);  // ids 1 and 2, three times
}

// Open files hold at most max_buffered_rows rows in all: past it the least recently written
// files are finished (their partitions continue in new part files), and every row is kept.
TEST(PartitionedWriterTest, FinishesOldFilesPastTheRowBudget) {
  TempDir dir;
  const std::string root = dir / "ds";
  auto schema = IdAndKeySchema();
  PartitionedWriteOptions partitioning;
  partitioning.partition_by = {"k"};
  partitioning.max_buffered_rows = 250;
  WriterOptions options;
  options.row_group_rows = 1000;  // no row group completes: every written row stays buffered
  auto writer = PartitionedWriter::Open(root, schema, partitioning, options);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  int64_t id = 0;
  for (int round = 0; round < 6; ++round) {
    for (int64_t k = 0; k < 3; ++k) {
      std::vector<int64_t> ids;
      for (int r = 0; r < 100; ++r) ids.push_back(id++);
      ASSERT_TRUE((*writer)->Write(IdsAndKeys(schema, ids, std::vector<int64_t>(100, k))).ok());
    }
  }
  ASSERT_TRUE((*writer)->Close().ok());
  // 300 rows per round over three folders, 250 at most held: files are finished as they go.
  EXPECT_GT((*writer)->num_files(), 3);
  EXPECT_TRUE(fs::exists(root + "/k=0/part-1.parquet"));
  ClearFooterCache();
  auto all = ScanDataset({root}, "", {"id"});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->lines.size(), 1800u);
  std::set<std::string> distinct(all->lines.begin(), all->lines.end());
  EXPECT_EQ(distinct.size(), 1800u);
}

TEST(PartitionedWriterTest, RefusesWhatItCannotWrite) {
  TempDir dir;
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false}, {"blob", LargeBinary(), true}};
  auto open = [&](std::vector<std::string> by, const std::string& root) {
    PartitionedWriteOptions partitioning;
    partitioning.partition_by = std::move(by);
    return PartitionedWriter::Open(root, schema, partitioning).status();
  };
  EXPECT_EQ(open({"nope"}, dir / "a").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(open({"id", "id"}, dir / "a").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(open({"blob"}, dir / "a").code(), StatusCode::kNotSupported);
  EXPECT_EQ(open({}, dir / "a").code(), StatusCode::kInvalidArgument);
  auto hidden_key = std::make_shared<BatchSchema>();
  hidden_key->fields = {{"id", Int64(), false}, {"_day", Int64(), false}};
  PartitionedWriteOptions by_hidden;
  by_hidden.partition_by = {"_day"};
  EXPECT_EQ(PartitionedWriter::Open(dir / "a", hidden_key, by_hidden).status().code(),
            StatusCode::kInvalidArgument);
  auto only_keys = std::make_shared<BatchSchema>();
  only_keys->fields = {{"id", Int64(), false}};
  PartitionedWriteOptions by_id;
  by_id.partition_by = {"id"};
  EXPECT_EQ(PartitionedWriter::Open(dir / "a", only_keys, by_id).status().code(),
            StatusCode::kInvalidArgument);
  Touch(dir / "full/x");
  Status not_empty = open({"id"}, dir / "full");
  EXPECT_EQ(not_empty.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(not_empty.message().find("not an empty folder"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "a"));  // nothing made by a refused Open
  EXPECT_TRUE(open({"id"}, dir / "a").ok());
}

}  // namespace
}  // namespace pqsift
