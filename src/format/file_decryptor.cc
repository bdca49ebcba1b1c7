#include "format/file_decryptor.h"

#include <map>
#include <utility>

#include "crypto/cipher.h"
#include "format/file_metadata_decoder.h"

namespace pqsift {

DecryptionOptions::~DecryptionOptions() {
  crypto::Wipe(footer_key.data(), footer_key.size());
  for (auto& [path, key] : column_keys) crypto::Wipe(key.data(), key.size());
}

}  // namespace pqsift

namespace pqsift::format {
namespace {

Status CheckKeySize(size_t size, std::string_view what) {
  if (crypto::IsAesKeySize(size)) return Status::OK();
  return Status::InvalidArgument("the " + std::string(what) + " has " + std::to_string(size) +
                                 " bytes; an AES key has 16, 24 or 32");
}

}  // namespace

Result<std::shared_ptr<const crypto::ModuleDecryptor>> FileDecryptor::ChunkDecryptor(
    size_t g, size_t column, std::string_view where) const {
  using Ptr = std::shared_ptr<const crypto::ModuleDecryptor>;
  if (g >= chunks_.size() || column >= chunks_[g].size()) return Ptr();
  const Chunk& c = chunks_[g][column];
  if (!c.encrypted) return Ptr();
  if (!c.status.ok()) return c.status.WithContext(where);
  return c.decryptor;
}

Status FileDecryptorBuilder::SetAlgorithm(const EncryptionAlgorithm& algorithm) {
  switch (algorithm.kind) {
    case EncryptionAlgorithm::Kind::kAesGcmV1: algorithm_ = crypto::Algorithm::kAesGcmV1; break;
    case EncryptionAlgorithm::Kind::kAesGcmCtrV1:
      algorithm_ = crypto::Algorithm::kAesGcmCtrV1;
      break;
    default:
      return Status::NotSupported(file_name_ +
                                  ": encrypted with an algorithm pqsift does not know (neither "
                                  "AES_GCM_V1 nor AES_GCM_CTR_V1)");
  }
  std::optional<std::string_view> given;
  if (options_ != nullptr && options_->aad_prefix) given = *options_->aad_prefix;
  if (algorithm.aad_prefix && given && *given != *algorithm.aad_prefix) {
    return Status::Authentication(file_name_ +
                                  ": the AAD prefix given differs from the one stored in the file "
                                  "(not the file expected)");
  }
  if (algorithm.supply_aad_prefix.value_or(false) && !given && !algorithm.aad_prefix) {
    return Status::InvalidArgument(file_name_ +
                                   ": the file was encrypted with an AAD prefix it does not "
                                   "store; give it (--aad-prefix)");
  }
  file_aad_ = std::string(given ? *given : algorithm.aad_prefix.value_or(std::string_view()));
  file_aad_ += algorithm.aad_file_unique.value_or(std::string_view());
  return Status::OK();
}

Result<crypto::SecretBytes> FileDecryptorBuilder::Retrieve(
    std::optional<std::string_view> key_metadata, std::string_view what) {
  if (options_ == nullptr || !options_->key_retriever) return crypto::SecretBytes();
  Result<std::string> key = options_->key_retriever(key_metadata.value_or(std::string_view()));
  if (!key.ok()) {
    return key.status().WithContext("the key retriever found no " + std::string(what));
  }
  crypto::SecretBytes out(*key);
  crypto::Wipe(key->data(), key->size());
  return out;
}

Result<crypto::SecretBytes> FileDecryptorBuilder::FooterKey(
    std::optional<std::string_view> key_metadata) {
  if (options_ != nullptr && !options_->footer_key.empty()) {
    PQSIFT_RETURN_IF_ERROR(CheckKeySize(options_->footer_key.size(), "footer key"));
    return crypto::SecretBytes(options_->footer_key);
  }
  PQSIFT_ASSIGN_OR_RETURN(crypto::SecretBytes key, Retrieve(key_metadata, "footer key"));
  if (!key.empty()) PQSIFT_RETURN_IF_ERROR(CheckKeySize(key.size(), "footer key"));
  return key;
}

Result<Buffer> FileDecryptorBuilder::DecryptFooter(std::span<const uint8_t> footer) {
  FileCryptoMetaData crypto_meta;
  size_t consumed = 0;
  Status st = DecodeFileCryptoMetaData(footer, crypto_meta, &consumed);
  if (!st.ok()) return st.WithContext(file_name_);
  PQSIFT_RETURN_IF_ERROR(SetAlgorithm(crypto_meta.encryption_algorithm));
  Result<crypto::SecretBytes> key = FooterKey(crypto_meta.key_metadata);
  if (!key.ok()) return key.status().WithContext(file_name_);
  if (key->empty()) {
    return Status::InvalidArgument(file_name_ +
                                   ": the footer is encrypted (PARE) and no footer key was given "
                                   "(--footer-key or --keys)");
  }
  footer_ =
      std::make_shared<crypto::ModuleDecryptor>(std::move(key).value(), algorithm_, file_aad_);
  Result<Buffer> plain = footer_->Decrypt({crypto::ModuleType::kFooter}, footer.subspan(consumed));
  if (!plain.ok()) return plain.status().WithContext(file_name_);
  return plain;
}

Status FileDecryptorBuilder::CheckPlaintextFooter(const FileMetaData& file,
                                                  std::span<const uint8_t> signed_bytes,
                                                  std::span<const uint8_t> signature) {
  PQSIFT_RETURN_IF_ERROR(SetAlgorithm(*file.encryption_algorithm));
  Result<crypto::SecretBytes> key = FooterKey(file.footer_signing_key_metadata);
  if (!key.ok()) {
    // Without the footer key the plaintext columns still read; the encrypted columns with the
    // footer key say why they do not.
    footer_key_status_ = key.status();
    return Status::OK();
  }
  if (key->empty()) return Status::OK();
  footer_ =
      std::make_shared<crypto::ModuleDecryptor>(std::move(key).value(), algorithm_, file_aad_);
  if (options_ == nullptr || !options_->check_footer_signature) return Status::OK();
  Status st = footer_->VerifySignature({crypto::ModuleType::kFooter}, signed_bytes,
                                       signature.subspan(0, crypto::kNonceSize),
                                       signature.subspan(crypto::kNonceSize, crypto::kTagSize));
  return st.WithContext(file_name_);
}

Result<std::shared_ptr<const FileDecryptor>> FileDecryptorBuilder::DecryptColumns(
    FileMetaData& file, const Schema& schema, std::vector<Buffer>* owned) {
  bool any = false;
  for (const RowGroup& rg : file.row_groups) {
    for (const ColumnChunk& c : rg.columns) any = any || c.is_encrypted;
  }
  if (!any) return std::shared_ptr<const FileDecryptor>();
  bool file_encrypted = footer_ != nullptr || file.encryption_algorithm.has_value();
  auto out = std::make_shared<FileDecryptor>();
  out->chunks_.resize(file.row_groups.size());
  out->ordinals_.resize(file.row_groups.size());
  // One decryptor per column key (a retriever is asked once per key, not per chunk).
  std::map<std::pair<std::string, std::string>,
           Result<std::shared_ptr<const crypto::ModuleDecryptor>>>
      column_keys;
  auto column_decryptor =
      [&](const std::string& path,
          const ColumnCryptoMetaData& m) -> Result<std::shared_ptr<const crypto::ModuleDecryptor>> {
    auto id = std::make_pair(path, std::string(m.key_metadata.value_or(std::string_view())));
    auto it = column_keys.find(id);
    if (it != column_keys.end()) return it->second;
    auto make = [&]() -> Result<std::shared_ptr<const crypto::ModuleDecryptor>> {
      crypto::SecretBytes key;
      if (options_ != nullptr) {
        auto explicit_key = options_->column_keys.find(path);
        if (explicit_key != options_->column_keys.end())
          key = crypto::SecretBytes(explicit_key->second);
      }
      if (key.empty()) {
        Result<crypto::SecretBytes> retrieved = Retrieve(m.key_metadata, "column key");
        if (!retrieved.ok()) {
          return Status::InvalidArgument(
              "the column is encrypted (Parquet modular encryption) and its key was not found (" +
              retrieved.status().message() + ")");
        }
        key = std::move(retrieved).value();
      }
      if (key.empty()) {
        return Status::InvalidArgument(
            "the column is encrypted (Parquet modular encryption) with a column key that was not "
            "given (--column-key " +
            path + ":KEY or --keys)");
      }
      PQSIFT_RETURN_IF_ERROR(CheckKeySize(key.size(), "column's key"));
      return std::shared_ptr<const crypto::ModuleDecryptor>(
          std::make_shared<crypto::ModuleDecryptor>(std::move(key), algorithm_, file_aad_));
    };
    return column_keys.emplace(id, make()).first->second;
  };
  for (size_t g = 0; g < file.row_groups.size(); ++g) {
    RowGroup& rg = file.row_groups[g];
    int32_t ordinal = rg.ordinal ? *rg.ordinal : static_cast<int32_t>(g);
    out->ordinals_[g] = ordinal;
    out->chunks_[g].resize(rg.columns.size());
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      ColumnChunk& chunk = rg.columns[c];
      FileDecryptor::Chunk& entry = out->chunks_[g][c];
      if (!chunk.is_encrypted) continue;
      entry.encrypted = true;
      const std::string& path =
          c < schema.columns().size() ? schema.columns()[c].path : std::string("?");
      if (!file_encrypted) {
        entry.status = Status::Corruption(
            "the column is marked encrypted in a file that names no "
            "encryption algorithm");
        continue;
      }
      Result<std::shared_ptr<const crypto::ModuleDecryptor>> decryptor =
          std::shared_ptr<const crypto::ModuleDecryptor>();
      if (!chunk.crypto_metadata || chunk.crypto_metadata->with_footer_key) {
        if (footer_ != nullptr) {
          decryptor = footer_;
        } else {
          decryptor = Status::InvalidArgument(
              "the column is encrypted (Parquet modular encryption) with the footer key, which "
              "was not given (--footer-key or --keys)" +
              (footer_key_status_.ok() ? std::string() : ": " + footer_key_status_.message()));
        }
      } else {
        decryptor = column_decryptor(path, *chunk.crypto_metadata);
      }
      if (!decryptor.ok()) {
        entry.status = decryptor.status();
        continue;
      }
      if (chunk.encrypted_column_metadata) {
        std::span<const uint8_t> module(
            reinterpret_cast<const uint8_t*>(chunk.encrypted_column_metadata->data()),
            chunk.encrypted_column_metadata->size());
        Result<Buffer> plain =
            (*decryptor)
                ->Decrypt({crypto::ModuleType::kColumnMetaData, ordinal, static_cast<int32_t>(c)},
                          module);
        if (!plain.ok()) {
          entry.status = plain.status();
          continue;
        }
        ColumnMetaData meta;
        Status st = DecodeColumnMetaData(plain->span(), meta);
        if (!st.ok()) {
          entry.status = st.WithContext("decrypted column metadata");
          continue;
        }
        chunk.meta_data = std::move(meta);
        owned->push_back(std::move(plain).value());
      } else if (!chunk.meta_data) {
        entry.status = Status::Corruption("no column metadata");
        continue;
      }
      entry.decryptor = std::move(decryptor).value();
    }
  }
  return std::shared_ptr<const FileDecryptor>(std::move(out));
}

}  // namespace pqsift::format
