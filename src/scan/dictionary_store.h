// The dictionary pages the dictionary stage fetched from one file (prune::DictionarySource):
// fetched through the counted I/O (or taken from the footer's tail read), decoded with the
// column layer (column/dictionary_page.h), and their bytes kept for the scan, which takes them
// instead of reading the same bytes again when it fetches the chunk.
//
// Thread safety: Load and dictionary() during planning, on one thread; TakeBytes and
// ReleaseAfterPlan from any thread afterwards (they lock).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "prune/access_plan.h"
#include "prune/dictionary_source.h"

namespace pqsift::scan {

class DictionaryStore final : public prune::DictionarySource {
 public:
  // `file` and `metadata` must outlive the store. At most `max_held_bytes` of fetched
  // dictionary bytes are kept for the scan (beyond that the scan reads them again).
  DictionaryStore(RandomAccessFile& file, const ParquetMetadata& metadata,
                  uint64_t max_held_bytes = uint64_t{64} << 20);

  Status Load(std::span<const Request> requests, uint64_t* bytes_read) override;
  std::shared_ptr<const Array> dictionary(size_t row_group, int32_t leaf) const override;

  // The bytes fetched for the dictionary page that starts at file offset `offset`, handed over
  // (the store forgets them); nullopt when none are held.
  std::optional<Buffer> TakeBytes(uint64_t offset);
  // Whether TakeBytes(offset) would give bytes now.
  bool Holds(uint64_t offset) const;
  // How many bytes TakeBytes(offset) would give now (0: none).
  uint64_t HeldSize(uint64_t offset) const;
  // Bytes handed to the scan by TakeBytes so far (not read a second time).
  uint64_t bytes_reused() const;

  // After planning: the decoded dictionaries are no longer needed, and neither are the bytes of
  // row groups the plan skips.
  void ReleaseAfterPlan(const prune::FilePlan& plan);

 private:
  using Key = std::pair<size_t, int32_t>;  // (row group, leaf)
  std::optional<ByteRange> RangeOf(const Request& request) const;
  // Decodes the request's dictionary page, from the footer's bytes or `pages` (by offset: the
  // pages Load fetched in one wave, each taken by its request).
  Status LoadOne(const Request& request, std::map<uint64_t, Buffer>* pages);

  RandomAccessFile& file_;
  const ParquetMetadata& metadata_;
  uint64_t max_held_bytes_;
  std::map<Key, std::shared_ptr<const Array>> decoded_;  // null: unusable

  mutable std::mutex mu_;
  struct Held {
    size_t row_group = 0;
    Buffer bytes;
  };
  std::map<uint64_t, Held> held_;  // by the dictionary page's file offset
  uint64_t held_bytes_ = 0;
  uint64_t reused_bytes_ = 0;
};

}  // namespace pqsift::scan
