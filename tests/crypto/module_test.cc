// The crypto layer: AES-GCM and AES-CTR against OpenSSL used directly (the vectors are made in
// the test: encrypted with EVP, decrypted with ours) and against published known answers (the
// GCM specification's test cases, McGrew & Viega; AES_GCM_CTR_V1's IV from Encryption.md
// 4.2.2), the module AADs of Encryption.md 4.4.2, and the module format of 5.1, written by
// ModuleEncryptor and read by ModuleDecryptor; tampering, a wrong key and a swapped AAD fail
// authentication.
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

Bytes FromHex(std::string_view hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string HexOf(std::span<const uint8_t> bytes) {
  return Hex({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

// Every module type's AAD suffix, byte for byte (Encryption.md 4.4.2's table): the types that
// carry no page ordinal end after the column ordinal, whatever page is given.
TEST(CryptoAad, KnownAnswersForEveryModuleType) {
  const std::string file_aad = "AAD" + std::string("\xaa\xbb\xcc\xdd\x00\x01\x02\x03", 8);
  const std::string head = "414144aabbccdd00010203";
  struct Case {
    ModuleType type;
    const char* suffix;  // after the file AAD, for row group 1, column 0x0203, page 0x7ffe
  };
  const Case cases[] = {
      {ModuleType::kFooter, "00"},
      {ModuleType::kColumnMetaData,
       "01"
       "0100"
       "0302"},
      {ModuleType::kDataPage,
       "02"
       "0100"
       "0302"
       "fe7f"},
      {ModuleType::kDictionaryPage,
       "03"
       "0100"
       "0302"},
      {ModuleType::kDataPageHeader,
       "04"
       "0100"
       "0302"
       "fe7f"},
      {ModuleType::kDictionaryPageHeader,
       "05"
       "0100"
       "0302"},
      {ModuleType::kColumnIndex,
       "06"
       "0100"
       "0302"},
      {ModuleType::kOffsetIndex,
       "07"
       "0100"
       "0302"},
      {ModuleType::kBloomFilterHeader,
       "08"
       "0100"
       "0302"},
      {ModuleType::kBloomFilterBitset,
       "09"
       "0100"
       "0302"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Hex(ModuleAad(file_aad, {c.type, 1, 0x0203, 0x7ffe}).value()), head + c.suffix)
        << ModuleTypeName(c.type);
  }
}

// The GCM specification's test cases 2 and 4 (McGrew & Viega, "The Galois/Counter Mode of
// Operation", appendix B): AES-128, with and without additional data.
TEST(CryptoKnownAnswer, AesGcm) {
  struct Vector {
    const char *key, *nonce, *plain, *aad, *cipher, *tag;
  };
  const Vector vectors[] = {
      {"00000000000000000000000000000000", "000000000000000000000000",
       "00000000000000000000000000000000", "", "0388dace60b6a392f328c2b971b2fe78",
       "ab6e47d42cec13bdf53a67b21257bddf"},
      {"feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
       "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e24"
       "49a6b525b16aedf5aa0de657ba637b39",
       "feedfacedeadbeeffeedfacedeadbeefabaddad2",
       "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5a"
       "ac84aa051ba30b396a0aac973d58e091",
       "5bc94fbc3221a5db94fae95ae7121a47"},
  };
  for (const Vector& v : vectors) {
    Bytes key = FromHex(v.key), nonce = FromHex(v.nonce), plain = FromHex(v.plain),
          aad = FromHex(v.aad);
    Bytes cipher(plain.size()), tag(16);
    ASSERT_TRUE(GcmEncrypt(key, nonce, aad, plain, cipher, tag).ok());
    EXPECT_EQ(HexOf(cipher), v.cipher);
    EXPECT_EQ(HexOf(tag), v.tag);
    Bytes back(plain.size());
    ASSERT_TRUE(GcmDecrypt(key, nonce, aad, FromHex(v.cipher), FromHex(v.tag), back).ok());
    EXPECT_EQ(back, plain);
  }
}

// AES_GCM_CTR_V1's pages: AES-CTR with the IV nonce | 00 00 00 01 (Encryption.md 4.2.2). Under
// the all-zero key and nonce, its keystream blocks are E(K, 0^96 | 1), the GCM test case 1 tag
// (58e2...), and E(K, 0^96 | 2), test case 2's ciphertext of a zero block (0388...).
TEST(CryptoKnownAnswer, AesCtrWithTheParquetIv) {
  Bytes key(16, 0), nonce(12, 0), plain(32, 0), out(32);
  ASSERT_TRUE(CtrCrypt(key, nonce, plain, out).ok());
  EXPECT_EQ(HexOf(out),
            "58e2fccefa7e3061367f1d57a4e7455a"
            "0388dace60b6a392f328c2b971b2fe78");
  // The same through a CTR page module.
  ModuleEncryptor e(SecretBytes(std::string(16, '\0')), Algorithm::kAesGcmCtrV1, "u");
  Bytes module;
  ASSERT_TRUE(e.EncryptWithNonce({ModuleType::kDataPage, 0, 0, 0}, plain, nonce, module).ok());
  EXPECT_EQ(HexOf(module),
            "2c000000"
            "000000000000000000000000"
            "58e2fccefa7e3061367f1d57a4e7455a"
            "0388dace60b6a392f328c2b971b2fe78");
}

// A GCM module as ModuleEncryptor writes it: length (LE) | nonce | ciphertext | tag, the tag
// over the module's AAD; the known answer of test case 4 with the AAD replaced is made here by
// OpenSSL directly.
TEST(CryptoModule, EncryptorWritesTheSpecLayout) {
  const std::string file_aad = "prefix" + std::string("uniq", 4);
  ModuleId id{ModuleType::kColumnIndex, 3, 4, 0};
  ModuleEncryptor e(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, file_aad);
  Bytes plain = B("a column index's thrift bytes");
  Bytes module;
  ASSERT_TRUE(e.EncryptWithNonce(id, plain, kNonce, module).ok());
  EXPECT_EQ(module, OpenSslGcmModule(kKey, plain, ModuleAad(file_aad, id).value()));
  // Random nonces: two encryptions differ, both decrypt.
  ModuleDecryptor d(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, file_aad);
  Bytes a, b;
  ASSERT_TRUE(e.Encrypt(id, plain, a).ok());
  ASSERT_TRUE(e.Encrypt(id, plain, b).ok());
  EXPECT_NE(a, b);
  for (const Bytes& m : {a, b}) {
    auto out = d.Decrypt(id, m);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(Bytes(out->span().begin(), out->span().end()), plain);
  }
  // Appends: a module after other bytes.
  Bytes after = {9, 9};
  ASSERT_TRUE(e.Encrypt(id, plain, after).ok());
  EXPECT_EQ(d.ModuleSizeAt(std::span<const uint8_t>(after).subspan(2), id).value(), a.size());
  // A page ordinal past the AAD's short cannot be encrypted.
  Bytes none;
  EXPECT_EQ(e.Encrypt({ModuleType::kDataPage, 0, 0, 40000}, plain, none).code(),
            StatusCode::kInvalidArgument);
  // Under GCM_CTR, pages are CTR (no tag), headers GCM.
  ModuleEncryptor ctr(SecretBytes("0123456789012345"), Algorithm::kAesGcmCtrV1, file_aad);
  ModuleDecryptor ctr_d(SecretBytes("0123456789012345"), Algorithm::kAesGcmCtrV1, file_aad);
  for (ModuleType t : {ModuleType::kDataPage, ModuleType::kDictionaryPage,
                       ModuleType::kDataPageHeader, ModuleType::kBloomFilterBitset}) {
    Bytes m;
    ASSERT_TRUE(ctr.Encrypt({t, 0, 1, 2}, plain, m).ok());
    EXPECT_EQ(m.size(), plain.size() + ctr.Overhead(t)) << ModuleTypeName(t);
    auto out = ctr_d.Decrypt({t, 0, 1, 2}, m);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
  }
}

TEST(CryptoModule, SignatureVerifies) {
  ModuleEncryptor e(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, "u");
  ModuleDecryptor d(SecretBytes("0123456789012345"), Algorithm::kAesGcmV1, "u");
  Bytes footer = B("a plaintext footer");
  Bytes signature;
  ASSERT_TRUE(e.Sign({ModuleType::kFooter}, footer, signature).ok());
  ASSERT_EQ(signature.size(), 28u);
  std::span<const uint8_t> s(signature);
  EXPECT_TRUE(d.VerifySignature({ModuleType::kFooter}, footer, s.first(12), s.subspan(12)).ok());
  footer[0] ^= 1;
  EXPECT_EQ(d.VerifySignature({ModuleType::kFooter}, footer, s.first(12), s.subspan(12)).code(),
            StatusCode::kAuthentication);
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
