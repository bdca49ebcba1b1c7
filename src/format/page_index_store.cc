#include "format/page_index_store.h"

#include <algorithm>
#include <set>

#include "format/file_decryptor.h"
#include "format/metadata_internals.h"
#include "io/coalesce.h"

namespace pqsift::format {
namespace {

// Indexes closer than this are read together: the bytes between them (other columns' indexes,
// usually) cost less than another request.
constexpr uint64_t kMaxGap = uint64_t{64} * 1024;

// Where an index lies, when the footer gives a place inside the file.
std::optional<ByteRange> IndexRange(const std::optional<int64_t>& offset,
                                    const std::optional<int32_t>& length, uint64_t file_size) {
  if (!offset || !length || *offset < 0 || *length <= 0) return std::nullopt;
  ByteRange range{static_cast<uint64_t>(*offset), static_cast<uint64_t>(*length)};
  if (!CheckRange(range.offset, range.length, file_size, "page index").ok()) return std::nullopt;
  return range;
}

// An offset index describes the row group's rows when its pages start at row 0 and each holds
// at least one row (first_row_index increases: checked by the decoder).
bool CoversRows(const OffsetIndex& index, int64_t num_rows) {
  const std::vector<PageLocation>& pages = index.page_locations;
  return !pages.empty() && pages.front().first_row_index == 0 &&
         pages.back().first_row_index < num_rows;
}

}  // namespace

std::shared_ptr<const crypto::ModuleDecryptor> PageIndexStore::ChunkDecryptor(size_t row_group,
                                                                              int32_t leaf) const {
  if (DecryptorOf(metadata_) == nullptr) return nullptr;
  auto decryptor = DecryptorOf(metadata_)->ChunkDecryptor(row_group, static_cast<size_t>(leaf), "");
  return decryptor.ok() ? *decryptor : nullptr;
}

std::vector<PageIndexStore::Wanted> PageIndexStore::WantedBy(
    std::span<const Request> requests) const {
  const FileMetaData& meta = metadata_.file();
  std::vector<Wanted> wanted;
  std::set<std::pair<Key, bool>> seen;  // (chunk, column index?) already wanted
  for (const Request& r : requests) {
    if (r.row_group >= meta.row_groups.size()) continue;
    const RowGroup& rg = meta.row_groups[r.row_group];
    if (r.leaf < 0 || static_cast<size_t>(r.leaf) >= rg.columns.size()) continue;
    const ColumnChunk& chunk = rg.columns[r.leaf];
    // An encrypted chunk's indexes are encrypted modules: read with the chunk's key, absent
    // without it.
    if (chunk.is_encrypted && ChunkDecryptor(r.row_group, r.leaf) == nullptr) continue;
    Key key{r.row_group, r.leaf};
    auto found = entries_.find(key);
    const bool offset_tried = found != entries_.end() && found->second.offset_tried;
    const bool column_tried = found != entries_.end() && found->second.column_tried;
    if (!offset_tried && seen.insert({key, false}).second) {
      auto range = IndexRange(chunk.offset_index_offset, chunk.offset_index_length, file_.size());
      wanted.push_back({key, false, range});
    }
    if (r.column_index && !column_tried && seen.insert({key, true}).second) {
      auto range = IndexRange(chunk.column_index_offset, chunk.column_index_length, file_.size());
      wanted.push_back({key, true, range});
    }
  }
  return wanted;
}

std::vector<ByteRange> PageIndexStore::Blocks(const std::vector<Wanted>& wanted) const {
  std::vector<ByteRange> ranges;
  ranges.reserve(wanted.size());
  for (const Wanted& w : wanted) {
    if (w.range) ranges.push_back(*w.range);
  }
  return io::CoalesceRanges(std::move(ranges), std::max(kMaxGap, file_.coalesce_gap()));
}

std::vector<ByteRange> PageIndexStore::ReadsFor(std::span<const Request> requests) const {
  std::vector<ByteRange> out;
  for (const ByteRange& block : Blocks(WantedBy(requests))) {
    if (!metadata_.CachedBytes(block)) out.push_back(block);
  }
  return out;
}

Status PageIndexStore::Load(std::span<const Request> requests, uint64_t* bytes_read) {
  const FileMetaData& meta = metadata_.file();
  std::vector<Wanted> wanted = WantedBy(requests);
  for (const Wanted& w : wanted) {
    Entry& e = entries_[w.key];
    (w.column_index ? e.column_tried : e.offset_tried) = true;
  }
  std::erase_if(wanted, [](const Wanted& w) { return !w.range.has_value(); });
  if (wanted.empty()) return Status::OK();

  std::vector<ByteRange> blocks = Blocks(wanted);
  size_t first_block = bytes_.size();
  // The blocks not read with the footer, in one wave.
  std::vector<ByteRange> to_read;
  for (const ByteRange& block : blocks) {
    if (!metadata_.CachedBytes(block)) to_read.push_back(block);
  }
  PQSIFT_ASSIGN_OR_RETURN(std::vector<Buffer> read, file_.ReadRanges(to_read));
  size_t next_read = 0;
  for (const ByteRange& block : blocks) {
    if (auto cached = metadata_.CachedBytes(block)) {
      bytes_.push_back(Buffer::CopyOf(*cached));  // read with the footer already
      continue;
    }
    *bytes_read += block.length;
    bytes_.push_back(std::move(read[next_read++]));
  }
  auto bytes_of = [&](const ByteRange& range) {
    auto it = std::upper_bound(
        blocks.begin(), blocks.end(), range.offset,
        [](uint64_t offset, const ByteRange& block) { return offset < block.offset; });
    size_t b = static_cast<size_t>(it - blocks.begin()) - 1;  // the block holding `range`
    return bytes_[first_block + b].span().subspan(range.offset - blocks[b].offset, range.length);
  };

  // Offset indexes first: a column index is usable only with one of the same page count.
  std::stable_sort(wanted.begin(), wanted.end(), [](const Wanted& a, const Wanted& b) {
    return a.column_index < b.column_index;
  });
  for (const Wanted& w : wanted) {
    Entry& e = entries_[w.key];
    std::span<const uint8_t> bytes = bytes_of(*w.range);
    if (auto decryptor = ChunkDecryptor(w.key.first, w.key.second)) {
      // One module (Encryption.md: ColumnIndex / OffsetIndex). Failing authentication (changed,
      // moved, or another file's) it is an error, as a tampered page is; malformed, absent.
      crypto::ModuleId id{
          w.column_index ? crypto::ModuleType::kColumnIndex : crypto::ModuleType::kOffsetIndex,
          DecryptorOf(metadata_)->RowGroupOrdinal(w.key.first), w.key.second, 0};
      Result<Buffer> plain = decryptor->Decrypt(id, bytes);
      if (!plain.ok() && plain.status().code() == StatusCode::kAuthentication) {
        return plain.status();
      }
      if (!plain.ok()) continue;
      bytes_.push_back(std::move(plain).value());
      bytes = bytes_.back().span();
    }
    if (!w.column_index) {
      auto index = std::make_unique<OffsetIndex>();
      int64_t rows = meta.row_groups[w.key.first].num_rows;
      if (DecodeOffsetIndex(bytes, *index).ok() && CoversRows(*index, rows)) {
        e.offset = std::move(index);
      }
      continue;
    }
    auto index = std::make_unique<ColumnIndex>();
    if (DecodeColumnIndex(bytes, *index).ok() && e.offset &&
        index->null_pages.size() == e.offset->page_locations.size()) {
      e.column = std::move(index);
    }
  }
  return Status::OK();
}

void PageIndexStore::Adopt(size_t row_group, int32_t leaf, OffsetIndex index) {
  const FileMetaData& meta = metadata_.file();
  if (row_group >= meta.row_groups.size()) return;
  const RowGroup& rg = meta.row_groups[row_group];
  if (leaf < 0 || static_cast<size_t>(leaf) >= rg.columns.size()) return;
  if (rg.columns[leaf].offset_index_offset || !CoversRows(index, rg.num_rows)) return;
  for (size_t p = 1; p < index.page_locations.size(); ++p) {
    if (index.page_locations[p].first_row_index <= index.page_locations[p - 1].first_row_index) {
      return;
    }
  }
  Entry& e = entries_[{row_group, leaf}];
  if (e.offset) return;
  e.offset_tried = true;
  e.column_tried = true;
  e.offset = std::make_unique<OffsetIndex>(std::move(index));
}

const OffsetIndex* PageIndexStore::offset_index(size_t row_group, int32_t leaf) const {
  auto it = entries_.find({row_group, leaf});
  return it == entries_.end() ? nullptr : it->second.offset.get();
}

const ColumnIndex* PageIndexStore::column_index(size_t row_group, int32_t leaf) const {
  auto it = entries_.find({row_group, leaf});
  if (it == entries_.end() || !it->second.offset) return nullptr;
  return it->second.column.get();
}

}  // namespace pqsift::format
