// PageReader over a hand-made encrypted chunk (Parquet modular encryption): a dictionary page
// and data pages (v1 and v2, uncompressed and compressed), each header a GCM module and each
// body a GCM (AES_GCM_V1) or CTR (AES_GCM_CTR_V1) module with its module AAD and ordinal.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "column/page_reader.h"
#include "compression/codec.h"
#include "crypto/cipher.h"
#include "crypto/module.h"
#include "format/metadata_encoder.h"

namespace pqsift::column {
namespace {

using Bytes = std::vector<uint8_t>;
using crypto::ModuleId;
using crypto::ModuleType;

const std::string kKey = "0123456789abcdef";
const std::string kFileAad = "prefix-unique";
constexpr int32_t kRowGroup = 3;
constexpr int32_t kColumn = 7;

Bytes Module(bool gcm, const ModuleId& id, const Bytes& plain) {
  static uint8_t counter = 0;
  Bytes nonce(12, ++counter);
  Bytes ct(plain.size());
  Bytes tag(gcm ? 16 : 0);
  std::span<const uint8_t> key(reinterpret_cast<const uint8_t*>(kKey.data()), kKey.size());
  if (gcm) {
    std::string aad = crypto::ModuleAad(kFileAad, id).value();
    EXPECT_TRUE(crypto::GcmEncrypt(key, nonce,
                                   {reinterpret_cast<const uint8_t*>(aad.data()), aad.size()},
                                   plain, ct, tag)
                    .ok());
  } else {
    EXPECT_TRUE(crypto::CtrCrypt(key, nonce, plain, ct).ok());
  }
  uint32_t length = static_cast<uint32_t>(12 + ct.size() + tag.size());
  Bytes out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(length >> (8 * i)));
  for (uint8_t b : nonce) out.push_back(b);
  for (uint8_t b : ct) out.push_back(b);
  for (uint8_t b : tag) out.push_back(b);
  return out;
}

struct TestPage {
  PageType type;
  Bytes values;  // the plaintext values (v2: after `levels`)
  Bytes levels;  // v2 only: stored uncompressed
};

// The chunk's bytes: per page an encrypted header, then the encrypted (compressed) body.
Bytes Chunk(const std::vector<TestPage>& pages, CompressionCodec codec, bool ctr) {
  Bytes chunk;
  int32_t ordinal = 0;
  for (const TestPage& p : pages) {
    Bytes body = p.levels;
    Bytes compressed;
    if (codec == CompressionCodec::kUncompressed) {
      compressed = p.values;
    } else {
      EXPECT_TRUE(compression::Compress(codec, 0, p.values, compressed).ok());
    }
    body.insert(body.end(), compressed.begin(), compressed.end());
    bool dictionary = p.type == PageType::kDictionaryPage;
    ModuleId body_id{dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage, kRowGroup,
                     kColumn, dictionary ? 0 : ordinal};
    Bytes body_module = Module(!ctr, body_id, body);
    format::PageHeader h;
    h.type = p.type;
    h.uncompressed_page_size = static_cast<int32_t>(p.levels.size() + p.values.size());
    h.compressed_page_size = static_cast<int32_t>(body_module.size());
    if (dictionary) {
      h.dictionary_page_header.emplace().num_values = 1;
    } else if (p.type == PageType::kDataPageV2) {
      auto& v2 = h.data_page_header_v2.emplace();
      v2.num_values = 1;
      v2.num_rows = 1;
      v2.definition_levels_byte_length = static_cast<int32_t>(p.levels.size());
    } else {
      h.data_page_header.emplace().num_values = 1;
    }
    std::string header = format::MetadataEncoder().PageHeader(h).Take();
    ModuleId header_id{dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                       kRowGroup, kColumn, dictionary ? 0 : ordinal};
    Bytes header_module = Module(true, header_id, Bytes(header.begin(), header.end()));
    chunk.insert(chunk.end(), header_module.begin(), header_module.end());
    chunk.insert(chunk.end(), body_module.begin(), body_module.end());
    if (!dictionary) ++ordinal;
  }
  return chunk;
}

PageReaderOptions Options(bool ctr) {
  PageReaderOptions o;
  o.decryptor = std::make_shared<crypto::ModuleDecryptor>(
      crypto::SecretBytes(kKey),
      ctr ? crypto::Algorithm::kAesGcmCtrV1 : crypto::Algorithm::kAesGcmV1, kFileAad);
  o.row_group_ordinal = kRowGroup;
  o.column_ordinal = kColumn;
  return o;
}

Bytes Text(std::string_view s) { return Bytes(s.begin(), s.end()); }

const std::vector<TestPage> kPages = {
    {PageType::kDictionaryPage, Text("the dictionary entries"), {}},
    {PageType::kDataPage, Text("data page zero, repeated repeated repeated"), {}},
    {PageType::kDataPageV2, Text("v2 values, repeated repeated"), Text("LEVELS")},
    {PageType::kDataPage, Text("data page two"), {}},
};

TEST(EncryptedPage, EveryPageDecryptsUnderBothAlgorithmsAndCodecs) {
  for (bool ctr : {false, true}) {
    for (CompressionCodec codec :
         {CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kZstd}) {
      SCOPED_TRACE(std::string(ctr ? "ctr " : "gcm ") + CodecName(codec));
      Bytes chunk = Chunk(kPages, codec, ctr);
      PageReader pages(chunk, 100, codec, "row group 3, column 'x'", Options(ctr));
      std::optional<PageReader::Mark> dictionary;
      for (const TestPage& expected : kPages) {
        auto more = pages.Next();
        ASSERT_TRUE(more.ok()) << more.status().ToString();
        ASSERT_TRUE(*more);
        EXPECT_EQ(pages.header().type, expected.type);
        if (expected.type == PageType::kDictionaryPage) {
          dictionary = pages.MarkPage();  // read after the data pages
          continue;
        }
        auto page = pages.Read();
        ASSERT_TRUE(page.ok()) << page.status().ToString();
        EXPECT_EQ(Bytes(page->body.begin(), page->body.end()), expected.values);
        if (expected.type == PageType::kDataPageV2) {
          EXPECT_EQ(Bytes(page->definition_levels.begin(), page->definition_levels.end()),
                    expected.levels);
        }
      }
      auto end = pages.Next();
      ASSERT_TRUE(end.ok());
      EXPECT_FALSE(*end);
      ASSERT_TRUE(dictionary.has_value());
      Buffer storage;
      auto page = pages.ReadMarked(*dictionary, &storage);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      EXPECT_EQ(Bytes(page->body.begin(), page->body.end()), kPages[0].values);
    }
  }
}

TEST(EncryptedPage, AChunkWithoutDictionaryStartsAtDataPageZero) {
  std::vector<TestPage> pages(kPages.begin() + 1, kPages.end());
  Bytes chunk = Chunk(pages, CompressionCodec::kUncompressed, false);
  PageReader reader(chunk, 0, CompressionCodec::kUncompressed, "w", Options(false));
  for (const TestPage& expected : pages) {
    ASSERT_TRUE(reader.Next().value());
    auto page = reader.Read();
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    EXPECT_EQ(Bytes(page->body.begin(), page->body.end()), expected.values);
  }
}

// A buffer of some pages only (the offset index chose them): their ordinals come from it.
TEST(EncryptedPage, SomePagesWithTheirOrdinals) {
  std::vector<TestPage> all = {kPages[0], kPages[1], kPages[3], kPages[1]};
  Bytes chunk = Chunk(all, CompressionCodec::kUncompressed, false);
  // The modules' places: dictionary (2 modules), then data pages 0, 1, 2.
  std::vector<size_t> starts;
  for (size_t pos = 0; pos < chunk.size();) {
    starts.push_back(pos);
    pos += 4 + (chunk[pos] | chunk[pos + 1] << 8 | chunk[pos + 2] << 16);
  }
  ASSERT_EQ(starts.size(), 8u);
  starts.push_back(chunk.size());
  // The dictionary page and data page 2.
  Bytes some(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(starts[2]));
  some.insert(some.end(), chunk.begin() + static_cast<std::ptrdiff_t>(starts[6]), chunk.end());
  for (bool with_ordinals : {true, false}) {
    PageReader reader(some, 0, CompressionCodec::kUncompressed, "w", Options(false));
    if (with_ordinals) reader.SetPageOrdinals({2});
    ASSERT_TRUE(reader.Next().value());
    EXPECT_EQ(reader.header().type, PageType::kDictionaryPage);
    auto next = reader.Next();
    if (!with_ordinals) {
      // Numbered as they come, the page would be data page 0: not this module's AAD.
      EXPECT_EQ(next.status().code(), StatusCode::kAuthentication);
      continue;
    }
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    auto page = reader.Read();
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    EXPECT_EQ(Bytes(page->body.begin(), page->body.end()), all[3].values);
  }
}

// Data pages swapped (each module intact, in the other's place), a changed byte in a header,
// a wrong key: Authentication naming the module, never the other page's bytes.
TEST(EncryptedPage, SwappedOrChangedModulesFailAuthentication) {
  std::vector<TestPage> two = {kPages[1], kPages[3]};
  Bytes first = Chunk({two[0]}, CompressionCodec::kUncompressed, false);
  Bytes both = Chunk(two, CompressionCodec::kUncompressed, false);
  Bytes second(both.begin() + static_cast<std::ptrdiff_t>(first.size()), both.end());
  Bytes swapped = second;
  swapped.insert(swapped.end(), first.begin(), first.end());
  PageReader reader(swapped, 0, CompressionCodec::kUncompressed, "row group 3, column 'x'",
                    Options(false));
  auto next = reader.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().code(), StatusCode::kAuthentication);
  // The first page may be a dictionary page or data page 0: the message names both.
  EXPECT_EQ(next.status().message(),
            "row group 3, column 'x': dictionary page header of row group 3, column 7 or data page "
            "header 0 of row group 3, column 7: authentication failed (wrong key or AAD prefix, or "
            "the module was changed or moved)");

  Bytes changed = both;
  changed[20] ^= 1;
  PageReader bad(changed, 0, CompressionCodec::kUncompressed, "w", Options(false));
  EXPECT_EQ(bad.Next().status().code(), StatusCode::kAuthentication);

  // A changed byte of a GCM page body: found when the page is read.
  Bytes body_changed = both;
  body_changed[first.size() - 20] ^= 1;
  PageReader body(body_changed, 0, CompressionCodec::kUncompressed, "w", Options(false));
  ASSERT_TRUE(body.Next().value());
  Status st = body.Read().status();
  EXPECT_EQ(st.code(), StatusCode::kAuthentication);
  EXPECT_NE(st.message().find("data page 0 of row group 3, column 7"), std::string::npos);

  PageReaderOptions wrong = Options(false);
  wrong.decryptor = std::make_shared<crypto::ModuleDecryptor>(
      crypto::SecretBytes("fedcba9876543210"), crypto::Algorithm::kAesGcmV1, kFileAad);
  PageReader keyed(both, 0, CompressionCodec::kUncompressed, "w", wrong);
  EXPECT_EQ(keyed.Next().status().code(), StatusCode::kAuthentication);

  // A truncated module is Corruption naming the page's offset.
  Bytes cut(both.begin(), both.begin() + 10);
  PageReader truncated(cut, 500, CompressionCodec::kUncompressed, "w", Options(false));
  Status t = truncated.Next().status();
  EXPECT_EQ(t.code(), StatusCode::kCorruption) << t.ToString();
  EXPECT_NE(t.message().find("page at offset 500"), std::string::npos) << t.message();
}

}  // namespace
}  // namespace pqsift::column
