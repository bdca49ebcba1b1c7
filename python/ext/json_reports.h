// The JSON reports of the Python package: a scan's access plan (explain), its counters (stats)
// and a file's footer (inspect), as JSON text the package turns into dicts.
//
// This is the one place the module reaches into the CLI's JSON builders (src/cli/plan_report.h,
// src/cli/inspect_json.h), so the dicts are exactly what `pqsift explain --json`, `--stats-json`
// and `pqsift inspect --json` print. When the library gains public builders (pqsift/plan.h:
// pqsift::ExplainJson), only this file changes.
#pragma once

#include <string>

#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"

namespace pqsift::python {

std::string ExplainJsonText(const Scanner& scanner, const std::string& filter);
std::string StatsJsonText(const ScanStats& stats);
std::string InspectJsonText(const ParquetMetadata& metadata);

}  // namespace pqsift::python
