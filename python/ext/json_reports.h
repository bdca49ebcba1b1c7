// The JSON reports of the Python package: a scan's access plan (explain), its counters (stats)
// and a file's footer (inspect), as JSON text the package turns into dicts.
//
// The plan and the stats come from the library's reports (pqsift/plan.h: ExplainJson,
// StatsJson), the footer from the CLI's builder (src/cli/inspect_json.h, the one place the
// module reaches into the CLI), so the dicts are exactly what `pqsift explain --json`,
// `--stats-json` and `pqsift inspect --json` print.
#pragma once

#include <string>

#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"

namespace pqsift::python {

std::string ExplainJsonText(const Scanner& scanner, bool chunks);
std::string StatsJsonText(const ScanStats& stats);
std::string InspectJsonText(const ParquetMetadata& metadata);

}  // namespace pqsift::python
