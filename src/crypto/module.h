// Parquet modular encryption's modules (Encryption.md, sections 4.4 and 5.1): the AAD of each
// module and the serialized form of an encrypted module.
//
//   GCM module: | length (u32 LE) | nonce (12) | ciphertext (length - 28) | tag (16) |
//   CTR module: | length (u32 LE) | nonce (12) | ciphertext (length - 12) |
//
//   module AAD = AAD prefix | file unique | module type (1 byte)
//                [ | row group ordinal | column ordinal ]   (all modules but the footer)
//                [ | page ordinal ]                         (data pages and their headers)
//   ordinals are little-endian 2-byte shorts: 0..32767.
//
// Under AES_GCM_V1 every module is GCM; under AES_GCM_CTR_V1 data and dictionary pages are
// CTR (no tag: not authenticated), every other module GCM. Page headers are always GCM.
//
// Contract of ModuleDecryptor::Decrypt: the module's length field is checked against the bytes
// given (Corruption when it overruns them or is shorter than the cipher's overhead); a GCM
// module whose tag does not verify is Authentication, naming the module ("data page header 3
// of row group 0, column 2"), with nothing decrypted handed on. No message holds key bytes.
//
// Contract of ModuleEncryptor::Encrypt (the writer's side): appends exactly one module in the
// serialized form above, with a fresh random nonce per module (cipher.h RandomBytes), the
// module's AAD for GCM; InvalidArgument when an ordinal does not fit the AAD's short, or the
// module would pass the 4-byte length (2 GiB). The key stays inside; no message holds it.
//
// Thread safety: a ModuleDecryptor or ModuleEncryptor is immutable; share it across threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/secret.h"
#include "pqsift/io.h"
#include "pqsift/status.h"

namespace pqsift::crypto {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// "footer", "column metadata", "data page", "dictionary page header", ...
std::string_view ModuleTypeName(ModuleType type);

enum class Algorithm : uint8_t { kAesGcmV1, kAesGcmCtrV1 };

// The identity of a module in its file: the parts of its AAD suffix after the file unique.
// Ordinals the module type does not use (Encryption.md 4.4.2's table) are ignored.
struct ModuleId {
  ModuleType type = ModuleType::kFooter;
  int32_t row_group = 0;
  int32_t column = 0;
  int32_t page = 0;
};

// "data page 3 of row group 0, column 2", "footer", ...
std::string DescribeModule(const ModuleId& id);

// The module AAD for `id`, where `file_aad` is the AAD prefix followed by the file unique.
// InvalidArgument when an ordinal the type uses is outside 0..32767 (it cannot be encrypted).
Result<std::string> ModuleAad(std::string_view file_aad, const ModuleId& id);

inline constexpr size_t kLengthSize = 4;
inline constexpr size_t kGcmOverhead = kLengthSize + kNonceSize + kTagSize;  // 32
inline constexpr size_t kCtrOverhead = kLengthSize + kNonceSize;             // 16

// The size of the module at the start of `bytes` (its length field + 4), checked against
// `bytes` and the cipher's overhead (`gcm`: a tag follows the ciphertext).
Result<size_t> ModuleSize(std::span<const uint8_t> bytes, bool gcm, const ModuleId& id);

// Decrypts the modules of one file (or one column of it) under one key.
class ModuleDecryptor {
 public:
  // `file_aad`: AAD prefix | file unique.
  ModuleDecryptor(SecretBytes key, Algorithm algorithm, std::string file_aad)
      : key_(std::move(key)), algorithm_(algorithm), file_aad_(std::move(file_aad)) {}

  Algorithm algorithm() const { return algorithm_; }
  // Whether modules of `type` are GCM (else CTR).
  bool UsesGcm(ModuleType type) const;
  size_t Overhead(ModuleType type) const { return UsesGcm(type) ? kGcmOverhead : kCtrOverhead; }

  // The size of the module starting at `bytes` (which may hold more after it).
  Result<size_t> ModuleSizeAt(std::span<const uint8_t> bytes, const ModuleId& id) const {
    return ModuleSize(bytes, UsesGcm(id.type), id);
  }
  // Decrypts `module`, exactly one module (length field included), into `out`, which must hold
  // module.size() - Overhead(id.type) bytes.
  Status Decrypt(const ModuleId& id, std::span<const uint8_t> module, std::span<uint8_t> out) const;
  // The same into a new buffer.
  Result<Buffer> Decrypt(const ModuleId& id, std::span<const uint8_t> module) const;

  // Whether `tag` is the GCM tag of `plaintext` encrypted under this key with `nonce` and the
  // AAD of `id`: the check of a plaintext footer's signature (Encryption.md 5.5).
  Status VerifySignature(const ModuleId& id, std::span<const uint8_t> plaintext,
                         std::span<const uint8_t> nonce, std::span<const uint8_t> tag) const;

 private:
  SecretBytes key_;
  Algorithm algorithm_;
  std::string file_aad_;
};

// Encrypts the modules of one file (or one column of it) under one key: the write side of
// ModuleDecryptor, with the same algorithm rules (UsesGcm).
class ModuleEncryptor {
 public:
  // `file_aad`: AAD prefix | file unique.
  ModuleEncryptor(SecretBytes key, Algorithm algorithm, std::string file_aad)
      : key_(std::move(key)), algorithm_(algorithm), file_aad_(std::move(file_aad)) {}

  Algorithm algorithm() const { return algorithm_; }
  bool UsesGcm(ModuleType type) const;
  size_t Overhead(ModuleType type) const { return UsesGcm(type) ? kGcmOverhead : kCtrOverhead; }

  // Appends the module of `plaintext` (length | nonce | ciphertext [| tag]) to `out`.
  Status Encrypt(const ModuleId& id, std::span<const uint8_t> plaintext,
                 std::vector<uint8_t>& out) const;
  // The same with a given nonce: for known-answer tests only (a nonce must never repeat
  // under one key).
  Status EncryptWithNonce(const ModuleId& id, std::span<const uint8_t> plaintext,
                          std::span<const uint8_t> nonce, std::vector<uint8_t>& out) const;

  // A plaintext footer's signature (Encryption.md 5.5): nonce | the GCM tag of `plaintext`
  // under the AAD of `id` (28 bytes appended to `out`; the ciphertext is not kept).
  Status Sign(const ModuleId& id, std::span<const uint8_t> plaintext,
              std::vector<uint8_t>& out) const;

 private:
  SecretBytes key_;
  Algorithm algorithm_;
  std::string file_aad_;
};

}  // namespace pqsift::crypto
