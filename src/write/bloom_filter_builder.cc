#include "write/bloom_filter_builder.h"

#include <algorithm>

namespace pqsift::write {

void BloomFilterBuilder::Deduplicate() {
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  distinct_ = hashes_.size();
}

int64_t BloomFilterBuilder::distinct() {
  if (distinct_ != hashes_.size()) Deduplicate();
  return static_cast<int64_t>(distinct_);
}

void BloomFilterBuilder::Finish(std::vector<uint8_t>& out) {
  const int64_t ndv = options_.ndv > 0 ? options_.ndv : distinct();
  format::SplitBlockBloomFilter filter(format::OptimalBloomFilterBytes(ndv, options_.fpp));
  for (uint64_t hash : hashes_) filter.Insert(hash);
  filter.AppendTo(out);
  hashes_.clear();
  hashes_.shrink_to_fit();
  distinct_ = 0;
}

}  // namespace pqsift::write
