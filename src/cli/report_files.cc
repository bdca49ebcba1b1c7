#include "cli/report_files.h"

#include <fstream>
#include <iostream>

namespace pqsift::cli {

Status WriteReportFile(const std::string& path, const std::string& content) {
  std::ofstream file(path, std::ios::trunc | std::ios::binary);
  file << content;
  file.close();
  if (!file) return Status::IOError(path + ": write failed");
  return Status::OK();
}

Status ReportStats(const ScanStats& stats, bool text, const std::string& json_path) {
  if (text) std::cerr << StatsText(stats);
  if (json_path.empty()) return Status::OK();
  return WriteReportFile(json_path, StatsJson(stats) + "\n");
}

}  // namespace pqsift::cli
