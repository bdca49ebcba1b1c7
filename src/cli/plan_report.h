// What a scan will read (explain) and what it read (--stats): one JSON value per report, printed
// as text for people or as JSON for programs, so both views always agree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pqsift/scan.h"
#include "prune/access_plan.h"

namespace pqsift::cli {

using json = nlohmann::ordered_json;

// The access plan and why: per file and row group the decision, the rows selected, fully
// matched, the stage that decided; per stage its counts; the bytes the scan will read.
json ExplainJson(const Scanner& scanner, const std::string& filter);
std::string ExplainText(const json& explain);

// The counters of a finished scan (keys documented in docs/cli.md); with `plan`, also what each
// pruning stage skipped and read ("stages").
json StatsJson(const ScanStats& stats);
std::string StatsText(const ScanStats& stats);
// --stats and --stats-json: the text on stderr when `text`, the JSON written to `json_path` when
// not empty. IOError when the file cannot be written.
Status ReportStats(const ScanStats& stats, bool text, const std::string& json_path);

}  // namespace pqsift::cli
