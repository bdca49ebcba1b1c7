// Reading files written with Parquet modular encryption (apache/parquet-format Encryption.md):
// the keys a reader is given. Passed through OpenOptions::decryption (so ScanOptions::open and
// the dataset's options carry it too).
//
// A key is found, for the footer and for each encrypted column, in this order: the explicit key
// below, then `key_retriever` called with the key metadata the file stores for it (its key id,
// say "kf"; empty when the file stores none). A column whose key is not found can still be
// listed and skipped: reading it is InvalidArgument naming the column. A wrong key, a wrong AAD
// prefix or a changed module is Authentication naming the module, never other data.
//
// Key bytes never appear in any Status message, log or statistics pqsift produces; this struct
// wipes its keys when destroyed (copies the caller makes are the caller's to wipe).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "pqsift/status.h"

namespace pqsift {

struct DecryptionOptions {
  // Raw key bytes (16, 24 or 32) of the footer: decrypts an encrypted footer, checks a plaintext
  // footer's signature, and decrypts the columns encrypted with the footer key. Empty: asked of
  // key_retriever.
  std::string footer_key;
  // Raw key bytes by column path ("a.b.c", the leaf path as the schema prints it).
  std::map<std::string, std::string> column_keys;
  // The AAD prefix: required for files written with one not stored in the file; checked against
  // the stored one otherwise (a different one is Authentication: not the file expected).
  std::optional<std::string> aad_prefix;
  // From a key's metadata to its bytes. An error (or an empty key) means "no key".
  std::function<Result<std::string>(std::string_view key_metadata)> key_retriever;
  // Check a plaintext footer's signature when the footer key is known.
  bool check_footer_signature = true;

  DecryptionOptions() = default;
  DecryptionOptions(const DecryptionOptions&) = default;
  DecryptionOptions(DecryptionOptions&&) = default;
  DecryptionOptions& operator=(const DecryptionOptions&) = default;
  DecryptionOptions& operator=(DecryptionOptions&&) = default;
  ~DecryptionOptions();
};

}  // namespace pqsift
