#include "scan/row_group_data.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "format/chunk_readable.h"
#include "io/wave.h"

namespace pqsift::scan {
namespace {

// The first of `reads` that holds all of `range`.
std::vector<ByteRange>::const_iterator Holding(const std::vector<ByteRange>& reads,
                                               ByteRange range) {
  return std::find_if(reads.begin(), reads.end(), [&](const ByteRange& have) {
    return have.offset <= range.offset && range.end() <= have.end();
  });
}

// The furthest end of the `reads` that hold byte `offset` (0: none holds it).
uint64_t HeldTo(const std::vector<ByteRange>& reads, uint64_t offset) {
  uint64_t to = 0;
  for (const ByteRange& have : reads) {
    if (have.offset <= offset && offset < have.end()) to = std::max(to, have.end());
  }
  return to;
}

}  // namespace

RowGroupData::RowGroupData(std::shared_ptr<const PlannedFile> file, size_t row_group,
                           const std::vector<int32_t>& leaves)
    : file_(std::move(file)), row_group_(row_group) {
  for (int32_t leaf : leaves) chunks_.emplace(leaf, std::make_unique<Chunk>());
}

void RowGroupData::AllSlicesAdded() {
  all_added_ = true;
  if (slices_left_ == 0) FreeChunks();
}

void RowGroupData::SliceDone() {
  --slices_left_;
  if (slices_left_ == 0 && all_added_) FreeChunks();
}

bool RowGroupData::DropSlice() {
  SliceDone();
  return slices_left_ == 0 && all_added_ && !launched_;
}

void RowGroupData::FreeChunks() {
  {
    std::lock_guard<std::mutex> lock(prefetched_mu_);
    prefetched_.clear();
  }
  for (auto& [leaf, chunk] : chunks_) {
    std::lock_guard<std::mutex> lock(chunk->mu);
    if (chunk->read_whole) chunk->owner.reset();
    chunk->dictionary.reset();
  }
  std::lock_guard<std::mutex> lock(handoffs_mu_);
  for (auto& [key, handoff] : handoffs_) handoff->Clear();
}

void RowGroupData::Abandon() {
  FreeChunks();
  std::lock_guard<std::mutex> lock(steps_mu_);
  steps_.clear();
}

void RowGroupData::RunInOrder(int64_t seq, std::function<void()> step) {
  std::lock_guard<std::mutex> lock(steps_mu_);
  steps_[seq] = std::move(step);
  for (auto next = steps_.begin(); next != steps_.end() && next->first == next_step_;
       next = steps_.begin()) {
    std::function<void()> run = std::move(next->second);
    steps_.erase(next);
    ++next_step_;
    if (run) run();
  }
}

ReaderHandoff& RowGroupData::HandoffOf(int role, int32_t leaf) {
  std::lock_guard<std::mutex> lock(handoffs_mu_);
  std::unique_ptr<ReaderHandoff>& handoff = handoffs_[{role, leaf}];
  if (!handoff) handoff = std::make_unique<ReaderHandoff>();
  return *handoff;
}

bool RowGroupData::PageMayStartBefore(int32_t leaf, int64_t row) const {
  if (row == 0) return false;
  const format::OffsetIndex* index = OffsetIndex(leaf);
  if (index == nullptr) return true;
  const auto& locations = index->page_locations;
  auto next = std::upper_bound(
      locations.begin(), locations.end(), row,
      [](int64_t r, const format::PageLocation& page) { return r < page.first_row_index; });
  return next == locations.begin() || std::prev(next)->first_row_index < row;
}

void RowGroupData::CountPagesNotFetched(int64_t* pages, uint64_t* bytes) const {
  for (const auto& [leaf, chunk] : chunks_) {
    std::lock_guard<std::mutex> lock(chunk->mu);
    if (chunk->read_whole || chunk->pages_fetched.empty()) continue;
    const std::vector<format::PageLocation>& locations = OffsetIndex(leaf)->page_locations;
    for (size_t p = 0; p < chunk->pages_fetched.size(); ++p) {
      if (chunk->pages_fetched[p]) continue;
      *pages += 1;
      *bytes += static_cast<uint64_t>(locations[p].compressed_page_size);
    }
  }
}

std::string RowGroupData::Where(int32_t leaf) const {
  return WhereColumn(file_->metadata->schema().columns()[leaf].path);
}

std::string RowGroupData::WhereColumn(std::string_view path) const {
  return file_->file->name() + ": row group " + std::to_string(row_group_) + ", column '" +
         std::string(path) + "'";
}

// The bytes of `leaf`'s chunk a reader of `rows` (and of no other row) needs.
Result<RowGroupData::Fetched> RowGroupData::Get(int32_t leaf, const prune::RowSelection& rows) {
  Chunk& c = *chunks_.at(leaf);
  std::shared_ptr<const Buffer> dictionary;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (!c.located) {
      c.status = Locate(leaf, c);
      c.located = true;
    }
    if (!c.status.ok()) return c.status;
    if (c.owner) return Fetched{c.bytes, c.owner, c.range, WholeChunkPages(leaf, c.range)};
    dictionary = c.dictionary;
  }
  std::optional<scan::PageFetch> pages = PlanFetch(leaf, c.range, rows, false);
  if (!pages) {
    std::lock_guard<std::mutex> lock(c.mu);
    if (!c.owner) {
      auto whole = ReadReusingDictionary(c.range);
      if (!whole.ok()) return c.status = whole.status();
      auto buffer = std::make_shared<const Buffer>(std::move(whole).value());
      c.bytes = buffer->span();
      c.owner = buffer;
      c.read_whole = true;
    }
    return Fetched{c.bytes, c.owner, c.range, WholeChunkPages(leaf, c.range)};
  }
  if (!dictionary) {
    PQSIFT_ASSIGN_OR_RETURN(dictionary, DictionaryOf(leaf, c));
  }
  return FetchPages(leaf, std::move(*pages), c.range, dictionary);
}

// The chunk's dictionary region, read by the first reader of some pages that needs it (the
// others wait for it rather than read it too); null when the chunk has none.
Result<std::shared_ptr<const Buffer>> RowGroupData::DictionaryOf(int32_t leaf, Chunk& c) {
  const ByteRange region = DictionaryRegion(c.range, *OffsetIndex(leaf));
  if (region.length == 0) return std::shared_ptr<const Buffer>();
  std::lock_guard<std::mutex> once(c.dictionary_mu);
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.dictionary) return c.dictionary;
  }
  PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadReusingDictionary(region));
  auto held = std::make_shared<const Buffer>(std::move(bytes));
  std::lock_guard<std::mutex> lock(c.mu);
  c.dictionary = held;
  return held;
}

// For a reader continued from an earlier slice on some pages of the chunk: the pages from row
// `from_row` on that hold a row of `rows`.
Result<RowGroupData::Fetched> RowGroupData::GetFrom(int32_t leaf, const prune::RowSelection& rows,
                                                    int64_t from_row) {
  const format::OffsetIndex* index = OffsetIndex(leaf);
  ByteRange range;
  {
    Chunk& c = *chunks_.at(leaf);
    std::lock_guard<std::mutex> lock(c.mu);
    range = c.range;
  }
  std::optional<scan::PageFetch> pages =
      index == nullptr
          ? std::nullopt
          : scan::PlanPageFetchFrom(range, *index, row_group().num_rows, rows, from_row);
  if (!pages) {
    return Status::Internal(Where(leaf) +
                            ": a reader of some pages continues without an "
                            "offset index");
  }
  if (pages->reads.empty()) return Fetched{{}, nullptr, range, {}, false};
  const ByteRange first = pages->pieces.front();
  return FetchPages(leaf, std::move(*pages), first, nullptr);
}

std::vector<ByteRange> RowGroupData::ReadsFor(int32_t leaf, const prune::RowSelection& rows) {
  Chunk& c = *chunks_.at(leaf);
  ByteRange range;
  bool dictionary_held = false;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (!c.located) {
      c.status = Locate(leaf, c);
      c.located = true;
    }
    if (!c.status.ok() || c.owner) return {};
    range = c.range;
    dictionary_held = c.dictionary != nullptr;
  }
  // Of a read that starts with a dictionary page the planning fetched only the rest is fetched
  // (the task takes those bytes and reads the rest, ReadReusingDictionary); of a read reaching
  // into the footer's tail read only the part before it (ReadAroundCache asks for that part).
  const ByteRange cached = file_->metadata->cached_range();
  std::vector<ByteRange> out;
  auto add = [&](ByteRange r) {
    const uint64_t held = file_->dictionaries ? file_->dictionaries->HeldSize(r.offset) : 0;
    if (held >= r.length) return;
    r = {r.offset + held, r.length - held};
    if (r.end() <= cached.offset) {
      out.push_back(r);
    } else if (r.offset < cached.offset &&
               file_->metadata->CachedBytes({cached.offset, r.end() - cached.offset})) {
      out.push_back({r.offset, cached.offset - r.offset});
    }
  };
  std::optional<PageFetch> pages = PlanFetch(leaf, range, rows, !dictionary_held);
  if (!pages) {
    add(range);
    return out;
  }
  for (const ByteRange& r : pages->reads) add(r);
  return out;
}

std::vector<ByteRange> RowGroupData::WaveReads(std::span<const prune::RowSelection* const> slices,
                                               const EarlierReads& earlier,
                                               std::vector<size_t>* repeated) {
  std::vector<ByteRange> ranges;
  for (const prune::RowSelection* rows : slices) {
    for (const auto& [leaf, chunk] : chunks_) {
      for (const ByteRange& r : ReadsFor(leaf, *rows)) {
        // Inside a read of an earlier slice of this wave (a page both hold, the dictionary
        // region): read once, taken by both.
        auto inside = Holding(ranges, r);
        if (inside != ranges.end()) {
          repeated->push_back(static_cast<size_t>(inside - ranges.begin()));
          continue;
        }
        // Inside a read of an earlier wave: taken from it.
        if (earlier.holds(r)) continue;
        // Beginning inside a read this wave or an earlier one holds: in the page the slice
        // before ends in, whose reader decodes it and is handed on to this slice's reader,
        // which asks only for the pages after it (GetFrom). Only those are read, and the
        // reader takes them whole. (A reader that was not handed on would read that page and
        // the rest itself: none was, in trials with and without filters.)
        const ByteRange rest = PastHeld(r, ranges, earlier);
        if (rest.length > 0) ranges.push_back(rest);
      }
    }
  }
  return ranges;
}

std::shared_ptr<const void> RowGroupData::StartPrefetch(
    std::span<const prune::RowSelection* const> slices,
    const std::shared_ptr<io::PrefetchLedger>& ledger) {
  std::vector<size_t> repeated;  // reads of the wave another of its slices needs too
  // What the slices hold: their own wave, and the waves of earlier slices they read from too.
  auto holds = std::make_shared<std::vector<std::shared_ptr<io::AsyncWave>>>();
  EarlierReads live;
  live.holds = [&](ByteRange r) {
    std::lock_guard<std::mutex> lock(prefetched_mu_);
    auto [earlier, index] = PrefetchedHolding(r);
    // Copied, never handed over (gone already, or failed: fetched again).
    if (!earlier || !earlier->Share(index)) return false;
    if (std::find(holds->begin(), holds->end(), earlier) == holds->end()) {
      holds->push_back(std::move(earlier));
    }
    return true;
  };
  live.held_to = [&](uint64_t offset) -> uint64_t {
    std::lock_guard<std::mutex> lock(prefetched_mu_);
    auto [earlier, index] = PrefetchedHolding({offset, 1});
    return earlier ? earlier->ranges()[index].end() : 0;
  };
  std::vector<ByteRange> ranges = WaveReads(slices, live, &repeated);
  if (!ranges.empty()) {
    std::shared_ptr<io::AsyncWave> wave = io::AsyncWave::Start(*file_->file, ranges, ledger);
    for (size_t i : repeated) wave->Share(i);
    std::lock_guard<std::mutex> lock(prefetched_mu_);
    for (size_t i = 0; i < wave->ranges().size(); ++i) {
      const ByteRange& r = wave->ranges()[i];
      prefetched_[{r.offset, r.length}] = Ahead{wave, i};
    }
    holds->push_back(std::move(wave));
  }
  if (holds->empty()) return nullptr;
  return holds;
}

uint64_t RowGroupData::EstimateReadBytes(std::span<const prune::RowSelection* const> slices) const {
  const RowGroup& rg = row_group();
  if (rg.num_rows <= 0) return 0;
  uint64_t chunk_bytes = 0;
  for (const auto& [leaf, chunk] : chunks_) {
    const auto& meta = rg.columns[leaf].meta_data;
    if (meta && meta->total_compressed_size > 0) {
      chunk_bytes += static_cast<uint64_t>(meta->total_compressed_size);
    }
  }
  int64_t rows = 0;
  for (const prune::RowSelection* slice : slices) {
    if (!slice->empty()) rows += slice->ranges().back().end - slice->ranges().front().begin;
  }
  const double share = std::min(1.0, static_cast<double>(rows) / static_cast<double>(rg.num_rows));
  return static_cast<uint64_t>(share * static_cast<double>(chunk_bytes));
}

std::vector<ByteRange> RowGroupData::PlanWave(std::span<const prune::RowSelection* const> slices,
                                              std::vector<ByteRange>* earlier) {
  // The earlier waves' reads, as if all were still held (they are, unless the decoding catches
  // up with the prefetch).
  EarlierReads planned;
  planned.holds = [&](ByteRange r) { return Holding(*earlier, r) != earlier->end(); };
  planned.held_to = [&](uint64_t offset) { return HeldTo(*earlier, offset); };
  std::vector<size_t> repeated;
  std::vector<ByteRange> ranges = WaveReads(slices, planned, &repeated);
  earlier->insert(earlier->end(), ranges.begin(), ranges.end());
  return ranges;
}

ByteRange RowGroupData::PastHeld(ByteRange range, const std::vector<ByteRange>& wave,
                                 const EarlierReads& earlier) {
  for (;;) {
    const uint64_t held_to = std::max(earlier.held_to(range.offset), HeldTo(wave, range.offset));
    if (held_to == 0) return range;
    if (held_to >= range.end()) return {range.end(), 0};
    range = {held_to, range.end() - held_to};
  }
}

std::pair<std::shared_ptr<io::AsyncWave>, size_t> RowGroupData::PrefetchedHolding(ByteRange range) {
  // The prefetched reads that start at or before `range`, the last first: the reads of one
  // wave do not overlap, but those of two slices' waves may (a page both hold, coalesced
  // with different neighbours), so a few live ones are looked at. Reads of slices that are
  // done are dropped on the way and not counted: left in the map, they would hide a live
  // read behind them, and the task would read for itself (one more round trip).
  auto it = prefetched_.upper_bound({range.offset, UINT64_MAX});
  for (int looked = 0; looked < 4 && it != prefetched_.begin();) {
    --it;
    std::shared_ptr<io::AsyncWave> wave = it->second.wave.lock();
    if (!wave) {
      it = prefetched_.erase(it);  // every slice that held it is done
      continue;
    }
    ++looked;
    const uint64_t offset = it->first.first, length = it->first.second;
    if (range.end() <= offset + length) return {std::move(wave), it->second.index};
  }
  return {nullptr, 0};
}

std::optional<Buffer> RowGroupData::TakePrefetched(ByteRange range) {
  std::shared_ptr<io::AsyncWave> wave;
  size_t index = 0;
  {
    std::lock_guard<std::mutex> lock(prefetched_mu_);
    std::tie(wave, index) = PrefetchedHolding(range);
    if (!wave) return std::nullopt;
  }
  // Exactly a prefetched read (a whole chunk, a slice's pages): handed over; a reader of fewer
  // rows than the slice (an output column after the filter) gets a copy of its pages.
  return wave->Take(index, range);
}

// Reads the pieces of `pages` into one buffer (at `at` in the file, for messages), after the
// chunk's dictionary region when `dictionary` is given, and marks them fetched.
Result<RowGroupData::Fetched> RowGroupData::FetchPages(
    int32_t leaf, PageFetch pages, ByteRange at, const std::shared_ptr<const Buffer>& dictionary) {
  std::span<const uint8_t> head = dictionary ? dictionary->span() : std::span<const uint8_t>{};
  PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadPages(pages, head));
  {
    Chunk& c = *chunks_.at(leaf);
    std::lock_guard<std::mutex> lock(c.mu);
    MarkFetched(leaf, pages.pages, c);
  }
  auto buffer = std::make_shared<const Buffer>(std::move(bytes));
  return Fetched{buffer->span(), buffer, at, std::move(pages.pages), false};
}

// Every page's rows, for a nested leaf whose offset index describes the chunk (flat leaves pass
// over pages by their headers' value counts).
std::vector<column::PageSpan> RowGroupData::WholeChunkPages(int32_t leaf, ByteRange range) const {
  const format::OffsetIndex* index = OffsetIndex(leaf);
  if (index == nullptr) return {};
  if (file_->metadata->schema().columns()[leaf].max_repetition_level == 0) return {};
  std::optional<scan::PageFetch> all = scan::PlanPageFetchFrom(
      range, *index, row_group().num_rows, prune::RowSelection::All(row_group().num_rows), 0);
  return all ? std::move(all->pages) : std::vector<column::PageSpan>{};
}

// Only the pages holding a row of `rows`, when the chunk's offset index says where they are.
std::optional<PageFetch> RowGroupData::PlanFetch(int32_t leaf, ByteRange range,
                                                 const prune::RowSelection& rows,
                                                 bool with_dictionary) const {
  const RowGroup& rg = row_group();
  const format::OffsetIndex* index = OffsetIndex(leaf);
  if (index == nullptr || rows.SelectsAll(rg.num_rows)) return std::nullopt;
  return scan::PlanPageFetch(range, *index, rg.num_rows, rows, with_dictionary);
}

const format::OffsetIndex* RowGroupData::OffsetIndex(int32_t leaf) const {
  return file_->page_indexes ? file_->page_indexes->offset_index(row_group_, leaf) : nullptr;
}

// Checks the chunk's footer entry and finds its bytes; the last chunks of a file often lie in
// the bytes read with the footer.
Status RowGroupData::Locate(int32_t leaf, Chunk& c) {
  const ColumnChunk& chunk = row_group().columns[leaf];
  PQSIFT_RETURN_IF_ERROR(
      format::CheckChunkReadable(*file_->metadata, row_group_, leaf, Where(leaf)));
  PQSIFT_ASSIGN_OR_RETURN(
      c.range, column::ColumnChunkRange(*chunk.meta_data, file_->file->size(), Where(leaf)));
  if (auto cached = file_->metadata->CachedBytes(c.range)) {
    c.bytes = *cached;
    c.owner = file_->metadata;
  }
  return Status::OK();
}

void RowGroupData::MarkFetched(int32_t leaf, const std::vector<column::PageSpan>& pages,
                               Chunk& c) const {
  const std::vector<format::PageLocation>& locations = OffsetIndex(leaf)->page_locations;
  c.pages_fetched.resize(locations.size());
  for (const column::PageSpan& page : pages) {
    auto at = std::lower_bound(
        locations.begin(), locations.end(), page.first_row,
        [](const format::PageLocation& l, int64_t row) { return l.first_row_index < row; });
    if (at != locations.end()) c.pages_fetched[at - locations.begin()] = true;
  }
}

// `head`, then the pieces of `fetch` one after the other, read in its coalesced reads.
Result<Buffer> RowGroupData::ReadPages(const PageFetch& fetch, std::span<const uint8_t> head) {
  uint64_t total = head.size();
  for (const ByteRange& p : fetch.pieces) total += p.length;
  // Pages next to each other (a range of rows): the one read is the buffer, no copy.
  if (head.empty() && fetch.reads.size() == 1 && fetch.reads[0].length == total) {
    return ReadReusingDictionary(fetch.reads[0]);
  }
  Buffer out(total);
  if (!head.empty()) std::memcpy(out.mutable_data(), head.data(), head.size());
  uint64_t written = head.size();
  size_t piece = 0;
  const ByteRange cached = file_->metadata->cached_range();
  for (const ByteRange& read : fetch.reads) {
    // A read that is exactly its pieces (no coalesced gap), outside the footer's bytes and
    // the held dictionaries, goes straight to its place: no copy.
    uint64_t tiled = 0;
    for (size_t p = piece; p < fetch.pieces.size() && fetch.pieces[p].end() <= read.end(); ++p) {
      tiled += fetch.pieces[p].length;
    }
    const bool held = file_->dictionaries && file_->dictionaries->Holds(read.offset);
    if (tiled == read.length && read.end() <= cached.offset && !held) {
      if (std::optional<Buffer> ahead = TakePrefetched(read)) {
        std::memcpy(out.mutable_data() + written, ahead->data(), read.length);
      } else {
        PQSIFT_RETURN_IF_ERROR(
            file_->file->ReadInto(read, {out.mutable_data() + written, read.length}));
      }
      written += read.length;
      while (piece < fetch.pieces.size() && fetch.pieces[piece].end() <= read.end()) ++piece;
      continue;
    }
    PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadReusingDictionary(read));
    // The reads are the pieces coalesced, in order: each piece lies in the first read that
    // reaches past its start.
    for (; piece < fetch.pieces.size() && fetch.pieces[piece].end() <= read.end(); ++piece) {
      const ByteRange& p = fetch.pieces[piece];
      std::memcpy(out.mutable_data() + written, bytes.data() + (p.offset - read.offset), p.length);
      written += p.length;
    }
  }
  return out;
}

// A read that starts with a dictionary page the planning fetched (the dictionary stage) takes
// those bytes and reads only the rest.
Result<Buffer> RowGroupData::ReadReusingDictionary(ByteRange range) {
  std::optional<Buffer> held;
  if (file_->dictionaries) held = file_->dictionaries->TakeBytes(range.offset);
  if (!held || held->size() == 0) return ReadAroundCache(range);
  uint64_t head = std::min<uint64_t>(held->size(), range.length);
  if (head == range.length) return Buffer::CopyOf(held->span().subspan(0, head));
  PQSIFT_ASSIGN_OR_RETURN(Buffer rest, ReadAroundCache({range.offset + head, range.length - head}));
  Buffer whole(range.length);
  std::memcpy(whole.mutable_data(), held->data(), head);
  std::memcpy(whole.mutable_data() + head, rest.data(), rest.size());
  return whole;
}

// The last chunks of a file often end inside the bytes read with the footer: only the part
// before them is read again, so no byte is fetched twice (and a read inside them, a slice's
// pages of such a chunk, reads nothing).
Result<Buffer> RowGroupData::ReadAroundCache(ByteRange range) {
  if (std::optional<Buffer> ahead = TakePrefetched(range)) return std::move(*ahead);
  const ParquetMetadata& md = *file_->metadata;
  if (auto inside = md.CachedBytes(range)) return Buffer::CopyOf(*inside);
  ByteRange cached = md.cached_range();
  if (range.offset < cached.offset && range.end() > cached.offset) {
    uint64_t head = cached.offset - range.offset;
    auto tail = md.CachedBytes({cached.offset, range.length - head});
    if (tail) {
      std::optional<Buffer> ahead = TakePrefetched({range.offset, head});
      if (!ahead) {
        PQSIFT_ASSIGN_OR_RETURN(ahead, file_->file->Read({range.offset, head}));
      }
      const Buffer& first = *ahead;
      Buffer whole(range.length);
      std::memcpy(whole.mutable_data(), first.data(), head);
      std::memcpy(whole.mutable_data() + head, tail->data(), tail->size());
      return whole;
    }
  }
  return file_->file->Read(range);
}

}  // namespace pqsift::scan
