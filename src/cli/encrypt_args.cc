#include "cli/encrypt_args.h"

#include "cli/key_args.h"

namespace pqsift::cli {

void AddEncryptOptions(CLI::App* sub, EncryptArgs& args) {
  sub->add_option("--encrypt-footer", args.footer_key,
                  "Parquet modular encryption: the footer key (hex or base64); alone, every "
                  "column is encrypted with it too");
  sub->add_option("--encrypt-column", args.columns,
                  "Encrypt this column: PATH:KEY (its own key) or PATH (the footer key); only "
                  "the columns named are encrypted (repeatable)")
      ->allow_extra_args(false);
  sub->add_flag("--plaintext-footer", args.plaintext_footer,
                "Leave the footer readable (signed with the footer key)");
  sub->add_option("--aad-prefix", args.aad_prefix,
                  "The file's AAD prefix (its identity), stored in the file")
      ->each([&args](const std::string&) { args.aad_prefix_given = true; });
  sub->add_flag("--no-aad-storage", args.no_aad_storage,
                "Do not store the AAD prefix: readers must supply it (--aad-prefix)");
  sub->add_flag("--ctr", args.ctr, "AES_GCM_CTR_V1: pages under AES-CTR (not authenticated)");
  sub->add_option("--key-metadata", args.key_metadata,
                  "Key metadata stored with a key: footer:ID or PATH:ID (repeatable)")
      ->allow_extra_args(false);
}

Result<std::shared_ptr<const EncryptionOptions>> MakeEncryptionOptions(const EncryptArgs& args) {
  if (!args.any()) return std::shared_ptr<const EncryptionOptions>();
  if (args.footer_key.empty()) {
    return Status::InvalidArgument(
        "the encryption flags need --encrypt-footer KEY (the footer key)");
  }
  auto out = std::make_shared<EncryptionOptions>();
  PQSIFT_ASSIGN_OR_RETURN(out->footer_key, ParseKey(args.footer_key, "--encrypt-footer"));
  for (const std::string& item : args.columns) {
    // "PATH:KEY" at the last ':' (paths hold no ':', nor do hex or base64 keys), or "PATH".
    const size_t colon = item.rfind(':');
    if (colon == 0 || (colon != std::string::npos && colon + 1 == item.size()) || item.empty()) {
      return Status::InvalidArgument("--encrypt-column takes PATH or PATH:KEY");
    }
    ColumnEncryption& column = out->columns[item.substr(0, colon)];
    if (colon != std::string::npos) {
      PQSIFT_ASSIGN_OR_RETURN(column.key, ParseKey(std::string_view(item).substr(colon + 1),
                                                   "--encrypt-column " + item.substr(0, colon)));
    }
  }
  out->plaintext_footer = args.plaintext_footer;
  if (args.aad_prefix_given) out->aad_prefix = args.aad_prefix;
  if (args.no_aad_storage && !args.aad_prefix_given) {
    return Status::InvalidArgument("--no-aad-storage needs --aad-prefix");
  }
  out->store_aad_prefix = !args.no_aad_storage;
  out->ctr = args.ctr;
  for (const std::string& item : args.key_metadata) {
    // "TARGET:ID" at the first ':' (an id may hold ':').
    const size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0) {
      return Status::InvalidArgument("--key-metadata takes footer:ID or PATH:ID");
    }
    const std::string target = item.substr(0, colon);
    const std::string id = item.substr(colon + 1);
    if (target == "footer") {
      out->footer_key_metadata = id;
      continue;
    }
    auto it = out->columns.find(target);
    if (it == out->columns.end() || it->second.key.empty()) {
      return Status::InvalidArgument("--key-metadata " + target +
                                     ": not a column given its own key by --encrypt-column");
    }
    it->second.key_metadata = id;
  }
  return std::shared_ptr<const EncryptionOptions>(std::move(out));
}

}  // namespace pqsift::cli
