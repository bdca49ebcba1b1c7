#include "prune/access_plan.h"

#include <cstdio>

namespace pqsift::prune {
namespace {

const char* DecisionName(Decision d) {
  switch (d) {
    case Decision::kSkip: return "skip";
    case Decision::kScan: return "scan";
    case Decision::kSelection: return "selection";
  }
  return "?";
}

std::string Plural(int64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

RowGroupPlan RowGroupPlan::ScanAll(int64_t num_rows) {
  RowGroupPlan p;
  p.num_rows = num_rows;
  p.rows = RowSelection::All(num_rows);
  return p;
}

Decision RowGroupPlan::decision() const {
  if (rows.empty()) return Decision::kSkip;
  return rows.SelectsAll(num_rows) ? Decision::kScan : Decision::kSelection;
}

void RowGroupPlan::Record(const std::string& stage, VerdictKind kind, std::string evidence) {
  decided_by = stage;
  int64_t matched = fully_matched ? rows.row_count() : matched_rows.row_count();
  verdicts.push_back({stage, kind, rows, matched, std::move(evidence)});
}

void RowGroupPlan::Narrow(const RowSelection& selection, const std::string& stage,
                          std::string evidence) {
  RowSelection narrowed = rows.Intersect(selection);
  if (narrowed == rows) return;
  rows = std::move(narrowed);
  matched_rows = matched_rows.Intersect(rows);
  if (rows.empty()) fully_matched = false;  // nothing is read, so nothing is matched
  Record(stage, rows.empty() ? VerdictKind::kSkipped : VerdictKind::kNarrowed, std::move(evidence));
}

void RowGroupPlan::Skip(const std::string& stage, std::string evidence) {
  if (rows.empty()) return;
  rows = RowSelection();
  matched_rows = RowSelection();
  fully_matched = false;  // nothing is read, so nothing is matched
  Record(stage, VerdictKind::kSkipped, std::move(evidence));
}

void RowGroupPlan::MarkFullyMatched(const std::string& stage, std::string evidence) {
  if (fully_matched) return;
  fully_matched = true;
  Record(stage, VerdictKind::kFullyMatched, std::move(evidence));
}

void RowGroupPlan::MarkRowsMatched(const RowSelection& matched, const std::string& stage,
                                   std::string evidence) {
  RowSelection more = matched_rows.Union(matched.Intersect(rows));
  if (more == rows && !rows.empty()) {
    matched_rows = RowSelection();
    MarkFullyMatched(stage, std::move(evidence));
    return;
  }
  if (more == matched_rows) return;
  matched_rows = std::move(more);
  Record(stage, VerdictKind::kRowsMatched, std::move(evidence));
}

FilePlan ScanAllPlan(std::string path, const FileMetaData& file) {
  FilePlan plan;
  plan.path = std::move(path);
  plan.row_groups.reserve(file.row_groups.size());
  for (const RowGroup& g : file.row_groups)
    plan.row_groups.push_back(RowGroupPlan::ScanAll(g.num_rows));
  return plan;
}

std::string ToString(const AccessPlan& plan) {
  std::string out;
  for (const FilePlan& file : plan.files) {
    int64_t counts[3] = {0, 0, 0};
    int64_t selected = 0;
    int64_t total = 0;
    for (const RowGroupPlan& g : file.row_groups) {
      ++counts[static_cast<int>(g.decision())];
      selected += g.rows.row_count();
      total += g.num_rows;
    }
    out += "file " + file.path + ": " +
           Plural(static_cast<int64_t>(file.row_groups.size()), "row group") + " (" +
           std::to_string(counts[static_cast<int>(Decision::kScan)]) + " scan, " +
           std::to_string(counts[static_cast<int>(Decision::kSelection)]) + " selection, " +
           std::to_string(counts[static_cast<int>(Decision::kSkip)]) + " skip), " +
           std::to_string(selected) + " of " + Plural(total, "row") + " selected\n";
    for (size_t i = 0; i < file.row_groups.size(); ++i) {
      const RowGroupPlan& g = file.row_groups[i];
      Decision d = g.decision();
      out += "  row group " + std::to_string(i) + ": " + DecisionName(d) + ", " +
             std::to_string(g.rows.row_count()) + " of " + Plural(g.num_rows, "row");
      if (d == Decision::kSelection) {
        out += " in " + Plural(g.rows.ranges().size(), "range") + ": " + g.rows.ToString();
      }
      if (g.fully_matched) out += ", fully matched";
      if (!g.matched_rows.empty()) {
        out += ", " + std::to_string(g.matched_rows.row_count()) + " matched";
      }
      if (!g.decided_by.empty()) out += " (" + g.decided_by + ")";
      out += "\n";
    }
  }
  for (const StageReport& s : plan.stages) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f ms", s.seconds * 1e3);
    out += "stage " + s.stage + ": " + Plural(s.row_groups_considered, "row group") +
           " considered, " + std::to_string(s.row_groups_skipped) + " skipped, " +
           std::to_string(s.row_groups_fully_matched) + " fully matched, " +
           Plural(s.rows_pruned, "row") + " pruned, ";
    if (s.pages_total > 0) {
      out += std::to_string(s.pages_pruned) + " of " + Plural(s.pages_total, "page") + " pruned";
      if (s.pages_ruled_out_by_search > 0) {
        out += " (" + std::to_string(s.pages_ruled_out_by_search) + " by binary search)";
      }
      out += ", " + std::to_string(s.rows_matched) + " rows matched, ";
    }
    if (s.evidence_loaded + s.evidence_too_large + s.evidence_unusable > 0) {
      out += std::to_string(s.evidence_loaded) + " fetched, " +
             std::to_string(s.evidence_too_large) + " too large, " +
             std::to_string(s.evidence_unusable) + " unusable, ";
    }
    out += std::to_string(s.bytes_read) + " bytes read, " + seconds + "\n";
  }
  return out;
}

}  // namespace pqsift::prune
