// Target "page_header": the input is one byte of options and then the bytes of a column chunk
// (page headers, each followed by its page). The first page header is decoded alone
// (DecodePageHeader); then the PageReader walks the chunk as the column reader does, decoding
// every header and decompressing every page.
//
//   byte 0: bits 0-2 the chunk's codec (CompressionCodec), bit 3 verify CRCs,
//           bit 4 pass over every second page without reading it
//   rest:   the column chunk
#include "column/page_reader.h"
#include "format/page_header.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

namespace pqsift::fuzz {

namespace {

// Touches every byte of a span, so the sanitizers see a span that points outside its buffer.
uint32_t Touch(std::span<const uint8_t> bytes) {
  uint32_t sum = 0;
  for (uint8_t b : bytes) sum += b;
  return sum;
}

}  // namespace

void FuzzPageHeader(std::span<const uint8_t> input) {
  FuzzInput in(input);
  const uint8_t options = in.Byte();
  std::span<const uint8_t> chunk = in.Rest();

  format::PageHeader header;
  size_t header_size = 0;
  if (format::DecodePageHeader(chunk, header, &header_size).ok() && header_size > chunk.size()) {
    __builtin_trap();  // a header cannot be longer than its bytes
  }

  column::PageReaderOptions page_options;
  page_options.verify_crc = (options & 8) != 0;
  column::PageReader pages(chunk, 4, static_cast<CompressionCodec>(options & 7),
                           "row group 0, column 'fuzz'", page_options);
  volatile uint32_t sink = 0;
  for (int page = 0; page < 1000; ++page) {
    Result<bool> more = pages.Next();
    if (!more.ok() || !*more) return;
    if ((options & 16) && page % 2 == 1) continue;
    Result<column::Page> read = pages.Read();
    if (!read.ok()) continue;
    sink =
        sink + Touch(read->body) + Touch(read->definition_levels) + Touch(read->repetition_levels);
  }
}

}  // namespace pqsift::fuzz
