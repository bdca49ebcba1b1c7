// Target "footer": the input is the Thrift FileMetaData of a file (the bytes before the length
// and "PAR1"), decoded and checked as ReadParquetMetadata does (DecodeParquetMetadata: the
// Thrift decoder, the schema tree, the row group checks against a file of 1 GiB). A footer
// that opens is then used as the engine uses it: every column chunk's statistics go through
// the trust rules (BoundsFromStatistics) and the text rendering of `inspect`.
#include <cstring>

#include "column/arrow_type.h"
#include "format/statistics_text.h"
#include "fuzz_targets.h"
#include "pqsift/parquet_file.h"
#include "prune/statistics.h"

namespace pqsift::fuzz {

namespace {

void UseStatistics(const ColumnDescriptor& column, const DataType* arrow_type,
                   const std::optional<Statistics>& statistics, int64_t num_rows) {
  if (!statistics) return;
  if (arrow_type != nullptr) prune::BoundsFromStatistics(column, *arrow_type, statistics, num_rows);
  for (const auto* value :
       {&statistics->min_value, &statistics->max_value, &statistics->min, &statistics->max}) {
    if (*value) format::RenderStatisticsValue(**value, column);
  }
}

}  // namespace

void FuzzFooter(std::span<const uint8_t> input) {
  constexpr uint64_t kFileSize = uint64_t{1} << 30;
  Buffer footer(input.size());
  if (!input.empty()) std::memcpy(footer.mutable_data(), input.data(), input.size());
  Result<std::shared_ptr<const ParquetMetadata>> metadata =
      DecodeParquetMetadata("fuzz.parquet", kFileSize, std::move(footer));
  if (!metadata.ok()) return;
  const ParquetMetadata& md = **metadata;
  const std::vector<ColumnDescriptor>& leaves = md.schema().columns();
  std::vector<std::shared_ptr<const DataType>> arrow_types;
  for (const ColumnDescriptor& leaf : leaves) {
    Result<std::shared_ptr<const DataType>> type = column::ArrowTypeForLeaf(leaf);
    arrow_types.push_back(type.ok() ? *type : nullptr);
  }
  for (const RowGroup& row_group : md.file().row_groups) {
    for (size_t c = 0; c < row_group.columns.size() && c < leaves.size(); ++c) {
      const std::optional<ColumnMetaData>& meta = row_group.columns[c].meta_data;
      if (!meta) continue;
      UseStatistics(leaves[c], arrow_types[c].get(), meta->statistics, row_group.num_rows);
    }
  }
}

}  // namespace pqsift::fuzz
