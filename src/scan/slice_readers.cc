#include "scan/slice_readers.h"

namespace pqsift::scan {

void PageCounters::Add(const std::vector<std::unique_ptr<column::LeafReader>>& readers) {
  for (const auto& r : readers) {
    if (!r) continue;
    column::LeafReader::PageCounts counts = r->TakePageCounts();
    decoded += counts.decoded;
    passed_over += counts.passed_over;
    decompressed += counts.decompressed;
    bytes_decompressed += counts.bytes_decompressed;
  }
}

SliceReaders::SliceReaders(const ScanSlice& slice, int role,
                           const std::vector<const DecodedColumn*>& columns)
    : slice_(slice), role_(role) {
  for (const DecodedColumn* column : columns) {
    if (column->constant) continue;
    leaves_.insert(leaves_.end(), column->leaves.begin(), column->leaves.end());
  }
}

Status SliceReaders::Acquire(const prune::RowSelection& rows,
                             const column::PageReaderOptions& options) {
  RowGroupData& data = *slice_.row_group;
  const ParquetMetadata& md = *data.file().metadata;
  const RowGroup& rg = data.row_group();
  const int64_t first_row = rows.ranges().front().begin;
  for (int32_t leaf : leaves_) {
    std::unique_ptr<column::LeafReader> reader;
    const SliceLink& link = slice_.links->at({role_, leaf});
    if (link.prev >= 0) {
      scan::ReaderHandoff& handoff = data.HandoffOf(link.chain, leaf);
      if (data.PageMayStartBefore(leaf, first_row)) {
        reader = handoff.Take(slice_.seq);
      } else {
        handoff.Discard(slice_.seq);
      }
    }
    // A reader of some pages continues on the ones it lacks; one that stopped before any
    // page or beyond this walk's start is of no use.
    if (reader && (reader->position() > first_row ||
                   (reader->holds_some_pages() && !reader->has_loaded_page()))) {
      reader.reset();
    }
    if (reader && reader->holds_some_pages()) {
      PQSIFT_ASSIGN_OR_RETURN(RowGroupData::Fetched more,
                              data.GetFrom(leaf, rows, reader->loaded_page_end()));
      reader->Continue(more.bytes, more.range.offset, std::move(more.owner), std::move(more.pages));
    }
    if (!reader) {
      PQSIFT_ASSIGN_OR_RETURN(RowGroupData::Fetched chunk, data.Get(leaf, rows));
      PQSIFT_ASSIGN_OR_RETURN(
          column::PageReaderOptions chunk_options,
          column::ChunkPageOptions(options, md, data.row_group_index(), leaf, data.Where(leaf)));
      PQSIFT_ASSIGN_OR_RETURN(reader, column::LeafReader::Make(
                                          md.schema().columns()[leaf], *rg.columns[leaf].meta_data,
                                          chunk.bytes, chunk.range.offset, rg.num_rows,
                                          data.Where(leaf), chunk_options, std::move(chunk.pages)));
      reader->KeepAlive(std::move(chunk.owner), chunk.whole);
      reader->ShareWith(data.ShareOf(leaf));
    }
    readers_.push_back(std::move(reader));
  }
  return Status::OK();
}

void SliceReaders::Release(bool ok) {
  if (released_) return;
  released_ = true;
  for (size_t i = 0; i < leaves_.size(); ++i) {
    std::unique_ptr<column::LeafReader> reader;
    if (ok && i < readers_.size()) reader = std::move(readers_[i]);
    // A reader at the end of the row group, or at the end of its page, saves a later slice
    // nothing (it would pass over the next pages by their rows just as a reader of its own):
    // freed here, in the task, so its buffers go back to the allocator while they are warm.
    if (reader && (reader->records_left() == 0 || reader->at_page_end())) reader.reset();
    const int chain = slice_.links->at({role_, leaves_[i]}).chain;
    slice_.row_group->HandoffOf(chain, leaves_[i]).Put(slice_.seq, std::move(reader));
  }
}

void SliceReaders::Register(const ScanSlice& slice, int role,
                            const std::vector<const DecodedColumn*>& columns,
                            const std::map<int32_t, int>& sole_reader, SliceLinks* links) {
  for (const DecodedColumn* column : columns) {
    if (column->constant) continue;
    for (int32_t leaf : column->leaves) {
      auto it = sole_reader.find(leaf);
      const int chain = it != sole_reader.end() && it->second == role ? kAnyRoleChain : role;
      (*links)[{role, leaf}] = {chain, slice.row_group->HandoffOf(chain, leaf).Register(slice.seq)};
    }
  }
}

std::vector<ReaderHandoff*> SliceReaders::Awaited(const ScanSlice& slice, int role,
                                                  const std::vector<const DecodedColumn*>& columns,
                                                  int64_t first_row) {
  std::vector<ReaderHandoff*> out;
  RowGroupData& data = *slice.row_group;
  for (const DecodedColumn* column : columns) {
    if (column->constant) continue;
    for (int32_t leaf : column->leaves) {
      const SliceLink& link = slice.links->at({role, leaf});
      if (link.prev < 0 || !data.PageMayStartBefore(leaf, first_row)) continue;
      out.push_back(&data.HandoffOf(link.chain, leaf));
    }
  }
  return out;
}

}  // namespace pqsift::scan
