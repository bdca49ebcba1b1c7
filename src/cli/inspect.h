// What `inspect` (src/cli/inspect_command.cc) and `inspect --pages` (src/cli/inspect_pages.cc)
// share: the one renderer of statistics, so a chunk's and a page's bounds read the same.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/inspect_json.h"
#include "cli/key_args.h"
#include "cli/storage_args.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"

namespace pqsift::cli {

// The text view's "exact" cell: "true/false", "?/true", ...; empty when neither flag is set.
std::string ExactnessText(const nlohmann::ordered_json& stats);

// A value, cut to 32 characters ("..." at the end) for a text table cell.
std::string ClipCell(const std::string& s);

// `pqsift inspect --pages`: every page of the selected column chunks (docs/cli.md).
struct InspectPagesArgs {
  std::vector<std::string> files;
  bool as_json = false;
  std::optional<size_t> row_group;
  std::optional<std::string> column;
  KeyArgs keys;         // encrypted files (--footer-key, ...)
  StorageArgs storage;  // remote files
};
int RunInspectPages(const InspectPagesArgs& args);

}  // namespace pqsift::cli
