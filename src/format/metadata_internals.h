// The library's own view of a ParquetMetadata (pqsift/parquet_file.h) beyond the public one: the
// decryptor of its encrypted chunks, which the public header keeps opaque.
#pragma once

#include "format/file_decryptor.h"
#include "pqsift/parquet_file.h"

namespace pqsift {

struct MetadataInternals {
  static const format::FileDecryptor* Decryptor(const ParquetMetadata& md) {
    return static_cast<const format::FileDecryptor*>(md.decryptor_.get());
  }
};

namespace format {

// How `md`'s encrypted chunks are decrypted; nullptr when no chunk is encrypted.
inline const FileDecryptor* DecryptorOf(const ParquetMetadata& md) {
  return MetadataInternals::Decryptor(md);
}

}  // namespace format
}  // namespace pqsift
