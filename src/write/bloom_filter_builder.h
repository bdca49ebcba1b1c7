// Builds one column chunk's split-block bloom filter (format/bloom_filter.h) from the physical
// values the chunk writer stores. The hashes are kept (deduplicated as they grow) until the
// chunk ends, so the filter can be sized for the distinct values the chunk really has.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "encoding/types.h"
#include "format/bloom_filter.h"
#include "pqsift/writer.h"

namespace pqsift::write {

class BloomFilterBuilder {
 public:
  explicit BloomFilterBuilder(const BloomFilterOptions& options) : options_(options) {}

  // Adds the hashes of `n` values of physical type DType (their PLAIN encoding).
  template <typename DType>
  void Add(const typename DType::Value* values, int64_t n) {
    static_assert(!encoding::kIsBoolean<DType>, "the spec defines no bloom hash for booleans");
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (encoding::kIsByteArrayLike<DType>) {
        hashes_.push_back(format::BloomFilterHash({values[i].data, values[i].size}));
      } else {
        hashes_.push_back(format::BloomFilterHashOf(values[i]));
      }
    }
    if (hashes_.size() >= 2 * distinct_ + kCompactEvery) Deduplicate();
  }

  // Distinct hashes added so far.
  int64_t distinct();

  // Appends the filter (header and bitset), sized for options.ndv or, when that is 0, for the
  // distinct values added, and holding every hash added.
  void Finish(std::vector<uint8_t>& out);

 private:
  static constexpr size_t kCompactEvery = size_t{64} * 1024;
  void Deduplicate();

  const BloomFilterOptions options_;
  std::vector<uint64_t> hashes_;
  size_t distinct_ = 0;  // hashes_[0, distinct_) is sorted and unique
};

}  // namespace pqsift::write
