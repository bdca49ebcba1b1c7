// Splits: byte ranges of files that divide a scan's row groups between independent workers.
#include "dataset/splits.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "column/leaf_reader.h"
#include "dataset/footer_cache.h"
#include "pqsift/storage.h"
#include "prune/access_plan.h"
#include "scan/scanner_internals.h"

namespace pqsift {
namespace dataset {

Result<ByteRange> RowGroupBytes(const ParquetMetadata& md, size_t g) {
  const RowGroup& rg = md.file().row_groups[g];
  uint64_t begin = UINT64_MAX;
  uint64_t end = 0;
  for (size_t c = 0; c < rg.columns.size(); ++c) {
    const auto& meta = rg.columns[c].meta_data;
    if (!meta) continue;
    PQSIFT_ASSIGN_OR_RETURN(
        ByteRange r, column::ColumnChunkRange(*meta, md.file_size(),
                                              md.file_name() + ": row group " + std::to_string(g)));
    begin = std::min(begin, r.offset);
    end = std::max(end, r.end());
  }
  if (begin >= end) return ByteRange{0, 0};
  return ByteRange{begin, end - begin};
}

Result<std::vector<uint8_t>> ExcludedBySplit(const ParquetMetadata& md, const Split& split) {
  std::vector<uint8_t> out(md.num_row_groups(), 0);
  for (size_t g = 0; g < out.size(); ++g) {
    PQSIFT_ASSIGN_OR_RETURN(ByteRange r, RowGroupBytes(md, g));
    uint64_t midpoint = r.offset + r.length / 2;
    out[g] = midpoint < split.start || midpoint >= split.end ? 1 : 0;
  }
  return out;
}

}  // namespace dataset

Result<Split> ParseSplit(std::string_view text) {
  size_t last = text.rfind(':');
  size_t middle = last == std::string_view::npos || last == 0 ? std::string_view::npos
                                                              : text.rfind(':', last - 1);
  Split s;
  auto number = [](std::string_view v, uint64_t* out) {
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *out);
    return !v.empty() && ec == std::errc() && end == v.data() + v.size();
  };
  if (middle == std::string_view::npos || middle == 0 ||
      !number(text.substr(middle + 1, last - middle - 1), &s.start) ||
      !number(text.substr(last + 1), &s.end) || s.start > s.end) {
    return Status::InvalidArgument("split '" + RedactUrl(text) +
                                   "' is not FILE:START:END (byte offsets, START <= END)");
  }
  s.path = std::string(text.substr(0, middle));
  return s;
}

Result<std::vector<Split>> PlanSplits(const Dataset& dataset, const ScanOptions& options,
                                      uint64_t target_bytes,
                                      std::shared_ptr<const BatchSchema>* schema) {
  if (target_bytes == 0) return Status::InvalidArgument("split target of 0 bytes");
  ScanOptions plan_options = options;
  plan_options.threads = 1;
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, OpenDatasetScan(dataset, plan_options));
  if (schema != nullptr) *schema = scanner->schema();
  const prune::AccessPlan& plan = ScannerInternals::Plan(*scanner);
  std::vector<Split> out;
  for (size_t f = 0; f < plan.files.size(); ++f) {
    const prune::FilePlan& file = plan.files[f];
    // The footer the scan opened with: no file is opened (or its footer looked up) again.
    const ParquetMetadata* md = ScannerInternals::FileMetadata(*scanner, f).get();
    if (md == nullptr) return Status::Internal("split planning lost " + file.path);
    // The row groups the plan reads, in byte order (a writer may place them in any order).
    std::vector<std::pair<ByteRange, int64_t>> groups;
    for (size_t g = 0; g < file.row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg = file.row_groups[g];
      if (rg.decision() == prune::Decision::kSkip) continue;
      PQSIFT_ASSIGN_OR_RETURN(ByteRange bytes, dataset::RowGroupBytes(*md, g));
      if (bytes.length > 0) groups.emplace_back(bytes, rg.num_rows);
    }
    std::sort(groups.begin(), groups.end(),
              [](const auto& a, const auto& b) { return a.first.offset < b.first.offset; });
    Split current;
    bool open = false;
    for (const auto& [bytes, rows] : groups) {
      if (open && current.end - current.start >= target_bytes) {
        out.push_back(current);
        open = false;
      }
      // A split starts where its first row group starts and ends where its last ends, so the
      // splits of a file are disjoint and each holds its row groups' midpoints.
      if (!open) {
        current = Split{ScannerInternals::FileSource(*scanner, f), bytes.offset, bytes.end(), 0, 0};
        open = true;
      }
      current.end = std::max(current.end, bytes.end());
      ++current.row_groups;
      current.rows += rows;
    }
    if (open) out.push_back(current);
  }
  return out;
}

}  // namespace pqsift
