#include "cli/key_args.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pqsift::cli {
namespace {

using json = nlohmann::json;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

bool DecodeHex(std::string_view text, std::string* out) {
  if (text.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = HexDigit(text[i]);
    int lo = HexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

bool DecodeBase64(std::string_view text, std::string* out) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int d = Base64Digit(c);
    if (d < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return bits < 6;  // a lone sixth of a byte is not base64
}

bool IsKeySize(size_t n) { return n == 16 || n == 24 || n == 32; }

// "PATH:KEY" at the last ':' (paths hold no ':'; base64 keys hold none either).
Status SplitColumnKey(const std::string& text, std::string* path, std::string* key) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return Status::InvalidArgument("--column-key takes PATH:KEY");
  }
  *path = text.substr(0, colon);
  PQSIFT_ASSIGN_OR_RETURN(
      *key, ParseKey(std::string_view(text).substr(colon + 1), "--column-key " + *path));
  return Status::OK();
}

Status ReadKeysFile(const std::string& path, DecryptionOptions* out,
                    std::map<std::string, std::string>* by_id) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open the key file");
  std::stringstream text;
  text << in.rdbuf();
  json j = json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument(path + ": the key file is not a JSON object");
  }
  auto key = [&](const json& v, const std::string& what) -> Result<std::string> {
    if (!v.is_string()) return Status::InvalidArgument(path + ": " + what + " is not a string");
    return ParseKey(v.get<std::string>(), path + ": " + what);
  };
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& name = it.key();
    if (name == "footer_key") {
      PQSIFT_ASSIGN_OR_RETURN(out->footer_key, key(*it, "footer_key"));
    } else if (name == "aad_prefix") {
      if (!it->is_string()) return Status::InvalidArgument(path + ": aad_prefix is not a string");
      out->aad_prefix = it->get<std::string>();
    } else if (name == "column_keys" || name == "key_ids") {
      if (!it->is_object())
        return Status::InvalidArgument(path + ": " + (name + " is not an object"));
      for (auto c = it->begin(); c != it->end(); ++c) {
        PQSIFT_ASSIGN_OR_RETURN(std::string k, key(*c, name + " '" + c.key() + "'"));
        (name == "column_keys" ? out->column_keys : *by_id)[c.key()] = std::move(k);
      }
    } else {
      return Status::InvalidArgument(path + ": unknown key file entry '" +
                                     (name + "' (footer_key, column_keys, aad_prefix, key_ids)"));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::string> ParseKey(std::string_view text, std::string_view what) {
  std::string out;
  // Hex first: 32, 48 or 64 hex digits are a key of 16, 24 or 32 bytes (as base64 they would
  // be 24, 36 or 48 bytes, of which only 24 is a key size: hex wins).
  if (IsKeySize(text.size() / 2) && text.size() % 2 == 0 && DecodeHex(text, &out)) return out;
  if (DecodeBase64(text, &out) && IsKeySize(out.size())) return out;
  return Status::InvalidArgument(std::string(what) +
                                 ": not an AES key (hex of 16, 24 or 32 bytes, or their base64)");
}

void AddKeyOptions(CLI::App* sub, KeyArgs& args) {
  sub->add_option("--footer-key", args.footer_key,
                  "Parquet modular encryption: the footer key, hex or base64");
  sub->add_option("--column-key", args.column_keys,
                  "An encrypted column's key: PATH:KEY (hex or base64; repeatable)")
      ->take_all();
  sub->add_option("--aad-prefix", args.aad_prefix,
                  "The AAD prefix of files that were encrypted with one they do not store")
      ->each([&args](const std::string&) { args.aad_prefix_given = true; });
  sub->add_option("--keys", args.keys_file,
                  "A JSON key file: {\"footer_key\", \"column_keys\": {PATH: KEY}, "
                  "\"aad_prefix\", \"key_ids\": {KEY_METADATA: KEY}}");
}

Result<std::shared_ptr<const DecryptionOptions>> MakeDecryptionOptions(const KeyArgs& args) {
  if (!args.any()) return std::shared_ptr<const DecryptionOptions>();
  auto out = std::make_shared<DecryptionOptions>();
  std::map<std::string, std::string> by_id;
  if (!args.keys_file.empty())
    PQSIFT_RETURN_IF_ERROR(ReadKeysFile(args.keys_file, out.get(), &by_id));
  if (!args.footer_key.empty()) {
    PQSIFT_ASSIGN_OR_RETURN(out->footer_key, ParseKey(args.footer_key, "--footer-key"));
  }
  for (const std::string& text : args.column_keys) {
    std::string path, key;
    PQSIFT_RETURN_IF_ERROR(SplitColumnKey(text, &path, &key));
    out->column_keys[path] = std::move(key);
  }
  if (args.aad_prefix_given) out->aad_prefix = args.aad_prefix;
  if (!by_id.empty()) {
    auto keys = std::make_shared<const std::map<std::string, std::string>>(std::move(by_id));
    out->key_retriever = [keys](std::string_view key_metadata) -> Result<std::string> {
      auto it = keys->find(std::string(key_metadata));
      if (it == keys->end()) return Status::InvalidArgument("no key for this key id in --keys");
      return it->second;
    };
  }
  return std::shared_ptr<const DecryptionOptions>(std::move(out));
}

}  // namespace pqsift::cli
