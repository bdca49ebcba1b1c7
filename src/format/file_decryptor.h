// Parquet modular encryption at the format level (Encryption.md 5.2-5.5): finding the keys of
// a file's footer and columns (pqsift/encryption.h), decrypting the footer ("PARE" files),
// checking a plaintext footer's signature, and decrypting each column's encrypted metadata.
// The ciphers and module format are src/crypto's; this file knows where the modules are.
//
// parquet_file.cc calls these while it opens a file; the resulting FileDecryptor lives in the
// ParquetMetadata and gives each column chunk's ModuleDecryptor to whoever reads its modules
// (format::CheckChunkReadable, column::PageReader, format::PageIndexStore).
//
// Thread safety: a FileDecryptor is immutable once built; share it across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/module.h"
#include "pqsift/encryption.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"
#include "pqsift/status.h"

namespace pqsift::format {

class FileDecryptor {
 public:
  // The decryptor of row group `g`'s chunk of leaf `column`: nullptr when the chunk is not
  // encrypted; InvalidArgument naming the column when its key was not given; the error met
  // decrypting its metadata (Authentication for a wrong key) otherwise. `where` names the chunk.
  Result<std::shared_ptr<const crypto::ModuleDecryptor>> ChunkDecryptor(
      size_t g, size_t column, std::string_view where) const;
  // The ordinal of row group `g` in module AADs (RowGroup.ordinal, else its index).
  int32_t RowGroupOrdinal(size_t g) const { return g < ordinals_.size() ? ordinals_[g] : 0; }

 private:
  friend class FileDecryptorBuilder;
  struct Chunk {
    std::shared_ptr<const crypto::ModuleDecryptor> decryptor;
    Status status;  // why there is none for an encrypted chunk
    bool encrypted = false;
  };
  std::vector<std::vector<Chunk>> chunks_;
  std::vector<int32_t> ordinals_;
};

// Builds a FileDecryptor while a file opens. Every error names what failed, never a key.
class FileDecryptorBuilder {
 public:
  FileDecryptorBuilder(const DecryptionOptions* options, std::string file_name)
      : options_(options), file_name_(std::move(file_name)) {}

  // An encrypted footer: `footer` is FileCryptoMetaData followed by the encrypted FileMetaData
  // module. The decrypted FileMetaData bytes are returned.
  Result<Buffer> DecryptFooter(std::span<const uint8_t> footer);

  // A plaintext footer with encryption_algorithm: sets up the file's AAD, and when the footer
  // key is known (and options ask for it) checks `signature` (nonce | tag) over `signed_bytes`.
  Status CheckPlaintextFooter(const FileMetaData& file, std::span<const uint8_t> signed_bytes,
                              std::span<const uint8_t> signature);

  // Finds each encrypted chunk's key and decrypts its encrypted_column_metadata into
  // chunk.meta_data (the bytes are appended to `owned`, which must outlive `file`).
  Result<std::shared_ptr<const FileDecryptor>> DecryptColumns(FileMetaData& file,
                                                              const Schema& schema,
                                                              std::vector<Buffer>* owned);

 private:
  Status SetAlgorithm(const EncryptionAlgorithm& algorithm);
  // The key for `key_metadata` from the retriever; empty when none.
  Result<crypto::SecretBytes> Retrieve(std::optional<std::string_view> key_metadata,
                                       std::string_view what);
  Result<crypto::SecretBytes> FooterKey(std::optional<std::string_view> key_metadata);

  const DecryptionOptions* options_;
  std::string file_name_;
  crypto::Algorithm algorithm_ = crypto::Algorithm::kAesGcmV1;
  std::string file_aad_;
  Status footer_key_status_;
  std::shared_ptr<const crypto::ModuleDecryptor> footer_;
};

}  // namespace pqsift::format
