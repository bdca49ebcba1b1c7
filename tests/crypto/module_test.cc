// The crypto layer: AES-GCM and AES-CTR against OpenSSL used directly (the vectors are made in
// the test: encrypted with EVP, decrypted with ours), the module AADs of Encryption.md 4.4.2,
// and the module format of 5.1; tampering, a wrong key and a swapped AAD fail authentication.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>
#include <string>
#include <vector>

#include "crypto/cipher.h"
#include "crypto/module.h"

namespace pqsift::crypto {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes B(std::string_view s) { return Bytes(s.begin(), s.end()); }

const Bytes kKey = B("0123456789012345");
const Bytes kNonce = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

// The length field (nonce + `rest` bytes) and the nonce of a module.
Bytes Frame(size_t rest) {
  uint32_t length = static_cast<uint32_t>(12 + rest);
  Bytes out;
  out.reserve(16 + rest);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(length >> (8 * i)));
  for (uint8_t b : kNonce) out.push_back(b);
  return out;
}

// A GCM module made with OpenSSL directly: length | nonce | ciphertext | tag.
Bytes OpenSslGcmModule(const Bytes& key, const Bytes& plaintext, const std::string& aad) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const EVP_CIPHER* cipher = key.size() == 16   ? EVP_aes_128_gcm()
                             : key.size() == 24 ? EVP_aes_192_gcm()
                                                : EVP_aes_256_gcm();
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, cipher, nullptr, key.data(), kNonce.data()), 1);
  int len = 0;
  EXPECT_EQ(EVP_EncryptUpdate(ctx, nullptr, &len, reinterpret_cast<const uint8_t*>(aad.data()),
                              static_cast<int>(aad.size())),
            1);
  Bytes ct(plaintext.size());
  if (!plaintext.empty()) {
    EXPECT_EQ(EVP_EncryptUpdate(ctx, ct.data(), &len, plaintext.data(),
                                static_cast<int>(plaintext.size())),
              1);
  }
  EXPECT_EQ(EVP_EncryptFinal_ex(ctx, ct.data() + ct.size(), &len), 1);
  uint8_t tag[16];
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag), 1);
  EVP_CIPHER_CTX_free(ctx);
  Bytes out = Frame(ct.size() + 16);
  for (uint8_t b : ct) out.push_back(b);
  for (uint8_t b : tag) out.push_back(b);
  return out;
}

Bytes OpenSslCtrModule(const Bytes& key, const Bytes& plaintext) {
  uint8_t iv[16] = {};
  std::memcpy(iv, kNonce.data(), 12);
  iv[15] = 1;
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_aes_128_ctr(), nullptr, key.data(), iv), 1);
  Bytes ct(plaintext.size());
  int len = 0;
  EXPECT_EQ(
      EVP_EncryptUpdate(ctx, ct.data(), &len, plaintext.data(), static_cast<int>(plaintext.size())),
      1);
  EVP_CIPHER_CTX_free(ctx);
  Bytes out = Frame(ct.size());
  for (uint8_t b : ct) out.push_back(b);
  return out;
}

std::string Hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

TEST(CryptoAad, FollowsTheSpecTable) {
  std::string file_aad = "pre" + std::string("\x01\x02", 2);
  // Footer: prefix | unique | type only.
  EXPECT_EQ(Hex(ModuleAad(file_aad, {ModuleType::kFooter, 5, 6, 7}).value()),
            "7072650102"
            "00");
  // Column metadata: + row group, column (LE shorts), no page.
  EXPECT_EQ(Hex(ModuleAad(file_aad, {ModuleType::kColumnMetaData, 1, 258, 9}).value()),
            "7072650102"
            "01"
            "0100"
            "0201");
  // Data page and its header: + page ordinal.
  EXPECT_EQ(Hex(ModuleAad(file_aad, {ModuleType::kDataPage, 0, 3, 300}).value()),
            "7072650102"
            "02"
            "0000"
            "0300"
            "2c01");
  EXPECT_EQ(Hex(ModuleAad(file_aad, {ModuleType::kDataPageHeader, 32767, 0, 1}).value()),
            "7072650102"
            "04"
            "ff7f"
            "0000"
            "0100");
  // Dictionary page, its header, indexes, bloom filters: no page ordinal.
  for (ModuleType t :
       {ModuleType::kDictionaryPage, ModuleType::kDictionaryPageHeader, ModuleType::kColumnIndex,
        ModuleType::kOffsetIndex, ModuleType::kBloomFilterHeader, ModuleType::kBloomFilterBitset}) {
    std::string aad = ModuleAad(file_aad, {t, 2, 1, 99}).value();
    EXPECT_EQ(aad.size(), file_aad.size() + 5) << ModuleTypeName(t);
    EXPECT_EQ(static_cast<uint8_t>(aad[file_aad.size()]), static_cast<uint8_t>(t));
  }
  // An ordinal that does not fit a short cannot be encrypted.
  EXPECT_EQ(ModuleAad(file_aad, {ModuleType::kDataPage, 0, 0, 32768}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ModuleAad(file_aad, {ModuleType::kColumnIndex, -1, 0, 0}).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(CryptoModule, DecryptsOpenSslGcmModules) {
  std::string file_aad = "tester" + std::string("unique", 6);
  ModuleDecryptor d(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, file_aad);
  for (size_t n : {0, 1, 15, 16, 17, 1000}) {
    Bytes plain(n);
    for (size_t i = 0; i < n; ++i) plain[i] = static_cast<uint8_t>(i * 7 + 1);
    ModuleId id{ModuleType::kDataPage, 1, 2, 3};
    Bytes module = OpenSslGcmModule(kKey, plain, ModuleAad(file_aad, id).value());
    auto out = d.Decrypt(id, module);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(Bytes(out->span().begin(), out->span().end()), plain);
    // ModuleSizeAt finds the module's end in longer bytes.
    Bytes longer = module;
    longer.push_back(0);
    EXPECT_EQ(d.ModuleSizeAt(longer, id).value(), module.size());
  }
}

TEST(CryptoModule, AllKeySizes) {
  for (std::string key : {std::string(16, 'k'), std::string(24, 'k'), std::string(32, 'k')}) {
    ModuleDecryptor d(SecretBytes(key), Algorithm::kAesGcmV1, "f");
    ModuleId id{ModuleType::kFooter};
    Bytes module = OpenSslGcmModule(B(key), B("hello"), ModuleAad("f", id).value());
    auto out = d.Decrypt(id, module);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(out->data()), out->size()), "hello");
  }
  ModuleDecryptor bad(SecretBytes("short"), Algorithm::kAesGcmV1, "f");
  Bytes module = OpenSslGcmModule(kKey, B("hello"), "f");
  EXPECT_EQ(bad.Decrypt({ModuleType::kFooter}, module).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(CryptoModule, TamperWrongKeySwappedAadFailAuthentication) {
  std::string file_aad = "unique";
  ModuleId id{ModuleType::kDataPageHeader, 0, 1, 2};
  Bytes plain = B("a page header's thrift bytes");
  Bytes module = OpenSslGcmModule(kKey, plain, ModuleAad(file_aad, id).value());
  ModuleDecryptor good(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, file_aad);
  ASSERT_TRUE(good.Decrypt(id, module).ok());
  // Every byte after the length: nonce, ciphertext, tag.
  for (size_t i = 4; i < module.size(); ++i) {
    Bytes bad = module;
    bad[i] ^= 0x10;
    Status st = good.Decrypt(id, bad).status();
    EXPECT_EQ(st.code(), StatusCode::kAuthentication) << i;
    EXPECT_NE(st.message().find("data page header 2 of row group 0, column 1"), std::string::npos)
        << st.message();
  }
  // A wrong key.
  ModuleDecryptor wrong(SecretBytes("1234567890123450"), Algorithm::kAesGcmV1, file_aad);
  EXPECT_EQ(wrong.Decrypt(id, module).status().code(), StatusCode::kAuthentication);
  // A wrong AAD prefix.
  ModuleDecryptor prefixed(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, "x" + file_aad);
  EXPECT_EQ(prefixed.Decrypt(id, module).status().code(), StatusCode::kAuthentication);
  // The module moved: another page, column, row group, or type.
  for (ModuleId other : {ModuleId{ModuleType::kDataPageHeader, 0, 1, 3},
                         ModuleId{ModuleType::kDataPageHeader, 0, 0, 2},
                         ModuleId{ModuleType::kDataPageHeader, 1, 1, 2},
                         ModuleId{ModuleType::kDictionaryPageHeader, 0, 1, 2}}) {
    EXPECT_EQ(good.Decrypt(other, module).status().code(), StatusCode::kAuthentication)
        << DescribeModule(other);
  }
  // A length field that overruns or is too short is Corruption, not a crash.
  Bytes overrun = module;
  overrun[0] = static_cast<uint8_t>(overrun[0] + 1);
  EXPECT_EQ(good.Decrypt(id, overrun).status().code(), StatusCode::kCorruption);
  Bytes tiny = {3, 0, 0, 0, 1, 2, 3};
  EXPECT_EQ(good.Decrypt(id, tiny).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(good.ModuleSizeAt(Bytes{1, 2}, id).status().code(), StatusCode::kCorruption);
}

TEST(CryptoModule, CtrPagesUnderGcmCtr) {
  ModuleDecryptor d(SecretBytes("0123456789012345"), Algorithm::kAesGcmCtrV1, "unique");
  EXPECT_FALSE(d.UsesGcm(ModuleType::kDataPage));
  EXPECT_FALSE(d.UsesGcm(ModuleType::kDictionaryPage));
  EXPECT_TRUE(d.UsesGcm(ModuleType::kDataPageHeader));
  EXPECT_TRUE(d.UsesGcm(ModuleType::kFooter));
  Bytes plain(100);
  for (size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<uint8_t>(i);
  Bytes module = OpenSslCtrModule(kKey, plain);
  auto out = d.Decrypt({ModuleType::kDataPage, 0, 0, 0}, module);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Bytes(out->span().begin(), out->span().end()), plain);
  // Headers stay GCM under GCM_CTR.
  ModuleId header{ModuleType::kDataPageHeader, 0, 0, 0};
  Bytes gcm = OpenSslGcmModule(kKey, plain, ModuleAad("unique", header).value());
  EXPECT_TRUE(d.Decrypt(header, gcm).ok());
}

TEST(CryptoModule, FooterSignature) {
  ModuleId id{ModuleType::kFooter};
  Bytes footer = B("plaintext footer bytes");
  Bytes module = OpenSslGcmModule(kKey, footer, ModuleAad("u", id).value());
  std::span<const uint8_t> nonce(module.data() + 4, 12);
  std::span<const uint8_t> tag(module.data() + module.size() - 16, 16);
  ModuleDecryptor d(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, "u");
  EXPECT_TRUE(d.VerifySignature(id, footer, nonce, tag).ok());
  Bytes changed = footer;
  changed[3] ^= 1;
  EXPECT_EQ(d.VerifySignature(id, changed, nonce, tag).code(), StatusCode::kAuthentication);
  ModuleDecryptor wrong(SecretBytes("0123456789012346"), Algorithm::kAesGcmV1, "u");
  EXPECT_EQ(wrong.VerifySignature(id, footer, nonce, tag).code(), StatusCode::kAuthentication);
}

TEST(CryptoModule, MessagesHoldNoKeyBytes) {
  ModuleDecryptor d(SecretBytes("SECRETKEY0123456"), Algorithm::kAesGcmV1, "u");
  Bytes module = OpenSslGcmModule(kKey, B("x"), "other");
  Status st = d.Decrypt({ModuleType::kColumnIndex, 0, 0, 0}, module).status();
  EXPECT_EQ(st.code(), StatusCode::kAuthentication);
  EXPECT_EQ(st.message().find("SECRETKEY"), std::string::npos);
  EXPECT_NE(st.message().find("column index of row group 0, column 0"), std::string::npos);
}

TEST(CryptoSecret, WipedOnClear) {
  SecretBytes s("abcdefgh");
  EXPECT_EQ(s.size(), 8u);
  SecretBytes moved(std::move(s));
  EXPECT_TRUE(s.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  moved.Clear();
  EXPECT_TRUE(moved.empty());
}

}  // namespace
}  // namespace pqsift::crypto
