// The writer's side of Parquet modular encryption (Encryption.md 5): from EncryptionOptions
// (pqsift/writer.h) to each column's ModuleEncryptor, the crypto metadata of each column
// chunk, and the footer's bytes. The module format and ciphers are src/crypto's; this file knows
// which module goes where:
//
//   encrypted footer:  FileCryptoMetaData | footer module | u32 length of both | "PARE"
//                      (and "PARE" at offset 0)
//   plaintext footer:  FileMetaData (+ encryption_algorithm, footer_signing_key_metadata) |
//                      nonce | tag (the signature) | u32 length of footer + 28 | "PAR1"
//
// Column chunks: crypto_metadata names the key (the footer's, or the column's path and key
// metadata). encrypted_column_metadata, the ColumnMetaData module under the column's key, is
// written when that key is not the footer's, or the footer is plaintext; meta_data then stays
// only in a plaintext footer, without statistics and encoding statistics (Encryption.md 5.3-5.5).
//
// The AAD: the prefix (when given) and a file unique of 8 random bytes; the prefix is stored
// unless asked not to (then supply_aad_prefix tells readers to give it).
//
// Errors: InvalidArgument for keys of the wrong size and columns the schema does not have
// (named; never a key's bytes). Thread safety: immutable once made; used by one writer.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "crypto/module.h"
#include "pqsift/metadata.h"
#include "pqsift/status.h"
#include "pqsift/writer.h"

namespace pqsift::write {

class FileEncryptor {
 public:
  // `leaf_paths`: the file's leaf columns in schema order (dotted paths).
  static Result<std::unique_ptr<FileEncryptor>> Make(const EncryptionOptions& options,
                                                     const std::vector<std::string>& leaf_paths);

  // The magic at both ends of the file: "PARE" for an encrypted footer, else "PAR1".
  std::span<const uint8_t> magic() const;

  // The encryptor of leaf `leaf`'s modules; nullptr for a plaintext column.
  const std::shared_ptr<const crypto::ModuleEncryptor>& Column(size_t leaf) const {
    return columns_[leaf];
  }

  // Sets the crypto metadata of an encrypted chunk of leaf `leaf` in the row group of AAD
  // ordinal `row_group`, from its complete meta_data (offsets and page index locations set):
  // encrypts the metadata when it must, and strips or drops the plaintext copy. Bytes the
  // chunk's views need are appended to `strings`. Nothing for a plaintext column.
  Status FinishChunk(int32_t row_group, size_t leaf, ColumnChunk& chunk,
                     std::deque<std::string>& strings) const;

  // The bytes after the last data of the file: the footer as above, its length and magic.
  // Sets the plaintext footer's encryption fields in `footer` (views into this encryptor).
  Result<std::vector<uint8_t>> Footer(FileMetaData& footer) const;

 private:
  FileEncryptor() = default;

  bool plaintext_footer_ = false;
  std::string footer_key_metadata_;
  EncryptionAlgorithm algorithm_;  // views into aad_prefix_ / file_unique_
  std::string aad_prefix_;
  std::string file_unique_;
  std::shared_ptr<crypto::ModuleEncryptor> footer_;
  std::vector<std::shared_ptr<const crypto::ModuleEncryptor>> columns_;  // per leaf
  std::vector<bool> with_footer_key_;                                    // per leaf
  std::vector<std::string> key_metadata_;                                // per leaf
  std::vector<std::vector<std::string>> paths_;                          // per leaf, split
};

}  // namespace pqsift::write
