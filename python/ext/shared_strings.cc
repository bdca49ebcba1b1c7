#include "shared_strings.h"

#include <cstring>
#include <functional>

namespace pqsift::python {

void SharedStrings::Insert(std::string_view s, PyObject* object) {
  if (count_ >= kCapacity) return;
  if ((count_ + 1) * 2 > slots_.size()) Grow();
  Slot slot;
  slot.key = KeyOf(s);
  if (s.size() > shared_strings_detail::kShortBytes) {
    slot.text = static_cast<uint32_t>(long_texts_.size());
    long_texts_.append(s);
  }
  Py_INCREF(object);
  slot.object = object;
  Place(slot);
  ++count_;
}

void SharedStrings::Place(const Slot& slot) {
  const size_t mask = slots_.size() - 1;
  size_t i = slot.key.hash & mask;
  while (slots_[i].object != nullptr) i = (i + 1) & mask;
  slots_[i] = slot;
}

void SharedStrings::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  for (const Slot& slot : old) {
    if (slot.object != nullptr) Place(slot);
  }
}

void SharedStrings::Clear() {
  for (Slot& slot : slots_) Py_XDECREF(slot.object);
  slots_.clear();
  long_texts_.clear();
  count_ = 0;
}

}  // namespace pqsift::python
