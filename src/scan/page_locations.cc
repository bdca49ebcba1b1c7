#include "scan/page_locations.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "column/leaf_reader.h"
#include "column/page_directory.h"

namespace pqsift::scan {

Status DerivePageLocations(const RandomAccessFile& file, const ParquetMetadata& metadata,
                           std::span<const format::PageIndexStore::Request> requests,
                           format::PageIndexStore& store, uint64_t* bytes_read,
                           const PageLocationOptions& options) {
  // The walk reads header after header: one round trip each on a remote store, where the scan
  // fetches a slice's chunks in one wave instead (RowGroupData::StartPrefetch).
  if (file.remote()) return Status::OK();
  const FileMetaData& meta = metadata.file();
  const std::vector<ColumnDescriptor>& columns = metadata.schema().columns();
  for (const format::PageIndexStore::Request& request : requests) {
    const size_t g = request.row_group;
    const int32_t leaf = request.leaf;
    if (g >= meta.row_groups.size() || leaf < 0 ||
        static_cast<size_t>(leaf) >= meta.row_groups[g].columns.size() ||
        static_cast<size_t>(leaf) >= columns.size()) {
      continue;
    }
    if (store.offset_index(g, leaf) != nullptr) continue;
    const RowGroup& rg = meta.row_groups[g];
    const ColumnChunk& chunk = rg.columns[leaf];
    if (!chunk.meta_data || chunk.is_encrypted || chunk.file_path) continue;
    if (chunk.meta_data->total_compressed_size < options.min_chunk_bytes) continue;
    const std::string where = metadata.file_name() + ": row group " + std::to_string(g) +
                              ", column '" + columns[leaf].path + "'";
    auto range = column::ColumnChunkRange(*chunk.meta_data, file.size(), where);
    if (!range.ok()) continue;  // the chunk's reader reports it
    // One small read at each header (a header is tens to hundreds of bytes): the bodies are
    // what the walk spares, so it never reads windows of them.
    column::PageDirectoryOptions walk;
    walk.read_window = size_t{1} << 10;
    walk.header_read = size_t{1} << 10;
    walk.max_bytes_read = std::max<uint64_t>(
        uint64_t{16} << 10, range->length / static_cast<uint64_t>(options.max_read_share));
    const bool flat = columns[leaf].max_repetition_level == 0;
    column::PageDirectory directory;
    // A chunk the footer's tail read holds is walked there, with no read.
    std::optional<std::span<const uint8_t>> held = metadata.CachedBytes(*range);
    Status read =
        held ? column::BuildPageDirectory(*held, range->offset, flat, where, directory, walk)
             : column::ReadPageDirectory(file, *range, flat, where, directory, walk, bytes_read);
    if (read.code() == StatusCode::kIOError) return read;
    if (!read.ok()) continue;
    std::optional<format::OffsetIndex> index = column::OffsetIndexOf(directory, rg.num_rows);
    if (index) store.Adopt(g, leaf, std::move(*index));
  }
  return Status::OK();
}

}  // namespace pqsift::scan
