// The str objects of a string column's repeated values, shared: a column of a few distinct
// values (categories, countries) costs one Python object per value, not one per row.
//
// A lookup per row is the whole cost of such a column's conversion, so the table is made for
// it: open addressing over at most kCapacity values, each kept as its length and two 64-bit
// words. A value of at most 16 bytes is those words (its first and last 8 bytes, or its bytes
// packed when shorter), so it is hashed and compared in a few instructions, without a memcmp
// call; a longer one is hashed whole and compared with the bytes the table keeps. (With a
// std::unordered_map of std::string, the lookups of a 20M-row column of 8 categories took
// 0.36 s, more than decoding the column.)
//
// Ownership: the table holds a reference to each object it keeps and releases them in Clear
// and its destructor. Thread safety: none; used with the GIL held (it touches reference counts).
#pragma once

#include <Python.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pqsift::python {

class SharedStrings {
 public:
  static constexpr size_t kCapacity = 4096;  // distinct values kept at most

  SharedStrings() = default;
  ~SharedStrings() { Clear(); }
  SharedStrings(const SharedStrings&) = delete;
  SharedStrings& operator=(const SharedStrings&) = delete;

  // The object kept for `s` (a borrowed reference), or nullptr.
  PyObject* Find(std::string_view s) const;
  // Keeps `object` (a new reference is taken) as the one of `s`, which Find did not find.
  // Ignored once kCapacity values are kept.
  void Insert(std::string_view s, PyObject* object);
  // Releases every object kept.
  void Clear();

 private:
  struct Key {
    uint64_t first = 0;   // the value's bytes (<= 16) or its first 8 bytes
    uint64_t second = 0;  // its last 8 bytes (when longer than 8)
    uint64_t size = 0;
    uint64_t hash = 0;
  };
  struct Slot {
    Key key;
    uint32_t text = 0;           // where a value longer than 16 bytes starts in long_texts_
    PyObject* object = nullptr;  // nullptr: the slot is free
  };
  static Key KeyOf(std::string_view s);
  bool Equal(const Slot& slot, const Key& key, std::string_view s) const;
  void Grow();
  void Place(const Slot& slot);  // into the first free slot of its probe sequence

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  size_t count_ = 0;
  std::string long_texts_;  // the bytes of the values longer than 16 bytes, one after another
};

// Inline: a lookup per row is the conversion of a column of few distinct values.
namespace shared_strings_detail {

inline constexpr size_t kShortBytes = 16;  // values up to this long are their key words

inline uint64_t Load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

inline uint64_t Load32(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

inline uint64_t Mix(uint64_t h) {
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ULL;
  h ^= h >> 32;
  return h;
}

}  // namespace shared_strings_detail

inline SharedStrings::Key SharedStrings::KeyOf(std::string_view s) {
  using namespace shared_strings_detail;
  Key key;
  const char* p = s.data();
  const size_t n = s.size();
  key.size = n;
  if (n >= 8) {
    key.first = Load64(p);
    key.second = Load64(p + n - 8);
  } else if (n >= 4) {
    key.first = Load32(p) | (Load32(p + n - 4) << 32);
  } else if (n > 0) {
    key.first = static_cast<uint8_t>(p[0]) | (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
                (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  key.hash = n <= kShortBytes
                 ? Mix(key.first * 0x9E3779B97F4A7C15ULL ^ (key.second + n) * 0xC2B2AE3D27D4EB4FULL)
                 : Mix(std::hash<std::string_view>{}(s));
  return key;
}

inline bool SharedStrings::Equal(const Slot& slot, const Key& key, std::string_view s) const {
  if (slot.key.hash != key.hash || slot.key.size != key.size || slot.key.first != key.first ||
      slot.key.second != key.second) {
    return false;
  }
  return key.size <= shared_strings_detail::kShortBytes ||
         std::memcmp(long_texts_.data() + slot.text, s.data(), s.size()) == 0;
}

inline PyObject* SharedStrings::Find(std::string_view s) const {
  if (slots_.empty()) return nullptr;
  const Key key = KeyOf(s);
  const size_t mask = slots_.size() - 1;
  for (size_t i = key.hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.object == nullptr) return nullptr;
    if (Equal(slot, key, s)) return slot.object;
  }
}

}  // namespace pqsift::python
