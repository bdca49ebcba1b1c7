// ScanOptions::keep_dictionaries: the string and binary columns of a scan come as dictionary
// arrays where their pages are dictionary-encoded, and as values elsewhere, with the rows and
// values of a scan without the option under filters (scattered rows, a filter column that is
// an output too), LIMIT, top-k, NULLs, a chunk falling back to PLAIN mid-chunk, and every
// batch size.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/builder.h"
#include "arrow/dictionary.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"

namespace pqsift {
namespace {

constexpr int64_t kRows = 12000;

// id int64 0..kRows-1; s utf8, nullable: 50 values, NULL on every 9th row; t utf8: 20 values
// for the first 2000 rows of each row group, then distinct (the dictionary outgrows its page
// and the chunk goes on in PLAIN); b binary: 7 values.
std::vector<uint8_t> WriteFile() {
  auto schema = std::make_shared<BatchSchema>();
  schema->fields = {{"id", Int64(), false},
                    {"s", LargeUtf8(), true},
                    {"t", LargeUtf8(), false},
                    {"b", LargeBinary(), false}};
  FixedWidthArrayBuilder<int64_t> id(Int64());
  BinaryArrayBuilder s(LargeUtf8()), t(LargeUtf8()), b(LargeBinary());
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    if (i % 9 == 0) {
      s.AppendNull();
    } else {
      s.Append("category " + std::to_string(i * 7 % 50));
    }
    t.Append(i % 4000 < 2000 ? "t" + std::to_string(i % 20)
                             : "distinct value number " + std::to_string(i));
    b.Append(std::string("\0b", 2) + std::to_string(i % 7));
  }
  RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = kRows;
  batch.columns = {id.Finish(), s.Finish(), t.Finish(), b.Finish()};
  WriterOptions options;
  options.row_group_rows = 4000;
  options.page_rows = 300;
  options.dictionary_page_bytes = 4096;
  std::vector<uint8_t> bytes;
  auto writer = ParquetWriter::Open(MakeMemoryWritableFile("d.parquet", &bytes), schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return bytes;
  EXPECT_TRUE((*writer)->Write(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

struct Scanned {
  // Per column, every row's value (nullopt: NULL); and how many batches of it were
  // dictionary arrays and value arrays.
  std::vector<std::vector<std::optional<std::string>>> values;
  std::vector<int> dictionary_batches, value_batches;
};

Result<Scanned> Scan(const std::vector<uint8_t>& bytes, ScanOptions options) {
  auto md = ReadParquetMetadata(*MakeMemoryFile("d.parquet", bytes));
  PQSIFT_RETURN_IF_ERROR(md.status());
  options.threads = 2;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner,
                          Scanner::Open({MakeMemoryFile("d.parquet", bytes)}, {*md}, options));
  Scanned out;
  const size_t columns = scanner->schema()->fields.size();
  out.values.resize(columns);
  out.dictionary_batches.assign(columns, 0);
  out.value_batches.assign(columns, 0);
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    for (size_t c = 0; c < columns; ++c) {
      std::shared_ptr<Array> a = batch->columns[c];
      EXPECT_EQ(a->length, batch->num_rows);
      if (a->type->id == TypeId::kDictionary) {
        ++out.dictionary_batches[c];
        EXPECT_EQ(a->type->value_type->id, scanner->schema()->fields[c].type->id);
        PQSIFT_ASSIGN_OR_RETURN(a, DecodeDictionary(*a));
      } else {
        ++out.value_batches[c];
        EXPECT_EQ(a->type->id, scanner->schema()->fields[c].type->id);
      }
      for (int64_t i = 0; i < a->length; ++i) {
        if (!a->IsValid(i)) {
          out.values[c].emplace_back();
        } else if (a->type->id == TypeId::kInt64) {
          out.values[c].emplace_back(std::to_string(a->buffers[1]->as<int64_t>()[a->offset + i]));
        } else {
          const int64_t* offsets = a->buffers[1]->as<int64_t>() + a->offset;
          const char* data = reinterpret_cast<const char*>(a->buffers[2]->data());
          out.values[c].emplace_back(std::string(data + offsets[i], data + offsets[i + 1]));
        }
      }
    }
  }
  return out;
}

TEST(KeepDictionariesTest, SameRowsAsValuesUnderFiltersLimitsAndBatchSizes) {
  const std::vector<uint8_t> bytes = WriteFile();
  struct Case {
    std::string filter;
    int64_t limit = -1;
    std::string order_by;
  };
  const std::vector<Case> cases = {
      {"", -1, ""},
      {"id % 3 = 0", -1, ""},                   // scattered rows: keep masks of indices
      {"id BETWEEN 1000 AND 5100", -1, ""},     // pages skipped, across row groups
      {"s = 'category 5' OR id < 10", -1, ""},  // s gathered from the filter's reading: values
      {"t LIKE 't1%'", -1, ""},                 // t through its fallback
      {"", 777, ""},
      {"id % 5 = 1", 333, ""},
      {"", 50, "id DESC"},  // top-k: values only
  };
  for (int64_t batch_size : {int64_t{1} << 16, int64_t{97}, int64_t{1}}) {
    for (const Case& c : cases) {
      SCOPED_TRACE("filter '" + c.filter + "' limit " + std::to_string(c.limit) + " order '" +
                   c.order_by + "' batch size " + std::to_string(batch_size));
      ScanOptions options;
      options.filter = c.filter;
      options.limit = c.limit;
      options.order_by = c.order_by;
      options.batch_size = batch_size;
      auto values = Scan(bytes, options);
      ASSERT_TRUE(values.ok()) << values.status().ToString();
      options.keep_dictionaries = true;
      auto kept = Scan(bytes, options);
      ASSERT_TRUE(kept.ok()) << kept.status().ToString();
      EXPECT_EQ(kept->values, values->values);
      for (size_t col = 0; col < 4; ++col) EXPECT_EQ(values->dictionary_batches[col], 0);
      EXPECT_EQ(kept->dictionary_batches[0], 0);  // numbers are values
      if (!c.order_by.empty()) {
        for (size_t col = 0; col < 4; ++col) EXPECT_EQ(kept->dictionary_batches[col], 0);
      }
    }
  }
}

// The option does what it says: where the pages are dictionary-encoded the batches are
// dictionary arrays; a chunk that falls back to PLAIN gives values for the rest.
TEST(KeepDictionariesTest, DictionaryPagesComeAsDictionaryArrays) {
  const std::vector<uint8_t> bytes = WriteFile();
  ScanOptions options;
  options.keep_dictionaries = true;
  options.batch_size = 500;
  auto kept = Scan(bytes, options);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(kept->values[0].size(), static_cast<size_t>(kRows));
  EXPECT_EQ(kept->value_batches[1], 0);  // s: dictionary throughout
  EXPECT_GT(kept->dictionary_batches[1], 0);
  EXPECT_GT(kept->dictionary_batches[2], 0);  // t: dictionary, then PLAIN
  EXPECT_GT(kept->value_batches[2], 0);
  EXPECT_EQ(kept->value_batches[3], 0);  // b
}

}  // namespace
}  // namespace pqsift
