#include "json_reports.h"

#include "cli/inspect_json.h"
#include "pqsift/plan.h"

namespace pqsift::python {

namespace {

// Invalid UTF-8 (in paths, names, key-value metadata) is replaced, as the CLI prints it.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string ExplainJsonText(const Scanner& scanner, bool chunks) {
  return ExplainJson(scanner.plan(), -1, chunks);
}

std::string StatsJsonText(const ScanStats& stats) { return StatsJson(stats, -1); }

std::string InspectJsonText(const ParquetMetadata& metadata) {
  return Dump(cli::InspectJson(metadata));
}

}  // namespace pqsift::python
