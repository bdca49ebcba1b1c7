// Hostile VARIANT columns: every parquet-testing/shredded_variant file with bytes changed in its
// data pages (where the variant metadata and values live) scans to rows whose variants all
// decode again, or fails with an error; never a crash, and never an array ValidateArray refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "arrow/layout.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "testing/files.h"
#include "variant/shredding.h"
#include "variant/variant.h"

namespace pqsift::variant {
namespace {

// Every variant the scan returns decodes (Unshred's output is always valid).
Status ScanAndCheck(const std::vector<uint8_t>& bytes) {
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("mutated.parquet", bytes);
  ScanOptions options;
  options.threads = 1;
  PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> metadata,
                          ReadParquetMetadata(*file, options.open));
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({file}, {metadata}, options));
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, scanner->Next());
    if (batch == nullptr) return Status::OK();
    for (const auto& column : batch->columns) {
      if (ValidateArray(*column).ok() == false) ADD_FAILURE() << "an invalid array";
      if (!IsVariantType(*column->type)) continue;
      for (int64_t i = 0; i < column->length; ++i) {
        if (!column->IsValid(i)) continue;
        std::span<const uint8_t> parts[2];
        for (int c = 0; c < 2; ++c) {
          const Array& b = *column->children[static_cast<size_t>(c)];
          const int64_t* o = layout::Offsets<int64_t>(b);
          const int64_t j = b.offset + column->offset + i;
          parts[c] = {b.buffers[2]->data() + o[j], static_cast<size_t>(o[j + 1] - o[j])};
        }
        auto md = Metadata::Parse(parts[0]);
        EXPECT_TRUE(md.ok()) << md.status().ToString();
        if (md.ok()) {
          auto v = Value::Parse(*md, parts[1]);
          EXPECT_TRUE(v.ok()) << v.status().ToString();
        }
      }
    }
  }
}

TEST(VariantShreddedCorruptTest, ChangedPagesGiveValidVariantsOrErrors) {
  const std::string root = testing::ParquetTestingDir();
  if (root.empty()) GTEST_SKIP() << testing::kParquetTestingMissing;
  const std::filesystem::path dir = std::filesystem::path(root) / "shredded_variant";
  std::mt19937 rng(22);
  int files = 0, errors = 0, runs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".parquet") continue;
    const std::vector<uint8_t> original = testing::ReadFileBytes(entry.path().string());
    SCOPED_TRACE(entry.path().filename().string());
    ++files;
    // The pages lie between the leading magic and the footer: [4, size - 8 - footer length).
    if (original.size() < 12) continue;
    const size_t n = original.size();
    const uint32_t footer = original[n - 8] | (original[n - 7] << 8) | (original[n - 6] << 16) |
                            (static_cast<uint32_t>(original[n - 5]) << 24);
    if (footer + 12 > n) continue;
    const size_t end = n - 8 - footer;
    for (int k = 0; k < 40 && end > 4; ++k) {
      std::vector<uint8_t> bytes = original;
      std::uniform_int_distribution<size_t> at(4, end - 1);
      const int changes = 1 + k % 3;
      for (int c = 0; c < changes; ++c) {
        bytes[at(rng)] ^= static_cast<uint8_t>(1u << (rng() % 8)) | (k % 5 == 0 ? 0xF0 : 0);
      }
      ++runs;
      if (!ScanAndCheck(bytes).ok()) ++errors;
    }
  }
  std::cout << files << " files, " << runs << " mutations, " << errors << " errors\n";
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace pqsift::variant
