// The dataset flags every command that reads files shares (scan, count, explain, splits,
// index): PATH... as files, folders or globs, hive partitioning, the manifest.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli/key_args.h"
#include "cli/storage_args.h"
#include "pqsift/dataset.h"
#include "pqsift/scan.h"

namespace pqsift::cli {

struct DatasetArgs {
  std::vector<std::string> paths;
  std::string partition_schema;
  bool no_hive = false;
  bool no_manifest = false;
  KeyArgs keys;         // for the commands that add them (AddKeyOptions); OpenScan applies them
  StorageArgs storage;  // remote files (added by AddDatasetOptions)
  // --with-row-index [NAME], --with-filename [NAME] (AddVirtualColumnOptions): the names of the
  // virtual columns (ScanOptions::row_index_column, filename_column); empty: none.
  std::string row_index;
  std::string filename;
};

// Adds --with-row-index [NAME] and --with-filename [NAME] (OpenScan applies them).
void AddVirtualColumnOptions(CLI::App* sub, DatasetArgs& args);
// Sets the virtual column names of `args` in `options`. InvalidArgument for a name that looks
// like a path (the flag's optional value took the PATH after it).
Status ApplyVirtualColumns(const DatasetArgs& args, ScanOptions* options);

// Adds PATH... (required unless `paths_optional`), the dataset flags and the remote storage
// flags to `sub`.
void AddDatasetOptions(CLI::App* sub, DatasetArgs& args, bool paths_optional = false);

Result<Dataset> DiscoverDataset(const DatasetArgs& args);

// Discovers the dataset and opens a scan of it; with `split` ("FILE:START:END", pqsift splits)
// a scan of that split of FILE alone (then PATH... must be empty).
Result<std::unique_ptr<Scanner>> OpenScan(const DatasetArgs& args, const ScanOptions& options,
                                          const std::string& split = "");

}  // namespace pqsift::cli
