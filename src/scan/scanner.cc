// The scan executor: carries out the access plan built at Open (scan/planner.h).
//
//   Open: footers -> projection and filter binding (per file) -> access plan -> slices
//   Next: keep up to `threads + 1` slices in flight; when the oldest is done, cut it into batches
//   before each launch: the runtime filter, if one was published, narrows or drops the slice
//   (ApplyRuntimeFilter); ORDER BY ... LIMIT runs as a TopK over an inner Scanner (top_k.h)
//
// A slice is the selected rows of a whole row group, or of a row range of a very large one (so
// memory stays bounded). A slice that needs the residual filter runs in two phases: first its
// filter columns are decoded window by window and the filter evaluated, which narrows the
// slice's selection to the matching rows; then the output columns are decoded for those rows
// only (the column readers skip the gaps without materialising them). Fully matched slices and
// scans without a filter go straight to the second phase. Column chunks are fetched once per row
// group and shared by its slices and phases.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

#include "arrow/select.h"
#include "arrow/widen.h"
#include "column/arrow_type.h"
#include "column/leaf_reader.h"
#include "column/nested.h"
#include "expr/binder.h"
#include "expr/evaluate.h"
#include "expr/substitute.h"
#include "format/chunk_readable.h"
#include "format/page_index_store.h"
#include "pqsift/scan.h"
#include "prune/access_plan.h"
#include "scan/constant_array.h"
#include "scan/dictionary_store.h"
#include "scan/page_fetch.h"
#include "scan/planner.h"
#include "scan/reader_handoff.h"
#include "scan/runtime_check.h"
#include "scan/scan_input.h"
#include "scan/thread_pool.h"
#include "scan/top_k.h"

namespace pqsift {
namespace {

using Clock = std::chrono::steady_clock;

int64_t NanosSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// A column the scan decodes: an output column (a projected path, maybe a whole struct) or a
// filter column (one leaf), as one file stores it; or a constant: a partition column, or a
// column the file lacks (NULL).
struct DecodedColumn {
  std::string path;
  column::AssemblyNode plan;
  std::vector<int32_t> leaves;
  std::shared_ptr<const DataType> type;  // the scan's type: the file's is widened to it
  bool widen = false;                    // the file stores a narrower type (arrow/widen.h)
  std::optional<expr::Value> constant;   // set: not in the file; every row holds this value

  // Whether `output`'s arrays are this column's: the same leaves, assembled and widened alike (a
  // runtime filter's column has no scan type: it is the file's).
  bool DecodesAs(const DecodedColumn& output) const {
    if (constant || output.constant || leaves != output.leaves) return false;
    if (plan.type->ToString() != output.plan.type->ToString()) return false;
    if (type == nullptr) return !output.widen;
    return widen == output.widen && *type == *output.type;
  }

  // The decoded (or constant) array of `rows` rows in the scan's type.
  Result<std::shared_ptr<Array>> Finish(std::shared_ptr<Array> decoded, int64_t rows) const {
    if (constant) return scan::MakeConstantArray(type, *constant, rows);
    if (widen) return WidenArray(*decoded, type);
    return decoded;
  }
};

// The filter a slice evaluates on its rows: the scan's filter, AND the runtime filter as it stood
// when the slice was launched. columns[k] decodes filter.columns[k].
struct SliceFilter {
  expr::BoundFilter filter;
  std::vector<const DecodedColumn*> columns;
  // Per output column: the filter column that decodes it the same way (its decoded windows are
  // gathered instead of decoding it again), or -1.
  std::vector<int> output_from_filter;

  void MatchOutputColumns(const std::vector<DecodedColumn>& outputs) {
    output_from_filter.clear();
    for (const DecodedColumn& out : outputs) {
      int from = -1;
      for (size_t k = 0; k < columns.size() && from < 0; ++k) {
        if (columns[k]->DecodesAs(out)) from = static_cast<int>(k);
      }
      output_from_filter.push_back(from);
    }
  }
};

struct FileEntry {
  size_t index = 0;  // in the scan's files
  std::shared_ptr<RandomAccessFile> file;
  std::shared_ptr<const ParquetMetadata> metadata;
  std::vector<expr::Value> partition_values;  // per State::partition_columns
  std::string fully_matched_by;               // dataset-level proof that every row matches
  std::vector<uint8_t> excluded_row_groups;   // outside the scan's split
  std::vector<DecodedColumn> output_columns;  // per State::columns, as this file holds them
  // The filter as bound against the scan's schema (the same for every file), and for the
  // pruning stages with this file's constant columns substituted and its leaves resolved.
  std::optional<expr::BoundFilter> filter;
  std::optional<expr::BoundFilter> proof_filter;
  std::vector<DecodedColumn> filter_columns;  // filter->columns[k] is filter_columns[k]
  std::vector<int32_t> leaves;  // every leaf the scan reads: output and filter, sorted, once
  // The page indexes the planning loaded (its offset indexes say which pages a selection needs).
  std::unique_ptr<format::PageIndexStore> page_indexes;
  // The runtime filter's columns in this file: runtime_refs[k] and runtime_columns[k] are
  // RuntimeFilter column k.
  std::vector<expr::ColumnRef> runtime_refs;
  std::vector<DecodedColumn> runtime_columns;
  std::shared_ptr<const SliceFilter> scan_filter;  // `filter` over filter_columns
  // The dictionary pages the planning fetched; their bytes are taken by the chunk fetches.
  std::unique_ptr<scan::DictionaryStore> dictionaries;
};

// The column chunks of one row group as the slices read them. A chunk with an offset index is
// fetched page by page for each reader: only the pages holding rows that reader needs (a slice's
// rows, or the rows its filter kept), and only while the reader lives, so memory follows the
// slices in flight, not the row group. A chunk without one is read whole, once, shared by the
// row group's slices and released when the last is done.
class RowGroupData {
 public:
  RowGroupData(std::shared_ptr<const FileEntry> file, size_t row_group,
               const std::vector<int32_t>& leaves)
      : file_(std::move(file)), row_group_(row_group) {
    for (int32_t leaf : leaves) chunks_.emplace(leaf, std::make_unique<Chunk>());
  }

  // Slices are made one at a time (RowGroupSlicer): each is added when made, and the last one
  // is known only once made, so the chunks are freed when both hold.
  void AddSlice() { ++slices_left_; }
  void AllSlicesAdded() {
    all_added_ = true;
    if (slices_left_ == 0) FreeChunks();
  }
  // Called when a slice's columns are all decoded: the last one frees the whole chunks.
  void SliceDone() {
    --slices_left_;
    if (slices_left_ == 0 && all_added_) FreeChunks();
  }
  void FreeChunks() {
    for (auto& [leaf, chunk] : chunks_) {
      std::lock_guard<std::mutex> lock(chunk->mu);
      if (chunk->read_whole) chunk->owner.reset();
    }
    std::lock_guard<std::mutex> lock(handoffs_mu_);
    for (auto& [key, handoff] : handoffs_) handoff->Clear();
  }
  // Drops everything the row group holds for tasks that will not run (the scan is destroyed):
  // steps waiting for their turn hold slices, and slices hold the row group.
  void Abandon() {
    FreeChunks();
    std::lock_guard<std::mutex> lock(steps_mu_);
    steps_.clear();
  }

  // The slices of the row group in order: each gets the next number.
  int64_t NextSliceSeq() { return next_seq_++; }

  // Runs `step` (may be empty: the slice has nothing to run) after the steps of every earlier
  // slice of the row group, in slice order, on whichever thread completes the sequence. The
  // output columns' tasks are submitted through it, so the tasks that hand a column's reader on
  // (scan/reader_handoff.h) reach the pool in slice order.
  void RunInOrder(int64_t seq, std::function<void()> step) {
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

  // The reader of `leaf` handed from slice to slice in `role` (0: the filter; 1 + c: output
  // column c).
  scan::ReaderHandoff& HandoffOf(int role, int32_t leaf) {
    std::lock_guard<std::mutex> lock(handoffs_mu_);
    std::unique_ptr<scan::ReaderHandoff>& handoff = handoffs_[{role, leaf}];
    if (!handoff) handoff = std::make_unique<scan::ReaderHandoff>();
    return *handoff;
  }
  column::ChunkShare* ShareOf(int32_t leaf) { return &chunks_.at(leaf)->share; }

  // Whether a reader of `leaf` that starts at `row` may need a page that holds rows before it
  // (and that an earlier slice may have decompressed): unknown without an offset index.
  bool PageMayStartBefore(int32_t leaf, int64_t row) const {
    if (row == 0) return false;
    const format::OffsetIndex* index = OffsetIndex(leaf);
    if (index == nullptr) return true;
    const auto& locations = index->page_locations;
    auto next = std::upper_bound(
        locations.begin(), locations.end(), row,
        [](int64_t r, const format::PageLocation& page) { return r < page.first_row_index; });
    return next == locations.begin() || std::prev(next)->first_row_index < row;
  }

  // Pages (and their bytes) of the chunks opened so far that no reader needed: their offset
  // index let the scan leave them in the file.
  void CountPagesNotFetched(int64_t* pages, uint64_t* bytes) const {
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

  const FileEntry& file() const { return *file_; }
  const RowGroup& row_group() const { return file_->metadata->file().row_groups[row_group_]; }
  size_t row_group_index() const { return row_group_; }

  // Whether a slice of the row group was launched (consumer thread only).
  bool launched() const { return launched_; }
  void MarkLaunched() { launched_ = true; }
  // A slice the runtime filter dropped before its launch. True when no slice of the row group
  // was launched and none is left: the whole row group was skipped.
  bool DropSlice() {
    SliceDone();
    return slices_left_ == 0 && all_added_ && !launched_;
  }

  std::string Where(int32_t leaf) const {
    return WhereColumn(file_->metadata->schema().columns()[leaf].path);
  }
  std::string WhereColumn(std::string_view path) const {
    return file_->file->name() + ": row group " + std::to_string(row_group_) + ", column '" +
           std::string(path) + "'";
  }

  struct Fetched {
    std::span<const uint8_t> bytes;  // valid while `owner` lives
    std::shared_ptr<const void> owner;
    ByteRange range;
    // The data pages `bytes` holds (empty: every page of the chunk, rows unknown). A whole chunk
    // of a nested column comes with every page's rows where the offset index gives them, so a
    // reader starting inside it passes over the pages before by their rows, undecompressed.
    std::vector<column::PageSpan> pages;
    bool whole = true;
  };

  // The bytes of `leaf`'s chunk a reader of `rows` (and of no other row) needs.
  Result<Fetched> Get(int32_t leaf, const prune::RowSelection& rows) {
    Chunk& c = *chunks_.at(leaf);
    {
      std::lock_guard<std::mutex> lock(c.mu);
      if (!c.located) {
        c.status = Locate(leaf, c);
        c.located = true;
      }
      if (!c.status.ok()) return c.status;
      if (c.owner) return Fetched{c.bytes, c.owner, c.range, WholeChunkPages(leaf, c.range)};
    }
    std::optional<scan::PageFetch> pages = PlanFetch(leaf, c.range, rows);
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
    return FetchPages(leaf, std::move(*pages), c.range);
  }

  // For a reader continued from an earlier slice on some pages of the chunk: the pages from row
  // `from_row` on that hold a row of `rows`.
  Result<Fetched> GetFrom(int32_t leaf, const prune::RowSelection& rows, int64_t from_row) {
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
    return FetchPages(leaf, std::move(*pages), first);
  }

  // Reads the pieces of `pages` into one buffer (at `at` in the file, for messages) and marks
  // them fetched.
  Result<Fetched> FetchPages(int32_t leaf, scan::PageFetch pages, ByteRange at) {
    PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadPages(pages));
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
  std::vector<column::PageSpan> WholeChunkPages(int32_t leaf, ByteRange range) const {
    const format::OffsetIndex* index = OffsetIndex(leaf);
    if (index == nullptr) return {};
    if (file_->metadata->schema().columns()[leaf].max_repetition_level == 0) return {};
    std::optional<scan::PageFetch> all = scan::PlanPageFetchFrom(
        range, *index, row_group().num_rows, prune::RowSelection::All(row_group().num_rows), 0);
    return all ? std::move(all->pages) : std::vector<column::PageSpan>{};
  }

  // Only the pages holding a row of `rows`, when the chunk's offset index says where they are.
  std::optional<scan::PageFetch> PlanFetch(int32_t leaf, ByteRange range,
                                           const prune::RowSelection& rows) const {
    const RowGroup& rg = row_group();
    const format::OffsetIndex* index = OffsetIndex(leaf);
    if (index == nullptr || rows.SelectsAll(rg.num_rows)) return std::nullopt;
    return scan::PlanPageFetch(range, *index, rg.num_rows, rows);
  }

 private:
  struct Chunk {
    std::mutex mu;
    bool located = false;
    Status status;
    ByteRange range;
    // The whole chunk, once read (or found in the bytes read with the footer).
    std::span<const uint8_t> bytes;
    std::shared_ptr<const void> owner;
    bool read_whole = false;
    std::vector<bool> pages_fetched;  // by offset index page, once some reader took pages
    column::ChunkShare share;         // the decoded dictionary, for every reader of the chunk
  };

  const format::OffsetIndex* OffsetIndex(int32_t leaf) const {
    return file_->page_indexes ? file_->page_indexes->offset_index(row_group_, leaf) : nullptr;
  }

  // Checks the chunk's footer entry and finds its bytes; the last chunks of a file often lie in
  // the bytes read with the footer.
  Status Locate(int32_t leaf, Chunk& c) {
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

  void MarkFetched(int32_t leaf, const std::vector<column::PageSpan>& pages, Chunk& c) const {
    const std::vector<format::PageLocation>& locations = OffsetIndex(leaf)->page_locations;
    c.pages_fetched.resize(locations.size());
    for (const column::PageSpan& page : pages) {
      auto at = std::lower_bound(
          locations.begin(), locations.end(), page.first_row,
          [](const format::PageLocation& l, int64_t row) { return l.first_row_index < row; });
      if (at != locations.end()) c.pages_fetched[at - locations.begin()] = true;
    }
  }

  // The pieces of `fetch` one after the other, read in its coalesced reads.
  Result<Buffer> ReadPages(const scan::PageFetch& fetch) {
    uint64_t total = 0;
    for (const ByteRange& p : fetch.pieces) total += p.length;
    // Pages next to each other (a range of rows): the one read is the buffer, no copy.
    if (fetch.reads.size() == 1 && fetch.reads[0].length == total) {
      return ReadReusingDictionary(fetch.reads[0]);
    }
    Buffer out(total);
    uint64_t written = 0;
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
        PQSIFT_RETURN_IF_ERROR(
            file_->file->ReadInto(read, {out.mutable_data() + written, read.length}));
        written += read.length;
        while (piece < fetch.pieces.size() && fetch.pieces[piece].end() <= read.end()) ++piece;
        continue;
      }
      PQSIFT_ASSIGN_OR_RETURN(Buffer bytes, ReadReusingDictionary(read));
      // The reads are the pieces coalesced, in order: each piece lies in the first read that
      // reaches past its start.
      for (; piece < fetch.pieces.size() && fetch.pieces[piece].end() <= read.end(); ++piece) {
        const ByteRange& p = fetch.pieces[piece];
        std::memcpy(out.mutable_data() + written, bytes.data() + (p.offset - read.offset),
                    p.length);
        written += p.length;
      }
    }
    return out;
  }

  // A read that starts with a dictionary page the planning fetched (the dictionary stage) takes
  // those bytes and reads only the rest.
  Result<Buffer> ReadReusingDictionary(ByteRange range) {
    std::optional<Buffer> held;
    if (file_->dictionaries) held = file_->dictionaries->TakeBytes(range.offset);
    if (!held || held->size() == 0) return ReadAroundCache(range);
    uint64_t head = std::min<uint64_t>(held->size(), range.length);
    if (head == range.length) return Buffer::CopyOf(held->span().subspan(0, head));
    PQSIFT_ASSIGN_OR_RETURN(Buffer rest,
                            ReadAroundCache({range.offset + head, range.length - head}));
    Buffer whole(range.length);
    std::memcpy(whole.mutable_data(), held->data(), head);
    std::memcpy(whole.mutable_data() + head, rest.data(), rest.size());
    return whole;
  }

  // The last chunks of a file often end inside the bytes read with the footer: only the part
  // before them is read again, so no byte is fetched twice.
  Result<Buffer> ReadAroundCache(ByteRange range) {
    const ParquetMetadata& md = *file_->metadata;
    ByteRange cached = md.cached_range();
    if (range.offset < cached.offset && range.end() > cached.offset) {
      uint64_t head = cached.offset - range.offset;
      auto tail = md.CachedBytes({cached.offset, range.length - head});
      if (tail) {
        PQSIFT_ASSIGN_OR_RETURN(Buffer first, file_->file->Read({range.offset, head}));
        Buffer whole(range.length);
        std::memcpy(whole.mutable_data(), first.data(), head);
        std::memcpy(whole.mutable_data() + head, tail->data(), tail->size());
        return whole;
      }
    }
    return file_->file->Read(range);
  }

  std::shared_ptr<const FileEntry> file_;
  size_t row_group_;
  int slices_left_ = 0;  // changed by the consumer thread only (Plan, Next)
  bool all_added_ = false;
  bool launched_ = false;
  int64_t next_seq_ = 0;  // consumer thread only
  std::map<int32_t, std::unique_ptr<Chunk>> chunks_;
  std::mutex handoffs_mu_;
  std::map<std::pair<int, int32_t>, std::unique_ptr<scan::ReaderHandoff>> handoffs_;
  std::mutex steps_mu_;
  std::map<int64_t, std::function<void()>> steps_;  // waiting for the steps before them
  int64_t next_step_ = 0;
};

// The slices a slice's column readers follow (scan/reader_handoff.h): per (role, leaf), the
// slice whose reader it may continue (-1: none). Registered at launch.
using SliceLinks = std::map<std::pair<int, int32_t>, int64_t>;
constexpr int kFilterRole = 0;
int OutputRole(size_t output_column) { return 1 + static_cast<int>(output_column); }

struct ScanSlice {
  std::shared_ptr<RowGroupData> row_group;
  prune::RowSelection rows;     // row numbers within the row group
  bool needs_filter = false;    // evaluate the residual filter (the row group is not fully matched)
  prune::RowSelection matched;  // rows of `rows` proven to match: no residual filter for them
  std::shared_ptr<const SliceFilter> filter;  // the residual filter (when needs_filter)
  int64_t seq = 0;                            // in the row group's slices
  std::shared_ptr<const SliceLinks> links;
};

// Where the slices of a row group end: about every `slice_rows` rows, each end placed, within
// the second half of its slice, where it cuts the fewest page bytes. A page cut by a slice end
// is fetched and decompressed by both slices; the candidates are the page starts of the leaves
// read, and the cost of one is the bytes of the other leaves' pages that straddle it. On files
// whose leaves start pages at the same rows (writers that cut pages by row count, as pqsift
// does) no page is cut at all: a full scan of such a 727 MiB file read 820 MB before.
class SliceCutter {
 public:
  SliceCutter(std::vector<const format::OffsetIndex*> indexes, int64_t num_rows, int64_t slice_rows)
      : indexes_(std::move(indexes)), num_rows_(num_rows), slice_rows_(slice_rows) {
    for (const format::OffsetIndex* index : indexes_) {
      for (const format::PageLocation& page : index->page_locations) {
        candidates_.push_back(page.first_row_index);
      }
    }
    std::sort(candidates_.begin(), candidates_.end());
    candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  }

  int64_t slice_rows() const { return slice_rows_; }

  // The end of the slice that starts at row `begin` (< num_rows).
  int64_t EndOf(int64_t begin) const {
    int64_t end = std::min(num_rows_, begin + slice_rows_);
    if (end == num_rows_ || indexes_.empty()) return end;
    int64_t best_bytes = CutBytes(end);
    auto first = std::upper_bound(candidates_.begin(), candidates_.end(), begin + slice_rows_ / 2);
    auto last = std::upper_bound(candidates_.begin(), candidates_.end(), end);
    // Later ends first (longer slices); at most 64 tried, which bounds the work on wide files
    // whose pages start at different rows in every leaf.
    for (auto c = last; c != first && best_bytes > 0 && last - c < 64;) {
      --c;
      const int64_t bytes = CutBytes(*c);
      if (bytes < best_bytes) {
        best_bytes = bytes;
        end = *c;
      }
    }
    return end;
  }

 private:
  // Bytes of the pages that hold rows on both sides of `row` (the store checked that every
  // offset index lists pages in row order, starting at row 0).
  int64_t CutBytes(int64_t row) const {
    int64_t bytes = 0;
    for (const format::OffsetIndex* index : indexes_) {
      const auto& locations = index->page_locations;
      auto next = std::upper_bound(
          locations.begin(), locations.end(), row,
          [](int64_t r, const format::PageLocation& page) { return r < page.first_row_index; });
      if (next != locations.begin() && std::prev(next)->first_row_index < row) {
        bytes += std::prev(next)->compressed_page_size;
      }
    }
    return bytes;
  }

  std::vector<const format::OffsetIndex*> indexes_;
  int64_t num_rows_;
  int64_t slice_rows_;
  std::vector<int64_t> candidates_;
};

// The slices of one row group, made one at a time as the scan reaches them. A footer may claim
// billions of rows for a row group (a few bytes of RLE can hold them, and so can a corrupt
// count): slices made ahead would cost memory and time in proportion to the claim (a fuzzed
// 2 KiB file claiming 856 billion rows took a minute to plan), one at a time only as far as
// the data goes. Selected rows are found through the plan's ranges, so gaps cost nothing.
class RowGroupSlicer {
 public:
  RowGroupSlicer(std::shared_ptr<RowGroupData> data, const prune::RowGroupPlan& plan,
                 bool needs_filter, std::shared_ptr<const SliceFilter> filter, SliceCutter cutter)
      : data_(std::move(data)),
        plan_(&plan),
        needs_filter_(needs_filter),
        filter_(std::move(filter)),
        cutter_(std::move(cutter)) {}

  RowGroupData& data() const { return *data_; }

  // A limited scan may need only its first rows: the next slices are at most `rows` long, each
  // twice the one before, until they reach the usual length (no ramp when `rows` is that long:
  // a limit may be any int64).
  void Ramp(int64_t rows) { ramp_ = rows > 0 && rows < cutter_.slice_rows() ? rows : 0; }

  // The next slice with a selected row, or nullopt when none is left (then the row group knows
  // it has all its slices).
  std::optional<ScanSlice> Next() {
    const std::vector<prune::RowRange>& ranges = plan_->rows.ranges();
    while (range_ < ranges.size() && ranges[range_].end <= begin_) ++range_;
    if (range_ == ranges.size()) {
      Finish();
      return std::nullopt;
    }
    begin_ = std::max(begin_, ranges[range_].begin);  // skip rows the plan does not read
    int64_t end = cutter_.EndOf(begin_);
    if (ramp_ > 0) {
      // The rest of the usual slice whole when it is less than twice the ramp: no short tail.
      if (end - begin_ >= 2 * ramp_) end = begin_ + ramp_;
      ramp_ = ramp_ * 2 >= cutter_.slice_rows() ? 0 : ramp_ * 2;
    }
    ScanSlice slice{
        data_,         plan_->rows.Intersect(prune::RowSelection::FromRanges({{begin_, end}})),
        needs_filter_, {},
        filter_,       data_->NextSliceSeq(),
        nullptr};
    slice.matched = plan_->matched_rows.Intersect(slice.rows);
    begin_ = end;
    data_->AddSlice();
    // Known now when this is the last (a runtime filter that drops it then knows the whole row
    // group was skipped).
    while (range_ < ranges.size() && ranges[range_].end <= begin_) ++range_;
    if (range_ == ranges.size()) Finish();
    return slice;
  }

 private:
  void Finish() {
    if (!done_) data_->AllSlicesAdded();
    done_ = true;
  }

  std::shared_ptr<RowGroupData> data_;
  const prune::RowGroupPlan* plan_;  // in State::plan, which outlives the slicers
  bool needs_filter_;
  std::shared_ptr<const SliceFilter> filter_;
  SliceCutter cutter_;
  int64_t begin_ = 0;  // the next slice starts at or after this row
  size_t range_ = 0;   // the first plan range that may hold rows at or after begin_
  int64_t ramp_ = 0;
  bool done_ = false;
};

// The decoded columns of one slice: columns[c][w] is output column c of batch window w.
struct SliceResult {
  std::mutex mu;
  std::condition_variable done;
  int pending = 0;
  Status error;
  std::vector<std::vector<std::shared_ptr<Array>>> columns;
  int64_t rows = 0;  // selected rows (after the filter)
  std::shared_ptr<RowGroupData> row_group;
};

Result<int32_t> FindNode(const Schema& schema, const std::string& path) {
  int32_t node = 0;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t dot = path.find('.', pos);
    std::string_view part = std::string_view(path).substr(
        pos, dot == std::string::npos ? std::string::npos : dot - pos);
    int32_t found = -1;
    for (int32_t child : schema.nodes()[node].children) {
      if (schema.nodes()[child].name == part) {
        found = child;
        break;
      }
    }
    if (found < 0) return Status::InvalidArgument("no column '" + path + "'");
    node = found;
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return node;
}

// Page counts of the readers a task used, added to the scan's totals when the task ends (a
// reader handed on to the next slice counts each page once: the counts are taken, not read).
struct PageCounters {
  std::atomic<int64_t> decoded{0};
  std::atomic<int64_t> passed_over{0};
  std::atomic<int64_t> decompressed{0};
  std::atomic<int64_t> bytes_decompressed{0};
  void Add(const std::vector<std::unique_ptr<column::LeafReader>>& readers) {
    for (const auto& r : readers) {
      if (!r) continue;
      column::LeafReader::PageCounts counts = r->TakePageCounts();
      decoded += counts.decoded;
      passed_over += counts.passed_over;
      decompressed += counts.decompressed;
      bytes_decompressed += counts.bytes_decompressed;
    }
  }
};

// The column readers of one task of a slice: one per leaf of its columns (in order), for a walk
// over `rows`. Each leaf's reader is the one the slice before it left (scan/reader_handoff.h),
// continued, when the first page this walk needs may hold rows before `rows` (so that slice may
// have decompressed it); otherwise a reader of its own on the pages holding `rows`. Every slot
// the slice registered must be Put back (Release) however the task ends.
class SliceReaders {
 public:
  SliceReaders(const ScanSlice& slice, int role, const std::vector<const DecodedColumn*>& columns)
      : slice_(slice), role_(role) {
    for (const DecodedColumn* column : columns) {
      if (column->constant) continue;
      leaves_.insert(leaves_.end(), column->leaves.begin(), column->leaves.end());
    }
  }
  ~SliceReaders() { Release(); }

  Status Acquire(const prune::RowSelection& rows, const column::PageReaderOptions& options) {
    RowGroupData& data = *slice_.row_group;
    const ParquetMetadata& md = *data.file().metadata;
    const RowGroup& rg = data.row_group();
    const int64_t first_row = rows.ranges().front().begin;
    for (int32_t leaf : leaves_) {
      std::unique_ptr<column::LeafReader> reader;
      int64_t prev = slice_.links->at({role_, leaf});
      if (prev >= 0) {
        scan::ReaderHandoff& handoff = data.HandoffOf(role_, leaf);
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
        reader->Continue(more.bytes, more.range.offset, std::move(more.owner),
                         std::move(more.pages));
      }
      if (!reader) {
        PQSIFT_ASSIGN_OR_RETURN(RowGroupData::Fetched chunk, data.Get(leaf, rows));
        PQSIFT_ASSIGN_OR_RETURN(
            column::PageReaderOptions chunk_options,
            column::ChunkPageOptions(options, md, data.row_group_index(), leaf, data.Where(leaf)));
        PQSIFT_ASSIGN_OR_RETURN(
            reader,
            column::LeafReader::Make(md.schema().columns()[leaf], *rg.columns[leaf].meta_data,
                                     chunk.bytes, chunk.range.offset, rg.num_rows, data.Where(leaf),
                                     chunk_options, std::move(chunk.pages)));
        reader->KeepAlive(std::move(chunk.owner), chunk.whole);
        reader->ShareWith(data.ShareOf(leaf));
      }
      readers_.push_back(std::move(reader));
    }
    return Status::OK();
  }

  const std::vector<std::unique_ptr<column::LeafReader>>& readers() const { return readers_; }

  // Hands each reader (or nothing, for leaves it has none of) on to the next slice. A reader that
  // failed is not handed on: `ok` false.
  void Release(bool ok = true) {
    if (released_) return;
    released_ = true;
    for (size_t i = 0; i < leaves_.size(); ++i) {
      std::unique_ptr<column::LeafReader> reader;
      if (ok && i < readers_.size()) reader = std::move(readers_[i]);
      // A reader at the end of the row group, or at the end of its page, saves a later slice
      // nothing (it would pass over the next pages by their rows just as a reader of its own):
      // freed here, in the task, so its buffers go back to the allocator while they are warm.
      if (reader && (reader->records_left() == 0 || reader->at_page_end())) reader.reset();
      slice_.row_group->HandoffOf(role_, leaves_[i]).Put(slice_.seq, std::move(reader));
    }
  }

  // The (role, leaf) slots a task of `columns` in `role` uses, registered in slice order.
  static void Register(const ScanSlice& slice, int role,
                       const std::vector<const DecodedColumn*>& columns, SliceLinks* links) {
    for (const DecodedColumn* column : columns) {
      if (column->constant) continue;
      for (int32_t leaf : column->leaves) {
        (*links)[{role, leaf}] = slice.row_group->HandoffOf(role, leaf).Register(slice.seq);
      }
    }
  }

 private:
  const ScanSlice& slice_;
  int role_;
  std::vector<int32_t> leaves_;
  std::vector<std::unique_ptr<column::LeafReader>> readers_;
  bool released_ = false;
};

// Cuts a selection into windows of at most `window_rows` selected rows: the batches of a slice.
// Every column of a slice is cut the same way, so their batches line up.
class WindowCutter {
 public:
  WindowCutter(const prune::RowSelection& selection, int64_t window_rows)
      : ranges_(selection.ranges()), window_rows_(window_rows) {}

  // The row ranges of the next window, in order; false after the last.
  bool Next(std::vector<prune::RowRange>* pieces) {
    pieces->clear();
    int64_t in_window = 0;
    while (in_window < window_rows_ && range_ < ranges_.size()) {
      const prune::RowRange& range = ranges_[range_];
      int64_t begin = std::max(range.begin, position_);
      int64_t take = std::min(range.end - begin, window_rows_ - in_window);
      pieces->push_back({begin, begin + take});
      in_window += take;
      position_ = begin + take;
      if (position_ == range.end) ++range_;
    }
    return !pieces->empty();
  }

 private:
  const std::vector<prune::RowRange>& ranges_;
  const int64_t window_rows_;
  size_t range_ = 0;
  int64_t position_ = 0;  // the first row not yet in a window
};

// Walks `selection` with every reader in step, in windows of at most `window_rows` selected
// rows: the gaps are skipped (not materialised), the ranges read. After each window,
// `on_window(pieces)` gets the row ranges the window covered; the readers then hold exactly
// those rows, ready to Flush.
template <typename OnWindow>
Status WalkSelection(const prune::RowSelection& selection, int64_t window_rows,
                     const std::vector<std::unique_ptr<column::LeafReader>>& readers,
                     const std::atomic<bool>& cancelled, OnWindow&& on_window) {
  WindowCutter windows(selection, window_rows);
  std::vector<prune::RowRange> pieces;
  while (windows.Next(&pieces)) {
    for (const prune::RowRange& piece : pieces) {
      if (cancelled.load(std::memory_order_relaxed)) return Status::Internal("cancelled");
      // Readers continued from an earlier slice start where it stopped, the others at row 0.
      for (const auto& r : readers) {
        if (piece.begin > r->position()) {
          PQSIFT_RETURN_IF_ERROR(r->SkipRecords(piece.begin - r->position()));
        }
      }
      for (const auto& r : readers) PQSIFT_RETURN_IF_ERROR(r->ReadRecords(piece.length()));
    }
    PQSIFT_RETURN_IF_ERROR(on_window(pieces));
  }
  return Status::OK();
}

// Follows the wanted rows along the windows of a superset of them being decoded, and gives the
// positions of the wanted rows inside each window.
class WantedRows {
 public:
  explicit WantedRows(const std::vector<prune::RowRange>& wanted) : wanted_(wanted) {}

  // The wanted rows inside `pieces` (consecutive windows' row ranges, in order).
  std::vector<prune::RowRange> RowsWithin(const std::vector<prune::RowRange>& pieces) {
    std::vector<prune::RowRange> out;
    for (const prune::RowRange& piece : pieces) {
      while (next_ < wanted_.size() && wanted_[next_].end <= piece.begin) ++next_;
      for (size_t k = next_; k < wanted_.size() && wanted_[k].begin < piece.end; ++k) {
        out.push_back(
            {std::max(wanted_[k].begin, piece.begin), std::min(wanted_[k].end, piece.end)});
      }
    }
    return out;
  }

  // `pieces`: the row ranges decoded into the next window, in order.
  std::vector<ElementRange> Within(const std::vector<prune::RowRange>& pieces) {
    std::vector<ElementRange> out;
    int64_t base = 0;  // position of the piece in the window
    for (const prune::RowRange& piece : pieces) {
      while (next_ < wanted_.size() && wanted_[next_].end <= piece.begin) ++next_;
      for (size_t k = next_; k < wanted_.size() && wanted_[k].begin < piece.end; ++k) {
        int64_t begin = base + std::max(wanted_[k].begin, piece.begin) - piece.begin;
        int64_t end = base + std::min(wanted_[k].end, piece.end) - piece.begin;
        if (!out.empty() && out.back().end == begin) {
          out.back().end = end;
        } else {
          out.push_back({begin, end});
        }
      }
      base += piece.length();
    }
    return out;
  }

 private:
  const std::vector<prune::RowRange>& wanted_;
  size_t next_ = 0;
};

// The windows the filter decoded, kept for the output columns that are filter columns too: those
// are gathered from here instead of being fetched and decoded a second time. Late
// materialisation then costs a filter that keeps most rows nothing beyond the filter itself.
struct FilterWindows {
  std::vector<prune::RowRange> rows;  // every decoded row range, in order ...
  std::vector<size_t> window;         // ... in which window ...
  std::vector<int64_t> element;       // ... from which element of it
  std::vector<bool> kept;             // per filter column: its windows are kept
  std::vector<std::vector<std::shared_ptr<Array>>> arrays;  // [filter column][window]

  void AddWindow(const std::vector<prune::RowRange>& pieces) {
    int64_t at = 0;
    for (const prune::RowRange& piece : pieces) {
      rows.push_back(piece);
      window.push_back(windows);
      element.push_back(at);
      at += piece.length();
    }
    ++windows;
  }
  size_t windows = 0;
};

// Flushes the readers of `column` (starting at `*next_reader`) and assembles its array of
// `rows` rows in the scan's type (a constant column has no readers). Levels that do not
// assemble (leaves of a struct disagreeing on their rows) are the file's fault: the error names
// the file, row group and column.
Result<std::shared_ptr<Array>> FlushColumn(
    const RowGroupData& data, const DecodedColumn& column,
    const std::vector<std::unique_ptr<column::LeafReader>>& readers, size_t* next_reader,
    int64_t rows) {
  if (column.constant) return column.Finish(nullptr, rows);
  std::vector<column::LeafBatch> batches;
  for (size_t i = 0; i < column.leaves.size(); ++i) {
    batches.push_back(readers[(*next_reader)++]->Flush());
  }
  Result<std::shared_ptr<Array>> array = column::Assemble(column.plan, column.leaves, batches);
  if (!array.ok()) return array.status().WithContext(data.WhereColumn(column.path));
  return column.Finish(std::move(array).value(), rows);
}

int64_t RowsOf(const std::vector<prune::RowRange>& pieces) {
  int64_t n = 0;
  for (const prune::RowRange& p : pieces) n += p.length();
  return n;
}

// Walks the rows a slice's plan proved to match along the windows of its filter, to take them as
// matching whatever the filter says of them.
class MatchedCursor {
 public:
  explicit MatchedCursor(const prune::RowSelection& matched) : ranges_(matched.ranges()) {}

  // Sets the mask byte of every proven row of `pieces` (consecutive windows' row ranges).
  void MarkMatches(const std::vector<prune::RowRange>& pieces, std::vector<uint8_t>* mask) {
    int64_t base = 0;
    for (const prune::RowRange& piece : pieces) {
      while (next_ < ranges_.size() && ranges_[next_].end <= piece.begin) ++next_;
      for (size_t k = next_; k < ranges_.size() && ranges_[k].begin < piece.end; ++k) {
        int64_t begin = std::max(ranges_[k].begin, piece.begin) - piece.begin + base;
        int64_t end = std::min(ranges_[k].end, piece.end) - piece.begin + base;
        std::fill(mask->begin() + begin, mask->begin() + end, uint8_t{1});
      }
      base += piece.length();
    }
  }

 private:
  const std::vector<prune::RowRange>& ranges_;
  size_t next_ = 0;
};

// The rows of `pieces` (consecutive row ranges holding mask.size() rows) whose mask byte is set.
void AppendMatches(const std::vector<prune::RowRange>& pieces, const std::vector<uint8_t>& mask,
                   std::vector<prune::RowRange>* out) {
  size_t k = 0;
  for (const prune::RowRange& piece : pieces) {
    for (int64_t row = piece.begin; row < piece.end; ++row, ++k) {
      if (mask[k] == 0) continue;
      if (!out->empty() && out->back().end == row) {
        ++out->back().end;
      } else {
        out->push_back({row, row + 1});
      }
    }
  }
}

}  // namespace

struct Scanner::State {
  ScanOptions options;
  std::vector<std::shared_ptr<const FileEntry>> files;
  // The columns the filter binds to and the projection resolves in (scan/scan_input.h); null
  // in `input`: the first file's, and then every file must hold every column read.
  std::shared_ptr<const Schema> tree;
  bool missing_columns_are_null = false;
  std::vector<std::string> partition_columns;
  scan::DatasetCounts dataset_counts;
  std::vector<DecodedColumn> columns;       // the output columns: path and the scan's type
  std::optional<expr::BoundFilter> filter;  // bound against `tree`
  std::shared_ptr<const BatchSchema> schema;
  prune::AccessPlan plan;
  std::vector<RowGroupSlicer> slicers;  // in reading order
  size_t next_slicer = 0;
  std::deque<std::shared_ptr<SliceResult>> in_flight;
  std::deque<std::shared_ptr<RecordBatch>> ready;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  int64_t rows_returned = 0;
  bool limit_reached = false;
  uint64_t row_groups_read = 0;
  double plan_seconds = 0;
  PageCounters pages;
  std::vector<std::shared_ptr<RowGroupData>> row_groups;  // every one the slices read
  std::atomic<int64_t> rows_decoded{0};
  std::atomic<int64_t> filter_nanos{0};
  std::atomic<int64_t> decode_nanos{0};
  // The runtime filter bound to each file, for the version last seen: proofs use `bound`, rows
  // are evaluated with `filter`.
  struct RuntimeBinding {
    uint64_t version = 0;
    scan::BoundRuntimeFilter bound;
    std::shared_ptr<const SliceFilter> filter;
  };
  std::vector<RuntimeBinding> runtime;
  uint64_t runtime_row_groups_skipped = 0;
  uint64_t runtime_pages_skipped = 0;
  std::unique_ptr<scan::TopK> top_k;       // set: Next() returns its rows (ScanOptions::order_by)
  std::unique_ptr<scan::ThreadPool> pool;  // last: destroyed first, joining the workers

  ~State() {
    pool.reset();  // the tasks run (cancelled) and hand their readers on
    // Steps that never got their turn hold slices, which hold their row group.
    for (const auto& row_group : row_groups) row_group->Abandon();
  }

  Status Project();
  Status BindRuntimeColumns();
  Status LoadRuntimeEvidence();
  void OrderSlices();
  Result<bool> ApplyRuntimeFilter(ScanSlice& slice);
  Status BindFilter();
  Result<DecodedColumn> Resolve(const FileEntry& entry, const std::string& path,
                                const std::shared_ptr<const DataType>& type) const;
  Status Plan();
  Status LoadOffsetIndexes();
  // No columns projected: `rows` rows as batches without columns, so counts stay right.
  void PushRowsWithoutColumns(int64_t rows) {
    for (int64_t done = 0; done < rows; done += options.batch_size) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = schema;
      batch->num_rows = std::min(options.batch_size, rows - done);
      ready.push_back(std::move(batch));
    }
  }
  int64_t SlicedRowsOfPages(const FileEntry& file, size_t g, int64_t slice_rows) const;
  SliceCutter CutterOf(const FileEntry& file, size_t g) const;
  std::optional<ScanSlice> NextSlice();
  void Launch(const ScanSlice& launched);
  void ReleaseOutputSlots(const ScanSlice& slice, size_t c) const;
  void SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                           const std::shared_ptr<const FilterWindows>& decoded,
                           const std::shared_ptr<SliceResult>& result);
  Result<prune::RowSelection> EvaluateFilter(const ScanSlice& slice, FilterWindows* keep);
  Result<std::vector<std::shared_ptr<Array>>> GatherFilterColumn(const ScanSlice& slice,
                                                                 const prune::RowSelection& rows,
                                                                 const FilterWindows& decoded,
                                                                 size_t filter_column,
                                                                 size_t output_column);
  Result<std::vector<std::shared_ptr<Array>>> DecodeColumn(const ScanSlice& slice,
                                                           const prune::RowSelection& rows,
                                                           size_t output_column);
  column::PageReaderOptions page_options() const {
    column::PageReaderOptions o;
    o.verify_crc = options.verify_crc;
    o.max_page_bytes = options.max_page_bytes;
    return o;
  }
  static void Finish(SliceResult& result, Status status);
};

Status Scanner::State::Project() {
  const Schema& tree_schema = *tree;
  std::vector<std::string> paths = options.columns;
  if (options.count_only) {
    paths.clear();
  } else if (paths.empty()) {
    for (int32_t child : tree_schema.root().children) {
      paths.emplace_back(tree_schema.nodes()[child].name);
    }
  }
  const std::string first = files.empty() ? "dataset" : files.front()->metadata->file_name();
  auto batch_schema = std::make_shared<BatchSchema>();
  for (const std::string& path : paths) {
    auto node = FindNode(tree_schema, path);
    if (!node.ok()) return node.status().WithContext(missing_columns_are_null ? "dataset" : first);
    DecodedColumn col;
    col.path = path;
    auto plan = column::PlanNode(tree_schema, *node, &col.leaves);
    if (!plan.ok())
      return plan.status().WithContext(
          std::string(first).append(": column '").append(path).append("'"));
    col.type = plan->type;
    const SchemaNode& n = tree_schema.nodes()[*node];
    batch_schema->fields.push_back({path, col.type, n.repetition != Repetition::kRequired});
    columns.push_back(std::move(col));
  }
  for (const auto& entry : files) {
    auto file = std::const_pointer_cast<FileEntry>(entry);
    for (const DecodedColumn& col : columns) {
      PQSIFT_ASSIGN_OR_RETURN(DecodedColumn resolved, Resolve(*file, col.path, col.type));
      file->output_columns.push_back(std::move(resolved));
    }
  }
  schema = batch_schema;
  return Status::OK();
}

// Column `path` (of the scan's type `type`) as `entry`'s file holds it: a partition value, a
// column of the file (maybe of a narrower type), or, when the file lacks it, NULL.
Result<DecodedColumn> Scanner::State::Resolve(const FileEntry& entry, const std::string& path,
                                              const std::shared_ptr<const DataType>& type) const {
  DecodedColumn col;
  col.path = path;
  col.type = type;
  for (size_t p = 0; p < partition_columns.size(); ++p) {
    if (partition_columns[p] == path) {
      col.constant = entry.partition_values.at(p);
      return col;
    }
  }
  const Schema& file_schema = entry.metadata->schema();
  const std::string& first = files.front()->metadata->file_name();
  const std::string& name = entry.metadata->file_name();
  auto node = FindNode(file_schema, path);
  if (!node.ok()) {
    if (!missing_columns_are_null) {
      return Status::InvalidArgument("column '" + path + "' is in " + first + " but not in " +
                                     name);
    }
    col.constant = expr::Value::Null();
    return col;
  }
  auto plan = column::PlanNode(file_schema, *node, &col.leaves);
  if (!plan.ok()) return plan.status().WithContext(name + ": column '" + path + "'");
  col.plan = std::move(plan).value();
  if (!(*col.plan.type == *type)) {
    if (!CanWiden(*col.plan.type, *type)) {
      return Status::InvalidArgument("column '" + path + "' is " + type->ToString() +
                                     " in the scan (" + first + ") but " +
                                     col.plan.type->ToString() + " in " + name);
    }
    col.widen = true;
  }
  return col;
}

// Binds the filter once to the scan's schema, then resolves its columns in each file; the
// pruning stages get the filter with the file's constant columns substituted.
Status Scanner::State::BindFilter() {
  if (options.filter.empty()) return Status::OK();
  auto bound = expr::BindFilter(options.filter, *tree);
  if (!bound.ok()) {
    return bound.status().WithContext(
        missing_columns_are_null ? std::string("dataset") : files.front()->metadata->file_name());
  }
  filter = std::move(bound).value();
  for (const auto& e : files) {
    auto entry = std::const_pointer_cast<FileEntry>(e);
    std::vector<std::optional<expr::Value>> constants;
    for (const expr::ColumnRef& ref : filter->columns) {
      PQSIFT_ASSIGN_OR_RETURN(DecodedColumn col, Resolve(*entry, ref.path, ref.type));
      constants.push_back(col.constant);
      entry->filter_columns.push_back(std::move(col));
    }
    entry->filter = filter;
    entry->proof_filter = expr::SubstituteConstants(*filter, constants);
    auto scan_filter = std::make_shared<SliceFilter>();
    scan_filter->filter = *entry->filter;
    for (const DecodedColumn& col : entry->filter_columns) scan_filter->columns.push_back(&col);
    scan_filter->MatchOutputColumns(entry->output_columns);
    entry->scan_filter = std::move(scan_filter);
    // The stages read statistics of this file's leaves, in the file's own types.
    const Schema& file_schema = entry->metadata->schema();
    for (expr::ColumnRef& ref : entry->proof_filter->columns) {
      const ColumnDescriptor* leaf = file_schema.FindColumn(ref.path);
      if (leaf == nullptr) {
        ref.leaf = -1;  // no such leaf in the file: nothing known
        continue;
      }
      ref.leaf = static_cast<int32_t>(leaf - file_schema.columns().data());
      auto type = column::ArrowTypeForLeaf(*leaf);
      if (type.ok()) ref.type = *type;
    }
  }
  return Status::OK();
}

// Resolves the runtime filter's columns in each file (same leaves' types in every file, as for
// the filter).
Status Scanner::State::BindRuntimeColumns() {
  if (!options.runtime_filter) return Status::OK();
  runtime.resize(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    auto entry = std::const_pointer_cast<FileEntry>(files[f]);
    const Schema& schema = entry->metadata->schema();
    for (const std::string& path : options.runtime_filter->columns()) {
      auto ref = scan::ResolveLeafColumn(path, schema);
      if (!ref.ok()) {
        return ref.status().WithContext(entry->metadata->file_name() + ": runtime filter");
      }
      size_t k = entry->runtime_refs.size();
      if (f > 0 && !(*files.front()->runtime_refs[k].type == *ref->type)) {
        return Status::InvalidArgument("runtime filter column '" + path + "' differs between " +
                                       files.front()->metadata->file_name() + " and " +
                                       entry->metadata->file_name());
      }
      DecodedColumn col;
      col.path = ref->path;
      PQSIFT_ASSIGN_OR_RETURN(
          col.plan, column::PlanNode(schema, schema.columns()[ref->leaf].node, &col.leaves));
      entry->runtime_refs.push_back(*std::move(ref));
      entry->runtime_columns.push_back(std::move(col));
    }
  }
  return Status::OK();
}

// The evidence the runtime checks use, loaded during planning (later loads would race with the
// workers reading the store): the column indexes of the runtime filter's columns, and the offset
// indexes of every leaf read, so pages the check rules out are not fetched.
Status Scanner::State::LoadRuntimeEvidence() {
  if (!options.runtime_filter || !options.prune) return Status::OK();
  for (size_t f = 0; f < files.size(); ++f) {
    const FileEntry& file = *files[f];
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = 0; g < plan.files[f].row_groups.size(); ++g) {
      if (plan.files[f].row_groups[g].decision() == prune::Decision::kSkip) continue;
      for (const expr::ColumnRef& ref : file.runtime_refs) requests.push_back({g, ref.leaf, true});
      for (int32_t leaf : file.leaves) requests.push_back({g, leaf, false});
    }
    uint64_t bytes_read = 0;
    PQSIFT_RETURN_IF_ERROR(file.page_indexes->Load(requests, &bytes_read));
  }
  return Status::OK();
}

// The most promising row groups first (ScanOptions::read_order); a row group's slices stay
// together and in order.
void Scanner::State::OrderSlices() {
  if (!options.read_order) return;
  const ReadOrder& order = *options.read_order;
  std::vector<std::optional<expr::ColumnRef>> refs(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    auto ref = scan::ResolveLeafColumn(order.column, files[f]->metadata->schema());
    if (ref.ok()) refs[f] = *std::move(ref);  // no such column: nothing promised, file order
  }
  std::vector<std::pair<scan::Promise, size_t>> keyed;
  for (size_t i = 0; i < slicers.size(); ++i) {
    const RowGroupData& data = slicers[i].data();
    const std::optional<expr::ColumnRef>& ref = refs[data.file().index];
    scan::Promise promise;
    if (ref) {
      promise = scan::RowGroupPromise(*data.file().metadata, *ref, data.row_group_index(),
                                      order.descending, order.nulls_first);
    }
    keyed.emplace_back(std::move(promise), i);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    return scan::MorePromising(a.first, b.first, order.descending);
  });
  std::vector<RowGroupSlicer> ordered;
  ordered.reserve(keyed.size());
  for (const auto& k : keyed) ordered.push_back(std::move(slicers[k.second]));
  slicers = std::move(ordered);
}

// Right before a slice is launched: the runtime filter as it stands now, proved against the
// statistics of the slice's row group and its loaded page indexes. The slice keeps only the rows
// that may pass (so its readers fetch only their pages) and evaluates the filter on the rows not
// proven. False: no row of the slice can pass.
Result<bool> Scanner::State::ApplyRuntimeFilter(ScanSlice& slice) {
  if (!options.runtime_filter) return true;
  RowGroupData& data = *slice.row_group;
  const uint64_t version = options.runtime_filter->version();
  if (version == 0) return true;
  const FileEntry& file = data.file();
  RuntimeBinding& binding = runtime[file.index];
  if (binding.version != version) {
    scan::RuntimeSnapshot snapshot = scan::TakeSnapshot(*options.runtime_filter);
    PQSIFT_ASSIGN_OR_RETURN(binding.bound, scan::BindRuntimeFilter(snapshot, file.runtime_refs,
                                                                   file.metadata->file_name()));
    scan::CombinedFilter combined =
        scan::CombineFilters(file.filter ? &*file.filter : nullptr, snapshot, file.runtime_refs);
    auto filter = std::make_shared<SliceFilter>();
    for (const DecodedColumn& col : file.filter_columns) filter->columns.push_back(&col);
    for (size_t k : combined.added) filter->columns.push_back(&file.runtime_columns[k]);
    filter->filter = std::move(combined.filter);
    filter->MatchOutputColumns(file.output_columns);
    binding.filter = std::move(filter);
    binding.version = snapshot.version;
  }
  if (!binding.bound.filter.root) return true;
  if (!options.prune) {
    // No proof (--no-prune): every row is read and the runtime filter evaluated on it.
    slice.matched = prune::RowSelection();
    slice.needs_filter = true;
    slice.filter = binding.filter;
    return true;
  }
  // The slice's readers fetch only the pages holding its rows: narrowing them here leaves the
  // pages ruled out in the file.
  PQSIFT_ASSIGN_OR_RETURN(
      scan::RuntimeCheck check,
      scan::CheckRowGroup(binding.bound, *file.file, *file.metadata, file.page_indexes.get(),
                          data.row_group_index(), slice.rows));
  runtime_pages_skipped += static_cast<uint64_t>(check.pages_pruned);
  if (check.rows.empty()) {
    if (data.DropSlice()) ++runtime_row_groups_skipped;
    return false;
  }
  // Proven rows: those the plan proved for the scan's filter (all, without one) that the
  // runtime proof proved too; the rest are evaluated.
  prune::RowSelection scan_matched = slice.needs_filter ? slice.matched : slice.rows;
  slice.rows = slice.rows.Intersect(check.rows);
  slice.matched = scan_matched.Intersect(check.matched).Intersect(slice.rows);
  slice.needs_filter = slice.matched.row_count() != slice.rows.row_count();
  slice.filter = binding.filter;
  return true;
}
namespace {

// Slices: the selected rows of each row group, cut into parts of at most about 16 MiB and
// 128Ki rows. A slice's columns are decoded whole before its batches go out, so smaller
// slices mean less memory (a full scan of 1M-row row groups: 214 MB -> 122 MB peak), a LIMIT
// that stops after fewer rows, and both threads busy on files of few, large row groups; a
// chunk with an offset index is fetched per slice, page by page, so nothing is read twice
// but the pages a slice boundary cuts.
constexpr int64_t kMaxSliceBytes = int64_t{16} << 20;
constexpr int64_t kMaxSliceRows = int64_t{1} << 17;
constexpr int64_t kMaxPageSliceRows = int64_t{1} << 20;  // SlicedRowsOfPages

// The rows of each slice of row group `rg` (a multiple of the batch size; SliceEnds may end a
// slice earlier, at a page start); `forced` > 0 (ScanOptions::slice_rows) instead.
int64_t SliceRows(const RowGroup& rg, int64_t batch_size, int64_t forced) {
  if (forced > 0) return forced;
  int64_t slice_rows = rg.num_rows;
  if (rg.total_byte_size > kMaxSliceBytes) {
    // In floating point: the product overflows for the row counts a footer may claim.
    slice_rows = static_cast<int64_t>(static_cast<double>(rg.num_rows) * kMaxSliceBytes /
                                      static_cast<double>(rg.total_byte_size));
  }
  // Whatever the footer claims about sizes: a slice's columns are decoded whole before its
  // batches are handed out, and a few bytes of RLE can hold billions of rows.
  slice_rows = std::min(slice_rows, kMaxSliceRows);
  slice_rows = std::max<int64_t>(batch_size, slice_rows);
  return (slice_rows + batch_size - 1) / batch_size * batch_size;
}

}  // namespace

Status Scanner::State::Plan() {
  PQSIFT_RETURN_IF_ERROR(Project());
  PQSIFT_RETURN_IF_ERROR(BindFilter());
  PQSIFT_RETURN_IF_ERROR(BindRuntimeColumns());

  auto start = Clock::now();
  std::vector<scan::PlanInput> inputs;
  for (const auto& entry : files) {
    auto file = std::const_pointer_cast<FileEntry>(entry);
    std::vector<int32_t>& leaves = file->leaves;
    for (const auto* list : {&file->output_columns, &file->filter_columns}) {
      for (const DecodedColumn& col : *list) {
        if (!col.constant) leaves.insert(leaves.end(), col.leaves.begin(), col.leaves.end());
      }
    }
    std::sort(leaves.begin(), leaves.end());
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    file->page_indexes = std::make_unique<format::PageIndexStore>(*file->file, *file->metadata);
    file->dictionaries = std::make_unique<scan::DictionaryStore>(*file->file, *file->metadata);
    scan::PlanInput input{file->file.get(),
                          file->metadata.get(),
                          file->proof_filter ? &*file->proof_filter : nullptr,
                          file->page_indexes.get(),
                          file->leaves,
                          file->dictionaries.get(),
                          file->fully_matched_by,
                          file->excluded_row_groups};
    inputs.push_back(input);
  }
  scan::PlanOptions plan_options;
  plan_options.prune = options.prune;
  plan_options.limit = options.limit;
  plan_options.dictionary = options.pruning.dictionary;
  plan_options.page_headers = options.pruning.page_headers;
  plan_options.min_page_header_chunk_bytes = options.pruning.min_page_header_chunk_bytes;
  plan_options.dictionary_options.max_dictionary_bytes = options.pruning.max_dictionary_bytes;
  PQSIFT_ASSIGN_OR_RETURN(plan, scan::BuildAccessPlan(inputs, plan_options));
  for (size_t f = 0; f < files.size(); ++f) files[f]->dictionaries->ReleaseAfterPlan(plan.files[f]);
  PQSIFT_RETURN_IF_ERROR(LoadOffsetIndexes());
  PQSIFT_RETURN_IF_ERROR(LoadRuntimeEvidence());
  plan_seconds = static_cast<double>(NanosSince(start)) * 1e-9;

  for (size_t f = 0; f < files.size(); ++f) {
    auto file = std::const_pointer_cast<FileEntry>(files[f]);
    const std::vector<int32_t>& leaves = file->leaves;
    const FileMetaData& meta = file->metadata->file();
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      if (rg_plan.rows.empty()) continue;
      auto data = std::make_shared<RowGroupData>(file, g, leaves);
      row_groups.push_back(data);
      bool needs_filter = file->filter.has_value() && !rg_plan.fully_matched;
      slicers.emplace_back(data, rg_plan, needs_filter, file->scan_filter, CutterOf(*file, g));
    }
  }
  OrderSlices();
  // A limited scan may need only its first rows, so its first slices are 4096 rows (at least
  // the limit), each twice the one before: a LIMIT decodes a few thousand rows where a slice of
  // 128Ki rows would have been decoded whole (and a filtered limit runs one slice at a time).
  // `qty > 95 LIMIT 10`: 6.4 MB -> 1.3 MB read.
  if (options.limit > 0 && !options.read_order && !slicers.empty()) {
    slicers.front().Ramp(std::max<int64_t>(4096, options.limit));
  }
  return Status::OK();
}

// The next slice in reading order, made now; nullopt at the end of the scan.
std::optional<ScanSlice> Scanner::State::NextSlice() {
  for (; next_slicer < slicers.size(); ++next_slicer) {
    std::optional<ScanSlice> slice = slicers[next_slicer].Next();
    if (slice) return slice;
  }
  return std::nullopt;
}

// A page longer than a slice is decompressed once (the slices it spans hand its reader on), but
// those slices then decode that column one after the other. Slices are made at least as long as
// the longest page of the leaves read, where the offset indexes tell (up to kMaxPageSliceRows),
// so the slices of a row group decode on every thread.
int64_t Scanner::State::SlicedRowsOfPages(const FileEntry& file, size_t g,
                                          int64_t slice_rows) const {
  const RowGroup& rg = file.metadata->file().row_groups[g];
  if (options.slice_rows > 0) return slice_rows;
  if (slice_rows >= rg.num_rows || !file.page_indexes) return slice_rows;
  int64_t longest = 0;
  for (int32_t leaf : file.leaves) {
    format::PageRows pages{file.page_indexes->offset_index(g, leaf), rg.num_rows};
    if (pages.index == nullptr) continue;
    for (size_t p = 0; p < pages.pages(); ++p) {
      longest = std::max(longest, pages.end_row(p) - pages.first_row(p));
    }
  }
  if (longest <= slice_rows) return slice_rows;
  // Still bounded, whatever an offset index claims: a slice is decoded whole.
  longest = std::min({longest, rg.num_rows, kMaxPageSliceRows});
  return (longest + options.batch_size - 1) / options.batch_size * options.batch_size;
}

SliceCutter Scanner::State::CutterOf(const FileEntry& file, size_t g) const {
  const RowGroup& rg = file.metadata->file().row_groups[g];
  std::vector<const format::OffsetIndex*> indexes;
  for (int32_t leaf : file.leaves) {
    const format::OffsetIndex* index =
        file.page_indexes ? file.page_indexes->offset_index(g, leaf) : nullptr;
    if (index != nullptr) indexes.push_back(index);
  }
  return SliceCutter(
      std::move(indexes), rg.num_rows,
      SlicedRowsOfPages(file, g, SliceRows(rg, options.batch_size, options.slice_rows)));
}

// The offset indexes of the leaves read in row groups the plan reads only in part or that are
// cut into several slices, for the fetches to take only the pages they need (the page-index
// stage loaded most already, in the same reads as the column indexes). Without them, a slice
// fetches the whole chunk, held until the row group's last slice is done.
Status Scanner::State::LoadOffsetIndexes() {
  for (size_t f = 0; f < files.size(); ++f) {
    const FileEntry& file = *files[f];
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = 0; g < plan.files[f].row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg_plan = plan.files[f].row_groups[g];
      const RowGroup& rg = file.metadata->file().row_groups[g];
      bool in_part = rg_plan.decision() == prune::Decision::kSelection;
      bool sliced = rg_plan.decision() != prune::Decision::kSkip &&
                    SliceRows(rg, options.batch_size, options.slice_rows) < rg.num_rows;
      if (!in_part && !sliced) continue;
      for (int32_t leaf : file.leaves) requests.push_back({g, leaf, false});
    }
    uint64_t bytes_read = 0;
    PQSIFT_RETURN_IF_ERROR(file.page_indexes->Load(requests, &bytes_read));
  }
  return Status::OK();
}

void Scanner::State::Finish(SliceResult& result, Status status) {
  std::lock_guard<std::mutex> lock(result.mu);
  if (!status.ok() && result.error.ok()) result.error = std::move(status);
  if (--result.pending == 0) result.done.notify_all();
}

// The rows an output column decodes to return `rows`. Scattered rows: a skip and a read cost
// about as much as decoding kDenseGapRows rows, so shorter gaps are decoded and their rows
// dropped afterwards. Only gaps inside the slice's rows: the rows outside may lie in pages
// that were not fetched.
prune::RowSelection RowsToDecode(const ScanSlice& slice, const prune::RowSelection& rows) {
  constexpr int64_t kDenseGapRows = 32;
  return rows.WithGapsFilled(kDenseGapRows).Intersect(slice.rows);
}

Result<std::vector<std::shared_ptr<Array>>> Scanner::State::DecodeColumn(
    const ScanSlice& slice, const prune::RowSelection& rows, size_t output_column) {
  const DecodedColumn& column = slice.row_group->file().output_columns[output_column];
  SliceReaders handle(slice, OutputRole(output_column), {&column});
  if (rows.empty()) return std::vector<std::shared_ptr<Array>>{};  // the filter kept nothing
  auto start = Clock::now();
  prune::RowSelection decode = RowsToDecode(slice, rows);
  const bool drop = decode.row_count() != rows.row_count();
  // Only the pages holding a row to decode are fetched: after a filter, the pages of the
  // output columns where it kept nothing are left in the file.
  PQSIFT_RETURN_IF_ERROR(handle.Acquire(drop ? decode : rows, page_options()));
  const auto& readers = handle.readers();
  WantedRows wanted(rows.ranges());
  std::vector<std::shared_ptr<Array>> out;
  Status st = WalkSelection(
      drop ? decode : rows, options.batch_size, readers, *cancelled,
      [&](const std::vector<prune::RowRange>& pieces) -> Status {
        size_t next = 0;
        PQSIFT_ASSIGN_OR_RETURN(
            auto array, FlushColumn(*slice.row_group, column, readers, &next, RowsOf(pieces)));
        if (drop) array = SelectRanges(*array, wanted.Within(pieces));
        out.push_back(std::move(array));
        return Status::OK();
      });
  pages.Add(readers);
  handle.Release(st.ok());
  decode_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  return out;
}

// An output column that is filter column `filter_column`: its rows of `rows`, gathered from
// the filter's decoded windows into the windows DecodeColumn cuts for the other columns.
Result<std::vector<std::shared_ptr<Array>>> Scanner::State::GatherFilterColumn(
    const ScanSlice& slice, const prune::RowSelection& rows, const FilterWindows& decoded,
    size_t filter_column, size_t output_column) {
  ReleaseOutputSlots(slice, output_column);  // no reader of its own
  if (rows.empty()) return std::vector<std::shared_ptr<Array>>{};
  auto start = Clock::now();
  prune::RowSelection decode = RowsToDecode(slice, rows);
  const bool drop = decode.row_count() != rows.row_count();
  WindowCutter windows(drop ? decode : rows, options.batch_size);
  WantedRows wanted(rows.ranges());
  const std::vector<std::shared_ptr<Array>>& arrays = decoded.arrays[filter_column];
  std::vector<std::shared_ptr<Array>> out;
  std::vector<prune::RowRange> pieces;
  size_t at = 0;  // the decoded range holding the next wanted row
  while (windows.Next(&pieces)) {
    std::vector<size_t> source_window;
    std::vector<std::vector<ElementRange>> source_ranges;
    for (const prune::RowRange& want : wanted.RowsWithin(pieces)) {
      for (int64_t row = want.begin; row < want.end;) {
        while (at < decoded.rows.size() && decoded.rows[at].end <= row) ++at;
        if (at == decoded.rows.size() || decoded.rows[at].begin > row) {
          return Status::Internal("row " + std::to_string(row) + " was not decoded by the filter");
        }
        const prune::RowRange& held = decoded.rows[at];
        int64_t end = std::min(want.end, held.end);
        int64_t element = decoded.element[at] + (row - held.begin);
        ElementRange range{element, element + (end - row)};
        if (source_window.empty() || source_window.back() != decoded.window[at]) {
          source_window.push_back(decoded.window[at]);
          source_ranges.emplace_back();
        }
        std::vector<ElementRange>& ranges = source_ranges.back();
        if (!ranges.empty() && ranges.back().end == range.begin) {
          ranges.back().end = range.end;
        } else {
          ranges.push_back(range);
        }
        row = end;
      }
    }
    std::vector<RangesOf> sources;
    for (size_t k = 0; k < source_window.size(); ++k) {
      sources.push_back({arrays[source_window[k]].get(), source_ranges[k]});
    }
    // A window of only dropped rows (tiny batches) is an empty array, as DecodeColumn makes it.
    if (sources.empty()) sources.push_back({arrays.front().get(), {}});
    out.push_back(SelectRanges(sources));
  }
  decode_nanos += NanosSince(start);
  return out;
}

// Phase one of a filtered slice: decodes the filter columns of the selected rows, window by
// window, and keeps the rows where the filter is TRUE.
Result<prune::RowSelection> Scanner::State::EvaluateFilter(const ScanSlice& slice,
                                                           FilterWindows* keep) {
  auto start = Clock::now();
  const FileEntry& file = slice.row_group->file();
  const std::vector<const DecodedColumn*>& filter_columns = slice.filter->columns;
  std::vector<prune::RowRange> matches;
  // Without proven rows (the common case) the slice's rows are used as they are: no copies of a
  // selection that may hold millions of ranges.
  const bool proven = !slice.matched.empty();
  prune::RowSelection unproven = proven ? slice.rows.Difference(slice.matched) : slice.rows;
  SliceReaders handle(slice, kFilterRole, filter_columns);
  // Output columns gathered from the filter's windows need every row of the slice: then the
  // filter decodes the proven rows too (and takes them as matching), so no page of a column is
  // decompressed twice, once for the filter and once for the output, even where the plan proved
  // every row.
  if (unproven.empty() && keep == nullptr) return slice.matched;
  const bool decode_all = keep != nullptr && proven;
  const prune::RowSelection& walk = decode_all ? slice.rows : unproven;
  PQSIFT_RETURN_IF_ERROR(handle.Acquire(walk, page_options()));
  const auto& readers = handle.readers();
  MatchedCursor proven_rows(slice.matched);
  Status st =
      WalkSelection(walk, options.batch_size, readers, *cancelled,
                    [&](const std::vector<prune::RowRange>& pieces) -> Status {
                      std::vector<std::shared_ptr<Array>> arrays;
                      std::vector<const Array*> inputs;
                      size_t next = 0;
                      int64_t n = RowsOf(pieces);
                      for (const DecodedColumn* col : filter_columns) {
                        PQSIFT_ASSIGN_OR_RETURN(
                            auto array, FlushColumn(*slice.row_group, *col, readers, &next, n));
                        inputs.push_back(array.get());
                        arrays.push_back(std::move(array));
                      }
                      std::vector<uint8_t> mask(static_cast<size_t>(n), 1);
                      if (!unproven.empty()) {
                        auto evaluated = expr::EvaluateFilter(slice.filter->filter, inputs, n);
                        if (!evaluated.ok()) {
                          return evaluated.status().WithContext(file.file->name());
                        }
                        mask = std::move(evaluated).value();
                        if (decode_all) proven_rows.MarkMatches(pieces, &mask);
                      }
                      AppendMatches(pieces, mask, &matches);
                      if (keep != nullptr) {
                        keep->AddWindow(pieces);
                        for (size_t k = 0; k < arrays.size(); ++k) {
                          if (keep->kept[k]) keep->arrays[k].push_back(std::move(arrays[k]));
                        }
                      }
                      return Status::OK();
                    });
  pages.Add(readers);
  handle.Release(st.ok());
  rows_decoded += walk.row_count();
  filter_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  prune::RowSelection found = prune::RowSelection::FromRanges(std::move(matches));
  return proven && !decode_all ? found.Union(slice.matched) : found;
}

// Phase two: one task per output column over `rows`. Called with result->pending counting the
// caller; each task adds itself before the caller finishes.
void Scanner::State::SubmitOutputColumns(const ScanSlice& slice, prune::RowSelection rows,
                                         const std::shared_ptr<const FilterWindows>& decoded,
                                         const std::shared_ptr<SliceResult>& result) {
  {
    std::lock_guard<std::mutex> lock(result->mu);
    result->rows = rows.row_count();
    result->pending += static_cast<int>(columns.size());
  }
  // The filter's windows (it decodes every row of the slice when they are kept) serve the output
  // columns that are filter columns.
  const bool gather = decoded != nullptr;
  // A filtered slice counted the rows whose filter columns it decoded; proven rows it did not
  // decode are decoded here first.
  if (!columns.empty()) {
    rows_decoded += !slice.needs_filter ? rows.row_count() : gather ? 0 : slice.matched.row_count();
  }
  auto shared_rows = std::make_shared<const prune::RowSelection>(std::move(rows));
  for (size_t c = 0; c < columns.size(); ++c) {
    int from = gather ? slice.filter->output_from_filter[c] : -1;
    pool->Submit([this, slice, shared_rows, c, from, decoded, result, cancelled = cancelled] {
      if (cancelled->load()) {
        ReleaseOutputSlots(slice, c);
        return Finish(*result, Status::Internal("cancelled"));
      }
      auto arrays = from >= 0 ? GatherFilterColumn(slice, *shared_rows, *decoded,
                                                   static_cast<size_t>(from), c)
                              : DecodeColumn(slice, *shared_rows, c);
      Status status = arrays.status();
      if (status.ok()) {
        std::lock_guard<std::mutex> lock(result->mu);
        result->columns[c] = std::move(arrays).value();
      }
      Finish(*result, std::move(status));
    });
  }
}

// The reader slots of output column `c` that the slice registered and will not use: what the
// slice before it left goes on to the next.
void Scanner::State::ReleaseOutputSlots(const ScanSlice& slice, size_t c) const {
  SliceReaders unused(slice, OutputRole(c), {&slice.row_group->file().output_columns[c]});
}

void Scanner::State::Launch(const ScanSlice& launched) {
  auto result = std::make_shared<SliceResult>();
  result->pending = 1;  // this launch; output column tasks add themselves
  result->columns.resize(columns.size());
  result->row_group = launched.row_group;
  in_flight.push_back(result);
  if (!launched.row_group->launched()) {
    launched.row_group->MarkLaunched();
    ++row_groups_read;
  }
  // The slots of the readers the slice's tasks will hand on, taken here in slice order.
  ScanSlice slice = launched;
  auto links = std::make_shared<SliceLinks>();
  const FileEntry& entry = slice.row_group->file();
  if (slice.needs_filter)
    SliceReaders::Register(slice, kFilterRole, slice.filter->columns, &*links);
  for (size_t c = 0; c < columns.size(); ++c) {
    SliceReaders::Register(slice, OutputRole(c), {&entry.output_columns[c]}, &*links);
  }
  slice.links = std::move(links);
  RowGroupData& data = *slice.row_group;
  if (!slice.needs_filter) {
    data.RunInOrder(slice.seq, [this, slice, result] {
      SubmitOutputColumns(slice, slice.rows, nullptr, result);
      Finish(*result, Status::OK());
    });
    return;
  }
  pool->Submit([this, slice, result, cancelled = cancelled] {
    RowGroupData& data = *slice.row_group;
    auto fail = [&](Status status) {
      for (size_t c = 0; c < columns.size(); ++c) ReleaseOutputSlots(slice, c);
      Finish(*result, std::move(status));
      data.RunInOrder(slice.seq, nullptr);
    };
    if (cancelled->load()) {
      SliceReaders unused(slice, kFilterRole, slice.filter->columns);
      return fail(Status::Internal("cancelled"));
    }
    // The filter's decoded windows serve the output columns that are filter columns.
    std::shared_ptr<FilterWindows> keep;
    for (int from : slice.filter->output_from_filter) {
      if (from < 0) continue;
      if (!keep) {
        keep = std::make_shared<FilterWindows>();
        keep->kept.resize(slice.filter->columns.size());
        keep->arrays.resize(slice.filter->columns.size());
      }
      keep->kept[static_cast<size_t>(from)] = true;
    }
    auto matches = EvaluateFilter(slice, keep.get());
    if (!matches.ok()) return fail(matches.status());
    auto rows = std::make_shared<prune::RowSelection>(std::move(matches).value());
    data.RunInOrder(slice.seq, [this, slice, rows, keep, result] {
      SubmitOutputColumns(slice, std::move(*rows), keep, result);
      Finish(*result, Status::OK());
    });
  });
}

Scanner::Scanner(std::unique_ptr<State> state) : state_(std::move(state)) {}

Scanner::~Scanner() {
  if (state_) state_->cancelled->store(true);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(const std::vector<std::string>& paths,
                                               const ScanOptions& options) {
  if (paths.empty()) return Status::InvalidArgument("no files to scan");
  std::vector<std::shared_ptr<RandomAccessFile>> files;
  std::vector<std::shared_ptr<const ParquetMetadata>> metadata;
  for (const std::string& path : paths) {
    PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenLocalFile(path));
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> md,
                            ReadParquetMetadata(*file, options.open));
    files.push_back(std::move(file));
    metadata.push_back(std::move(md));
  }
  return Open(std::move(files), std::move(metadata), options);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(
    std::vector<std::shared_ptr<RandomAccessFile>> files,
    std::vector<std::shared_ptr<const ParquetMetadata>> metadata, const ScanOptions& options) {
  if (files.empty() || files.size() != metadata.size()) {
    return Status::InvalidArgument(
        "Scanner::Open needs one metadata per file, and at least one file");
  }
  scan::ScanInput input;
  for (size_t i = 0; i < files.size(); ++i) {
    input.files.push_back({std::move(files[i]), std::move(metadata[i]), {}, {}, {}});
  }
  input.counts.files_total = input.files.size();
  input.counts.footers_read = input.files.size();
  return Open(std::move(input), options);
}

Result<std::unique_ptr<Scanner>> Scanner::Open(scan::ScanInput input, const ScanOptions& options) {
  if (input.files.empty() && !input.schema) return Status::InvalidArgument("no files to scan");
  if (options.batch_size <= 0) return Status::InvalidArgument("batch size must be positive");
  auto state = std::make_unique<State>();
  state->options = options;
  if (!options.order_by.empty() && !options.count_only) {
    // Top-k: a scan of its own, driven by the heap (scan/top_k.h).
    PQSIFT_ASSIGN_OR_RETURN(state->top_k, scan::TopK::Open(std::move(input), options));
    return std::unique_ptr<Scanner>(new Scanner(std::move(state)));
  }
  for (scan::ScanFile& f : input.files) {
    if (f.partition_values.size() != input.partition_columns.size()) {
      return Status::InvalidArgument(
          "a file of the scan has " + std::to_string(f.partition_values.size()) +
          " partition values for " + std::to_string(input.partition_columns.size()) + " columns");
    }
    auto entry = std::make_shared<FileEntry>();
    entry->index = state->files.size();
    entry->file = std::move(f.file);
    entry->metadata = std::move(f.metadata);
    entry->partition_values = std::move(f.partition_values);
    entry->fully_matched_by = std::move(f.fully_matched_by);
    entry->excluded_row_groups = std::move(f.excluded_row_groups);
    state->files.push_back(std::move(entry));
  }
  state->missing_columns_are_null = input.schema != nullptr;
  if (input.schema) {
    state->tree = std::move(input.schema);
  } else {
    // The first file's schema, kept alive by its metadata.
    const auto& first = state->files.front()->metadata;
    state->tree = std::shared_ptr<const Schema>(first, &first->schema());
  }
  state->partition_columns = std::move(input.partition_columns);
  state->dataset_counts = input.counts;
  PQSIFT_RETURN_IF_ERROR(state->Plan());
  // The rows of files a fresh manifest counted (count_only) come first.
  state->PushRowsWithoutColumns(input.counts.rows_counted_by_manifest);
  state->pool = std::make_unique<scan::ThreadPool>(options.threads);
  return std::unique_ptr<Scanner>(new Scanner(std::move(state)));
}

std::shared_ptr<const BatchSchema> Scanner::schema() const {
  return state_->top_k ? state_->top_k->schema() : state_->schema;
}

Result<std::shared_ptr<RecordBatch>> Scanner::Next() {
  State& s = *state_;
  // With a filter and a limit, the scan must stop as soon as enough rows matched: decoding row
  // groups ahead would fetch data the answer does not need.
  if (s.top_k) return s.top_k->Next();
  const bool stop_early = s.options.limit >= 0 && !s.options.filter.empty();
  // Reading in a chosen order (top-k), the first row group is read alone: the runtime filter it
  // leads to then reaches every later launch.
  const bool first_alone =
      s.options.read_order && s.options.runtime_filter && s.options.runtime_filter->version() == 0;
  const size_t max_in_flight =
      stop_early || first_alone ? 1 : static_cast<size_t>(s.pool->size()) + 1;
  if (s.options.limit == 0) return std::shared_ptr<RecordBatch>();
  for (;;) {
    if (!s.ready.empty()) {
      std::shared_ptr<RecordBatch> batch = std::move(s.ready.front());
      s.ready.pop_front();
      if (s.options.limit >= 0 && s.rows_returned + batch->num_rows >= s.options.limit) {
        // The last batch of a limited scan: trim it and stop.
        int64_t keep = s.options.limit - s.rows_returned;
        if (keep < batch->num_rows) {
          for (auto& column : batch->columns) {
            PQSIFT_ASSIGN_OR_RETURN(column, Slice(*column, 0, keep));
          }
          batch->num_rows = keep;
        }
        s.limit_reached = true;
        s.ready.clear();
        s.cancelled->store(true);
      }
      s.rows_returned += batch->num_rows;
      if (batch->num_rows == 0) continue;
      return batch;
    }
    if (s.limit_reached) return std::shared_ptr<RecordBatch>();
    while (s.in_flight.size() < max_in_flight) {
      std::optional<ScanSlice> slice = s.NextSlice();
      if (!slice) break;
      PQSIFT_ASSIGN_OR_RETURN(bool launch, s.ApplyRuntimeFilter(*slice));
      if (launch) {
        s.Launch(*slice);
      } else {
        slice->row_group->RunInOrder(slice->seq, nullptr);  // nothing of it runs
      }
    }
    if (s.in_flight.empty()) return std::shared_ptr<RecordBatch>();
    std::shared_ptr<SliceResult> result = s.in_flight.front();
    {
      std::unique_lock<std::mutex> lock(result->mu);
      result->done.wait(lock, [&] { return result->pending == 0; });
    }
    s.in_flight.pop_front();
    result->row_group->SliceDone();
    if (!result->error.ok()) {
      s.cancelled->store(true);
      return result->error;
    }
    if (result->columns.empty()) {
      s.PushRowsWithoutColumns(result->rows);
      continue;
    }
    size_t windows = result->columns.front().size();
    for (size_t w = 0; w < windows; ++w) {
      auto batch = std::make_shared<RecordBatch>();
      batch->schema = s.schema;
      batch->num_rows = result->columns.front()[w]->length;
      for (auto& col : result->columns) batch->columns.push_back(std::move(col[w]));
      s.ready.push_back(std::move(batch));
    }
  }
}

const prune::AccessPlan& Scanner::plan() const {
  return state_->top_k ? state_->top_k->inner().plan() : state_->plan;
}

ScanEstimate Scanner::Estimate() const {
  if (state_->top_k) return state_->top_k->inner().Estimate();
  ScanEstimate out;
  const State& s = *state_;
  for (size_t f = 0; f < s.files.size(); ++f) {
    const auto& file = *s.files[f];
    const auto& row_groups = file.metadata->file().row_groups;
    for (size_t g = 0; g < row_groups.size(); ++g) {
      const prune::RowGroupPlan& rg = s.plan.files[f].row_groups[g];
      if (rg.rows.empty()) continue;
      ++out.row_groups_to_read;
      out.rows_to_read += rg.rows.row_count();
      for (int32_t leaf : file.leaves) {
        const ColumnChunk& chunk = row_groups[g].columns[leaf];
        if (!chunk.meta_data) continue;
        auto range = column::ColumnChunkRange(*chunk.meta_data, file.file->size(), "");
        if (!range.ok()) continue;
        // The bytes read with the footer reach the end of the file: only what lies before them
        // is still to read.
        ByteRange cached = file.metadata->cached_range();
        auto before_cache = [&](const ByteRange& r) {
          return r.offset >= cached.offset ? 0 : std::min(r.end(), cached.offset) - r.offset;
        };
        const format::OffsetIndex* index =
            rg.decision() == prune::Decision::kSelection && file.page_indexes
                ? file.page_indexes->offset_index(g, leaf)
                : nullptr;
        std::optional<scan::PageFetch> pages;
        if (index != nullptr && before_cache(*range) == range->length) {
          pages = scan::PlanPageFetch(*range, *index, row_groups[g].num_rows, rg.rows);
        }
        if (!pages) {
          out.bytes_to_read += before_cache(*range);
          continue;
        }
        for (const ByteRange& r : pages->reads) out.bytes_to_read += before_cache(r);
      }
    }
  }
  return out;
}

ScanStats Scanner::stats() const {
  const State& s = *state_;
  if (s.top_k) return s.top_k->stats();
  ScanStats out;
  out.files_total = s.dataset_counts.files_total;
  out.files_skipped_by_partition = s.dataset_counts.files_skipped_by_partition;
  out.files_skipped_by_manifest = s.dataset_counts.files_skipped_by_manifest;
  out.footers_read = s.dataset_counts.footers_read;
  out.files_counted_by_manifest = s.dataset_counts.files_counted_by_manifest;
  for (const auto& f : s.files) {
    IoStats io = f->file->stats();
    out.files += 1;
    out.file_bytes += f->file->size();
    out.bytes_read += io.bytes_read;
    out.read_requests += io.read_requests;
    out.row_groups += f->metadata->num_row_groups();
    out.rows_total += f->metadata->num_rows();
  }
  for (const prune::FilePlan& file : s.plan.files) {
    for (const prune::RowGroupPlan& rg : file.row_groups) {
      if (rg.rows.empty()) ++out.row_groups_skipped;
      if (!rg.rows.empty() && rg.fully_matched) ++out.row_groups_fully_matched;
    }
  }
  out.row_groups_read = s.row_groups_read;
  out.row_groups_skipped_at_runtime = s.runtime_row_groups_skipped;
  out.pages_skipped_at_runtime = s.runtime_pages_skipped;
  out.pages_read = static_cast<uint64_t>(s.pages.decoded.load());
  int64_t pages_not_fetched = 0;
  for (const auto& row_group : s.row_groups) {
    row_group->CountPagesNotFetched(&pages_not_fetched, &out.bytes_not_fetched);
  }
  out.pages_not_fetched = static_cast<uint64_t>(pages_not_fetched);
  out.pages_decompressed = static_cast<uint64_t>(s.pages.decompressed.load());
  out.bytes_decompressed = static_cast<uint64_t>(s.pages.bytes_decompressed.load());
  out.pages_total =
      out.pages_read + static_cast<uint64_t>(s.pages.passed_over.load()) + out.pages_not_fetched;
  out.rows_decoded = s.rows_decoded.load();
  out.rows_returned = s.rows_returned;
  out.plan_seconds = s.plan_seconds;
  out.filter_seconds = static_cast<double>(s.filter_nanos.load()) * 1e-9;
  out.decode_seconds = static_cast<double>(s.decode_nanos.load()) * 1e-9;
  for (const auto& f : s.files) {
    if (f->dictionaries) out.evidence_bytes_reused += f->dictionaries->bytes_reused();
  }
  for (const prune::StageReport& r : s.plan.stages) {
    out.stages.push_back({r.stage, static_cast<uint64_t>(r.row_groups_considered),
                          static_cast<uint64_t>(r.row_groups_skipped),
                          static_cast<uint64_t>(r.row_groups_fully_matched), r.rows_pruned,
                          r.bytes_read, r.seconds});
  }
  return out;
}

}  // namespace pqsift
