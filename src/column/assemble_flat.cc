#include <cstring>

#include "arrow/layout.h"
#include "column/assemble.h"

namespace pqsift::column {
namespace {

std::shared_ptr<ArrowBuffer> NewBuffer(size_t size) {
  auto b = std::make_shared<ArrowBuffer>();
  b->Resize(size);
  return b;
}

}  // namespace

Result<std::shared_ptr<Array>> AssembleFlat(LeafBatch batch, int16_t max_def) {
  return SpreadValues(std::move(batch.values), batch.definition_levels, batch.num_records, max_def);
}

Result<std::shared_ptr<Array>> SpreadValues(std::shared_ptr<Array> dense,
                                            const std::vector<int16_t>& def, int64_t length,
                                            int16_t max_def) {
  if (!def.empty()) length = static_cast<int64_t>(def.size());
  int64_t valid = def.empty() ? length : 0;
  for (int16_t d : def) valid += d == max_def;
  if (valid != dense->length) {
    return Status::Corruption(std::to_string(dense->length) + " values were decoded for " +
                              std::to_string(valid) + " non-null slots");
  }
  if (valid == length) return dense;  // nothing is null: the dense values are the column
  auto out = std::make_shared<Array>();
  out->type = dense->type;
  out->dictionary = dense->dictionary;  // a dictionary array's indices spread like int32 values
  out->length = length;
  out->null_count = length - dense->length;
  auto validity = NewBuffer(static_cast<size_t>((length + 7) / 8));
  std::memset(validity->data(), 0, validity->size());
  uint8_t* valid_bits = validity->data();
  for (int64_t i = 0; i < length; ++i) {
    if (def[i] == max_def) valid_bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
  }
  const DataType& type = *dense->type;
  if (type.id == TypeId::kLargeString || type.id == TypeId::kLargeBinary) {
    // Only the offsets change: null slots repeat the previous offset; the bytes are shared.
    const auto* in = dense->buffers[1]->as<int64_t>();
    auto offsets = NewBuffer(static_cast<size_t>(length + 1) * sizeof(int64_t));
    auto* o = offsets->as<int64_t>();
    o[0] = in[0];
    int64_t next = 0;
    for (int64_t i = 0; i < length; ++i) {
      if (def[i] == max_def) ++next;
      o[i + 1] = in[next];
    }
    out->buffers = {validity, offsets, dense->buffers[2]};
    return out;
  }
  if (type.id == TypeId::kBoolean) {
    const uint8_t* in = dense->buffers[1]->data();
    auto bits = NewBuffer(static_cast<size_t>((length + 7) / 8));
    std::memset(bits->data(), 0, bits->size());
    int64_t next = 0;
    for (int64_t i = 0; i < length; ++i) {
      if (def[i] != max_def) continue;
      if ((in[next >> 3] >> (next & 7)) & 1)
        bits->data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
      ++next;
    }
    out->buffers = {validity, bits};
    return out;
  }
  const int32_t width = layout::FixedByteWidth(type);
  if (width <= 0 && type.id != TypeId::kFixedSizeBinary) {
    return Status::Internal("cannot spread nulls into type " + type.ToString());
  }
  const uint8_t* in = dense->buffers[1] ? dense->buffers[1]->data() : nullptr;
  auto values = NewBuffer(static_cast<size_t>(length) * static_cast<size_t>(width));
  uint8_t* v = values->data();
  int64_t next = 0;
  for (int64_t i = 0; i < length; ++i, v += width) {
    if (width == 0) continue;  // fixed_size_binary[0]: nothing to copy (and `in` may be null)
    if (def[i] == max_def) {
      std::memcpy(v, in + next * width, static_cast<size_t>(width));
      ++next;
    } else {
      std::memset(v, 0, static_cast<size_t>(width));
    }
  }
  out->buffers = {validity, values};
  return out;
}

}  // namespace pqsift::column
