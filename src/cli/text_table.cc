#include "cli/text_table.h"

#include <algorithm>

namespace pqsift::cli {
namespace {

// Display width: counts UTF-8 code points, not bytes, so non-ASCII names line up.
size_t DisplayWidth(const std::string& s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

bool LooksNumeric(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789.-+e") == std::string::npos &&
         s.find_first_of("0123456789") != std::string::npos;
}

}  // namespace

void TextTable::Print(std::ostream& out, const std::string& indent) const {
  std::vector<size_t> widths(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) widths[c] = DisplayWidth(header_[c]);
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t c = 0; c < widths.size(); ++c) {
      const std::string& cell = c < row.size() ? row[c] : std::string();
      std::string pad(widths[c] - DisplayWidth(cell), ' ');
      line += LooksNumeric(cell) ? pad + cell : cell + pad;
      if (c + 1 < widths.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  print_row(header_);
  for (const auto& row : rows_) print_row(row);
}

}  // namespace pqsift::cli
