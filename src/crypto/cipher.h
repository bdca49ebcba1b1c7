// AES for Parquet modular encryption (Encryption.md, section 4), over OpenSSL 3's EVP interface.
// The only place pqsift calls a cipher; everything above works with modules (module.h).
//
// Contract:
// - Keys are 16, 24 or 32 bytes (AES-128/192/256); any other length is InvalidArgument.
// - GCM (NIST SP 800-38D): a 12-byte nonce, a 16-byte tag, an AAD; no padding. Decryption
//   checks the tag before it reports success: on a mismatch (wrong key, wrong AAD, a changed
//   byte anywhere in nonce, ciphertext or tag) it returns Authentication and wipes `out`, so
//   no unauthenticated plaintext is ever handed on.
// - CTR (NIST SP 800-38A): a 16-byte IV made of the 12-byte nonce and a 4-byte big-endian
//   counter starting at 1 (Encryption.md 4.2.2: "the first 31 bits set to 0, the last to 1");
//   no padding, no authentication.
// - Outputs have the input's length; `out` must have exactly that size (Internal otherwise).
// - Nonces for encryption come from RandomBytes (OpenSSL's CSPRNG), one per module.
// - Messages never contain key bytes; callers add which module failed.
//
// Thread safety: the functions are reentrant (a cipher context per call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pqsift/status.h"

namespace pqsift::crypto {

inline constexpr size_t kNonceSize = 12;
inline constexpr size_t kTagSize = 16;

// Whether `size` is an AES key length (16, 24 or 32 bytes).
bool IsAesKeySize(size_t size);

// AES-GCM decryption of `ciphertext` into `out` (same size), checking `tag` over the
// ciphertext and `aad`.
Status GcmDecrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                  std::span<const uint8_t> aad, std::span<const uint8_t> ciphertext,
                  std::span<const uint8_t> tag, std::span<uint8_t> out);

// AES-GCM encryption of `plaintext` into `out` (same size) and the 16-byte `tag`. Used to check
// a plaintext footer's signature (the tag of the footer's encryption) and by tests.
Status GcmEncrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                  std::span<const uint8_t> aad, std::span<const uint8_t> plaintext,
                  std::span<uint8_t> out, std::span<uint8_t> tag);

// AES-CTR with the Parquet IV (nonce | 00 00 00 01): encryption and decryption are the same.
Status CtrCrypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce,
                std::span<const uint8_t> in, std::span<uint8_t> out);

// Fills `out` from OpenSSL's CSPRNG (RAND_bytes): the nonces of encrypted modules
// (Encryption.md 4.1.3: RBG-based nonces, NIST SP 800-38D 8.2.2) and a file's AAD unique part.
// Internal when the generator fails (never a predictable fallback).
Status RandomBytes(std::span<uint8_t> out);

// Sets `bytes` to zero in a way the compiler does not remove (OPENSSL_cleanse).
void Wipe(void* bytes, size_t size);

}  // namespace pqsift::crypto
