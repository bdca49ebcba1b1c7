#include "write/file_encryptor.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "crypto/cipher.h"
#include "format/metadata_encoder.h"

namespace pqsift {

EncryptionOptions::~EncryptionOptions() {
  crypto::Wipe(footer_key.data(), footer_key.size());
  for (auto& [path, column] : columns) crypto::Wipe(column.key.data(), column.key.size());
}

}  // namespace pqsift

namespace pqsift::write {
namespace {

constexpr uint8_t kPar1[4] = {'P', 'A', 'R', '1'};
constexpr uint8_t kPare[4] = {'P', 'A', 'R', 'E'};
// The file unique part of the AAD: random, as long as parquet-java's.
constexpr size_t kFileUniqueBytes = 8;

Status CheckKey(size_t size, const std::string& what) {
  if (crypto::IsAesKeySize(size)) return Status::OK();
  return Status::InvalidArgument(what + " has " + std::to_string(size) +
                                 " bytes; an AES key has 16, 24 or 32");
}

std::span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

void AppendLength(std::vector<uint8_t>& out, uint32_t length) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(length >> (8 * i)));
}

std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  size_t at = 0;
  for (;;) {
    size_t dot = path.find('.', at);
    parts.push_back(path.substr(at, dot - at));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return parts;
}

}  // namespace

Result<std::unique_ptr<FileEncryptor>> FileEncryptor::Make(
    const EncryptionOptions& options, const std::vector<std::string>& leaf_paths) {
  PQSIFT_RETURN_IF_ERROR(CheckKey(options.footer_key.size(), "the footer key"));
  std::set<std::string> leaves(leaf_paths.begin(), leaf_paths.end());
  for (const auto& [path, column] : options.columns) {
    if (leaves.count(path) == 0) {
      return Status::InvalidArgument("encryption is asked for column '" + path +
                                     "', which the schema does not have");
    }
    if (!column.key.empty()) {
      PQSIFT_RETURN_IF_ERROR(CheckKey(column.key.size(), "the key of column '" + path + "'"));
    }
  }
  if (!options.store_aad_prefix && !options.aad_prefix) {
    return Status::InvalidArgument(
        "an AAD prefix kept out of the file must be given (no AAD prefix to withhold)");
  }
  std::unique_ptr<FileEncryptor> out(new FileEncryptor());
  out->plaintext_footer_ = options.plaintext_footer;
  out->footer_key_metadata_ = options.footer_key_metadata;
  out->file_unique_.resize(kFileUniqueBytes);
  PQSIFT_RETURN_IF_ERROR(crypto::RandomBytes(
      {reinterpret_cast<uint8_t*>(out->file_unique_.data()), out->file_unique_.size()}));
  EncryptionAlgorithm& a = out->algorithm_;
  a.kind =
      options.ctr ? EncryptionAlgorithm::Kind::kAesGcmCtrV1 : EncryptionAlgorithm::Kind::kAesGcmV1;
  if (options.aad_prefix) {
    out->aad_prefix_ = *options.aad_prefix;
    if (options.store_aad_prefix) {
      a.aad_prefix = out->aad_prefix_;
    } else {
      a.supply_aad_prefix = true;
    }
  }
  a.aad_file_unique = out->file_unique_;
  const crypto::Algorithm algorithm =
      options.ctr ? crypto::Algorithm::kAesGcmCtrV1 : crypto::Algorithm::kAesGcmV1;
  const std::string file_aad = out->aad_prefix_ + out->file_unique_;
  out->footer_ = std::make_shared<crypto::ModuleEncryptor>(crypto::SecretBytes(options.footer_key),
                                                           algorithm, file_aad);
  const size_t n = leaf_paths.size();
  out->columns_.resize(n);
  out->with_footer_key_.resize(n, true);
  out->key_metadata_.resize(n);
  out->paths_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    out->paths_[i] = SplitPath(leaf_paths[i]);
    if (options.columns.empty()) {
      out->columns_[i] = out->footer_;  // uniform encryption
      continue;
    }
    auto it = options.columns.find(leaf_paths[i]);
    if (it == options.columns.end()) continue;  // plaintext
    if (it->second.key.empty()) {
      out->columns_[i] = out->footer_;
      continue;
    }
    out->with_footer_key_[i] = false;
    out->key_metadata_[i] = it->second.key_metadata;
    out->columns_[i] = std::make_shared<crypto::ModuleEncryptor>(
        crypto::SecretBytes(it->second.key), algorithm, file_aad);
  }
  return out;
}

std::span<const uint8_t> FileEncryptor::magic() const {
  return plaintext_footer_ ? std::span<const uint8_t>(kPar1) : std::span<const uint8_t>(kPare);
}

Status FileEncryptor::FinishChunk(int32_t row_group, size_t leaf, ColumnChunk& chunk,
                                  std::deque<std::string>& strings) const {
  const std::shared_ptr<const crypto::ModuleEncryptor>& encryptor = columns_[leaf];
  if (!encryptor) return Status::OK();
  chunk.is_encrypted = true;
  ColumnCryptoMetaData& crypto_metadata = chunk.crypto_metadata.emplace();
  crypto_metadata.with_footer_key = with_footer_key_[leaf];
  if (!with_footer_key_[leaf]) {
    for (const std::string& part : paths_[leaf]) crypto_metadata.path_in_schema.push_back(part);
    if (!key_metadata_[leaf].empty()) crypto_metadata.key_metadata = key_metadata_[leaf];
  }
  // Under an encrypted footer, a column of the footer key keeps its metadata there.
  if (with_footer_key_[leaf] && !plaintext_footer_) return Status::OK();
  format::MetadataEncoder encoder;
  encoder.ColumnMetaData(*chunk.meta_data);
  const std::string plain = encoder.Take();
  std::vector<uint8_t> module;
  PQSIFT_RETURN_IF_ERROR(encryptor->Encrypt(
      {crypto::ModuleType::kColumnMetaData, row_group, static_cast<int32_t>(leaf), 0},
      AsBytes(plain), module));
  chunk.encrypted_column_metadata =
      strings.emplace_back(reinterpret_cast<const char*>(module.data()), module.size());
  if (plaintext_footer_) {
    // What older readers need to find the chunk's bytes, nothing about its values.
    chunk.meta_data->statistics.reset();
    chunk.meta_data->encoding_stats.reset();
    chunk.meta_data->size_statistics.reset();
  } else {
    chunk.meta_data.reset();
  }
  return Status::OK();
}

Result<std::vector<uint8_t>> FileEncryptor::Footer(FileMetaData& footer) const {
  std::vector<uint8_t> out;
  if (plaintext_footer_) {
    footer.has_encryption_algorithm = true;
    footer.encryption_algorithm = algorithm_;
    if (!footer_key_metadata_.empty()) footer.footer_signing_key_metadata = footer_key_metadata_;
    const std::string plain = format::MetadataEncoder().FileMetaData(footer).Take();
    out.assign(plain.begin(), plain.end());
    PQSIFT_RETURN_IF_ERROR(footer_->Sign({crypto::ModuleType::kFooter}, AsBytes(plain), out));
  } else {
    FileCryptoMetaData head;
    head.encryption_algorithm = algorithm_;
    if (!footer_key_metadata_.empty()) head.key_metadata = footer_key_metadata_;
    const std::string head_bytes = format::MetadataEncoder().FileCryptoMetaData(head).Take();
    out.assign(head_bytes.begin(), head_bytes.end());
    const std::string plain = format::MetadataEncoder().FileMetaData(footer).Take();
    PQSIFT_RETURN_IF_ERROR(footer_->Encrypt({crypto::ModuleType::kFooter}, AsBytes(plain), out));
  }
  if (out.size() > UINT32_MAX) return Status::InvalidArgument("footer over 4 GiB");
  AppendLength(out, static_cast<uint32_t>(out.size()));
  std::span<const uint8_t> m = magic();
  out.insert(out.end(), m.begin(), m.end());
  return out;
}

}  // namespace pqsift::write
