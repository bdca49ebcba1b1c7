#include "arrow/select.h"

#include <cstring>
#include <vector>

#include "arrow/bit_util.h"
#include "arrow/dictionary.h"
#include "arrow/layout.h"

namespace pqsift {
namespace {

int64_t CountElements(std::span<const ElementRange> ranges) {
  int64_t n = 0;
  for (const ElementRange& r : ranges) n += r.end - r.begin;
  return n;
}

int64_t CountElements(std::span<const RangesOf> sources) {
  int64_t n = 0;
  for (const RangesOf& s : sources) n += CountElements(s.ranges);
  return n;
}

// The bits of the selected elements of each source's bitmap buffers[index] (element 0 is bit
// `array.offset`); a source without that bitmap contributes set bits (no nulls).
std::shared_ptr<ArrowBuffer> SelectBits(std::span<const RangesOf> sources, size_t index,
                                        int64_t length) {
  auto out = std::make_shared<ArrowBuffer>();
  out->Resize(static_cast<size_t>(bit_util::BytesForBits(length)));
  int64_t at = 0;
  for (const RangesOf& s : sources) {
    const ArrowBuffer* bits = s.array->buffers[index].get();
    for (const ElementRange& r : s.ranges) {
      if (bits == nullptr) {
        bit_util::SetBitsTo(out->data(), at, r.end - r.begin, true);
      } else {
        bit_util::CopyBits(bits->data(), s.array->offset + r.begin, r.end - r.begin, out->data(),
                           at);
      }
      at += r.end - r.begin;
    }
  }
  return out;
}

// The validity bitmap of the selected elements (null when no source has nulls), and their
// null count.
std::shared_ptr<ArrowBuffer> SelectValidity(std::span<const RangesOf> sources, int64_t length,
                                            int64_t* null_count) {
  *null_count = 0;
  bool nulls = false;
  for (const RangesOf& s : sources) {
    const Array& a = *s.array;
    nulls |= a.null_count != 0 && !a.buffers.empty() && a.buffers[0] != nullptr;
  }
  if (!nulls) return nullptr;
  auto bits = SelectBits(sources, 0, length);
  *null_count = length - bit_util::CountSetBits(bits->data(), 0, length);
  return bits;
}

std::shared_ptr<ArrowBuffer> SelectFixedWidth(std::span<const RangesOf> sources, int64_t width,
                                              int64_t length) {
  auto values = std::make_shared<ArrowBuffer>();
  values->Resize(static_cast<size_t>(length * width));
  uint8_t* out = values->data();
  for (const RangesOf& s : sources) {
    const uint8_t* in = s.array->buffers[1]->data() + s.array->offset * width;
    for (const ElementRange& r : s.ranges) {
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
  }
  return values;
}

// Offsets of the selected elements (starting at 0) and, for each source, the spans of the child
// / byte data its ranges cover.
template <typename O>
std::shared_ptr<ArrowBuffer> SelectOffsets(std::span<const RangesOf> sources, int64_t length,
                                           std::vector<std::vector<ElementRange>>* spans) {
  auto offsets = std::make_shared<ArrowBuffer>();
  offsets->Resize(static_cast<size_t>(length + 1) * sizeof(O));
  O* out = offsets->as<O>();
  O next = 0;
  *out++ = 0;
  spans->resize(sources.size());
  for (size_t k = 0; k < sources.size(); ++k) {
    const O* in = layout::Offsets<O>(*sources[k].array) + sources[k].array->offset;
    std::vector<ElementRange>& covered = (*spans)[k];
    for (const ElementRange& r : sources[k].ranges) {
      for (int64_t i = r.begin; i < r.end; ++i) {
        next = static_cast<O>(next + (in[i + 1] - in[i]));
        *out++ = next;
      }
      int64_t begin = in[r.begin], end = in[r.end];
      if (end == begin) continue;
      if (!covered.empty() && covered.back().end == begin) {
        covered.back().end = end;
      } else {
        covered.push_back({begin, end});
      }
    }
  }
  return offsets;
}

std::shared_ptr<ArrowBuffer> SelectBytes(std::span<const RangesOf> sources,
                                         const std::vector<std::vector<ElementRange>>& spans) {
  int64_t total = 0;
  for (const auto& covered : spans) total += CountElements(covered);
  auto out = std::make_shared<ArrowBuffer>();
  out->Resize(static_cast<size_t>(total));
  size_t at = 0;
  for (size_t k = 0; k < sources.size(); ++k) {
    const uint8_t* data = sources[k].array->buffers[2]->data();
    for (const ElementRange& s : spans[k]) {
      auto n = static_cast<size_t>(s.end - s.begin);
      std::memcpy(out->data() + at, data + s.begin, n);
      at += n;
    }
  }
  return out;
}

// The children of every source at the element spans of that source.
std::vector<RangesOf> ChildSources(std::span<const RangesOf> sources, size_t child,
                                   const std::vector<std::vector<ElementRange>>& spans) {
  std::vector<RangesOf> out;
  for (size_t k = 0; k < sources.size(); ++k) {
    out.push_back({sources[k].array->children[child].get(), spans[k]});
  }
  return out;
}

// Dictionary arrays: the selected indices (fixed width) against one dictionary for all
// sources; a source whose dictionary is not the first one's has its indices moved up.
void SelectDictionary(std::span<const RangesOf> sources, Array* out) {
  std::vector<const Array*> arrays;
  for (const RangesOf& s : sources) arrays.push_back(s.array);
  UnifiedDictionary unified = UnifyDictionaries(arrays);
  out->dictionary = std::move(unified.dictionary);
  int32_t* indices = out->buffers[1]->as<int32_t>();
  for (size_t k = 0; k < sources.size(); ++k) {
    const int64_t n = CountElements(sources[k].ranges);
    const auto base = static_cast<uint32_t>(unified.bases[k]);
    if (base != 0) {
      // Unsigned: the indices under nulls are arbitrary and must not overflow.
      for (int64_t i = 0; i < n; ++i) {
        indices[i] = static_cast<int32_t>(static_cast<uint32_t>(indices[i]) + base);
      }
    }
    indices += n;
  }
}

}  // namespace

std::shared_ptr<Array> SelectRanges(std::span<const RangesOf> sources) {
  const Array& first = *sources.front().array;
  auto out = std::make_shared<Array>();
  out->type = first.type;
  out->length = CountElements(sources);
  const int64_t length = out->length;
  const TypeId id = first.type->id;
  if (id == TypeId::kNull) {
    out->null_count = length;
    return out;
  }
  out->buffers.resize(first.buffers.size());
  out->buffers[0] = SelectValidity(sources, length, &out->null_count);
  if (id == TypeId::kBoolean) {
    out->buffers[1] = SelectBits(sources, 1, length);
  } else if (layout::IsFixedWidth(id)) {
    out->buffers[1] = SelectFixedWidth(sources, layout::FixedByteWidth(*first.type), length);
    if (id == TypeId::kDictionary) SelectDictionary(sources, out.get());
  } else if (layout::IsBinaryLike(id)) {
    std::vector<std::vector<ElementRange>> spans;
    out->buffers[1] = SelectOffsets<int64_t>(sources, length, &spans);
    out->buffers[2] = SelectBytes(sources, spans);
  } else if (id == TypeId::kLargeList || id == TypeId::kMap) {
    std::vector<std::vector<ElementRange>> spans;
    out->buffers[1] = id == TypeId::kMap ? SelectOffsets<int32_t>(sources, length, &spans)
                                         : SelectOffsets<int64_t>(sources, length, &spans);
    out->children.push_back(SelectRanges(ChildSources(sources, 0, spans)));
  } else if (id == TypeId::kStruct) {
    // A struct's children are indexed with the parent's offset (array.h).
    std::vector<std::vector<ElementRange>> shifted(sources.size());
    for (size_t k = 0; k < sources.size(); ++k) {
      for (const ElementRange& r : sources[k].ranges) {
        shifted[k].push_back(
            {r.begin + sources[k].array->offset, r.end + sources[k].array->offset});
      }
    }
    for (size_t c = 0; c < first.children.size(); ++c) {
      out->children.push_back(SelectRanges(ChildSources(sources, c, shifted)));
    }
  }
  return out;
}

std::shared_ptr<Array> SelectRanges(const Array& array, std::span<const ElementRange> ranges) {
  const RangesOf source{&array, ranges};
  return SelectRanges(std::span<const RangesOf>(&source, 1));
}

}  // namespace pqsift
