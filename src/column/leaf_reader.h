// Reads one leaf column of one row group, record by record: it can read N records and skip N
// records, and hands over what it read as levels plus dense values (LeafBatch).
//
// Records are rows: a record starts at each repetition level 0 (for flat columns every level
// entry is a record). Skipping never materialises values: whole pages whose row count is
// known (flat columns, v2 pages) are passed over without being decompressed, and inside a page
// the value decoder skips.
//
// Thread safety: one thread at a time; different LeafReaders are independent.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "column/page_reader.h"
#include "column/value_accumulator.h"
#include "encoding/rle_bit_packed.h"
#include "pqsift/array.h"
#include "pqsift/schema.h"

namespace pqsift::column {

// What a LeafReader read since its last Flush.
struct LeafBatch {
  int64_t num_records = 0;
  // One entry per level (value slot, including nulls and empty lists); empty when the column's
  // maximum level is 0. For flat columns there is one level per record.
  std::vector<int16_t> definition_levels;
  std::vector<int16_t> repetition_levels;
  int64_t num_levels = 0;
  // The values of the entries whose definition level is the maximum, in order, with no
  // validity: the leaf's Arrow type, `length` = number of such entries.
  std::shared_ptr<Array> values;
};

// A data page of a chunk buffer that holds only some of the chunk's pages (the offset index said
// which the scan needs): the rows it covers. Pages start at row boundaries (the offset index
// requires it), so every page's row count is known, nested v1 pages too.
struct PageSpan {
  int64_t first_row = 0;
  int64_t num_rows = 0;
  int32_t ordinal = -1;  // its place in the offset index: the data page ordinal (encryption AADs)
};

// What the readers of one column chunk share across slices and threads: the dictionary, decoded
// by the first reader that needs it and adopted by the others, so a dictionary page is
// decompressed and decoded once per scan however many readers are opened on its chunk.
// Thread safe; must outlive the readers that use it.
struct ChunkShare {
  std::mutex mu;
  std::shared_ptr<const DecodedDictionary> dictionary;
};

class LeafReader {
 public:
  // `chunk` holds the whole column chunk (from ColumnChunkRange); it must outlive the reader.
  // `num_rows` is the row group's row count: reading past it is an error, and a chunk that
  // ends early is Corruption.
  // `present` (when not empty) says `chunk` holds only these data pages (after the dictionary
  // page, if any), in row order: the rows between them can be skipped, never read (reading them
  // is an Internal error: the caller fetched too little); a page whose header disagrees with its
  // span is Corruption.
  static Result<std::unique_ptr<LeafReader>> Make(const ColumnDescriptor& column,
                                                  const ColumnMetaData& meta,
                                                  std::span<const uint8_t> chunk,
                                                  uint64_t chunk_offset, int64_t num_rows,
                                                  std::string where, PageReaderOptions options = {},
                                                  std::vector<PageSpan> present = {});

  // Keeps `owner` (what holds the chunk bytes) alive as long as the reader needs those bytes;
  // `whole`: they are the whole chunk (`present` then only gives the pages' rows), so a reader
  // handed on needs no more bytes.
  void KeepAlive(std::shared_ptr<const void> owner, bool whole) {
    owner_ = std::move(owner);
    whole_ = whole;
  }
  // Takes the chunk's dictionary from `share` when another reader decoded it, and publishes
  // the one it decodes itself.
  void ShareWith(ChunkShare* share) { share_ = share; }

  // A reader handed on from one slice of a row group to the next continues where it stopped,
  // so a page that holds rows of both is decompressed once. A reader that holds only some pages
  // (`present` at Make) continues on more of them: `chunk` holds the data pages `present`
  // (in row order, all after the current page; no dictionary page: the reader has it or shares
  // it), kept alive by `owner`. The pages of the old buffer not yet loaded are dropped.
  // REQUIRES: holds_some_pages() and has_loaded_page().
  void Continue(std::span<const uint8_t> chunk, uint64_t chunk_offset,
                std::shared_ptr<const void> owner, std::vector<PageSpan> present);
  // Whether the reader was made (or continued) on some pages only, not the whole chunk.
  bool holds_some_pages() const { return sparse_ && !whole_; }
  // Whether a data page was loaded, and (holds_some_pages) the row after its last: where the
  // pages of a Continue must start.
  bool has_loaded_page() const { return loaded_page_end_ >= 0; }
  int64_t loaded_page_end() const { return loaded_page_end_; }
  // True when the reader stands at the end of the page it loaded last, that page's rows known:
  // whatever comes next is in pages it has not touched.
  bool at_page_end() const { return loaded_page_end_ >= 0 && position_ == loaded_page_end_; }
  // Records consumed (read or skipped) so far: the row the reader is at.
  int64_t position() const { return position_; }

  // Reads the next `n` records (appending them to the pending batch) / passes over them.
  // OutOfRange past the row group's end; Corruption when the data disagrees with the footer.
  Status ReadRecords(int64_t n);
  Status SkipRecords(int64_t n);
  // Reads the next `n` records and appends those whose `keep` byte (n bytes) is nonzero: the
  // others are decoded but not copied out, cheaper than reading them all and selecting after
  // when the kept rows are scattered. Flat columns only (Internal error for a nested one).
  Status ReadRecordsKeeping(int64_t n, const uint8_t* keep);
  // Whether the column has no repetition (ReadRecordsKeeping reads it).
  bool flat() const { return column_.max_repetition_level == 0; }

  // Hands over everything read since the last Flush.
  LeafBatch Flush();
  // Batches read from dictionary-encoded pages hold dictionary indices: LeafBatch::values is a
  // dictionary array (ValueAccumulator::KeepDictionaryIndices). Off by default.
  void KeepDictionaryIndices(bool keep) { values_->KeepDictionaryIndices(keep); }

  std::shared_ptr<const DataType> type() const { return type_; }
  int64_t records_left() const { return num_rows_ - position_; }
  // What the reader did since the last call (a reader serves several tasks in turn): data
  // pages decompressed and decoded, data pages passed over undecoded, and pages (data and
  // dictionary) whose bodies it decompressed (or, stored uncompressed, took as they are), with
  // their uncompressed bytes.
  struct PageCounts {
    int64_t decoded = 0;
    int64_t passed_over = 0;
    int64_t decompressed = 0;
    int64_t bytes_decompressed = 0;
  };
  PageCounts TakePageCounts() {
    PageCounts now{pages_decoded_, pages_passed_over_, pages_decompressed_,
                   bytes_decompressed_ + pages_.bytes_arrived()};
    PageCounts out{now.decoded - taken_.decoded, now.passed_over - taken_.passed_over,
                   now.decompressed - taken_.decompressed,
                   now.bytes_decompressed - taken_.bytes_decompressed};
    taken_ = now;
    return out;
  }

 private:
  LeafReader(const ColumnDescriptor& column, PageReader pages, int64_t num_rows,
             std::shared_ptr<const DataType> type, std::unique_ptr<ValueAccumulator> values);

  // Makes a data page with unconsumed levels current, marking the dictionary page on the way.
  // `row` is the row the walk is at (a page boundary). When skipping (`skippable` > 0 records),
  // pages that lie wholly inside the skip and whose row count is known are passed over
  // undecoded, as are the rows of pages not present; their rows are added to `*skipped`.
  Status LoadPage(int64_t skippable, int64_t* skipped, int64_t row);
  // With present pages: the span of the next data page, after passing over the absent rows
  // before it (at most `*skippable`).
  Result<PageSpan> NextPresentPage(int64_t* skippable, int64_t* skipped, int64_t* row);
  Status DecodeLevels(const Page& page, size_t* values_offset);
  // An arriving v1 page (Page::more): has its levels, in front of its values, decompressed.
  void ArriveLevels(Page* page) const;
  // Lets go of the bytes the current page was stored in, fetched for this reader alone.
  void LetGoOfPageBytes();
  // A decoder's error on the current page, or the arriving page's stream error behind it.
  Status PageError(const Status& st) const;
  // Decodes the marked dictionary page, once, before the first page that uses it.
  Status LoadDictionary();
  // Reads or skips `n` records: the shared walk over levels. Reading with `keep` (flat
  // columns): only the records it marks are appended.
  Status Advance(int64_t n, bool read, const uint8_t* keep = nullptr);
  Status Error(const std::string& what) const;

  const ColumnDescriptor& column_;
  PageReader pages_;
  int64_t num_rows_;
  int64_t position_ = 0;  // records consumed (read or skipped)
  std::shared_ptr<const DataType> type_;
  std::unique_ptr<ValueAccumulator> values_;
  std::optional<PageReader::Mark> dictionary_page_;  // seen, not decoded yet
  bool dictionary_seen_ = false;
  bool dictionary_set_ = false;  // decoded or adopted into values_
  ChunkShare* share_ = nullptr;
  std::vector<PageSpan> present_;  // the pages held, when sparse_
  size_t next_present_ = 0;
  bool sparse_ = false;           // `present_` gives the pages' rows
  bool whole_ = false;            // the buffer is the whole chunk (KeepAlive)
  int64_t loaded_page_end_ = -1;  // the row after the last page loaded (-1: none yet)
  // The bytes fetched for this reader alone go once the current (arriving) page has arrived.
  bool release_when_arrived_ = false;
  // What holds the bytes: the buffer being read, the one the current page was loaded from (its
  // stored body may be the page), and the one the pending dictionary mark points into.
  std::shared_ptr<const void> owner_;
  std::shared_ptr<const void> page_owner_;
  std::shared_ptr<const void> dictionary_owner_;

  // Levels of the current page, decoded when the page is loaded.
  std::vector<int16_t> page_def_;  // empty when page_all_defined_
  bool page_all_defined_ = false;  // a flat page whose levels all equal the maximum
  std::vector<int16_t> page_rep_;
  int64_t page_levels_ = 0;
  int64_t level_pos_ = 0;
  bool at_end_ = false;
  // True when the last consumed level belongs to a record that may continue on later pages.
  bool in_record_ = false;

  LeafBatch pending_;
  int64_t pages_decoded_ = 0;
  int64_t pages_passed_over_ = 0;
  int64_t pages_decompressed_ = 0;
  int64_t bytes_decompressed_ = 0;
  PageCounts taken_;
};

// The byte range of a column chunk in its file: from the dictionary page (when there is one)
// to the end of the last page; checked against the file size.
Result<ByteRange> ColumnChunkRange(const ColumnMetaData& meta, uint64_t file_size,
                                   const std::string& where);

}  // namespace pqsift::column
