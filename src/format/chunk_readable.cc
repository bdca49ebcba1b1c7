#include "format/chunk_readable.h"

#include <string>

#include "format/file_decryptor.h"
#include "format/metadata_internals.h"

namespace pqsift::format {
namespace {

Status CheckPlaintext(const ColumnChunk& chunk, std::string_view where) {
  if (!chunk.meta_data) return Status::Corruption(std::string(where) + ": no column metadata");
  if (chunk.file_path) {
    return Status::NotSupported(std::string(where) + ": column data in another file ('" +
                                std::string(*chunk.file_path) + "')");
  }
  return Status::OK();
}

}  // namespace

Status CheckChunkReadable(const ColumnChunk& chunk, std::string_view where) {
  if (chunk.is_encrypted) {
    return Status::InvalidArgument(std::string(where) + ": the column is " +
                                   std::string(kEncryptedColumnNote));
  }
  return CheckPlaintext(chunk, where);
}

Status CheckChunkReadable(const ParquetMetadata& md, size_t g, size_t column,
                          std::string_view where) {
  const ColumnChunk& chunk = md.file().row_groups[g].columns[column];
  if (!chunk.is_encrypted || format::DecryptorOf(md) == nullptr)
    return CheckChunkReadable(chunk, where);
  PQSIFT_ASSIGN_OR_RETURN(auto decryptor,
                          format::DecryptorOf(md)->ChunkDecryptor(g, column, where));
  if (decryptor == nullptr) return Status::Internal(std::string(where) + ": no decryptor");
  return CheckPlaintext(chunk, where);
}

}  // namespace pqsift::format
