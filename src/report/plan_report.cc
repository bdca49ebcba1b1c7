// The explain and stats reports as JSON and as text (pqsift/plan.h): the text is made from
// the JSON, so the two always agree.
#include <algorithm>
#include <cstdio>

#include "pqsift/plan.h"
#include "report/plan_json.h"

namespace pqsift::report {

const char* DecisionName(RowGroupDecision d) {
  switch (d) {
    case RowGroupDecision::kSkip: return "skip";
    case RowGroupDecision::kScan: return "scan";
    case RowGroupDecision::kSelection: return "selection";
  }
  return "?";
}

const char* VerdictName(VerdictKind k) {
  switch (k) {
    case VerdictKind::kSkipped: return "skipped";
    case VerdictKind::kNarrowed: return "narrowed";
    case VerdictKind::kFullyMatched: return "fully matched";
    case VerdictKind::kRowsMatched: return "rows matched";
  }
  return "?";
}

const char* FateName(Fate f) {
  switch (f) {
    case Fate::kRead: return "read";
    case Fate::kFullyMatched: return "fully matched";
    case Fate::kSkipped: return "skipped";
  }
  return "?";
}

const char* FileFateName(FileFate f) {
  switch (f) {
    case FileFate::kOpened: return "opened";
    case FileFate::kSkippedByPartition: return "skipped by partition values";
    case FileFate::kSkippedByManifest: return "skipped by the manifest";
    case FileFate::kCountedByManifest: return "counted from the manifest";
  }
  return "?";
}

namespace {

std::string Format(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

std::string Percent(uint64_t part, uint64_t whole) {
  return whole == 0
             ? "0%"
             : Format("%.2f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// "rows 120000-124999, 880000-884999" (inclusive), the first few ranges of a selection.
std::string SelectionText(const json& ranges) {
  constexpr size_t kShown = 8;
  std::string out = "rows ";
  for (size_t i = 0; i < ranges.size() && i < kShown; ++i) {
    out += Format("%s%lld-%lld", i > 0 ? ", " : "", ranges[i][0].get<long long>(),
                  ranges[i][1].get<long long>() - 1);
  }
  if (ranges.size() > kShown) out += Format(" and %zu more ranges", ranges.size() - kShown);
  return out;
}

// "files: 2000 total, 1990 skipped by partition values, 0 by the manifest; 10 footers read"
std::string FilesLine(uint64_t total, uint64_t by_partition, uint64_t by_manifest,
                      uint64_t footers) {
  return Format(
      "files: %llu total, %llu skipped by partition values, %llu by the manifest; %llu "
      "footers read\n",
      static_cast<unsigned long long>(total), static_cast<unsigned long long>(by_partition),
      static_cast<unsigned long long>(by_manifest), static_cast<unsigned long long>(footers));
}

json ColumnJson(const ColumnChunkPlan& c) {
  json pages = json::array();
  for (const PagePlan& p : c.pages) {
    json page = {{"first_row", p.first_row},
                 {"num_rows", p.num_rows},
                 {"offset", p.offset},
                 {"compressed_bytes", p.compressed_bytes},
                 {"fate", FateName(p.fate)},
                 {"stage", p.stage},
                 {"rows_selected", p.rows_selected}};
    if (!p.bounds.empty()) page["bounds"] = p.bounds;
    pages.push_back(std::move(page));
  }
  json out = {{"path", c.path},
              {"filter_column", c.filter_column},
              {"offset", c.offset},
              {"compressed_bytes", c.compressed_bytes},
              {"uncompressed_bytes", c.uncompressed_bytes}};
  if (!c.bounds.empty()) out["bounds"] = c.bounds;
  out["pages"] = std::move(pages);
  return out;
}

json RowGroupJson(const RowGroupPlan& rg, bool with_chunks) {
  json r;
  r["row_group"] = rg.index;
  r["decision"] = DecisionName(rg.decision);
  r["rows"] = rg.num_rows;
  r["rows_selected"] = rg.rows_selected;
  r["fully_matched"] = rg.fully_matched;
  r["rows_matched"] = rg.rows_matched;
  r["decided_by"] = rg.decided_by;
  if (rg.decision == RowGroupDecision::kSelection) {
    json ranges = json::array();
    for (const RowSpan& range : rg.selection) ranges.push_back({range.begin, range.end});
    r["selection"] = std::move(ranges);
  }
  json verdicts = json::array();
  for (const Verdict& v : rg.verdicts) {
    verdicts.push_back({{"stage", v.stage},
                        {"verdict", VerdictName(v.kind)},
                        {"rows_before", v.rows_before},
                        {"rows_after", v.rows_after},
                        {"rows_matched", v.rows_matched},
                        {"evidence", v.evidence}});
  }
  r["verdicts"] = std::move(verdicts);
  r["compressed_bytes"] = rg.compressed_bytes;
  if (!with_chunks) return r;
  json columns = json::array();
  for (const ColumnChunkPlan& c : rg.columns) columns.push_back(ColumnJson(c));
  r["columns"] = std::move(columns);
  return r;
}

}  // namespace

json PlanJson(const AccessPlan& plan, bool with_files, bool with_chunks) {
  json out;
  out["filter"] = plan.filter;
  json files = json::array();
  for (const FilePlan& file : plan.files) {
    if (!with_files) break;
    json f;
    f["path"] = file.path;
    f["size"] = file.size;
    f["fate"] = FileFateName(file.fate);
    if (!file.evidence.empty()) f["evidence"] = file.evidence;
    if (file.num_rows >= 0) f["rows"] = file.num_rows;
    json groups = json::array();
    for (const RowGroupPlan& rg : file.row_groups) groups.push_back(RowGroupJson(rg, with_chunks));
    f["row_groups"] = std::move(groups);
    files.push_back(std::move(f));
  }
  out["files"] = std::move(files);
  json stages = json::array();
  for (const StagePlan& s : plan.stages) {
    stages.push_back({{"stage", s.stage},
                      {"row_groups_considered", s.row_groups_considered},
                      {"row_groups_skipped", s.row_groups_skipped},
                      {"row_groups_fully_matched", s.row_groups_fully_matched},
                      {"rows_pruned", s.rows_pruned},
                      {"rows_matched", s.rows_matched},
                      {"pages_total", s.pages_total},
                      {"pages_pruned", s.pages_pruned},
                      {"pages_ruled_out_by_search", s.pages_ruled_out_by_search},
                      {"bytes_read", s.bytes_read},
                      {"requests", s.requests},
                      {"round_trips", s.round_trips},
                      {"evidence_loaded", s.evidence_loaded},
                      {"evidence_too_large", s.evidence_too_large},
                      {"evidence_unusable", s.evidence_unusable},
                      {"seconds", s.seconds}});
  }
  out["stages"] = std::move(stages);
  out["summary"] = {
      {"files_total", plan.files_total},
      {"files_skipped", plan.files_skipped_by_partition + plan.files_skipped_by_manifest},
      {"files_skipped_by_partition", plan.files_skipped_by_partition},
      {"files_skipped_by_manifest", plan.files_skipped_by_manifest},
      {"footers_read", plan.footers_read},
      {"row_groups_total", plan.row_groups_total},
      {"row_groups_skipped", plan.row_groups_skipped},
      {"row_groups_fully_matched", plan.row_groups_fully_matched},
      {"row_groups_to_read", plan.forecast.row_groups_to_read},
      {"rows_total", plan.rows_total},
      {"rows_to_read", plan.forecast.rows_to_read},
      {"file_bytes", plan.file_bytes},
      {"bytes_read_so_far", plan.bytes_read_for_plan},
      {"bytes_to_read", plan.forecast.bytes_to_read},
      {"ranges_to_read", plan.forecast.ranges_to_read},
      {"remote_requests_to_read", plan.forecast.remote_requests},
      {"remote_waves_to_read", plan.forecast.remote_waves}};
  return out;
}

namespace {

std::string ExplainTextOf(const json& explain) {
  std::string out;
  const json& sum = explain["summary"];
  if (!explain["filter"].get<std::string>().empty()) {
    out += "filter: " + explain["filter"].get<std::string>() + "\n";
  }
  for (const json& f : explain["files"]) {
    if (f.value("fate", "opened") != "opened") continue;  // counted in the files line
    out += f["path"].get<std::string>() + "\n";
    for (const json& r : f["row_groups"]) {
      std::string line = Format("  row group %d: %-9s %lld of %lld rows", r["row_group"].get<int>(),
                                r["decision"].get<std::string>().c_str(),
                                r["rows_selected"].get<long long>(), r["rows"].get<long long>());
      if (r["fully_matched"].get<bool>()) {
        line += ", fully matched";
      } else if (r["rows_matched"].get<long long>() > 0) {
        line += Format(", %lld matched", r["rows_matched"].get<long long>());
      }
      if (!r["decided_by"].get<std::string>().empty()) {
        line += " (" + r["decided_by"].get<std::string>() + ")";
      }
      out += line + "\n";
      if (r.contains("selection")) out += "    " + SelectionText(r["selection"]) + "\n";
      // Every stage's proof, not only the last: "    page index: narrowed 1000 -> 200 rows: ..."
      for (const json& v : r.value("verdicts", json::array())) {
        out += Format("    %s: %s, %lld -> %lld rows", v["stage"].get<std::string>().c_str(),
                      v["verdict"].get<std::string>().c_str(), v["rows_before"].get<long long>(),
                      v["rows_after"].get<long long>());
        if (!v["evidence"].get<std::string>().empty()) {
          out += ": " + v["evidence"].get<std::string>();
        }
        out += "\n";
      }
    }
  }
  for (const json& s : explain["stages"]) {
    std::string pages;
    if (s["pages_total"].get<long long>() > 0) {
      long long searched = s.value("pages_ruled_out_by_search", 0LL);
      pages = Format("%lld of %lld pages pruned%s, %lld rows matched, ",
                     s["pages_pruned"].get<long long>(), s["pages_total"].get<long long>(),
                     searched > 0 ? Format(" (%lld by binary search)", searched).c_str() : "",
                     s["rows_matched"].get<long long>());
    }
    std::string evidence;
    long long loaded = s.value("evidence_loaded", 0LL);
    long long too_large = s.value("evidence_too_large", 0LL);
    long long unusable = s.value("evidence_unusable", 0LL);
    if (loaded + too_large + unusable > 0) {
      evidence =
          Format("%lld fetched, %lld too large, %lld unusable, ", loaded, too_large, unusable);
    }
    out += Format(
        "stage %s: %lld row groups considered, %lld skipped, %lld fully matched, "
        "%lld rows pruned, %s%s%llu bytes read, %.3f ms\n",
        s["stage"].get<std::string>().c_str(), s["row_groups_considered"].get<long long>(),
        s["row_groups_skipped"].get<long long>(), s["row_groups_fully_matched"].get<long long>(),
        s["rows_pruned"].get<long long>(), pages.c_str(), evidence.c_str(),
        s["bytes_read"].get<unsigned long long>(), s["seconds"].get<double>() * 1e3);
  }
  out += FilesLine(
      sum["files_total"].get<uint64_t>(), sum["files_skipped_by_partition"].get<uint64_t>(),
      sum["files_skipped_by_manifest"].get<uint64_t>(), sum["footers_read"].get<uint64_t>());
  uint64_t to_read = sum["bytes_to_read"].get<uint64_t>();
  uint64_t file_bytes = sum["file_bytes"].get<uint64_t>();
  out += Format(
      "row groups: %lld to read of %lld (%lld skipped, %lld fully matched)\n",
      sum["row_groups_to_read"].get<long long>(), sum["row_groups_total"].get<long long>(),
      sum["row_groups_skipped"].get<long long>(), sum["row_groups_fully_matched"].get<long long>());
  out += Format("rows: %lld to read of %lld\n", sum["rows_to_read"].get<long long>(),
                sum["rows_total"].get<long long>());
  out += Format(
      "bytes: %llu of column data to read, of %llu in the files (%s); %llu read "
      "for the plan (footers, evidence)\n",
      static_cast<unsigned long long>(to_read), static_cast<unsigned long long>(file_bytes),
      Percent(to_read, file_bytes).c_str(), sum["bytes_read_so_far"].get<unsigned long long>());
  if (uint64_t waves = sum["remote_waves_to_read"].get<uint64_t>(); waves > 0) {
    const uint64_t requests = sum["remote_requests_to_read"].get<uint64_t>();
    out += Format(
        "remote reads: the column data in %llu request%s, %llu wave%s (the prefetch's "
        "plan)\n",
        static_cast<unsigned long long>(requests), requests == 1 ? "" : "s",
        static_cast<unsigned long long>(waves), waves == 1 ? "" : "s");
  }
  return out;
}

namespace {

// The column data's share of the I/O: what neither the footers nor the pruning stages read
// (they run one after the other, so their counts add up).
struct DataIo {
  uint64_t requests = 0, round_trips = 0, bytes = 0, waves = 0, retries = 0;
  double io_wait_seconds = 0;
};

DataIo DataIoOf(const ScanStats& s) {
  DataIo d{s.read_requests - std::min(s.read_requests, s.footer_requests),
           s.round_trips - std::min(s.round_trips, s.footer_round_trips),
           s.bytes_read - std::min(s.bytes_read, s.footer_bytes),
           s.waves - std::min(s.waves, s.footer_waves),
           s.retries - std::min(s.retries, s.footer_retries),
           std::max(0.0, s.io_wait_seconds - s.footer_io_wait_seconds)};
  for (const StageStats& st : s.stages) {
    d.requests -= std::min(d.requests, st.requests);
    d.round_trips -= std::min(d.round_trips, st.round_trips);
    d.bytes -= std::min(d.bytes, st.bytes_read);
    d.waves -= std::min(d.waves, st.waves);
    d.retries -= std::min(d.retries, st.retries);
    d.io_wait_seconds = std::max(0.0, d.io_wait_seconds - st.io_wait_seconds);
  }
  return d;
}

}  // namespace

json StatsJsonOf(const ScanStats& s) {
  json stages = json::array();
  for (const StageStats& st : s.stages) {
    stages.push_back({{"stage", st.stage},
                      {"row_groups_considered", st.row_groups_considered},
                      {"row_groups_skipped", st.row_groups_skipped},
                      {"row_groups_fully_matched", st.row_groups_fully_matched},
                      {"rows_pruned", st.rows_pruned},
                      {"bytes_read", st.bytes_read},
                      {"requests", st.requests},
                      {"round_trips", st.round_trips},
                      {"waves", st.waves},
                      {"retries", st.retries},
                      {"io_wait_seconds", st.io_wait_seconds},
                      {"seconds", st.seconds}});
  }
  const DataIo data = DataIoOf(s);
  return {{"files_total", s.files_total},
          {"files_skipped", s.files_skipped_by_partition + s.files_skipped_by_manifest},
          {"files_skipped_by_partition", s.files_skipped_by_partition},
          {"files_skipped_by_manifest", s.files_skipped_by_manifest},
          {"files_counted_by_manifest", s.files_counted_by_manifest},
          {"footers_read", s.footers_read},
          {"files", s.files},
          {"file_bytes", s.file_bytes},
          {"bytes_read", s.bytes_read},
          {"requests", s.read_requests},
          {"round_trips", s.round_trips},
          {"waves", s.waves},
          {"retries", s.retries},
          {"io_wait_seconds", s.io_wait_seconds},
          {"io_busy_seconds", s.io_busy_seconds},
          {"footer_requests", s.footer_requests},
          {"footer_round_trips", s.footer_round_trips},
          {"footer_bytes", s.footer_bytes},
          {"footer_waves", s.footer_waves},
          {"footer_retries", s.footer_retries},
          {"footer_io_wait_seconds", s.footer_io_wait_seconds},
          {"data_requests", data.requests},
          {"data_round_trips", data.round_trips},
          {"data_bytes", data.bytes},
          {"data_waves", data.waves},
          {"data_retries", data.retries},
          {"data_io_wait_seconds", data.io_wait_seconds},
          {"row_groups_total", s.row_groups},
          {"row_groups_skipped", s.row_groups_skipped},
          {"row_groups_fully_matched", s.row_groups_fully_matched},
          {"row_groups_read", s.row_groups_read},
          {"row_groups_skipped_at_runtime", s.row_groups_skipped_at_runtime},
          {"pages_skipped_at_runtime", s.pages_skipped_at_runtime},
          {"pages_total", s.pages_total},
          {"pages_read", s.pages_read},
          {"pages_not_fetched", s.pages_not_fetched},
          {"bytes_not_fetched", s.bytes_not_fetched},
          {"pages_decompressed", s.pages_decompressed},
          {"bytes_decompressed", s.bytes_decompressed},
          {"rows_total", s.rows_total},
          {"rows_decoded", s.rows_decoded},
          {"rows_returned", s.rows_returned},
          {"plan_seconds", s.plan_seconds},
          {"filter_seconds", s.filter_seconds},
          {"decode_seconds", s.decode_seconds},
          {"evidence_bytes_reused", s.evidence_bytes_reused},
          {"stages", std::move(stages)}};
}

std::string StatsTextOf(const ScanStats& s) {
  std::string out = FilesLine(s.files_total, s.files_skipped_by_partition,
                              s.files_skipped_by_manifest, s.footers_read);
  if (s.files_counted_by_manifest > 0) {
    out += Format("files counted from the manifest's row counts (not opened): %llu\n",
                  static_cast<unsigned long long>(s.files_counted_by_manifest));
  }
  out += Format(
      "files opened: %llu, bytes read: %llu of %llu (%s) in %llu requests\n",
      static_cast<unsigned long long>(s.files), static_cast<unsigned long long>(s.bytes_read),
      static_cast<unsigned long long>(s.file_bytes), Percent(s.bytes_read, s.file_bytes).c_str(),
      static_cast<unsigned long long>(s.read_requests));
  out += Format(
      "I/O: %llu round trips (requests side by side or in flight together count once), %llu "
      "waves, %llu retries, %.3f ms waiting (%.3f ms with requests in flight)\n",
      static_cast<unsigned long long>(s.round_trips), static_cast<unsigned long long>(s.waves),
      static_cast<unsigned long long>(s.retries), s.io_wait_seconds * 1e3, s.io_busy_seconds * 1e3);
  const DataIo data = DataIoOf(s);
  auto io_line = [&](const char* what, uint64_t requests, uint64_t round_trips, uint64_t bytes,
                     uint64_t waves, uint64_t retries, double wait) {
    out += Format(
        "I/O %s: %llu requests, %llu round trips, %llu waves, %llu bytes, %llu retries, %.3f ms "
        "waiting\n",
        what, static_cast<unsigned long long>(requests),
        static_cast<unsigned long long>(round_trips), static_cast<unsigned long long>(waves),
        static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(retries),
        wait * 1e3);
  };
  io_line("footers", s.footer_requests, s.footer_round_trips, s.footer_bytes, s.footer_waves,
          s.footer_retries, s.footer_io_wait_seconds);
  for (const StageStats& st : s.stages) {
    if (st.requests == 0 && st.retries == 0) continue;
    io_line(("stage " + st.stage).c_str(), st.requests, st.round_trips, st.bytes_read, st.waves,
            st.retries, st.io_wait_seconds);
  }
  io_line("data", data.requests, data.round_trips, data.bytes, data.waves, data.retries,
          data.io_wait_seconds);
  out += Format("row groups: %llu total, %llu skipped, %llu fully matched, %llu read\n",
                static_cast<unsigned long long>(s.row_groups),
                static_cast<unsigned long long>(s.row_groups_skipped),
                static_cast<unsigned long long>(s.row_groups_fully_matched),
                static_cast<unsigned long long>(s.row_groups_read));
  if (s.row_groups_skipped_at_runtime > 0 || s.pages_skipped_at_runtime > 0) {
    out += Format("runtime filter: %llu row groups and %llu pages skipped before their fetch\n",
                  static_cast<unsigned long long>(s.row_groups_skipped_at_runtime),
                  static_cast<unsigned long long>(s.pages_skipped_at_runtime));
  }
  out += Format(
      "pages: %llu read of %llu in the opened column chunks; %llu not fetched (offset index), "
      "%llu bytes saved\n",
      static_cast<unsigned long long>(s.pages_read), static_cast<unsigned long long>(s.pages_total),
      static_cast<unsigned long long>(s.pages_not_fetched),
      static_cast<unsigned long long>(s.bytes_not_fetched));
  out += Format("pages decompressed: %llu (%llu bytes uncompressed)\n",
                static_cast<unsigned long long>(s.pages_decompressed),
                static_cast<unsigned long long>(s.bytes_decompressed));
  out += Format("rows: %lld in the files, %lld decoded, %lld returned\n",
                static_cast<long long>(s.rows_total), static_cast<long long>(s.rows_decoded),
                static_cast<long long>(s.rows_returned));
  out += Format(
      "time: plan %.3f ms, filter %.3f ms, decode %.3f ms (filter and decode summed "
      "over threads)\n",
      s.plan_seconds * 1e3, s.filter_seconds * 1e3, s.decode_seconds * 1e3);
  for (const StageStats& st : s.stages) {
    out += Format(
        "stage %s: %llu row groups considered, %llu skipped, %llu fully matched, %llu bytes "
        "read in %llu requests, %llu round trips\n",
        st.stage.c_str(), static_cast<unsigned long long>(st.row_groups_considered),
        static_cast<unsigned long long>(st.row_groups_skipped),
        static_cast<unsigned long long>(st.row_groups_fully_matched),
        static_cast<unsigned long long>(st.bytes_read),
        static_cast<unsigned long long>(st.requests),
        static_cast<unsigned long long>(st.round_trips));
  }
  if (s.evidence_bytes_reused > 0) {
    out += Format("evidence reused by the scan: %llu bytes of dictionary pages\n",
                  static_cast<unsigned long long>(s.evidence_bytes_reused));
  }
  return out;
}

}  // namespace

json ScanStatsJson(const ScanStats& stats) { return StatsJsonOf(stats); }

std::string Dump(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace pqsift::report

namespace pqsift {

std::string ExplainText(const AccessPlan& plan) {
  // The text shows no chunk or page: building their JSON would cost a wide file's explain more
  // than the rest of it.
  return report::ExplainTextOf(report::PlanJson(plan, true, /*with_chunks=*/false));
}

std::string ExplainJson(const AccessPlan& plan, int indent, bool chunks) {
  return report::Dump(report::PlanJson(plan, true, chunks), indent);
}

std::string StatsText(const ScanStats& stats) { return report::StatsTextOf(stats); }

std::string StatsJson(const ScanStats& stats, int indent) {
  return report::Dump(report::StatsJsonOf(stats), indent);
}

}  // namespace pqsift
