// Decoding a slice (scan/slice.h), late materialisation in two phases:
//
//   EvaluateFilter   phase one of a filtered slice: its filter columns decoded window by window
//                    (windows of at most `batch_size` selected rows; a flat column's dictionary-
//                    encoded pages as dictionary indices, which the evaluator evaluates once
//                    per entry) and the filter evaluated; the slice's selection narrows to the
//                    matching rows
//   DecodeColumn     phase two, one call per output column: only the kept rows are decoded (the
//                    readers skip the gaps without materialising them; short gaps are decoded
//                    and dropped, cheaper than a skip), into one array per window (dictionary
//                    arrays where asked: ScanOptions::keep_dictionaries)
//   GatherFilterColumn  an output column the filter decoded already: its rows are gathered from
//                    the filter's windows (FilterWindows), not fetched and decoded again
//
// Every column of a slice is cut into the same windows, so their arrays line up as batches.
//
// Thread safety: a SliceDecoder is shared by every task of a scan and called from any thread;
// its counters are atomics, and what a call reads (the slice, the planned file) is immutable.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "column/page_reader.h"
#include "pqsift/array.h"
#include "scan/slice.h"
#include "scan/slice_readers.h"

namespace pqsift::scan {

// The windows the filter decoded, kept for the output columns that are filter columns too: those
// are gathered from here instead of being fetched and decoded a second time. Late
// materialisation then costs a filter that keeps most rows nothing beyond the filter itself.
struct FilterWindows {
  std::vector<prune::RowRange> rows;  // every decoded row range, in order ...
  std::vector<size_t> window;         // ... in which window ...
  std::vector<int64_t> element;       // ... from which element of it
  std::vector<bool> kept;             // per filter column: its windows are kept
  std::vector<std::vector<std::shared_ptr<Array>>> arrays;  // [filter column][window]
  size_t windows = 0;

  void AddWindow(const std::vector<prune::RowRange>& pieces);
};

// What the decoding did, for ScanStats.
struct DecodeCounters {
  PageCounters pages;
  std::atomic<int64_t> rows_decoded{0};
  std::atomic<int64_t> filter_nanos{0};
  std::atomic<int64_t> decode_nanos{0};
};

class SliceDecoder {
 public:
  // `cancelled` is polled between row ranges (a cancelled call fails with Internal
  // "cancelled"); it and `counters` must outlive the decoder.
  // `keep_dictionaries`: DecodeColumn returns a flat string or binary column's windows read
  // from dictionary-encoded pages as dictionary arrays (ScanOptions::keep_dictionaries).
  SliceDecoder(int64_t batch_size, column::PageReaderOptions page_options,
               const std::atomic<bool>* cancelled, DecodeCounters* counters,
               bool keep_dictionaries = false)
      : batch_size_(batch_size),
        page_options_(std::move(page_options)),
        cancelled_(cancelled),
        counters_(counters),
        keep_dictionaries_(keep_dictionaries) {}

  // The rows of the slice where its filter is TRUE (and the rows it proved). `keep` (may be
  // null) names the filter columns whose windows to keep for GatherFilterColumn; then every row
  // of the slice is decoded, the proven ones too. Errors: the file's (named), the evaluation's.
  Result<prune::RowSelection> EvaluateFilter(const ScanSlice& slice, FilterWindows* keep) const;

  // The first row the filter of the slice decodes (EvaluateFilter, with its windows kept when
  // the filter feeds output columns), or -1 when it decodes none (the plan proved every row and
  // nothing is kept).
  static int64_t FilterWalkStart(const ScanSlice& slice);

  // Output column `output_column` of the slice for `rows` (within the slice's rows), one array
  // per window. Empty `rows`: no arrays.
  Result<std::vector<std::shared_ptr<Array>>> DecodeColumn(const ScanSlice& slice,
                                                           const prune::RowSelection& rows,
                                                           size_t output_column) const;

  // Output column `output_column`, which is filter column `filter_column`, for `rows`, gathered
  // from the filter's windows into the windows DecodeColumn cuts for the other columns.
  Result<std::vector<std::shared_ptr<Array>>> GatherFilterColumn(const ScanSlice& slice,
                                                                 const prune::RowSelection& rows,
                                                                 const FilterWindows& decoded,
                                                                 size_t filter_column,
                                                                 size_t output_column) const;

  // The reader slots of output column `c` that the slice registered and will not use: what the
  // slice before it left goes on to the next.
  static void ReleaseOutputSlots(const ScanSlice& slice, size_t c);

 private:
  int64_t batch_size_;
  column::PageReaderOptions page_options_;
  const std::atomic<bool>* cancelled_;
  DecodeCounters* counters_;
  bool keep_dictionaries_;
};

}  // namespace pqsift::scan
