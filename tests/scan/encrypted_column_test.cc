// A file with a plaintext footer whose columns are partly encrypted (Parquet modular
// encryption), opened without keys: the footer opens, the plaintext columns read, and an
// encrypted column is refused as encrypted without its key, naming the file and the column,
// never as a malformed page header. (With keys: encrypted_file_test.cc.)
#include <gtest/gtest.h>

#include <string>

#include "format/chunk_readable.h"
#include "pqsift/scan.h"
#include "testing/parquet_files.h"
#include "testing/sample_metadata.h"

namespace pqsift {
namespace {

// parquet-testing's file: double_field and float_field encrypted with their own keys.
constexpr const char* kFile = "encrypt_columns_plaintext_footer.parquet.encrypted";

Result<int64_t> ScanRows(const std::string& path, const std::string& column) {
  ScanOptions options;
  options.columns = {column};
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open({path}, options));
  int64_t rows = 0;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (batch == nullptr) return rows;
    rows += batch->num_rows;
  }
}

TEST(EncryptedColumn, TheFooterRecordsWhichChunksAreEncrypted) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kFile);
  testing::OpenedFile f = testing::OpenParquet(path);
  ASSERT_NE(f.metadata, nullptr);
  const FileMetaData& m = f.metadata->file();
  EXPECT_TRUE(m.has_encryption_algorithm);
  const auto& columns = f.metadata->schema().columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    const ColumnChunk& chunk = m.row_groups[0].columns[c];
    bool encrypted = columns[c].path == "double_field" || columns[c].path == "float_field";
    EXPECT_EQ(chunk.is_encrypted, encrypted) << columns[c].path;
    Status st =
        format::CheckChunkReadable(chunk, "f: row group 0, column '" + columns[c].path + "'");
    if (encrypted) {
      EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(st.message(), "f: row group 0, column '" + columns[c].path +
                                  "': the column is encrypted (Parquet modular encryption); "
                                  "reading needs its key");
    } else {
      EXPECT_TRUE(st.ok()) << st.ToString();
    }
  }
}

TEST(EncryptedColumn, PlaintextColumnsStillRead) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kFile);
  for (const char* column :
       {"boolean_field", "int32_field", "int64_field", "int96_field", "ba_field", "flba_field"}) {
    Result<int64_t> rows = ScanRows(path, column);
    ASSERT_TRUE(rows.ok()) << column << ": " << rows.status().ToString();
    EXPECT_EQ(*rows, 50) << column;
  }
}

TEST(EncryptedColumn, AnEncryptedColumnIsAnErrorNamingFileAndColumn) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kFile);
  for (const char* column : {"double_field", "float_field"}) {
    Result<int64_t> rows = ScanRows(path, column);
    ASSERT_FALSE(rows.ok()) << column;
    EXPECT_NE(rows.status().message().find(path + ": row group 0, column '" + column + "'"),
              std::string::npos)
        << rows.status().ToString();
  }
}

TEST(EncryptedColumn, AnEncryptedColumnIsReportedAsEncrypted) {
  PQSIFT_TESTING_FILE_OR_SKIP(path, kFile);
  for (const char* column : {"double_field", "float_field"}) {
    Result<int64_t> rows = ScanRows(path, column);
    ASSERT_FALSE(rows.ok()) << column;
    EXPECT_EQ(rows.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(rows.status().message(),
              path + ": row group 0, column '" + column +
                  "': the column is encrypted (Parquet modular encryption) with a column key that "
                  "was not given (--column-key " +
                  column + ":KEY or --keys)");
  }
}

TEST(EncryptedColumn, ChunkChecksOfHandBuiltChunks) {
  ColumnChunk plain = testing::Chunk(PhysicalType::kInt32, {"x"});
  EXPECT_TRUE(format::CheckChunkReadable(plain, "w").ok());
  ColumnChunk hidden;  // encrypted_column_metadata only: no plaintext metadata
  hidden.is_encrypted = true;
  EXPECT_EQ(format::CheckChunkReadable(hidden, "w").code(), StatusCode::kInvalidArgument);
  ColumnChunk elsewhere = plain;
  elsewhere.file_path = "other.parquet";
  EXPECT_EQ(format::CheckChunkReadable(elsewhere, "w").message(),
            "w: column data in another file ('other.parquet')");
  EXPECT_EQ(format::CheckChunkReadable(ColumnChunk{}, "w").code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace pqsift
