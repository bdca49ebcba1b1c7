// Target "encrypted_scan": a file written with Parquet modular encryption, opened with keys the
// input chooses and scanned as the "scan" target scans (scan_target.cc): the encrypted or
// signed footer, encrypted column metadata, page headers, pages (GCM and CTR), dictionary pages,
// column and offset indexes and bloom filters, decrypted as the stages and readers need them.
// Most mutations fail authentication; the target checks that nothing else happens (no crash,
// no unbounded allocation on a forged length field) and that what does decrypt is handled as a
// hostile plaintext file is.
//
//   byte 0: the keys: bit 0 the footer key, bit 1 a wrong footer key instead, bit 2 the column
//           keys, bit 3 a key retriever by key metadata ("kf", "kc1", "kc2"), bit 4 the AAD
//           prefix "tester", bit 5 no footer signature check
//   rest:   the "scan" target's input (6 option bytes, the file)
//
// The keys are those of parquet-testing's encrypted files (their README), which the seeds
// written by pqsift (seeds.cc) use too, so the seeds decrypt.
#include <map>
#include <string>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "pqsift/encryption.h"

namespace pqsift::fuzz {

void FuzzEncryptedScan(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const uint8_t choice = in.Byte();
  auto keys = std::make_shared<DecryptionOptions>();
  if (choice & 1) keys->footer_key = kFuzzFooterKey;
  if (choice & 2) keys->footer_key = "0123456789012346";
  if (choice & 4) {
    keys->column_keys["double_field"] = kFuzzColumnKey1;
    keys->column_keys["float_field"] = kFuzzColumnKey2;
    keys->column_keys["name"] = kFuzzColumnKey1;
  }
  if (choice & 8) {
    keys->key_retriever = [](std::string_view id) -> Result<std::string> {
      if (id == "kf") return std::string(kFuzzFooterKey);
      if (id == "kc1") return std::string(kFuzzColumnKey1);
      if (id == "kc2") return std::string(kFuzzColumnKey2);
      return Status::InvalidArgument("no such key");
    };
  }
  if (choice & 16) keys->aad_prefix = "tester";
  keys->check_footer_signature = (choice & 32) == 0;
  ScanFile(in.Rest(), std::move(keys));
}

}  // namespace pqsift::fuzz
