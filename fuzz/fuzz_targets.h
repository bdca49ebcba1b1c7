// The fuzz targets: one function per input format pqsift decodes from a file or from a user.
// Each takes arbitrary bytes and must return normally whatever they are: malformed input is an
// error Status inside, never a crash, a read out of bounds, undefined behaviour, an allocation
// the input does not justify or an endless loop.
//
// The same functions serve two drivers: libFuzzer (fuzz/libfuzzer_main.cc, one executable per
// target, built with -DPQSIFT_FUZZ=ON and clang; scripts/fuzz) and the replay test
// (tests/fuzz/fuzz_replay_test.cc), which runs the seed corpus (seeds.h) and every crash found
// so far (fuzz/regressions/<target>/) through them in the ordinary builds and in CI.
//
// Input layouts (the leading bytes choose parameters, FuzzInput) are documented per target in
// its source file; seeds.cc writes inputs in the same layouts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "pqsift/encryption.h"

namespace pqsift::fuzz {

using FuzzFunction = void (*)(std::span<const uint8_t> input);

struct FuzzTarget {
  std::string_view name;
  FuzzFunction run;
};

void FuzzFooter(std::span<const uint8_t> input);      // Thrift FileMetaData -> ParquetMetadata
void FuzzPageHeader(std::span<const uint8_t> input);  // page headers + PageReader over a chunk
void FuzzDecompress(std::span<const uint8_t> input);  // every codec's Decompress
void FuzzPlain(std::span<const uint8_t> input);
void FuzzDictionary(std::span<const uint8_t> input);
void FuzzRle(std::span<const uint8_t> input);  // RLE/bit-packed hybrid: levels, booleans, raw
void FuzzDeltaBinaryPacked(std::span<const uint8_t> input);
void FuzzDeltaLengthByteArray(std::span<const uint8_t> input);
void FuzzDeltaByteArray(std::span<const uint8_t> input);
void FuzzByteStreamSplit(std::span<const uint8_t> input);
void FuzzFilter(std::span<const uint8_t> input);  // the --where language: parse and bind
void FuzzScan(std::span<const uint8_t> input);    // a whole file, random projection + predicate
// An encrypted file (Parquet modular encryption) with keys the input chooses, scanned as above.
void FuzzEncryptedScan(std::span<const uint8_t> input);
// The Variant binary encoding: metadata and value.
void FuzzVariant(std::span<const uint8_t> input);
// Well-Known Binary: WKT text, extent, WKT round trip.
void FuzzWkb(std::span<const uint8_t> input);

inline constexpr FuzzTarget kFuzzTargets[] = {
    {"footer", FuzzFooter},
    {"page_header", FuzzPageHeader},
    {"decompress", FuzzDecompress},
    {"plain", FuzzPlain},
    {"dictionary", FuzzDictionary},
    {"rle", FuzzRle},
    {"delta_binary_packed", FuzzDeltaBinaryPacked},
    {"delta_length_byte_array", FuzzDeltaLengthByteArray},
    {"delta_byte_array", FuzzDeltaByteArray},
    {"byte_stream_split", FuzzByteStreamSplit},
    {"filter", FuzzFilter},
    {"scan", FuzzScan},
    {"variant", FuzzVariant},
    {"wkb", FuzzWkb},
    {"encrypted_scan", FuzzEncryptedScan},
};

// The scan target's body over `input` (its layout), the file opened with `keys` (may be null).
void ScanFile(std::span<const uint8_t> input, std::shared_ptr<const DecryptionOptions> keys);

// The keys of parquet-testing's encrypted files (footer; double_field "kc1", float_field "kc2"),
// which the encrypted seeds pqsift writes use too.
inline constexpr const char* kFuzzFooterKey = "0123456789012345";
inline constexpr const char* kFuzzColumnKey1 = "1234567890123450";
inline constexpr const char* kFuzzColumnKey2 = "1234567890123451";

}  // namespace pqsift::fuzz
