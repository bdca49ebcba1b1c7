#include "crypto/cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <climits>
#include <memory>
#include <string>

namespace pqsift::crypto {
namespace {

struct CtxFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using Ctx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

const EVP_CIPHER* Gcm(size_t key_size) {
  switch (key_size) {
    case 16: return EVP_aes_128_gcm();
    case 24: return EVP_aes_192_gcm();
    case 32: return EVP_aes_256_gcm();
    default: return nullptr;
  }
}

const EVP_CIPHER* Ctr(size_t key_size) {
  switch (key_size) {
    case 16: return EVP_aes_128_ctr();
    case 24: return EVP_aes_192_ctr();
    case 32: return EVP_aes_256_ctr();
    default: return nullptr;
  }
}

Status KeyError(size_t size) {
  return Status::InvalidArgument("an AES key has 16, 24 or 32 bytes, this one has " +
                                 std::to_string(size));
}

Status CheckCommon(std::span<const uint8_t> key, std::span<const uint8_t> nonce, size_t in,
                   size_t out) {
  if (!IsAesKeySize(key.size())) return KeyError(key.size());
  if (nonce.size() != kNonceSize) return Status::Internal("AES nonce is not 12 bytes");
  if (in != out) return Status::Internal("AES output size differs from the input's");
  if (in > static_cast<size_t>(INT_MAX)) {
    return Status::ResourceExhausted("encrypted module over 2 GiB");
  }
  return Status::OK();
}

Status OpenSslError(const char* what) {
  return Status::Internal(std::string("OpenSSL failed: ") + what);
}

// Feeds `aad` (when not empty) and `in` through an initialised context.
bool Update(EVP_CIPHER_CTX* ctx, std::span<const uint8_t> aad, std::span<const uint8_t> in,
            std::span<uint8_t> out) {
  int len = 0;
  if (!aad.empty() &&
      EVP_CipherUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) {
    return false;
  }
  if (!in.empty() &&
      EVP_CipherUpdate(ctx, out.data(), &len, in.data(), static_cast<int>(in.size())) != 1) {
    return false;
  }
  return true;
}

}  // namespace

bool IsAesKeySize(size_t size) { return size == 16 || size == 24 || size == 32; }

Status RandomBytes(std::span<uint8_t> out) {
  if (out.empty()) return Status::OK();
  if (out.size() > static_cast<size_t>(INT_MAX) ||
      RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) {
    return OpenSslError("RAND_bytes");
  }
  return Status::OK();
}

void Wipe(void* bytes, size_t size) {
  if (size > 0) OPENSSL_cleanse(bytes, size);
}

Status GcmDecrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                  std::span<const uint8_t> aad, std::span<const uint8_t> ciphertext,
                  std::span<const uint8_t> tag, std::span<uint8_t> out) {
  PQSIFT_RETURN_IF_ERROR(CheckCommon(key, nonce, ciphertext.size(), out.size()));
  if (tag.size() != kTagSize) return Status::Internal("AES-GCM tag is not 16 bytes");
  Ctx ctx(EVP_CIPHER_CTX_new());
  if (!ctx) return OpenSslError("EVP_CIPHER_CTX_new");
  if (EVP_DecryptInit_ex(ctx.get(), Gcm(key.size()), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceSize),
                          nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce.data()) != 1) {
    return OpenSslError("AES-GCM decryption set-up");
  }
  if (!Update(ctx.get(), aad, ciphertext, out)) return OpenSslError("AES-GCM decryption");
  // The tag is only read by OpenSSL; the API takes a non-const pointer.
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagSize),
                          const_cast<uint8_t*>(tag.data())) != 1) {
    return OpenSslError("AES-GCM tag");
  }
  int len = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), out.data() + out.size(), &len) != 1) {
    Wipe(out.data(), out.size());
    return Status::Authentication("AES-GCM tag mismatch");
  }
  return Status::OK();
}

Status GcmEncrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                  std::span<const uint8_t> aad, std::span<const uint8_t> plaintext,
                  std::span<uint8_t> out, std::span<uint8_t> tag) {
  PQSIFT_RETURN_IF_ERROR(CheckCommon(key, nonce, plaintext.size(), out.size()));
  if (tag.size() != kTagSize) return Status::Internal("AES-GCM tag is not 16 bytes");
  Ctx ctx(EVP_CIPHER_CTX_new());
  if (!ctx) return OpenSslError("EVP_CIPHER_CTX_new");
  if (EVP_EncryptInit_ex(ctx.get(), Gcm(key.size()), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceSize),
                          nullptr) != 1 ||
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce.data()) != 1) {
    return OpenSslError("AES-GCM encryption set-up");
  }
  if (!Update(ctx.get(), aad, plaintext, out)) return OpenSslError("AES-GCM encryption");
  int len = 0;
  if (EVP_EncryptFinal_ex(ctx.get(), out.data() + out.size(), &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagSize),
                          tag.data()) != 1) {
    return OpenSslError("AES-GCM encryption");
  }
  return Status::OK();
}

Status CtrCrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                std::span<const uint8_t> in, std::span<uint8_t> out) {
  PQSIFT_RETURN_IF_ERROR(CheckCommon(key, nonce, in.size(), out.size()));
  uint8_t iv[16] = {};
  for (size_t i = 0; i < kNonceSize; ++i) iv[i] = nonce[i];
  iv[15] = 1;
  Ctx ctx(EVP_CIPHER_CTX_new());
  if (!ctx) return OpenSslError("EVP_CIPHER_CTX_new");
  if (EVP_EncryptInit_ex(ctx.get(), Ctr(key.size()), nullptr, key.data(), iv) != 1) {
    return OpenSslError("AES-CTR set-up");
  }
  if (!Update(ctx.get(), {}, in, out)) return OpenSslError("AES-CTR");
  int len = 0;
  if (EVP_EncryptFinal_ex(ctx.get(), out.data() + out.size(), &len) != 1) {
    return OpenSslError("AES-CTR");
  }
  return Status::OK();
}

}  // namespace pqsift::crypto
