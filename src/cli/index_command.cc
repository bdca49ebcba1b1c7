// `pqsift index PATH [--no-hive]`: writes the dataset's manifest (PATH/_pqsift_manifest.parquet,
// src/dataset/manifest.h): per file its row count and per leaf column min, max and null count,
// from the footers. Scans of PATH then skip files from it, without reading their footers, as
// long as each file's size and modification time still match.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/dataset_args.h"
#include "pqsift/dataset.h"
#include "pqsift/storage.h"

namespace pqsift::cli {
namespace {

int RunIndex(const DatasetArgs& args, const std::string& output) {
  auto dataset = DiscoverDataset(args);
  if (!dataset.ok()) return ReportError(dataset.status());
  if (dataset->root().empty()) {
    return ReportError(
        Status::InvalidArgument("index needs one folder (or one glob) to write the "
                                "manifest into"));
  }
  std::string path = output;
  if (path.empty()) {
    if (!PathScheme(dataset->root()).empty()) {
      return ReportError(Status::InvalidArgument(
          "a remote dataset's manifest is written here and copied beside its files: give -o "
          "FILE, then copy FILE to " +
          dataset->root() + "/" + std::string(kManifestName)));
    }
    path = (std::filesystem::path(dataset->root()) / kManifestName).string();
  }
  Status st = WriteManifest(*dataset, path);
  if (!st.ok()) return ReportError(st);
  std::cout << path << ": " << dataset->files().size() << " files\n";
  return 0;
}

}  // namespace

Command AddIndexCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "index",
      "Write a dataset manifest (per-file row counts and column statistics) that "
      "scans use to skip files without reading their footers.");
  auto args = std::make_shared<DatasetArgs>();
  auto output = std::make_shared<std::string>();
  AddDatasetOptions(sub, *args);
  sub->add_option("-o,--output", *output,
                  "Write the manifest to FILE instead of PATH/_pqsift_manifest.parquet (a remote "
                  "dataset: then copy it there; its paths are relative to PATH)");
  return {sub, [args, output] { return RunIndex(*args, *output); }};
}

}  // namespace pqsift::cli
