// The key flags of the commands that read encrypted files (Parquet modular encryption; scan,
// count, explain, inspect):
//   --footer-key KEY          the footer key
//   --column-key PATH:KEY     a column's key (repeatable)
//   --aad-prefix TEXT         the AAD prefix, for files that do not store theirs
//   --keys FILE               a JSON file: {"footer_key": KEY, "column_keys": {PATH: KEY, ...},
//                             "aad_prefix": TEXT, "key_ids": {KEY_METADATA: KEY, ...}}
//                             (key_ids: keys by the key metadata the file stores, e.g. "kf")
// KEY is hex (32, 48 or 64 digits) or base64 of 16, 24 or 32 bytes. Flags win over the file.
// No message ever repeats a key's text.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/encryption.h"
#include "pqsift/status.h"

namespace pqsift::cli {

struct KeyArgs {
  std::string footer_key;
  std::vector<std::string> column_keys;
  std::string aad_prefix;
  bool aad_prefix_given = false;
  std::string keys_file;
  bool any() const {
    return !footer_key.empty() || !column_keys.empty() || aad_prefix_given || !keys_file.empty();
  }
};

void AddKeyOptions(CLI::App* sub, KeyArgs& args);

// The decryption options the flags give; nullptr when none is given.
Result<std::shared_ptr<const DecryptionOptions>> MakeDecryptionOptions(const KeyArgs& args);

// KEY text (hex or base64) to its raw bytes; `what` names it in errors ("--footer-key").
Result<std::string> ParseKey(std::string_view text, std::string_view what);

}  // namespace pqsift::cli
