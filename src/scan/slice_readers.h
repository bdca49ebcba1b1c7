// The column readers of one task of a slice (scan/slice.h): one column::LeafReader per leaf of
// the task's columns, in order, for a walk over some of the slice's rows.
//
// Each leaf's reader is the one the slice before it left (scan/reader_handoff.h), continued,
// when the first page this walk needs may hold rows before the walk's first row (so that slice
// may have decompressed it); otherwise a reader of its own on the pages holding the rows, with
// the chunk's shared dictionary (RowGroupData::ShareOf). Every slot the slice registered at
// launch (Register) must be Put back (Release) however the task ends; the destructor does it.
//
// Thread safety: a SliceReaders belongs to one task; the handoffs and the row group it uses are
// thread-safe. The ScanSlice it refers to must outlive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "column/leaf_reader.h"
#include "column/page_reader.h"
#include "scan/slice.h"

namespace pqsift::scan {

// Page counts of the readers a task used, added to the scan's totals when the task ends (a
// reader handed on to the next slice counts each page once: the counts are taken, not read).
struct PageCounters {
  std::atomic<int64_t> decoded{0};
  std::atomic<int64_t> passed_over{0};
  std::atomic<int64_t> decompressed{0};
  std::atomic<int64_t> bytes_decompressed{0};
  void Add(const std::vector<std::unique_ptr<column::LeafReader>>& readers);
};

class SliceReaders {
 public:
  SliceReaders(const ScanSlice& slice, int role, const std::vector<const DecodedColumn*>& columns);
  ~SliceReaders() { Release(); }
  SliceReaders(const SliceReaders&) = delete;
  SliceReaders& operator=(const SliceReaders&) = delete;

  // Readers for a walk over `rows` (not empty). The errors of fetching the chunks and of opening
  // their readers (the row group's Get, column::LeafReader::Make).
  Status Acquire(const prune::RowSelection& rows, const column::PageReaderOptions& options);

  const std::vector<std::unique_ptr<column::LeafReader>>& readers() const { return readers_; }

  // Hands each reader (or nothing, for leaves it has none of) on to the next slice. A reader that
  // failed is not handed on: `ok` false.
  void Release(bool ok = true);

  // The handoffs a task of `columns` in `role` whose walk starts at `first_row` will Take from
  // (Acquire continues the slice before's reader there): the task is ready to run once their
  // Takes would not wait (ReaderHandoff::WhenReady). After Register.
  static std::vector<ReaderHandoff*> Awaited(const ScanSlice& slice, int role,
                                             const std::vector<const DecodedColumn*>& columns,
                                             int64_t first_row);

  // The (role, leaf) slots a task of `columns` in `role` uses, registered in slice order (at
  // launch, on the consumer thread). A leaf that `sole_reader` maps to this role (the one role
  // reading it in the slice) joins the leaf's chain of every role (kAnyRoleChain), the others the
  // role's own.
  static void Register(const ScanSlice& slice, int role,
                       const std::vector<const DecodedColumn*>& columns,
                       const std::map<int32_t, int>& sole_reader, SliceLinks* links);

 private:
  const ScanSlice& slice_;
  int role_;
  std::vector<int32_t> leaves_;
  std::vector<std::unique_ptr<column::LeafReader>> readers_;
  bool released_ = false;
};

}  // namespace pqsift::scan
