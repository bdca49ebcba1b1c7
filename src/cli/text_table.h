// A plain-text table for terminals: columns padded to their widest cell, numbers aligned right.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pqsift::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  // REQUIRES: row.size() == header size.
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Writes the table, each line prefixed by `indent`.
  void Print(std::ostream& out, const std::string& indent = "") const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace pqsift::cli
