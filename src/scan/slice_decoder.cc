#include "scan/slice_decoder.h"

#include <algorithm>
#include <chrono>

#include "arrow/dictionary.h"
#include "arrow/layout.h"
#include "arrow/select.h"
#include "column/nested.h"
#include "expr/evaluate.h"

namespace pqsift::scan {
namespace {

using Clock = std::chrono::steady_clock;

int64_t NanosSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

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

// What WalkSelection keeps of each piece: all of it.
struct ReadAll {
  const uint8_t* operator()(const prune::RowRange& /*piece*/) { return nullptr; }
};

// Walks `selection` with every reader in step, in windows of at most `window_rows` selected
// rows: the gaps are skipped (not materialised), the ranges read. `keep_of(piece)` says which
// rows of a range the readers keep: null, all; else one byte per row of it, nonzero for the
// rows to keep (LeafReader::ReadRecordsKeeping: the readers must be flat). After each window,
// `on_window(pieces)` gets the row ranges the window covered; the readers then hold exactly
// those rows (the kept ones), ready to Flush.
template <typename OnWindow, typename KeepOf = ReadAll>
Status WalkSelection(const prune::RowSelection& selection, int64_t window_rows,
                     const std::vector<std::unique_ptr<column::LeafReader>>& readers,
                     const std::atomic<bool>& cancelled, OnWindow&& on_window,
                     KeepOf keep_of = {}) {
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
      const uint8_t* keep = keep_of(piece);
      for (const auto& r : readers) {
        PQSIFT_RETURN_IF_ERROR(keep == nullptr ? r->ReadRecords(piece.length())
                                               : r->ReadRecordsKeeping(piece.length(), keep));
      }
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

  // Sets the byte of every wanted row inside `piece` (the next decoded range, in order) in
  // `mask`, whose byte 0 is the piece's first row (the others are left as they are).
  void MarkWithin(const prune::RowRange& piece, uint8_t* mask) {
    while (next_ < wanted_.size() && wanted_[next_].end <= piece.begin) ++next_;
    for (size_t k = next_; k < wanted_.size() && wanted_[k].begin < piece.end; ++k) {
      const int64_t begin = std::max(wanted_[k].begin, piece.begin) - piece.begin;
      const int64_t end = std::min(wanted_[k].end, piece.end) - piece.begin;
      for (int64_t i = begin; i < end; ++i) mask[i] = 1;
    }
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

// Flushes the readers of `column` (starting at `*next_reader`) and assembles its array of
// the rows of `pieces` in the scan's type (a constant or row index column has no readers). Levels
// that do not assemble (leaves of a struct disagreeing on their rows) are the file's fault: the
// error names the file, row group and column.
Result<std::shared_ptr<Array>> FlushColumn(
    const RowGroupData& data, const DecodedColumn& column,
    const std::vector<std::unique_ptr<column::LeafReader>>& readers, size_t* next_reader,
    const std::vector<prune::RowRange>& pieces) {
  int64_t rows = 0;
  for (const prune::RowRange& p : pieces) rows += p.length();
  if (column.constant) return column.Finish(nullptr, rows);
  // From the row numbers alone, never from a count of rows returned: exact whatever the plan
  // skipped before these rows.
  if (column.row_index) {
    return RowIndexArray(data.file().row_group_first_rows.at(data.row_group_index()), pieces);
  }
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
    const auto len = static_cast<size_t>(piece.length());
    prune::RowSelection::AppendMask(std::span(mask).subspan(k, len), piece.begin, out);
    k += len;
  }
}

// The rows an output column decodes to return `rows`. Scattered rows: a skip and a read cost
// about as much as decoding kDenseGapRows rows a flat column then drops unread
// (ReadRecordsKeeping), so shorter gaps are decoded and their rows dropped. (32 rows, when the
// dropped rows were copied out and selected after, was 10-20% slower on `qty > 95`, 4% of the
// rows, over the suite's files.) Only gaps inside the slice's rows: the rows outside may lie in
// pages that were not fetched. Every column of a slice decodes the same rows: their windows
// line up.
prune::RowSelection RowsToDecode(const ScanSlice& slice, const prune::RowSelection& rows) {
  constexpr int64_t kDenseGapRows = 128;
  return rows.WithGapsFilled(kDenseGapRows).Intersect(slice.rows);
}

// Which filter columns are read as dictionary indices where their pages are dictionary-encoded
// (column::LeafReader::KeepDictionaryIndices): a predicate on one of them is then evaluated once
// per dictionary entry, not once per row on values copied out of the dictionary (the evaluator
// takes the dictionary arrays; GatherFilterColumn turns the rows an output column takes into
// values). Flat leaves of strings and binaries read in their own type; the others read values
// (a number is gathered from the dictionary and compared about as fast as its index is looked
// up: measured on `qty > 95`, indices were 2-6% slower). Set at every use: the readers go from
// slice to slice.
// `allowed` false: every reader reads values.
void KeepDictionaryIndices(const std::vector<const DecodedColumn*>& columns,
                           const std::vector<std::unique_ptr<column::LeafReader>>& readers,
                           bool allowed = true) {
  size_t next = 0;
  for (size_t k = 0; k < columns.size(); ++k) {
    const DecodedColumn& c = *columns[k];
    // (A runtime filter's column has no scan type: the reader's is the one read.)
    const bool indices = allowed && c.leaves.size() == 1 && !c.widen && readers[next]->flat() &&
                         c.plan.kind == column::AssemblyNode::Kind::kLeaf &&
                         (layout::IsBinaryLike(readers[next]->type()->id) ||
                          readers[next]->type()->id == TypeId::kFixedSizeBinary);
    for (size_t i = 0; i < c.leaves.size(); ++i) readers[next++]->KeepDictionaryIndices(indices);
  }
}

}  // namespace

void FilterWindows::AddWindow(const std::vector<prune::RowRange>& pieces) {
  int64_t at = 0;
  for (const prune::RowRange& piece : pieces) {
    rows.push_back(piece);
    window.push_back(windows);
    element.push_back(at);
    at += piece.length();
  }
  ++windows;
}

Result<std::vector<std::shared_ptr<Array>>> SliceDecoder::DecodeColumn(
    const ScanSlice& slice, const prune::RowSelection& rows, size_t output_column) const {
  const DecodedColumn& column = slice.row_group->file().output_columns[output_column];
  SliceReaders handle(slice, OutputRole(output_column), {&column});
  if (rows.empty()) return std::vector<std::shared_ptr<Array>>{};  // the filter kept nothing
  auto start = Clock::now();
  prune::RowSelection decode = RowsToDecode(slice, rows);
  const bool drop = decode.row_count() != rows.row_count();
  // Only the pages holding a row to decode are fetched: after a filter, the pages of the
  // output columns where it kept nothing are left in the file.
  PQSIFT_RETURN_IF_ERROR(handle.Acquire(drop ? decode : rows, page_options_));
  const auto& readers = handle.readers();
  KeepDictionaryIndices({&column}, readers, keep_dictionaries_);
  WantedRows wanted(rows.ranges());
  std::vector<std::shared_ptr<Array>> out;
  // A flat column read from the file keeps only the wanted rows of what it decodes: a string's
  // bytes, say, are copied once (and only when wanted), not decoded into an array first and
  // selected from it after. Others (nested, constant, row index) select after.
  const bool keeping = drop && readers.size() == 1 && readers.front()->flat();
  std::vector<uint8_t> keep;
  auto keep_of = [&](const prune::RowRange& piece) -> const uint8_t* {
    keep.assign(static_cast<size_t>(piece.length()), 0);
    wanted.MarkWithin(piece, keep.data());
    return keep.data();
  };
  auto on_window = [&](const std::vector<prune::RowRange>& pieces) -> Status {
    size_t next = 0;
    PQSIFT_ASSIGN_OR_RETURN(auto array,
                            FlushColumn(*slice.row_group, column, readers, &next, pieces));
    if (drop && !keeping) array = SelectRanges(*array, wanted.Within(pieces));
    out.push_back(std::move(array));
    return Status::OK();
  };
  Status st =
      keeping ? WalkSelection(decode, batch_size_, readers, *cancelled_, on_window, keep_of)
              : WalkSelection(drop ? decode : rows, batch_size_, readers, *cancelled_, on_window);
  counters_->pages.Add(readers);
  handle.Release(st.ok());
  counters_->decode_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  return out;
}

// An output column that is filter column `filter_column`: its rows of `rows`, gathered from
// the filter's decoded windows into the windows DecodeColumn cuts for the other columns.
Result<std::vector<std::shared_ptr<Array>>> SliceDecoder::GatherFilterColumn(
    const ScanSlice& slice, const prune::RowSelection& rows, const FilterWindows& decoded,
    size_t filter_column, size_t output_column) const {
  ReleaseOutputSlots(slice, output_column);  // no reader of its own
  if (rows.empty()) return std::vector<std::shared_ptr<Array>>{};
  auto start = Clock::now();
  prune::RowSelection decode = RowsToDecode(slice, rows);
  const bool drop = decode.row_count() != rows.row_count();
  WindowCutter windows(drop ? decode : rows, batch_size_);
  WantedRows wanted(rows.ranges());
  const std::vector<std::shared_ptr<Array>>& arrays = decoded.arrays[filter_column];
  const DataType& output_type = *slice.row_group->file().output_columns[output_column].type;
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
    // Windows the filter read as dictionary indices (KeepDictionaryIndices) give the values of
    // their selected rows only, each taken whole (`whole` has room for them all: no reallocation
    // moves what `sources` points at).
    std::vector<std::shared_ptr<Array>> values;
    std::vector<ElementRange> whole;
    whole.reserve(source_window.size() + 1);
    auto add = [&](const Array& window, std::span<const ElementRange> ranges) -> Status {
      if (window.type->id != TypeId::kDictionary || output_type.id == TypeId::kDictionary) {
        sources.push_back({&window, ranges});
        return Status::OK();
      }
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> picked,
                              DecodeDictionary(*SelectRanges(window, ranges)));
      whole.push_back({0, picked->length});
      sources.push_back({picked.get(), std::span(&whole.back(), 1)});
      values.push_back(std::move(picked));
      return Status::OK();
    };
    for (size_t k = 0; k < source_window.size(); ++k) {
      PQSIFT_RETURN_IF_ERROR(add(*arrays[source_window[k]], source_ranges[k]));
    }
    // A window of only dropped rows (tiny batches) is an empty array, as DecodeColumn makes it.
    if (source_window.empty()) PQSIFT_RETURN_IF_ERROR(add(*arrays.front(), {}));
    out.push_back(SelectRanges(sources));
  }
  counters_->decode_nanos += NanosSince(start);
  return out;
}

// Phase one of a filtered slice: decodes the filter columns of the selected rows, window by
// window, and keeps the rows where the filter is TRUE.
int64_t SliceDecoder::FilterWalkStart(const ScanSlice& slice) {
  if (slice.matched.empty() || (slice.filter->FeedsOutputs() && !slice.rows.empty())) {
    return slice.rows.empty() ? -1 : slice.rows.ranges().front().begin;
  }
  prune::RowSelection unproven = slice.rows.Difference(slice.matched);
  return unproven.empty() ? -1 : unproven.ranges().front().begin;
}

Result<prune::RowSelection> SliceDecoder::EvaluateFilter(const ScanSlice& slice,
                                                         FilterWindows* keep) const {
  auto start = Clock::now();
  const PlannedFile& file = slice.row_group->file();
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
  PQSIFT_RETURN_IF_ERROR(handle.Acquire(walk, page_options_));
  const auto& readers = handle.readers();
  KeepDictionaryIndices(filter_columns, readers);
  MatchedCursor proven_rows(slice.matched);
  Status st = WalkSelection(
      walk, batch_size_, readers, *cancelled_,
      [&](const std::vector<prune::RowRange>& pieces) -> Status {
        std::vector<std::shared_ptr<Array>> arrays;
        std::vector<const Array*> inputs;
        size_t next = 0;
        int64_t n = RowsOf(pieces);
        for (const DecodedColumn* col : filter_columns) {
          PQSIFT_ASSIGN_OR_RETURN(auto array,
                                  FlushColumn(*slice.row_group, *col, readers, &next, pieces));
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
  counters_->pages.Add(readers);
  handle.Release(st.ok());
  counters_->rows_decoded += walk.row_count();
  counters_->filter_nanos += NanosSince(start);
  PQSIFT_RETURN_IF_ERROR(st);
  prune::RowSelection found = prune::RowSelection::FromRanges(std::move(matches));
  return proven && !decode_all ? found.Union(slice.matched) : found;
}

// The reader slots of output column `c` that the slice registered and will not use: what the
// slice before it left goes on to the next.
void SliceDecoder::ReleaseOutputSlots(const ScanSlice& slice, size_t c) {
  SliceReaders unused(slice, OutputRole(c), {&slice.row_group->file().output_columns[c]});
}

}  // namespace pqsift::scan
