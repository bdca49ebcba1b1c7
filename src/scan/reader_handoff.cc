#include "scan/reader_handoff.h"

#include <vector>

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

bool ReaderHandoff::Ready(int64_t seq) const {
  auto it = entries_.find(seq);
  int64_t prev = it == entries_.end() ? -1 : it->second.prev;
  while (prev >= 0) {
    auto p = entries_.find(prev);
    if (p == entries_.end()) return true;
    if (!p->second.put) return false;
    if (p->second.reader) return true;
    prev = p->second.prev;  // it left none: Take goes on to what it was handed
  }
  return true;
}

void ReaderHandoff::WhenReady(int64_t seq, std::function<void()> run) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!Ready(seq)) {
      waiting_[seq] = std::move(run);
      return;
    }
  }
  run();
}

void ReaderHandoff::Put(int64_t seq, std::unique_ptr<column::LeafReader> reader) {
  std::vector<std::function<void()>> now_ready;
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
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (Ready(it->first)) {
        now_ready.push_back(std::move(it->second));
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }
  put_.notify_all();
  for (auto& run : now_ready) run();
}

void ReaderHandoff::Clear() {
  std::map<int64_t, std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [seq, entry] : entries_) entry.reader.reset();
    dropped.swap(waiting_);
  }
  // Destroyed outside the lock: a callback may hold the last reference to what owns this.
}

}  // namespace pqsift::scan
