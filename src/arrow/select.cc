#include "arrow/select.h"

#include <cstring>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/layout.h"

namespace pqsift {
namespace {

int64_t CountElements(std::span<const ElementRange> ranges) {
  int64_t n = 0;
  for (const ElementRange& r : ranges) n += r.end - r.begin;
  return n;
}

// The bits of the selected elements of a bitmap whose element 0 is bit `offset`.
std::shared_ptr<ArrowBuffer> SelectBits(const uint8_t* bits, int64_t offset,
                                        std::span<const ElementRange> ranges, int64_t length) {
  auto out = std::make_shared<ArrowBuffer>();
  out->Resize(static_cast<size_t>(bit_util::BytesForBits(length)));
  int64_t at = 0;
  for (const ElementRange& r : ranges) {
    bit_util::CopyBits(bits, offset + r.begin, r.end - r.begin, out->data(), at);
    at += r.end - r.begin;
  }
  return out;
}

// The validity bitmap of the selected elements (null when the input has no nulls), and their
// null count.
std::shared_ptr<ArrowBuffer> SelectValidity(const Array& array,
                                            std::span<const ElementRange> ranges, int64_t length,
                                            int64_t* null_count) {
  *null_count = 0;
  if (array.null_count == 0 || array.buffers.empty() || array.buffers[0] == nullptr) {
    return nullptr;
  }
  auto bits = SelectBits(array.buffers[0]->data(), array.offset, ranges, length);
  *null_count = length - bit_util::CountSetBits(bits->data(), 0, length);
  return bits;
}

std::shared_ptr<ArrowBuffer> SelectFixedWidth(const Array& array,
                                              std::span<const ElementRange> ranges, int64_t width,
                                              int64_t length) {
  auto values = std::make_shared<ArrowBuffer>();
  values->Resize(static_cast<size_t>(length * width));
  const uint8_t* in = array.buffers[1]->data() + array.offset * width;
  uint8_t* out = values->data();
  for (const ElementRange& r : ranges) {
    // Single elements (scattered selections) are the common case: a fixed-size copy each.
    if (r.end - r.begin == 1 && width == 8) {
      std::memcpy(out, in + r.begin * 8, 8);
      out += 8;
      continue;
    }
    size_t bytes = static_cast<size_t>((r.end - r.begin) * width);
    std::memcpy(out, in + r.begin * width, bytes);
    out += bytes;
  }
  return values;
}

// Offsets of the selected elements (starting at 0) and, for each range, the span of the
// child / byte data it covers.
template <typename O>
std::shared_ptr<ArrowBuffer> SelectOffsets(const Array& array, std::span<const ElementRange> ranges,
                                           int64_t length, std::vector<ElementRange>* spans) {
  const O* in = layout::Offsets<O>(array) + array.offset;
  auto offsets = std::make_shared<ArrowBuffer>();
  offsets->Resize(static_cast<size_t>(length + 1) * sizeof(O));
  O* out = offsets->as<O>();
  O next = 0;
  *out++ = 0;
  for (const ElementRange& r : ranges) {
    for (int64_t i = r.begin; i < r.end; ++i) {
      next = static_cast<O>(next + (in[i + 1] - in[i]));
      *out++ = next;
    }
    int64_t begin = in[r.begin], end = in[r.end];
    if (end == begin) continue;
    if (!spans->empty() && spans->back().end == begin) {
      spans->back().end = end;
    } else {
      spans->push_back({begin, end});
    }
  }
  return offsets;
}

std::shared_ptr<ArrowBuffer> SelectBytes(const ArrowBuffer* data,
                                         const std::vector<ElementRange>& spans) {
  auto out = std::make_shared<ArrowBuffer>();
  out->Resize(static_cast<size_t>(CountElements(spans)));
  size_t at = 0;
  for (const ElementRange& s : spans) {
    auto n = static_cast<size_t>(s.end - s.begin);
    std::memcpy(out->data() + at, data->data() + s.begin, n);
    at += n;
  }
  return out;
}

}  // namespace

std::shared_ptr<Array> SelectRanges(const Array& array, std::span<const ElementRange> ranges) {
  auto out = std::make_shared<Array>();
  out->type = array.type;
  out->length = CountElements(ranges);
  const int64_t length = out->length;
  const TypeId id = array.type->id;
  if (id == TypeId::kNull) {
    out->null_count = length;
    return out;
  }
  out->buffers.resize(array.buffers.size());
  out->buffers[0] = SelectValidity(array, ranges, length, &out->null_count);
  if (id == TypeId::kBoolean) {
    out->buffers[1] = SelectBits(array.buffers[1]->data(), array.offset, ranges, length);
  } else if (layout::IsFixedWidth(id)) {
    out->buffers[1] = SelectFixedWidth(array, ranges, layout::FixedByteWidth(*array.type), length);
  } else if (layout::IsBinaryLike(id)) {
    std::vector<ElementRange> spans;
    out->buffers[1] = SelectOffsets<int64_t>(array, ranges, length, &spans);
    out->buffers[2] = SelectBytes(array.buffers[2].get(), spans);
  } else if (id == TypeId::kLargeList || id == TypeId::kMap) {
    std::vector<ElementRange> spans;
    out->buffers[1] = id == TypeId::kMap ? SelectOffsets<int32_t>(array, ranges, length, &spans)
                                         : SelectOffsets<int64_t>(array, ranges, length, &spans);
    out->children.push_back(SelectRanges(*array.children[0], spans));
  } else if (id == TypeId::kStruct) {
    // A struct's children are indexed with the parent's offset (array.h).
    std::vector<ElementRange> shifted(ranges.begin(), ranges.end());
    for (ElementRange& r : shifted) r = {r.begin + array.offset, r.end + array.offset};
    for (const auto& child : array.children) out->children.push_back(SelectRanges(*child, shifted));
  }
  return out;
}

}  // namespace pqsift
