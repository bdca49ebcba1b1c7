#include "scan/reader_handoff.h"

namespace pqsift::scan {

int64_t ReaderHandoff::Register(int64_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& entry = entries_[seq];
  entry.prev = last_registered_;
  last_registered_ = seq;
  return entry.prev;
}

std::unique_ptr<column::LeafReader> ReaderHandoff::Take(int64_t seq) {
  std::unique_lock<std::mutex> lock(mu_);
  int64_t prev = entries_[seq].prev;
  entries_[seq].prev = -1;  // the slices after it follow it, not what it took
  while (prev >= 0) {
    put_.wait(lock, [&] { return entries_[prev].put; });
    auto it = entries_.find(prev);
    std::unique_ptr<column::LeafReader> reader = std::move(it->second.reader);
    const int64_t before = it->second.prev;
    entries_.erase(it);
    if (reader) return reader;
    prev = before;  // it left none: what it was handed
  }
  return nullptr;
}

void ReaderHandoff::Discard(int64_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t prev = entries_[seq].prev;
  entries_[seq].prev = -1;
  DiscardFrom(prev);
}

void ReaderHandoff::DiscardFrom(int64_t seq) {
  while (seq >= 0) {
    auto it = entries_.find(seq);
    if (it == entries_.end()) return;
    if (!it->second.put) {
      it->second.discard = true;  // its Put frees what it brings, and goes on from there
      return;
    }
    const bool had_reader = it->second.reader != nullptr;
    const int64_t before = it->second.prev;
    entries_.erase(it);
    if (had_reader) return;
    seq = before;
  }
}

void ReaderHandoff::Put(int64_t seq, std::unique_ptr<column::LeafReader> reader) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& entry = entries_[seq];
    entry.put = true;
    if (entry.discard) {
      const int64_t before = entry.prev;
      entries_.erase(seq);
      if (!reader) DiscardFrom(before);  // nothing of its own: what it was handed goes too
    } else {
      entry.reader = std::move(reader);
    }
  }
  put_.notify_all();
}

void ReaderHandoff::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [seq, entry] : entries_) entry.reader.reset();
}

}  // namespace pqsift::scan
