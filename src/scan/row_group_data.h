// The column chunks of one row group as the slices of a scan read them: where each chunk's
// bytes are, which of them are fetched, and the state the slices share (the decoded
// dictionaries, the readers handed from slice to slice, the order their tasks run in).
//
// Fetching. A chunk with an offset index (the file's, or one made from its page headers:
// scan/page_locations.h) is fetched page by page for each reader: only the pages
// holding rows that reader needs (a slice's rows, or the rows its filter kept), and only while
// the reader lives, so memory follows the slices in flight, not the row group. A chunk without
// one is read whole, once, shared by the row group's slices and released when the last is done.
// Bytes already in memory are reused, never read twice: the bytes read with the footer (the last
// chunks of a file often lie there), the dictionary pages the planning fetched, and a chunk's
// dictionary region once a slice read it (the other slices' page reads leave it out).
//
// Lifetime: made by the executor for each row group the plan reads, shared by its slices (each
// holds a shared_ptr); the PlannedFile it reads is shared too. Fetched bytes live as long as
// the `owner` handed out with them.
//
// Thread safety: Get, GetFrom, HandoffOf, ShareOf, RunInOrder, PageMayStartBefore,
// CountPagesNotFetched and the accessors may be called from any thread. The slice bookkeeping
// (AddSlice, AllSlicesAdded, SliceDone, DropSlice, NextSliceSeq, launched, MarkLaunched) belongs
// to the consumer thread (the one calling Scanner::Next).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "column/leaf_reader.h"
#include "io/async_wave.h"
#include "scan/page_fetch.h"
#include "scan/planned_file.h"
#include "scan/reader_handoff.h"

namespace pqsift::scan {

class RowGroupData {
 public:
  RowGroupData(std::shared_ptr<const PlannedFile> file, size_t row_group,
               const std::vector<int32_t>& leaves);

  // Slices are made one at a time (RowGroupSlicer): each is added when made, and the last one
  // is known only once made, so the chunks are freed when both hold.
  void AddSlice() { ++slices_left_; }
  void AllSlicesAdded();
  // Called when a slice's columns are all decoded: the last one frees the whole chunks.
  void SliceDone();
  // A slice the runtime filter dropped before its launch. True when no slice of the row group
  // was launched and none is left: the whole row group was skipped.
  bool DropSlice();
  // Drops everything the row group holds for tasks that will not run (the scan is destroyed):
  // steps waiting for their turn hold slices, and slices hold the row group.
  void Abandon();

  // The slices of the row group in order: each gets the next number.
  int64_t NextSliceSeq() { return next_seq_++; }
  // Whether a slice of the row group was launched.
  bool launched() const { return launched_; }
  void MarkLaunched() { launched_ = true; }

  // Runs `step` (may be empty: the slice has nothing to run) after the steps of every earlier
  // slice of the row group, in slice order, on whichever thread completes the sequence. The
  // output columns' tasks are submitted through it, so the tasks that hand a column's reader on
  // (scan/reader_handoff.h) reach the pool in slice order.
  void RunInOrder(int64_t seq, std::function<void()> step);

  // The reader of `leaf` handed from slice to slice in `role` (scan/slice.h: the filter, or an
  // output column).
  ReaderHandoff& HandoffOf(int role, int32_t leaf);
  // The chunk's decoded dictionary, shared by every reader of `leaf`.
  column::ChunkShare* ShareOf(int32_t leaf) { return &chunks_.at(leaf)->share; }

  // Whether a reader of `leaf` that starts at `row` may need a page that holds rows before it
  // (and that an earlier slice may have decompressed): unknown without an offset index.
  bool PageMayStartBefore(int32_t leaf, int64_t row) const;

  // Adds the pages (and their bytes) of the chunks opened so far that no reader needed: their
  // offset index let the scan leave them in the file.
  void CountPagesNotFetched(int64_t* pages, uint64_t* bytes) const;

  const PlannedFile& file() const { return *file_; }
  const RowGroup& row_group() const { return file_->metadata->file().row_groups[row_group_]; }
  size_t row_group_index() const { return row_group_; }

  // "FILE: row group G, column 'PATH'", for messages.
  std::string Where(int32_t leaf) const;
  std::string WhereColumn(std::string_view path) const;

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

  // The bytes of `leaf`'s chunk a reader of `rows` (and of no other row) needs. The errors of
  // the chunk's footer entry (format::CheckChunkReadable, the chunk's range) and of the reads.
  Result<Fetched> Get(int32_t leaf, const prune::RowSelection& rows);
  // For a reader continued from an earlier slice on some pages of the chunk: the pages from row
  // `from_row` on that hold a row of `rows`.
  Result<Fetched> GetFrom(int32_t leaf, const prune::RowSelection& rows, int64_t from_row);

  // Prefetch (remote files): starts the reads readers of each slice's `rows` would make in
  // every chunk of the row group (filter and output columns alike) as one wave
  // (io/async_wave.h), and returns without waiting. A read that asks for exactly one of them
  // takes it (waiting for the wave if it has not arrived); a read inside one (an output
  // column's pages for the rows the filter kept) gets a copy. So a slice's tasks cost one round
  // trip together instead of one per column and phase, and the executor starts it slices
  // ahead; the reads of consecutive slices in one wave follow one another in the file, so a
  // store that merges them (RandomAccessFile::max_merged_read) makes one request per column
  // for them all. A read already started for an earlier slice (a whole chunk, a page both
  // hold) is not started again: the slices hold that wave too. The returned holder keeps the
  // bytes (null: nothing to read), for every slice of the wave; once every holder has let go
  // they are freed, taken or not. A failed wave holds nothing (the tasks' own reads then fail
  // and say why). Called on the consumer thread, in slice order, before the slices launch.
  std::shared_ptr<const void> StartPrefetch(std::span<const prune::RowSelection* const> slices,
                                            const std::shared_ptr<io::PrefetchLedger>& ledger);
  // The reads StartPrefetch(slices) would start, without starting them: for forecasting a
  // scan's requests. `earlier`: the reads of the row group's waves planned before, as if still
  // held; this wave's are added.
  std::vector<ByteRange> PlanWave(std::span<const prune::RowSelection* const> slices,
                                  std::vector<ByteRange>* earlier);
  // About the bytes readers of the slices' rows would fetch: each slice's span of rows, as a
  // share of the chunks the row group reads (for sizing a wave; pages and dictionaries aside).
  uint64_t EstimateReadBytes(std::span<const prune::RowSelection* const> slices) const;

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
    // The dictionary region (the bytes before the first data page), read once by the first
    // reader of some pages (under dictionary_mu, so readers in parallel do not read it too)
    // and put before the pages of every reader's buffer: a chunk read in many slices fetches
    // it once, and no read spans the pages between it and a slice's pages (freed with the row
    // group; bounded by the row group's dictionaries).
    std::mutex dictionary_mu;
    std::shared_ptr<const Buffer> dictionary;
    column::ChunkShare share;  // the decoded dictionary, for every reader of the chunk
  };

  void FreeChunks();
  const format::OffsetIndex* OffsetIndex(int32_t leaf) const;
  Status Locate(int32_t leaf, Chunk& c);
  std::optional<PageFetch> PlanFetch(int32_t leaf, ByteRange range, const prune::RowSelection& rows,
                                     bool with_dictionary) const;
  std::vector<column::PageSpan> WholeChunkPages(int32_t leaf, ByteRange range) const;
  Result<Fetched> FetchPages(int32_t leaf, PageFetch pages, ByteRange at,
                             const std::shared_ptr<const Buffer>& dictionary);
  Result<std::shared_ptr<const Buffer>> DictionaryOf(int32_t leaf, Chunk& c);
  void MarkFetched(int32_t leaf, const std::vector<column::PageSpan>& pages, Chunk& c) const;
  Result<Buffer> ReadPages(const PageFetch& fetch, std::span<const uint8_t> head);
  Result<Buffer> ReadReusingDictionary(ByteRange range);
  Result<Buffer> ReadAroundCache(ByteRange range);
  // What Get(leaf, rows) would read from the file now (nothing when its bytes are in memory).
  std::vector<ByteRange> ReadsFor(int32_t leaf, const prune::RowSelection& rows);
  // The prefetched bytes of `range` (handed over when a prefetched read is exactly `range`);
  // empty when no prefetched read holds it.
  std::optional<Buffer> TakePrefetched(ByteRange range);
  // The reads of earlier waves, as a wave sees them: live ones (StartPrefetch) or planned ones
  // (PlanWave).
  struct EarlierReads {
    std::function<bool(ByteRange)> holds;       // an earlier read holds all of it
    std::function<uint64_t(uint64_t)> held_to;  // the end of one that holds the byte (0: none)
  };
  // The reads a wave of `slices` makes: each slice's reads (ReadsFor) less what the wave or an
  // earlier one holds; `repeated`: the reads more than one of its slices take.
  std::vector<ByteRange> WaveReads(std::span<const prune::RowSelection* const> slices,
                                   const EarlierReads& earlier, std::vector<size_t>* repeated);
  // What of `range` lies past the reads of `wave` and the earlier ones that hold its start
  // (empty when they hold all of it).
  ByteRange PastHeld(ByteRange range, const std::vector<ByteRange>& wave,
                     const EarlierReads& earlier);
  // The live prefetched read that holds `range`, and its index in its wave (null: none).
  // REQUIRES: prefetched_mu_ held.
  std::pair<std::shared_ptr<io::AsyncWave>, size_t> PrefetchedHolding(ByteRange range);

  std::shared_ptr<const PlannedFile> file_;
  size_t row_group_;
  int slices_left_ = 0;  // consumer thread only
  bool all_added_ = false;
  bool launched_ = false;
  int64_t next_seq_ = 0;
  std::map<int32_t, std::unique_ptr<Chunk>> chunks_;
  std::mutex handoffs_mu_;
  std::map<std::pair<int, int32_t>, std::unique_ptr<ReaderHandoff>> handoffs_;
  std::mutex steps_mu_;
  std::map<int64_t, std::function<void()>> steps_;  // waiting for the steps before them
  int64_t next_step_ = 0;
  // The reads of the waves started for the slices (weak: the slices hold the waves), by
  // (offset, length): the wave and the read's index in it.
  struct Ahead {
    std::weak_ptr<io::AsyncWave> wave;
    size_t index = 0;
  };
  std::mutex prefetched_mu_;
  std::map<std::pair<uint64_t, uint64_t>, Ahead> prefetched_;
};

}  // namespace pqsift::scan
