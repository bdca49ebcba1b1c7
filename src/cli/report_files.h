// Where the CLI puts the library's reports (pqsift/plan.h): --stats text on stderr, and the
// --stats-json, --stats-html and explain --html files.
#pragma once

#include <string>

#include "pqsift/plan.h"
#include "pqsift/status.h"

namespace pqsift::cli {

// Writes `content` to `path` (replacing it). IOError naming the path when it cannot.
Status WriteReportFile(const std::string& path, const std::string& content);

// --stats and --stats-json: the text on stderr when `text`, the JSON written to `json_path` when
// not empty. IOError when the file cannot be written.
Status ReportStats(const ScanStats& stats, bool text, const std::string& json_path);

}  // namespace pqsift::cli
