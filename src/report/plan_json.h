// The access plan and the scan stats as one JSON value each (keys: docs/cli.md): the form the
// text, JSON and HTML reports (pqsift/plan.h) are all made from, so every view agrees.
//
// Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pqsift/plan.h"

namespace pqsift::report {

using json = nlohmann::ordered_json;

// The explain report: filter, files (row groups with decisions, verdicts, column chunks and
// pages; an empty list without `with_files`, no chunks without `with_chunks`), stages, summary.
json PlanJson(const AccessPlan& plan, bool with_files = true, bool with_chunks = true);
// The counters of a scan.
json ScanStatsJson(const ScanStats& stats);

// JSON text; invalid UTF-8 (in paths, evidence) replaced, never an exception. indent < 0: one
// line.
std::string Dump(const json& value, int indent);

const char* DecisionName(RowGroupDecision d);
const char* VerdictName(VerdictKind k);
const char* FateName(Fate f);
const char* FileFateName(FileFate f);

}  // namespace pqsift::report
