// Target "decompress": every codec's Decompress into an output of a given size, as the page
// reader calls it with the page header's uncompressed size.
//
//   byte 0:    the codec (CompressionCodec, mod 8)
//   bytes 1-3: the declared uncompressed size (little-endian, up to 16 MiB)
//   rest:      the compressed bytes
#include <memory>

#include "compression/codec.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

namespace pqsift::fuzz {

void FuzzDecompress(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const auto codec = static_cast<CompressionCodec>(in.Byte() % 8);
  const size_t declared = in.U16() | size_t{in.Byte()} << 16;
  // Exact-size copies: the sanitizers see a read past the input or a write past the output.
  std::span<const uint8_t> rest = in.Rest();
  auto compressed = std::make_unique<uint8_t[]>(rest.size());
  std::copy(rest.begin(), rest.end(), compressed.get());
  auto output = std::make_unique<uint8_t[]>(declared);
  Status st =
      compression::Decompress(codec, {compressed.get(), rest.size()}, {output.get(), declared});
  if (!st.ok() && st.code() != StatusCode::kCorruption && st.code() != StatusCode::kNotSupported) {
    __builtin_trap();  // malformed input is Corruption, an unknown codec NotSupported
  }
}

}  // namespace pqsift::fuzz
