// Whether pqsift can read a column chunk's pages: the one check every reader of a chunk runs
// before fetching it (the scan's RowGroupData::Locate), so an unreadable chunk is refused with
// what makes it unreadable instead of a decoding error on bytes that are not pages.
//
// Parquet modular encryption (Encryption.md) marks a chunk with crypto_metadata or
// encrypted_column_metadata (ColumnChunk.is_encrypted). With a plaintext footer the chunk may
// still carry a plaintext meta_data (for old readers), so the footer opens and the other
// columns read, but its pages (headers included) are AES ciphertext: readable only with the
// column's key (the file's format::FileDecryptor has it, or says why not).
#pragma once

#include <string_view>

#include "pqsift/metadata.h"
#include "pqsift/parquet_file.h"
#include "pqsift/status.h"

namespace pqsift::format {

// What an encrypted column's error says after the column's name.
inline constexpr std::string_view kEncryptedColumnNote =
    "encrypted (Parquet modular encryption); reading needs its key";

// OK when the chunk's pages are pqsift's to read. InvalidArgument when the chunk is encrypted
// ("<where>: the column is encrypted (Parquet modular encryption); reading needs its key"),
// NotSupported when its data lies in another file (file_path); Corruption when it has no
// metadata (ValidateRowGroups refuses such a file when it opens, unless the chunk is
// encrypted). `where` names the chunk: "<file>: row group <g>, column '<path>'".
Status CheckChunkReadable(const ColumnChunk& chunk, std::string_view where);
// The same for row group `g`'s chunk of leaf `column` of `md`, where an encrypted chunk is
// readable when `md` was opened with its key (the FileDecryptor's error otherwise: a missing
// key names the column, a key that failed on the column's metadata is Authentication).
Status CheckChunkReadable(const ParquetMetadata& md, size_t g, size_t column,
                          std::string_view where);

}  // namespace pqsift::format
