#include "json_reports.h"

#include "cli/inspect_json.h"
#include "cli/plan_report.h"

namespace pqsift::python {

namespace {

// Invalid UTF-8 (in paths, names, key-value metadata) is replaced, as the CLI prints it.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string ExplainJsonText(const Scanner& scanner, const std::string& filter) {
  return Dump(cli::ExplainJson(scanner, filter));
}

std::string StatsJsonText(const ScanStats& stats) { return Dump(cli::StatsJson(stats)); }

std::string InspectJsonText(const ParquetMetadata& metadata) {
  return Dump(cli::InspectJson(metadata));
}

}  // namespace pqsift::python
