#include "crypto/module.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace pqsift::crypto {
namespace {

bool HasOrdinals(ModuleType type) { return type != ModuleType::kFooter; }
bool HasPageOrdinal(ModuleType type) {
  return type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader;
}

Status AppendShort(std::string& out, int32_t value, std::string_view what, const ModuleId& id) {
  if (value < 0 || value > 32767) {
    return Status::InvalidArgument(DescribeModule(id) + ": " + std::string(what) + " ordinal " +
                                   std::to_string(value) +
                                   " does not fit the AAD's 2-byte short (0..32767)");
  }
  out.push_back(static_cast<char>(value & 0xff));
  out.push_back(static_cast<char>((value >> 8) & 0xff));
  return Status::OK();
}

Status AuthenticationError(const ModuleId& id) {
  return Status::Authentication(DescribeModule(id) +
                                ": authentication failed (wrong key or AAD prefix, or the module "
                                "was changed or moved)");
}

}  // namespace

std::string_view ModuleTypeName(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter: return "footer";
    case ModuleType::kColumnMetaData: return "column metadata";
    case ModuleType::kDataPage: return "data page";
    case ModuleType::kDictionaryPage: return "dictionary page";
    case ModuleType::kDataPageHeader: return "data page header";
    case ModuleType::kDictionaryPageHeader: return "dictionary page header";
    case ModuleType::kColumnIndex: return "column index";
    case ModuleType::kOffsetIndex: return "offset index";
    case ModuleType::kBloomFilterHeader: return "bloom filter header";
    case ModuleType::kBloomFilterBitset: return "bloom filter bitset";
  }
  return "unknown module";
}

std::string DescribeModule(const ModuleId& id) {
  std::string out(ModuleTypeName(id.type));
  if (!HasOrdinals(id.type)) return out;
  if (HasPageOrdinal(id.type)) out += " " + std::to_string(id.page);
  out += " of row group " + std::to_string(id.row_group) + ", column " + std::to_string(id.column);
  return out;
}

Result<std::string> ModuleAad(std::string_view file_aad, const ModuleId& id) {
  std::string aad(file_aad);
  aad.push_back(static_cast<char>(id.type));
  if (HasOrdinals(id.type)) {
    PQSIFT_RETURN_IF_ERROR(AppendShort(aad, id.row_group, "row group", id));
    PQSIFT_RETURN_IF_ERROR(AppendShort(aad, id.column, "column", id));
  }
  if (HasPageOrdinal(id.type)) PQSIFT_RETURN_IF_ERROR(AppendShort(aad, id.page, "page", id));
  return aad;
}

Result<size_t> ModuleSize(std::span<const uint8_t> bytes, bool gcm, const ModuleId& id) {
  if (bytes.size() < kLengthSize) {
    return Status::Corruption(DescribeModule(id) + ": encrypted module truncated (" +
                              std::to_string(bytes.size()) + " bytes, no length)");
  }
  uint64_t length = static_cast<uint64_t>(bytes[0]) | static_cast<uint64_t>(bytes[1]) << 8 |
                    static_cast<uint64_t>(bytes[2]) << 16 | static_cast<uint64_t>(bytes[3]) << 24;
  size_t min = (gcm ? kGcmOverhead : kCtrOverhead) - kLengthSize;
  if (length < min) {
    return Status::Corruption(DescribeModule(id) + ": encrypted module of " +
                              std::to_string(length) + " bytes is shorter than its nonce" +
                              (gcm ? " and tag" : ""));
  }
  if (length > bytes.size() - kLengthSize) {
    return Status::Corruption(DescribeModule(id) + ": encrypted module of " +
                              std::to_string(length) + " bytes overruns the " +
                              std::to_string(bytes.size() - kLengthSize) + " bytes left");
  }
  return static_cast<size_t>(length) + kLengthSize;
}

namespace {

bool GcmFor(Algorithm algorithm, ModuleType type) {
  if (algorithm == Algorithm::kAesGcmV1) return true;
  return type != ModuleType::kDataPage && type != ModuleType::kDictionaryPage;
}

std::span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

bool ModuleDecryptor::UsesGcm(ModuleType type) const { return GcmFor(algorithm_, type); }
bool ModuleEncryptor::UsesGcm(ModuleType type) const { return GcmFor(algorithm_, type); }

Status ModuleEncryptor::Encrypt(const ModuleId& id, std::span<const uint8_t> plaintext,
                                std::vector<uint8_t>& out) const {
  uint8_t nonce[kNonceSize];
  PQSIFT_RETURN_IF_ERROR(RandomBytes(nonce));
  return EncryptWithNonce(id, plaintext, nonce, out);
}

Status ModuleEncryptor::EncryptWithNonce(const ModuleId& id, std::span<const uint8_t> plaintext,
                                         std::span<const uint8_t> nonce,
                                         std::vector<uint8_t>& out) const {
  if (nonce.size() != kNonceSize) return Status::Internal("AES nonce is not 12 bytes");
  const bool gcm = UsesGcm(id.type);
  const size_t length = plaintext.size() + (gcm ? kGcmOverhead : kCtrOverhead) - kLengthSize;
  if (length > 0x7fffffffu) {
    return Status::InvalidArgument(DescribeModule(id) + ": a module of " +
                                   std::to_string(plaintext.size()) +
                                   " bytes is too large to encrypt (2 GiB)");
  }
  std::string aad;
  if (gcm) {
    PQSIFT_ASSIGN_OR_RETURN(aad, ModuleAad(file_aad_, id));
  }
  const size_t start = out.size();
  out.resize(start + kLengthSize + length);
  uint8_t* at = out.data() + start;
  for (size_t i = 0; i < kLengthSize; ++i) at[i] = static_cast<uint8_t>(length >> (8 * i));
  std::copy(nonce.begin(), nonce.end(), at + kLengthSize);
  std::span<uint8_t> ciphertext(at + kLengthSize + kNonceSize, plaintext.size());
  Status st = gcm ? GcmEncrypt(key_.span(), nonce, AsBytes(aad), plaintext, ciphertext,
                               {ciphertext.data() + ciphertext.size(), kTagSize})
                  : CtrCrypt(key_.span(), nonce, plaintext, ciphertext);
  if (!st.ok()) {
    out.resize(start);
    return st.WithContext(DescribeModule(id));
  }
  return Status::OK();
}

Status ModuleEncryptor::Sign(const ModuleId& id, std::span<const uint8_t> plaintext,
                             std::vector<uint8_t>& out) const {
  uint8_t nonce[kNonceSize];
  PQSIFT_RETURN_IF_ERROR(RandomBytes(nonce));
  PQSIFT_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, id));
  std::vector<uint8_t> ciphertext(plaintext.size());
  uint8_t tag[kTagSize];
  PQSIFT_RETURN_IF_ERROR(GcmEncrypt(key_.span(), nonce, AsBytes(aad), plaintext, ciphertext, tag));
  out.insert(out.end(), nonce, nonce + kNonceSize);
  out.insert(out.end(), tag, tag + kTagSize);
  return Status::OK();
}

Status ModuleDecryptor::Decrypt(const ModuleId& id, std::span<const uint8_t> module,
                                std::span<uint8_t> out) const {
  bool gcm = UsesGcm(id.type);
  PQSIFT_ASSIGN_OR_RETURN(size_t size, ModuleSize(module, gcm, id));
  if (size != module.size()) {
    return Status::Corruption(DescribeModule(id) + ": encrypted module holds " +
                              std::to_string(size) + " bytes, its place " +
                              std::to_string(module.size()));
  }
  size_t overhead = gcm ? kGcmOverhead : kCtrOverhead;
  if (out.size() != size - overhead) return Status::Internal("module output of the wrong size");
  std::span<const uint8_t> nonce = module.subspan(kLengthSize, kNonceSize);
  std::span<const uint8_t> ciphertext = module.subspan(kLengthSize + kNonceSize, out.size());
  if (!gcm) return CtrCrypt(key_.span(), nonce, ciphertext, out);
  PQSIFT_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, id));
  std::span<const uint8_t> tag = module.subspan(module.size() - kTagSize);
  Status st =
      GcmDecrypt(key_.span(), nonce, {reinterpret_cast<const uint8_t*>(aad.data()), aad.size()},
                 ciphertext, tag, out);
  if (st.code() == StatusCode::kAuthentication) return AuthenticationError(id);
  if (!st.ok()) return st.WithContext(DescribeModule(id));
  return Status::OK();
}

Result<Buffer> ModuleDecryptor::Decrypt(const ModuleId& id, std::span<const uint8_t> module) const {
  size_t overhead = Overhead(id.type);
  if (module.size() < overhead) {
    return Status::Corruption(DescribeModule(id) + ": encrypted module of " +
                              std::to_string(module.size()) + " bytes is shorter than " +
                              std::to_string(overhead));
  }
  Buffer out(module.size() - overhead);
  PQSIFT_RETURN_IF_ERROR(Decrypt(id, module, {out.mutable_data(), out.size()}));
  return out;
}

Status ModuleDecryptor::VerifySignature(const ModuleId& id, std::span<const uint8_t> plaintext,
                                        std::span<const uint8_t> nonce,
                                        std::span<const uint8_t> tag) const {
  if (nonce.size() != kNonceSize || tag.size() != kTagSize) {
    return Status::Internal("signature of the wrong size");
  }
  PQSIFT_ASSIGN_OR_RETURN(std::string aad, ModuleAad(file_aad_, id));
  std::vector<uint8_t> ciphertext(plaintext.size());
  uint8_t computed[kTagSize];
  PQSIFT_RETURN_IF_ERROR(GcmEncrypt(key_.span(), nonce,
                                    {reinterpret_cast<const uint8_t*>(aad.data()), aad.size()},
                                    plaintext, ciphertext, computed));
  uint8_t diff = 0;
  for (size_t i = 0; i < kTagSize; ++i) diff |= static_cast<uint8_t>(computed[i] ^ tag[i]);
  if (diff != 0) {
    return Status::Authentication(DescribeModule(id) +
                                  ": signature check failed (wrong footer key or AAD prefix, or "
                                  "the footer was changed)");
  }
  return Status::OK();
}

}  // namespace pqsift::crypto
