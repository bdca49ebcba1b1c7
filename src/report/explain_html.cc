// ExplainHtml (pqsift/plan.h): the access plan as one self-contained page. The plan goes in as
// compact JSON (pages as arrays: a 20-row-group file with thousands of pages stays a few hundred
// kilobytes) inside a <script type="application/json">, drawn by the page's own script
// (report/explain_html_page.h); nothing is fetched.
#include <string>

#include "pqsift/plan.h"
#include "report/explain_html_page.h"
#include "report/plan_json.h"

namespace pqsift {
namespace {

using report::json;

// Pages as arrays [first_row, num_rows, compressed_bytes, fate (0 read, 1 fully matched,
// 2 skipped), stage, rows_selected, bounds]: the bulk of a plan, so no keys.
json PagesJson(const std::vector<PagePlan>& pages) {
  json out = json::array();
  for (const PagePlan& p : pages) {
    out.push_back({p.first_row, p.num_rows, p.compressed_bytes, static_cast<int>(p.fate), p.stage,
                   p.rows_selected, p.bounds});
  }
  return out;
}

json FileJson(const FilePlan& file) {
  json groups = json::array();
  for (const RowGroupPlan& rg : file.row_groups) {
    json verdicts = json::array();
    for (const Verdict& v : rg.verdicts) {
      verdicts.push_back(
          {v.stage, report::VerdictName(v.kind), v.rows_before, v.rows_after, v.evidence});
    }
    json columns = json::array();
    for (const ColumnChunkPlan& c : rg.columns) {
      columns.push_back({{"p", c.path},
                         {"f", c.filter_column},
                         {"b", c.compressed_bytes},
                         {"u", c.uncompressed_bytes},
                         {"bounds", c.bounds},
                         {"pages", PagesJson(c.pages)}});
    }
    groups.push_back({{"i", rg.index},
                      {"n", rg.num_rows},
                      {"d", report::DecisionName(rg.decision)},
                      {"sel", rg.rows_selected},
                      {"m", rg.rows_matched},
                      {"fm", rg.fully_matched},
                      {"by", rg.decided_by},
                      {"b", rg.compressed_bytes},
                      {"v", std::move(verdicts)},
                      {"c", std::move(columns)}});
  }
  json out = {{"p", file.path},     {"s", file.size},     {"fate", report::FileFateName(file.fate)},
              {"e", file.evidence}, {"n", file.num_rows}, {"g", std::move(groups)}};
  return out;
}

// JSON text safe inside <script>: "<" only occurs in strings, where \u003c means the same.
std::string ScriptSafe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string ExplainHtml(const AccessPlan& plan, const ScanStats* stats) {
  json data;
  data["plan"] = report::PlanJson(plan, /*with_files=*/false);
  data["stats"] = stats != nullptr ? report::ScanStatsJson(*stats) : json();
  json files = json::array();
  for (const FilePlan& file : plan.files) files.push_back(FileJson(file));
  data["files"] = std::move(files);
  std::string out(report::kExplainHtmlHead);
  out += stats != nullptr ? "pqsift scan: plan and stats" : "pqsift explain";
  out += report::kExplainHtmlBody;
  out += ScriptSafe(report::Dump(data, -1));
  out += report::kExplainHtmlTail;
  return out;
}

}  // namespace pqsift
