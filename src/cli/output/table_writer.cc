// The aligned table for terminals (rules in batch_writer.h). Keeps at most table_max_rows
// rendered rows, so memory stays bounded whatever the scan returns.
#include <algorithm>
#include <string>
#include <vector>

#include "arrow/layout.h"
#include "arrow/utf8.h"
#include "cli/output/text_writer.h"
#include "variant/shredding.h"

namespace pqsift::cli {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026, one column wide

// The first `max` code points of `s`, the last replaced by "…" when `s` is longer.
std::string Truncate(std::string s, size_t max) {
  if (utf8::CodePoints(s) <= max) return s;
  size_t i = 0;
  for (size_t kept = 0; kept + 1 < max && i < s.size(); ++kept) {
    size_t n = utf8::SequenceLength(s, i);
    i += n == 0 ? 1 : n;
  }
  s.resize(i);
  s += kEllipsis;
  return s;
}

class TableWriter final : public TextWriter {
 public:
  using TextWriter::TextWriter;

  Status Write(const RecordBatch& batch) override {
    PQSIFT_RETURN_IF_ERROR(Prepare(batch, RenderStyle::kTable));
    const auto& columns = renderers();
    const auto max_width = static_cast<size_t>(options_.table_max_column_width);
    int64_t row = 0;
    for (; row < batch.num_rows && static_cast<int64_t>(rows_.size()) < options_.table_max_rows;
         ++row) {
      std::vector<std::string> cells;
      cells.reserve(columns.size());
      for (const auto& column : columns) {
        cell_.clear();
        if (column->IsNull(row)) {
          cell_ = "NULL";
        } else {
          column->Append(row, cell_);
        }
        cells.push_back(Truncate(cell_, max_width));
      }
      rows_.push_back(std::move(cells));
    }
    more_rows_ += batch.num_rows - row;
    return Status::OK();
  }

  Status Finish() override {
    const auto max_width = static_cast<size_t>(options_.table_max_column_width);
    const std::vector<Field>& cols = fields();
    auto total = static_cast<int64_t>(rows_.size()) + more_rows_;
    if (cols.empty()) {
      buf_ += "(no columns)\n";
    } else {
      std::vector<std::string> names, types;
      std::vector<bool> right;
      for (const Field& f : cols) {
        names.push_back(Truncate(f.name, max_width));
        // A dictionary column shows as its values (the filename column: large_string).
        const DataType& type = layout::ValueType(*f.type);
        types.push_back(
            Truncate(variant::IsVariantType(type) ? "variant" : type.ToString(), max_width));
        right.push_back(layout::IsNumeric(type.id));
      }
      std::vector<size_t> widths(cols.size());
      for (size_t c = 0; c < cols.size(); ++c) {
        widths[c] = std::max(utf8::CodePoints(names[c]), utf8::CodePoints(types[c]));
        for (const auto& r : rows_) widths[c] = std::max(widths[c], utf8::CodePoints(r[c]));
      }
      AppendLine(names, widths, right);
      AppendLine(types, widths, right);
      for (size_t c = 0; c < cols.size(); ++c) {
        if (c > 0) buf_ += "-+-";
        buf_.append(widths[c], '-');
      }
      buf_ += '\n';
      for (const auto& r : rows_) AppendLine(r, widths, right);
    }
    if (more_rows_ > 0 && !cols.empty()) {
      buf_ +=
          "... (" + std::to_string(more_rows_) + " more row" + (more_rows_ == 1 ? "" : "s") + ")\n";
    } else {
      buf_ += "(" + std::to_string(total) + " row" + (total == 1 ? "" : "s") + ")\n";
    }
    PQSIFT_RETURN_IF_ERROR(Flush());
    out_.flush();
    return out_ ? Status::OK() : Status::IOError("output: write failed");
  }

 private:
  void AppendLine(const std::vector<std::string>& cells, const std::vector<size_t>& widths,
                  const std::vector<bool>& right) {
    size_t start = buf_.size();
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) buf_ += " | ";
      size_t pad = widths[c] - utf8::CodePoints(cells[c]);
      if (right[c]) buf_.append(pad, ' ');
      buf_ += cells[c];
      if (!right[c]) buf_.append(pad, ' ');
    }
    while (buf_.size() > start && buf_.back() == ' ') buf_.pop_back();
    buf_ += '\n';
  }

  std::vector<std::vector<std::string>> rows_;  // at most table_max_rows
  int64_t more_rows_ = 0;                       // rows left out
  std::string cell_;
};

}  // namespace

std::unique_ptr<BatchWriter> MakeTableWriter(std::ostream& out, const OutputOptions& options) {
  return std::make_unique<TableWriter>(out, options);
}

}  // namespace pqsift::cli
