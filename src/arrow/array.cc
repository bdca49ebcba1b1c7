// Array basics: validity lookup, zero-copy slicing, logical equality.
#include <cstring>
#include <string>

#include "arrow/bit_util.h"
#include "arrow/layout.h"
#include "pqsift/array.h"

namespace pqsift {

bool Array::IsValid(int64_t i) const {
  if (type != nullptr && type->id == TypeId::kNull) return false;
  if (buffers.empty() || buffers[0] == nullptr) return true;
  return bit_util::GetBit(buffers[0]->data(), offset + i);
}

Result<std::shared_ptr<Array>> Slice(const Array& array, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > array.length || length > array.length - offset) {
    return Status::OutOfRange("slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                              ") outside an array of length " + std::to_string(array.length));
  }
  auto out = std::make_shared<Array>(array);
  out->offset = array.offset + offset;
  out->length = length;
  if (array.type != nullptr && array.type->id == TypeId::kNull) {
    out->null_count = length;
  } else if (array.null_count == 0 || array.buffers.empty() || array.buffers[0] == nullptr) {
    out->null_count = 0;
  } else if (array.null_count == array.length) {
    out->null_count = length;
  } else {
    out->null_count =
        length - bit_util::CountSetBits(array.buffers[0]->data(), out->offset, length);
  }
  return out;
}

namespace {

// Elements [ai, ai + n) of a equal elements [bi, bi + n) of b (indices before `offset`).
bool RangeEquals(const Array& a, int64_t ai, const Array& b, int64_t bi, int64_t n);

template <typename O>
bool ListRangeEquals(const Array& a, int64_t ai, const Array& b, int64_t bi, int64_t n) {
  const O* ao = layout::Offsets<O>(a) + a.offset + ai;
  const O* bo = layout::Offsets<O>(b) + b.offset + bi;
  for (int64_t k = 0; k < n; ++k) {
    if (!a.IsValid(ai + k)) continue;
    int64_t len = static_cast<int64_t>(ao[k + 1]) - ao[k];
    if (len != static_cast<int64_t>(bo[k + 1]) - bo[k]) return false;
    if (a.type->id == TypeId::kLargeString || a.type->id == TypeId::kLargeBinary) {
      const uint8_t* ad = a.buffers[2] ? a.buffers[2]->data() : nullptr;
      const uint8_t* bd = b.buffers[2] ? b.buffers[2]->data() : nullptr;
      if (len > 0 && (ad == nullptr || bd == nullptr)) return false;  // no data: not equal
      if (len > 0 && std::memcmp(ad + ao[k], bd + bo[k], static_cast<size_t>(len)) != 0) {
        return false;
      }
    } else if (!RangeEquals(*a.children[0], ao[k], *b.children[0], bo[k], len)) {
      return false;
    }
  }
  return true;
}

bool RangeEquals(const Array& a, int64_t ai, const Array& b, int64_t bi, int64_t n) {
  if (!(*a.type == *b.type)) return false;
  for (int64_t k = 0; k < n; ++k) {
    if (a.IsValid(ai + k) != b.IsValid(bi + k)) return false;
  }
  const DataType& type = *a.type;
  switch (type.id) {
    case TypeId::kNull: return true;
    case TypeId::kBoolean:
      for (int64_t k = 0; k < n; ++k) {
        if (a.IsValid(ai + k) && bit_util::GetBit(a.buffers[1]->data(), a.offset + ai + k) !=
                                     bit_util::GetBit(b.buffers[1]->data(), b.offset + bi + k)) {
          return false;
        }
      }
      return true;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeList: return ListRangeEquals<int64_t>(a, ai, b, bi, n);
    case TypeId::kMap: return ListRangeEquals<int32_t>(a, ai, b, bi, n);
    case TypeId::kDictionary:
      // By value: two arrays of the same strings are equal whatever their dictionaries.
      for (int64_t k = 0; k < n; ++k) {
        if (a.IsValid(ai + k) &&
            !RangeEquals(*a.dictionary, layout::DictionaryIndex(a, ai + k), *b.dictionary,
                         layout::DictionaryIndex(b, bi + k), 1)) {
          return false;
        }
      }
      return true;
    case TypeId::kStruct:
      for (int64_t k = 0; k < n; ++k) {
        if (!a.IsValid(ai + k)) continue;
        for (size_t c = 0; c < a.children.size(); ++c) {
          if (!RangeEquals(*a.children[c], a.offset + ai + k, *b.children[c], b.offset + bi + k,
                           1)) {
            return false;
          }
        }
      }
      return true;
    default: {
      auto width = static_cast<size_t>(layout::FixedByteWidth(type));
      if (width == 0) return true;
      for (int64_t k = 0; k < n; ++k) {
        if (!a.IsValid(ai + k)) continue;
        const uint8_t* av = a.buffers[1]->data() + (a.offset + ai + k) * width;
        const uint8_t* bv = b.buffers[1]->data() + (b.offset + bi + k) * width;
        if (std::memcmp(av, bv, width) != 0) return false;
      }
      return true;
    }
  }
}

}  // namespace

bool ArrayEquals(const Array& a, const Array& b) {
  if (a.type == nullptr || b.type == nullptr) return a.type == b.type;
  if (a.length != b.length || a.null_count != b.null_count) return false;
  return RangeEquals(a, 0, b, 0, a.length);
}

}  // namespace pqsift
