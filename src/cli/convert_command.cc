// `pqsift convert INPUT OUTPUT [options]`: rewrites Parquet (a file or a dataset, re-chunked,
// re-encoded, with statistics and a page index; --where and --select as a scan's) or converts a
// CSV or JSON Lines file into Parquet, into one file or a hive-partitioned folder
// (--partition-by), streaming: batches flow from the reader to the writer, so memory stays about
// one row group (per open file) whatever the input's size. The input's kind: Parquet for a
// folder, a glob, a URL or a file whose first bytes are "PAR1", else JSON Lines for the
// extensions .jsonl, .ndjson and .json, else CSV (or as --input-format says).
#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dataset_args.h"
#include "cli/encrypt_args.h"
#include "cli/input/csv_reader.h"
#include "cli/input/geometry_columns.h"
#include "cli/input/jsonl_reader.h"
#include "cli/input/prefetch_reader.h"
#include "pqsift/scan.h"
#include "pqsift/writer.h"
#include "write/leaf_spec.h"
#include "write/shredder.h"

namespace pqsift::cli {
namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
  std::string format = "auto";
  std::string schema;
  std::string delimiter = ",";
  int64_t infer_rows = 20'480;
  std::string compression = "snappy";
  std::string dictionary = "on";
  bool no_page_index = false;
  bool data_page_v2 = false;
  std::string encodings;
  std::string sort_by;
  std::string partition_by;
  std::string where;
  std::string select;
  std::vector<std::string> bloom_filters;
  std::string geometry;
  std::vector<std::string> variants;
  std::string shred;
  int64_t row_group_rows = WriterOptions{}.row_group_rows;
  int64_t page_rows = WriterOptions{}.page_rows;
  int64_t page_bytes = WriterOptions{}.page_bytes;
  int32_t stats_truncate = WriterOptions{}.statistics_truncate_bytes;
  int threads = 0;
  bool stats = false;
  EncryptArgs encrypt;
};

// "zstd:9" -> (ZSTD, 9); "none" -> UNCOMPRESSED.
Status ParseCompression(const std::string& text, WriterOptions& options) {
  static const std::map<std::string, CompressionCodec> kCodecs = {
      {"none", CompressionCodec::kUncompressed}, {"uncompressed", CompressionCodec::kUncompressed},
      {"snappy", CompressionCodec::kSnappy},     {"gzip", CompressionCodec::kGzip},
      {"zstd", CompressionCodec::kZstd},         {"lz4_raw", CompressionCodec::kLz4Raw},
      {"lz4", CompressionCodec::kLz4Raw},        {"brotli", CompressionCodec::kBrotli}};
  size_t colon = text.find(':');
  auto codec = kCodecs.find(text.substr(0, colon));
  if (codec == kCodecs.end()) {
    return Status::InvalidArgument("unknown --compression '" + text +
                                   "' (none, snappy, gzip, zstd[:level], lz4_raw, brotli)");
  }
  options.compression = codec->second;
  if (colon != std::string::npos) {
    try {
      size_t used = 0;
      options.compression_level = std::stoi(text.substr(colon + 1), &used);
      if (used != text.size() - colon - 1) throw std::invalid_argument(text);
    } catch (const std::exception&) {
      return Status::InvalidArgument("--compression level in '" + text + "' is not a number");
    }
  }
  return Status::OK();
}

// "a:delta,b:byte_stream_split" -> per-column encodings. "delta" is DELTA_BINARY_PACKED for
// integer columns and DELTA_BYTE_ARRAY for byte-array columns (resolved against `schema`).
Status ParseEncodings(const std::string& text, const BatchSchema& schema, WriterOptions& options) {
  static const std::map<std::string, Encoding> kEncodings = {
      {"plain", Encoding::kPlain},
      {"rle", Encoding::kRle},
      {"delta_binary_packed", Encoding::kDeltaBinaryPacked},
      {"delta_length_byte_array", Encoding::kDeltaLengthByteArray},
      {"delta_byte_array", Encoding::kDeltaByteArray},
      {"byte_stream_split", Encoding::kByteStreamSplit}};
  for (const std::string& item : SplitList(text)) {
    size_t colon = item.rfind(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("--encoding item '" + item + "' is not column:encoding");
    }
    const std::string column = item.substr(0, colon), name = item.substr(colon + 1);
    // A flat column by name, a leaf of a nested one by its dotted path ("s.a", "l.list.element").
    std::optional<write::LeafSpec> leaf;
    for (const Field& f : schema.fields) {
      auto plan = write::PlanColumn(f);
      if (!plan.ok()) return plan.status();
      for (const write::LeafPlan& l : plan->leaves) {
        if (l.path == column) leaf = l.spec;
      }
    }
    if (!leaf) {
      return Status::InvalidArgument("--encoding names column '" + column +
                                     "', which the input does not have");
    }
    if (name == "delta") {
      bool bytes = leaf->physical == PhysicalType::kByteArray ||
                   leaf->physical == PhysicalType::kFixedLenByteArray;
      options.column_encodings[column] =
          bytes ? Encoding::kDeltaByteArray : Encoding::kDeltaBinaryPacked;
      continue;
    }
    auto e = kEncodings.find(name);
    if (e == kEncodings.end()) {
      return Status::InvalidArgument("unknown --encoding '" + name +
                                     "' (plain, rle, delta, delta_binary_packed, "
                                     "delta_length_byte_array, delta_byte_array, "
                                     "byte_stream_split)");
    }
    options.column_encodings[column] = e->second;
  }
  return Status::OK();
}

// "id" / "id:100000" / "id:100000:0.05" / "id::0.05" -> a bloom filter for column id with that
// ndv (empty or 0: the distinct values each row group holds) and fpp (default 0.01). Items may
// also be given comma-separated.
Status ParseBloomFilters(const std::vector<std::string>& items, WriterOptions& options) {
  for (const std::string& list : items) {
    for (const std::string& item : SplitList(list)) {
      std::vector<std::string> parts;
      for (size_t at = 0;;) {
        size_t colon = item.find(':', at);
        parts.push_back(item.substr(at, colon - at));
        if (colon == std::string::npos) break;
        at = colon + 1;
      }
      auto bad = [&] {
        return Status::InvalidArgument("--bloom-filter item '" + item +
                                       "' is not column[:ndv[:fpp]] with ndv >= 0 and "
                                       "0 < fpp < 1");
      };
      if (parts.size() > 3 || parts[0].empty()) return bad();
      BloomFilterOptions bloom;
      try {
        size_t used = 0;
        if (parts.size() > 1 && !parts[1].empty()) {
          bloom.ndv = std::stoll(parts[1], &used);
          if (used != parts[1].size()) return bad();
        }
        if (parts.size() > 2) {
          bloom.fpp = std::stod(parts[2], &used);
          if (used != parts[2].size()) return bad();
        }
      } catch (const std::exception&) {
        return bad();
      }
      if (bloom.ndv < 0 || !(bloom.fpp > 0 && bloom.fpp < 1)) return bad();
      options.bloom_filters[parts[0]] = bloom;
    }
  }
  return Status::OK();
}

bool StartsWithParquetMagic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && std::string(magic, 4) == "PAR1";
}

int RunConvert(const ConvertArgs& args) {
  WriterOptions options;
  Status st = ParseCompression(args.compression, options);
  if (!st.ok()) return ReportError(st);
  options.dictionary = args.dictionary == "on";
  options.page_index = !args.no_page_index;
  options.data_page_v2 = args.data_page_v2;
  options.row_group_rows = args.row_group_rows;
  options.page_rows = args.page_rows;
  options.page_bytes = args.page_bytes;
  options.statistics_truncate_bytes = args.stats_truncate;
  st = ParseBloomFilters(args.bloom_filters, options);
  if (!st.ok()) return ReportError(st);
  auto encryption = MakeEncryptionOptions(args.encrypt);
  if (!encryption.ok()) return ReportError(encryption.status());
  options.encryption = std::move(*encryption);

  const auto start = std::chrono::steady_clock::now();
  // A folder or a glob is a Parquet dataset, as `pqsift scan` reads one, whose key=value
  // folders are columns; a file converted alone keeps its own columns, wherever it lies.
  std::error_code ec;
  const bool dataset = std::filesystem::is_directory(args.input, ec) ||
                       args.input.find_first_of("*?[") != std::string::npos;
  std::string format = args.format;
  if (format == "auto") {
    const std::string extension = std::filesystem::path(args.input).extension().string();
    const bool url = args.input.find("://") != std::string::npos;
    format = dataset || url || StartsWithParquetMagic(args.input)                      ? "parquet"
             : extension == ".jsonl" || extension == ".ndjson" || extension == ".json" ? "jsonl"
                                                                                       : "csv";
  }
  if (format != "parquet" && (!args.where.empty() || !args.select.empty())) {
    return ReportError(Status::InvalidArgument("--where and --select take Parquet input"));
  }
  std::unique_ptr<BatchReader> reader;
  std::ifstream text_file;
  if (format != "jsonl" && (!args.variants.empty() || !args.shred.empty())) {
    return ReportError(Status::InvalidArgument("--variant and --shred take JSON Lines input"));
  }
  if (format == "parquet") {
    ScanOptions scan;
    scan.threads = args.threads;
    scan.filter = args.where;
    scan.columns = SplitList(args.select);
    DatasetArgs input;
    input.paths = {args.input};
    input.no_hive = !dataset;
    auto scanner = OpenScan(input, scan);
    if (!scanner.ok()) return ReportError(scanner.status());
    reader = std::move(*scanner);
  } else if (format == "jsonl") {
    text_file.open(args.input, std::ios::binary);
    if (!text_file) return ReportError(Status::IOError(args.input + ": cannot open"));
    JsonLinesOptions jsonl;
    jsonl.schema = args.schema;
    jsonl.infer_rows = args.infer_rows;
    jsonl.variant_columns = args.variants;
    jsonl.shred = args.shred;
    auto jsonl_reader = JsonLinesReader::Open(text_file, args.input, jsonl);
    if (!jsonl_reader.ok()) return ReportError(jsonl_reader.status());
    // Parsing on a thread of its own, ahead of the encoding (two cores).
    reader = std::make_unique<PrefetchingReader>(std::move(*jsonl_reader));
  } else {
    text_file.open(args.input, std::ios::binary);
    if (!text_file) return ReportError(Status::IOError(args.input + ": cannot open"));
    CsvOptions csv;
    if (args.delimiter.size() != 1) {
      return ReportError(Status::InvalidArgument("--delimiter must be one character"));
    }
    csv.delimiter = args.delimiter == "\\t" ? '\t' : args.delimiter[0];
    csv.schema = args.schema;
    csv.infer_rows = args.infer_rows;
    auto csv_reader = CsvReader::Open(text_file, args.input, csv);
    if (!csv_reader.ok()) return ReportError(csv_reader.status());
    reader = std::make_unique<PrefetchingReader>(std::move(*csv_reader));
  }

  if (!args.geometry.empty()) {
    auto wrapped = WithGeometryColumns(std::move(reader), SplitList(args.geometry));
    if (!wrapped.ok()) return ReportError(wrapped.status());
    reader = std::move(*wrapped);
  }
  for (const std::string& item : SplitList(args.sort_by)) {
    // "col" or "col:desc" (or ":asc"); nulls last, as DuckDB orders by default.
    size_t colon = item.rfind(':');
    std::string direction = colon == std::string::npos ? "asc" : item.substr(colon + 1);
    if (direction != "asc" && direction != "desc") {
      return ReportError(
          Status::InvalidArgument("--sort-by item '" + item + "' is not column[:asc|:desc]"));
    }
    options.sort_by.push_back({item.substr(0, colon), direction == "desc", false});
  }
  st = ParseEncodings(args.encodings, *reader->schema(), options);
  if (!st.ok()) return ReportError(st);
  // Batches from the reader to a writer (a file's, or a partitioned dataset's, whose errors
  // name their part file already), then its footer(s).
  auto copy_to = [&](auto& writer, bool name_output) -> Status {
    auto named = [&](const Status& st) { return name_output ? st.WithContext(args.output) : st; };
    for (;;) {
      auto batch = reader->Next();
      if (!batch.ok()) return batch.status();
      if (*batch == nullptr) break;
      PQSIFT_RETURN_IF_ERROR(named(writer.Write(**batch)));
    }
    return named(writer.Close());
  };
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!args.partition_by.empty()) {
    PartitionedWriteOptions partitioning;
    partitioning.partition_by = SplitList(args.partition_by);
    auto writer = PartitionedWriter::Open(args.output, reader->schema(), partitioning, options);
    if (!writer.ok()) return ReportError(writer.status().WithContext(args.output));
    st = copy_to(**writer, /*name_output=*/false);
    if (!st.ok()) return ReportError(st);
    if (args.stats) {
      std::cerr << "rows " << (*writer)->num_rows() << "\nfiles " << (*writer)->num_files()
                << "\nseconds " << seconds() << '\n';
    }
    return 0;
  }
  auto file = OpenLocalWritableFile(args.output);
  if (!file.ok()) return ReportError(file.status());
  auto writer = ParquetWriter::Open(std::move(*file), reader->schema(), options);
  if (!writer.ok()) return ReportError(writer.status().WithContext(args.output));
  st = copy_to(**writer, /*name_output=*/true);
  if (!st.ok()) return ReportError(st);
  if (args.stats) {
    std::cerr << "rows " << (*writer)->num_rows() << "\nrow groups " << (*writer)->num_row_groups()
              << "\nseconds " << seconds() << '\n';
  }
  return 0;
}

}  // namespace

Command AddConvertCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "convert",
      "Write a Parquet file with statistics, page index and dictionary encoding from a Parquet, "
      "CSV or JSON Lines file.");
  auto args = std::make_shared<ConvertArgs>();
  sub->add_option("INPUT", args->input,
                  "A Parquet file or dataset (a folder, glob or URL, as pqsift scan reads it), "
                  "CSV with a header row, or JSON Lines (one object per line)")
      ->required();
  sub->add_option("OUTPUT", args->output,
                  "The Parquet file to write (replaced); with --partition-by, the dataset's "
                  "folder (new or empty)")
      ->required();
  sub->add_option("--input-format,--format", args->format,
                  "The input's format: auto (Parquet when it starts with PAR1, else JSON Lines "
                  "for .jsonl, .ndjson and .json, else CSV), parquet, csv, jsonl")
      ->check(CLI::IsMember({"auto", "parquet", "csv", "jsonl"}))
      ->capture_default_str();
  sub->add_option("--schema", args->schema,
                  "CSV and JSON Lines column types, e.g. "
                  "'id:int64,ts:timestamp_us,price:decimal(10,2)'; columns not named are "
                  "inferred (bool, int64, double, date, timestamp, else string; JSON objects "
                  "and arrays: struct and list)");
  sub->add_option("--variant", args->variants,
                  "JSON Lines columns written as VARIANT (any JSON value), shredded by --shred "
                  "or, without it, by the types of their objects' fields in the first rows")
      ->delimiter(',');
  sub->add_option("--shred", args->shred,
                  "How VARIANT columns are shredded: 'col:a:int64,b:string' (int64, double, "
                  "string, boolean; 'col:' not shredded; several columns separated by ';')");
  sub->add_option("--delimiter", args->delimiter, "CSV field delimiter (one character, \\t: tab)")
      ->capture_default_str();
  sub->add_option("--infer-rows", args->infer_rows,
                  "CSV records (JSON Lines objects) read to infer column types")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--compression", args->compression,
                  "none, snappy, gzip[:1-9], zstd[:1-22], lz4_raw, brotli[:0-11]")
      ->capture_default_str();
  sub->add_option("--dictionary", args->dictionary,
                  "Dictionary encoding (falls back to PLAIN when a dictionary passes 1 MiB)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  sub->add_flag("--no-page-index", args->no_page_index, "Write no column index and offset index");
  sub->add_flag("--data-page-v2", args->data_page_v2,
                "Write data pages v2 (levels uncompressed, row counts in the page headers)");
  sub->add_option("--encoding", args->encodings,
                  "Per-column encodings instead of dictionary/PLAIN, e.g. 'id:delta,price:"
                  "byte_stream_split' (plain, rle, delta, delta_binary_packed, "
                  "delta_length_byte_array, delta_byte_array, byte_stream_split)");
  sub->add_option("--sort-by", args->sort_by,
                  "Sort the rows of each row group by these columns: 'a,b:desc' (nulls last); "
                  "declared as the row groups' sorting_columns");
  sub->add_option("--where", args->where,
                  "Parquet input: write only the rows where EXPR is true (the filter language; "
                  "files, row groups and pages that cannot match are not read)");
  sub->add_option("--select", args->select,
                  "Parquet input: write only these columns, in this order ('a,b,s.x')");
  sub->add_option("--partition-by", args->partition_by,
                  "Write a hive-partitioned dataset: OUTPUT/a=1/b=x/part-0.parquet by the "
                  "values of these columns ('a,b'), which the files leave out (read back from "
                  "the folder names; a filter on them skips folders)");
  sub->add_option("--bloom-filter", args->bloom_filters,
                  "A bloom filter per row group for this column: 'col[:ndv[:fpp]]' (ndv: "
                  "distinct values to size for, default those the row group has; fpp: "
                  "false-positive rate, default 0.01); repeatable or comma-separated")
      ->allow_extra_args(false);  // one item per flag: INPUT and OUTPUT may follow
  sub->add_option("--geometry", args->geometry,
                  "Store these columns (comma-separated) as GEOMETRY: WKT text or WKB binary "
                  "in, WKB with GeospatialStatistics out");
  sub->add_option("--row-group-rows", args->row_group_rows, "Rows per row group")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--page-rows", args->page_rows, "A data page ends after this many rows")
      ->check(CLI::Range(int64_t{1}, int64_t{INT32_MAX}))
      ->capture_default_str();
  sub->add_option("--page-bytes", args->page_bytes,
                  "... or once it holds about this many encoded bytes")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--stats-truncate", args->stats_truncate,
                  "String and binary bounds longer than N bytes are cut to shorter bounds "
                  "(0: never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--threads", args->threads,
                  "Decoding threads for Parquet input (default: one "
                  "per core)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--stats", args->stats, "Print rows, row groups and seconds on stderr");
  AddEncryptOptions(sub, args->encrypt);
  return {sub, [args] { return RunConvert(*args); }};
}

}  // namespace pqsift::cli
