// Reading VARIANT columns (src/variant/shredding.h through the scan): every case of
// parquet-testing/shredded_variant/cases.json. A valid case's rows, as the Scanner returns
// them (arrow.parquet.variant), equal the case's variant files (metadata + value, compared as
// values with variant::Equal); an error case fails to scan; the two cases the suite marks
// INVALID may either fail or give the expected value (the suite allows both).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "arrow/layout.h"
#include "cli/output/batch_writer.h"
#include "pqsift/arrow_abi.h"
#include "pqsift/arrow_export.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "testing/files.h"
#include "variant/json.h"
#include "variant/shredding.h"
#include "variant/variant.h"
#include "write/written_file.h"

namespace pqsift::variant {
namespace {

std::string ReadText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::span<const uint8_t> Span(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// The length of the metadata at the start of `b` (a .variant.bin is metadata then value).
size_t MetadataLength(std::string_view b) {
  if (b.empty()) return 0;
  const int w = (static_cast<uint8_t>(b[0]) >> 6) + 1;
  auto read = [&](size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < w && at + i < b.size(); ++i) {
      v |= static_cast<uint64_t>(static_cast<uint8_t>(b[at + i])) << (8 * i);
    }
    return v;
  };
  const uint64_t n = read(1);
  const size_t strings_at = 1 + w + (n + 1) * w;
  return std::min(b.size(), static_cast<size_t>(strings_at + read(1 + w + n * w)));
}

struct Row {
  bool null = false;
  std::string metadata, value;
};

// Every row of column `var`, or the scan's error.
Result<std::vector<Row>> ScanVariants(const std::string& path) {
  ScanOptions options;
  options.columns = {"var"};
  options.threads = 1;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({path}, options));
  std::vector<Row> rows;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (batch == nullptr) break;
    const Array& a = *batch->columns[0];
    if (!IsVariantType(*a.type)) return Status::Internal("not a variant: " + a.type->ToString());
    PQSIFT_RETURN_IF_ERROR(ValidateArray(a));
    for (int64_t i = 0; i < a.length; ++i) {
      Row r;
      r.null = !a.IsValid(i);
      for (int c = 0; c < 2 && !r.null; ++c) {
        const Array& b = *a.children[static_cast<size_t>(c)];
        const int64_t* o = layout::Offsets<int64_t>(b);
        const int64_t j = b.offset + a.offset + i;
        std::string bytes(reinterpret_cast<const char*>(b.buffers[2]->data()) + o[j],
                          static_cast<size_t>(o[j + 1] - o[j]));
        (c == 0 ? r.metadata : r.value) = std::move(bytes);
      }
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

// "" when `row` is the variant in `bin` (metadata + value), else what differs.
std::string Compare(const Row& row, const std::string& bin) {
  if (row.null) return "the row is null";
  const std::string_view all(bin);
  const size_t ml = MetadataLength(all);
  auto em = Metadata::Parse(Span(all.substr(0, ml)));
  if (!em.ok()) return "expected metadata: " + em.status().ToString();
  auto ev = Value::Parse(*em, Span(all.substr(ml)));
  if (!ev.ok()) return "expected value: " + ev.status().ToString();
  auto gm = Metadata::Parse(Span(row.metadata));
  if (!gm.ok()) return "metadata read: " + gm.status().ToString();
  auto gv = Value::Parse(*gm, Span(row.value));
  if (!gv.ok()) return "value read: " + gv.status().ToString();
  if (!Equal(*ev, *gv)) return "read " + ToJson(*gv) + ", expected " + ToJson(*ev);
  return "";
}

TEST(VariantShreddedTest, EveryCaseReadsAsItsVariantOrFails) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "shredded_variant";
  const nlohmann::json cases = nlohmann::json::parse(ReadText(dir / "cases.json"));
  int valid = 0, errors = 0, invalid_read = 0, skipped = 0;
  for (const auto& c : cases) {
    const int number = c.at("case_number").get<int>();
    SCOPED_TRACE("case " + std::to_string(number) + " " + c.value("test", ""));
    if (!c.contains("parquet_file")) {
      ++skipped;  // a numbered case without files
      continue;
    }
    const std::string file = (dir / c.at("parquet_file").get<std::string>()).string();
    auto rows = ScanVariants(file);
    if (c.contains("error_message")) {
      EXPECT_FALSE(rows.ok()) << "expected: " << c.at("error_message").get<std::string>();
      if (!rows.ok()) {
        EXPECT_NE(rows.status().message().find("var"), std::string::npos)
            << rows.status().ToString();
      }
      ++errors;
      continue;
    }
    std::vector<nlohmann::json> files;
    if (c.contains("variant_file")) {
      files.push_back(c.at("variant_file"));
    } else {
      for (const auto& f : c.at("variant_files")) files.push_back(f);
    }
    const bool may_fail =
        c.at("parquet_file").get<std::string>().find("INVALID") != std::string::npos;
    if (!rows.ok()) {
      EXPECT_TRUE(may_fail) << rows.status().ToString();
      ++invalid_read;
      continue;
    }
    ASSERT_EQ(rows->size(), files.size());
    for (size_t r = 0; r < files.size(); ++r) {
      SCOPED_TRACE("row " + std::to_string(r));
      if (files[r].is_null()) {
        EXPECT_TRUE((*rows)[r].null);
        continue;
      }
      const std::string bin = ReadText(dir / files[r].get<std::string>());
      EXPECT_EQ(Compare((*rows)[r], bin), "");
    }
    ++valid;
  }
  std::cout << "shredded_variant: " << valid << " valid cases read, " << errors << " error cases, "
            << invalid_read << " INVALID cases refused, " << skipped << " without files\n";
  EXPECT_GT(valid + errors, 0);
}

// The error cases fail with a message that says why.
TEST(VariantShreddedTest, UnsupportedShreddedTypesNameTheType) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "shredded_variant";
  auto unsigned_int = ScanVariants((dir / "case-127.parquet").string());
  ASSERT_FALSE(unsigned_int.ok());
  EXPECT_NE(unsigned_int.status().message().find("INT(32,unsigned)"), std::string::npos)
      << unsigned_int.status().ToString();
  auto flba = ScanVariants((dir / "case-137.parquet").string());
  ASSERT_FALSE(flba.ok());
  EXPECT_NE(flba.status().message().find("FIXED_LEN_BYTE_ARRAY"), std::string::npos)
      << flba.status().ToString();
  auto non_object = ScanVariants((dir / "case-087.parquet").string());
  ASSERT_FALSE(non_object.ok());
  EXPECT_NE(non_object.status().message().find("non-object"), std::string::npos)
      << non_object.status().ToString();
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ScanBatches(const std::string& path) {
  ScanOptions options;
  options.threads = 1;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({path}, options));
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (batch == nullptr) break;
    batches.push_back(batch);
  }
  return batches;
}

std::string Render(cli::OutputFormat format, const std::vector<std::shared_ptr<RecordBatch>>& b) {
  std::ostringstream out;
  auto writer = cli::MakeBatchWriter(format, out, cli::OutputOptions{});
  EXPECT_TRUE(writer.ok());
  for (const auto& batch : b) EXPECT_TRUE((*writer)->Write(*batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  return out.str();
}

// case-083 (testMixedRecords): a null row, objects with shredded and unshredded fields.
TEST(VariantShreddedTest, TextOutputsGiveJsonAndArrowExportNamesTheExtension) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::string path =
      (std::filesystem::path(root) / "shredded_variant" / "case-083.parquet").string();
  auto batches = ScanBatches(path);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_FALSE(batches->empty());
  const std::string jsonl = Render(cli::OutputFormat::kJsonLines, *batches);
  std::istringstream lines(jsonl);
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[0].at("var").is_null());
  EXPECT_EQ(rows[1].at("var"), nlohmann::json::parse(R"({"c":{"b":"iceberg"}})"));
  EXPECT_EQ(rows[2].at("var").at("c"), 8);
  EXPECT_EQ(rows[3].at("var").at("c").at("a"), 34);
  const std::string csv = Render(cli::OutputFormat::kCsv, *batches);
  EXPECT_NE(csv.find("\"{\"\"c\"\":{\"\"b\"\":\"\"iceberg\"\"}}\""), std::string::npos) << csv;

  // Through the C Data Interface: the field carries ARROW:extension:name, and reads back.
  const RecordBatch& batch = *batches->front();
  size_t var = 0;
  while (batch.schema->fields[var].name != "var") ++var;
  ArrowSchema schema;
  ASSERT_TRUE(ExportType(batch.schema->fields[var], &schema).ok());
  ASSERT_NE(schema.metadata, nullptr);
  const std::string_view md(schema.metadata + 4, 64);
  EXPECT_NE(md.find("ARROW:extension:name"), std::string_view::npos);
  EXPECT_NE(md.find("arrow.parquet.variant"), std::string_view::npos);
  EXPECT_EQ(std::string_view(schema.format), "+s");
  auto field = ImportField(&schema);
  ASSERT_TRUE(field.ok()) << field.status().ToString();
  EXPECT_TRUE(IsVariantType(*field->type));
  EXPECT_EQ(*field->type, *VariantArrowType());
  schema.release(&schema);
}

// A scanned variant column written back by ParquetWriter is an (unshredded) VARIANT group
// that reads as the same variants.
TEST(VariantShreddedTest, WrittenBackAsVariantReadsTheSame) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "shredded_variant";
  for (const char* name : {"case-083.parquet", "case-045.parquet", "case-029.parquet"}) {
    SCOPED_TRACE(name);
    auto batches = ScanBatches((dir / name).string());
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    const RecordBatch& batch = *batches->front();
    testing::Written w = testing::Write(batch, WriterOptions{}, 2);
    ASSERT_NE(w.metadata, nullptr);
    const Schema& schema = w.metadata->schema();
    bool annotated = false;
    for (const SchemaNode& n : schema.nodes()) {
      annotated =
          annotated || (n.name == "var" && n.logical_type.kind == LogicalType::Kind::kVariant);
    }
    EXPECT_TRUE(annotated);
    testing::ScannedBatches back = testing::ScanWritten(w, ScanOptions{});
    ASSERT_EQ(back.rows(), batch.num_rows);
    size_t var = 0;
    while (batch.schema->fields[var].name != "var") ++var;
    const Array& before = *batch.columns[var];
    const Array& after = *back.batches.front()->columns[var];
    EXPECT_TRUE(IsVariantType(*after.type));
    EXPECT_TRUE(ArrayEquals(before, after));
  }
}

// Variants inside a struct and inside a list (written by ParquetWriter, read back): the
// VARIANT group is found and unshredded at any depth.
TEST(VariantShreddedTest, VariantsNestedInStructsAndListsReadBack) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "shredded_variant";
  auto batches = ScanBatches((dir / "case-083.parquet").string());
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  const RecordBatch& source = *batches->front();
  size_t var = 0;
  while (source.schema->fields[var].name != "var") ++var;
  std::shared_ptr<Array> variants = source.columns[var];  // 4 rows, the first null
  ASSERT_EQ(variants->length, 4);
  // struct<v: variant>, 4 rows; large_list<variant>: [v0, v1], [v2], [], [v3]... as 4 rows.
  auto st = std::make_shared<Array>();
  st->type = Struct({Field{"v", variants->type}});
  st->length = 4;
  st->buffers.push_back(nullptr);
  st->children.push_back(variants);
  auto offsets = std::make_shared<ArrowBuffer>();
  for (int64_t o : {0, 2, 3, 3, 4}) offsets->Append(&o, sizeof(o));
  auto list = std::make_shared<Array>();
  list->type = LargeList(Field{"element", variants->type});
  list->length = 4;
  list->buffers = {nullptr, offsets};
  list->children.push_back(variants);
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {Field{"s", st->type}, Field{"l", list->type}};
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = 4;
  batch.columns = {st, list};
  ASSERT_TRUE(ValidateRecordBatch(batch).ok()) << ValidateRecordBatch(batch).ToString();
  testing::Written w = testing::Write(batch, WriterOptions{}, 3);
  ASSERT_NE(w.metadata, nullptr);
  testing::ScannedBatches back = testing::ScanWritten(w, ScanOptions{});
  ASSERT_EQ(back.batches.size(), 1u);
  const RecordBatch& got = *back.batches.front();
  EXPECT_TRUE(IsVariantType(*got.columns[0]->children[0]->type));
  EXPECT_TRUE(ArrayEquals(*got.columns[0], *st)) << got.columns[0]->type->ToString();
  EXPECT_TRUE(ArrayEquals(*got.columns[1], *list)) << got.columns[1]->type->ToString();
}

}  // namespace
}  // namespace pqsift::variant
