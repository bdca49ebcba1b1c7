// The encryption flags of `pqsift convert` (Parquet modular encryption on write):
//   --encrypt-footer KEY          the footer key: encrypts the footer ("PARE" file), or signs it
//                                 with --plaintext-footer; alone, every column is encrypted with it
//   --encrypt-column PATH[:KEY]   encrypt this leaf column with its own key (or, without KEY,
//                                 the footer key); given at all, only the named columns are
//                                 encrypted (repeatable)
//   --plaintext-footer            a signed plaintext footer: older readers still read the
//                                 plaintext columns
//   --aad-prefix TEXT             the file's AAD prefix (its identity), stored in the file ...
//   --no-aad-storage              ... unless this is given: readers must then supply it
//   --ctr                         AES_GCM_CTR_V1 (pages under AES-CTR) instead of AES_GCM_V1
//   --key-metadata TARGET:ID      key metadata stored for the footer key (TARGET "footer") or a
//                                 column's key (TARGET its path), e.g. the key id a reader's
//                                 --keys file maps to the key (repeatable)
// KEY is hex or base64, as the read side's flags take it (key_args.h). No message repeats a key.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "pqsift/status.h"
#include "pqsift/writer.h"

namespace pqsift::cli {

struct EncryptArgs {
  std::string footer_key;
  std::vector<std::string> columns;
  bool plaintext_footer = false;
  std::string aad_prefix;
  bool aad_prefix_given = false;
  bool no_aad_storage = false;
  bool ctr = false;
  std::vector<std::string> key_metadata;
  bool any() const {
    return !footer_key.empty() || !columns.empty() || plaintext_footer || aad_prefix_given ||
           no_aad_storage || ctr || !key_metadata.empty();
  }
};

void AddEncryptOptions(CLI::App* sub, EncryptArgs& args);

// The encryption options the flags give; nullptr when none is given. InvalidArgument for a
// flag without --encrypt-footer, a bad key, --no-aad-storage without --aad-prefix, or key
// metadata for a key that is not given.
Result<std::shared_ptr<const EncryptionOptions>> MakeEncryptionOptions(const EncryptArgs& args);

}  // namespace pqsift::cli
