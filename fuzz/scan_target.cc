// Target "scan": a whole Parquet file scanned with a projection and a predicate chosen by the
// input, as `pqsift scan` does: footer, pruning stages (statistics, page index), page fetches,
// decompression, levels, values, record assembly, the filter, the batches.
//
//   byte 0: projection: bit k selects the k-th top-level field; 0 selects every field
//   byte 1: the predicate form (kForms below), over
//   byte 2: the leaf column it names (mod the number of leaves)
//   byte 3: the literal (kLiterals below)
//   byte 4: bit 0 no pruning, bit 1 verify CRCs, bit 2 count only, bit 3 limit of 3 * byte 5
//           rows, bit 4 batches of 7 rows, bit 5 a tail read of 8 bytes (the column chunks are
//           then fetched on their own), bit 6 two threads
//   byte 5: the limit
//   rest:   the file
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "pqsift/scan.h"

namespace pqsift::fuzz {

namespace {

// Rows one input may read at most: a few bytes of RLE can honestly hold 2^31 rows.
constexpr int64_t kMaxRows = int64_t{1} << 18;

constexpr const char* kForms[] = {
    "",
    "{c} = {v}",
    "{c} < {v}",
    "{c} >= {v}",
    "{c} IS NULL",
    "{c} IS NOT NULL",
    "{c} BETWEEN {v} AND {v}",
    "{c} IN ({v}, NULL)",
    "NOT ({c} <> {v})",
    "{c} LIKE 'a%'",
    "{c} > {v} OR {c} IS NULL",
    "{c} IS DISTINCT FROM {v}",
    "starts_with({c}, 'x')",
    "{c} + 1 > {v}",
    "CAST({c} AS DOUBLE) < {v}",
};
constexpr const char* kLiterals[] = {
    "0",
    "1",
    "-1",
    "3.5",
    "'a'",
    "''",
    "TRUE",
    "NULL",
    "DATE '2020-01-01'",
    "TIMESTAMP '2020-01-01 00:00:00'",
    "9223372036854775807",
    "1e300",
    "'nan'",
};

std::string Replace(std::string text, const std::string& what, const std::string& with) {
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
  return text;
}

std::string Quoted(std::string_view path) {
  std::string out = "\"";
  for (char c : path) {
    if (c == '.') {
      out += "\".\"";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

void ScanFile(std::span<const uint8_t> input, std::shared_ptr<const DecryptionOptions> keys) {
  FuzzInput in(input);
  const uint8_t projection = in.Byte();
  const uint8_t form = in.Byte();
  const uint8_t column = in.Byte();
  const uint8_t literal = in.Byte();
  const uint8_t flags = in.Byte();
  const uint8_t limit = in.Byte();
  std::shared_ptr<RandomAccessFile> file = MakeMemoryFile("fuzz.parquet", in.Rest());

  ScanOptions options;
  options.threads = (flags & 64) ? 2 : 1;
  options.prune = (flags & 1) == 0;
  options.verify_crc = (flags & 2) != 0;
  options.count_only = (flags & 4) != 0;
  if (flags & 8) options.limit = 3 * int64_t{limit};
  if (flags & 16) options.batch_size = 7;
  if (flags & 32) options.open.tail_bytes = 8;
  options.open.decryption = std::move(keys);

  Result<std::shared_ptr<const ParquetMetadata>> metadata =
      ReadParquetMetadata(*file, options.open);
  if (!metadata.ok()) return;
  const Schema& schema = (*metadata)->schema();
  const std::vector<int32_t>& fields = schema.root().children;
  for (size_t k = 0; k < fields.size() && k < 8; ++k) {
    if (projection & (1u << k)) options.columns.emplace_back(schema.nodes()[fields[k]].name);
  }
  if (schema.num_columns() > 0) {
    const std::string name = Quoted(schema.columns()[column % schema.num_columns()].path);
    std::string text = kForms[form % std::size(kForms)];
    text = Replace(text, "{c}", name);
    options.filter = Replace(text, "{v}", kLiterals[literal % std::size(kLiterals)]);
  }

  Result<std::unique_ptr<Scanner>> scanner = Scanner::Open({file}, {*metadata}, options);
  if (!scanner.ok()) return;
  int64_t rows = 0;
  while (rows < kMaxRows) {
    Result<std::shared_ptr<RecordBatch>> batch = (*scanner)->Next();
    if (!batch.ok() || *batch == nullptr) break;
    for (const std::shared_ptr<Array>& array : (*batch)->columns) {
      // Whatever the file held, the arrays the engine built are well-formed (UTF-8 is not
      // checked: a file may hold any bytes in a STRING column).
      if (!ValidateArrayLayout(*array).ok() || array->length != (*batch)->num_rows) {
        __builtin_trap();
      }
    }
    rows += (*batch)->num_rows;
  }
}

void FuzzScan(std::span<const uint8_t> input) { ScanFile(input, nullptr); }

}  // namespace pqsift::fuzz
