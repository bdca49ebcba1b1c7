#include "format/chunk_readable.h"

#include <string>

namespace pqsift::format {

Status CheckChunkReadable(const ColumnChunk& chunk, std::string_view where) {
  if (chunk.is_encrypted) {
    return Status::NotSupported(std::string(where) + ": the column is " +
                                std::string(kEncryptedColumnNote));
  }
  if (!chunk.meta_data) return Status::Corruption(std::string(where) + ": no column metadata");
  if (chunk.file_path) {
    return Status::NotSupported(std::string(where) + ": column data in another file ('" +
                                std::string(*chunk.file_path) + "')");
  }
  return Status::OK();
}

}  // namespace pqsift::format
