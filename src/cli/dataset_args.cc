#include "cli/dataset_args.h"

#include <filesystem>
#include <utility>

namespace pqsift::cli {

void AddDatasetOptions(CLI::App* sub, DatasetArgs& args, bool paths_optional) {
  auto* paths = sub->add_option("PATH", args.paths,
                                "Parquet files, folders (every file below, recursively, in sorted "
                                "order) or glob patterns (data/**/*.parquet); local paths, "
                                "http(s):// URLs, s3://BUCKET/KEY (a folder: s3://BUCKET/PREFIX/)");
  if (!paths_optional) paths->required();
  sub->add_option("--partition-schema", args.partition_schema,
                  "Types of hive partition keys: NAME:TYPE,... (bigint, double, date, "
                  "timestamp, string); others are inferred");
  sub->add_flag("--no-hive", args.no_hive, "Do not read key=value folder names as columns");
  sub->add_flag("--no-manifest", args.no_manifest,
                "Ignore the dataset's manifest (pqsift index) even when it is fresh");
  AddStorageOptions(sub, args.storage);
}

void AddVirtualColumnOptions(CLI::App* sub, DatasetArgs& args) {
  // A flag that may take a value: alone, the default name (as DuckDB names them).
  auto add = [&](const char* flag, std::string& name, const char* fallback, const char* help) {
    sub->add_option(flag, name, help)
        ->expected(0, 1)
        ->each([&name, fallback](const std::string& v) {
          if (v.empty()) name = fallback;
        })
        ->default_str(fallback);
  };
  add("--with-row-index", args.row_index, "file_row_number",
      "Add a BIGINT column NAME (default file_row_number): each row's 0-based position in its "
      "file; filters on it prune row groups and pages");
  add("--with-filename", args.filename, "filename",
      "Add a VARCHAR column NAME (default filename): the path of each row's file; filters on it "
      "skip files before their footers are read");
}

Result<Dataset> DiscoverDataset(const DatasetArgs& args) {
  DatasetOptions options;
  options.hive_partitioning = !args.no_hive;
  options.use_manifest = !args.no_manifest;
  options.storage = MakeStorage(args.storage);
  if (!args.partition_schema.empty()) {
    PQSIFT_ASSIGN_OR_RETURN(options.partition_schema, ParsePartitionSchema(args.partition_schema));
  }
  return Dataset::Discover(args.paths, options);
}

Status ApplyVirtualColumns(const DatasetArgs& args, ScanOptions* options) {
  // `--with-row-index data.parquet` takes the path as the column's name (the flag's value is
  // optional): say so rather than scan something else.
  for (const auto& [flag, name] : {std::pair{"--with-row-index", &args.row_index},
                                   std::pair{"--with-filename", &args.filename}}) {
    std::error_code ec;
    if (name->find('/') != std::string::npos || std::filesystem::exists(*name, ec)) {
      return Status::InvalidArgument(std::string(flag) + " takes a column name, not '" + *name +
                                     "': put PATH first, or write " + flag + "=NAME");
    }
  }
  if (!args.row_index.empty()) options->row_index_column = args.row_index;
  if (!args.filename.empty()) options->filename_column = args.filename;
  return Status::OK();
}

Result<std::unique_ptr<Scanner>> OpenScan(const DatasetArgs& args, const ScanOptions& given,
                                          const std::string& split) {
  ScanOptions options = given;
  PQSIFT_RETURN_IF_ERROR(ApplyVirtualColumns(args, &options));
  if (args.keys.any()) {
    PQSIFT_ASSIGN_OR_RETURN(options.open.decryption, MakeDecryptionOptions(args.keys));
  }
  if (split.empty()) {
    if (args.paths.empty()) return Status::InvalidArgument("PATH is required (or --split)");
    PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, DiscoverDataset(args));
    return OpenDatasetScan(dataset, options);
  }
  if (!args.paths.empty()) return Status::InvalidArgument("--split names its file: no PATH");
  PQSIFT_ASSIGN_OR_RETURN(Split parsed, ParseSplit(split));
  DatasetArgs one = args;
  one.paths = {parsed.path};
  PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, DiscoverDataset(one));
  return OpenDatasetScan(dataset, options, &parsed);
}

}  // namespace pqsift::cli
