#include "encoding/dictionary_decoder.h"

#include <algorithm>
#include <string>

#include "encoding/decoder_util.h"
#include "encoding/plain.h"

namespace pqsift::encoding {
namespace {
constexpr const char* kName = "RLE_DICTIONARY";
}  // namespace

template <typename DType>
Result<std::unique_ptr<DictionaryDecoder<DType>>> DictionaryDecoder<DType>::Make(
    std::span<const uint8_t> dictionary_page, int64_t num_values, int32_t type_length) {
  if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    if (type_length < 1) {
      return Status::InvalidArgument("dictionary: FIXED_LEN_BYTE_ARRAY type_length " +
                                     std::to_string(type_length) + " is not positive");
    }
  }
  if (num_values < 0) {
    return Status::Corruption("dictionary page: negative entry count " +
                              std::to_string(num_values));
  }
  // Checked before allocating: a count the page cannot hold is not honest.
  if (num_values > MaxPlainValues(DType::kPhysical, dictionary_page.size(), type_length)) {
    return Status::Corruption("dictionary page: " + std::to_string(dictionary_page.size()) +
                              " bytes cannot hold " + std::to_string(num_values) + " entries");
  }
  auto decoded = std::make_shared<Entries>();
  // Byte arrays decode to views of the page, so they keep a copy of it; other types copy the
  // values out of the caller's page.
  std::span<const uint8_t> entries = dictionary_page;
  if constexpr (kIsByteArrayLike<DType>) {
    decoded->storage.assign(dictionary_page.begin(), dictionary_page.end());
    entries = decoded->storage;
  }
  decoded->values.resize(static_cast<size_t>(num_values));
  PlainDecoder<DType> plain(type_length);
  PQSIFT_RETURN_IF_ERROR(plain.SetData(entries, num_values));
  Status st = plain.Decode(decoded->values.data(), num_values);
  if (!st.ok()) return st.WithContext("dictionary page");
  std::unique_ptr<DictionaryDecoder> d(new DictionaryDecoder());
  d->entries_ = std::move(decoded);
  return d;
}

template <typename DType>
Status DictionaryDecoder<DType>::SetData(std::span<const uint8_t> data, int64_t num_values) {
  return SetArrivingData(data, num_values, nullptr);
}

template <typename DType>
Status DictionaryDecoder<DType>::SetArrivingData(std::span<const uint8_t> data, int64_t num_values,
                                                 ByteSupply* more) {
  left_ = 0;
  indices_.Reset({}, 0);
  if (num_values < 0) return Corrupt(kName, "negative value count " + std::to_string(num_values));
  if (data.empty() && more != nullptr) data = {data.data(), more->Grow(data.data(), 1)};
  if (data.empty()) return Status::OK();
  const int bit_width = data[0];
  if (bit_width > 32) {
    return Corrupt(kName, "index bit width " + std::to_string(bit_width) + " exceeds 32");
  }
  indices_.Reset(data.subspan(1), bit_width, more);
  left_ = num_values;
  return Status::OK();
}

template <typename DType>
Status DictionaryDecoder<DType>::IndexError(uint32_t index) {
  left_ = 0;
  return Status::Corruption("dictionary index " + std::to_string(index) +
                            " out of range (dictionary has " +
                            std::to_string(entries_->values.size()) + " entries)");
}

template <typename DType>
Status DictionaryDecoder<DType>::RunError(int64_t got, int64_t n) {
  left_ = 0;
  return Corrupt(kName, std::string(indices_.ok() ? "the indices end" : "malformed run") +
                            " after " + std::to_string(got) + " of " + std::to_string(n) +
                            " values");
}

template <typename DType>
Status DictionaryDecoder<DType>::Decode(Value* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  const Value* dict = entries_->values.data();
  const auto size = static_cast<uint32_t>(entries_->values.size());
  bool bad = false;
  uint32_t bad_index = 0;
  Value* o = out;
  const int64_t got = indices_.Visit(
      n,
      [&](uint32_t index, int64_t count) {
        if (index >= size) {
          if (!bad) bad_index = index;
          bad = true;
        } else {
          std::fill_n(o, count, dict[index]);
        }
        o += count;
      },
      [&](const uint32_t* indices, int64_t count) {
        uint32_t max = 0;
        for (int64_t i = 0; i < count; ++i) max = std::max(max, indices[i]);
        if (max >= size) {
          if (!bad)
            bad_index =
                *std::find_if(indices, indices + count, [&](uint32_t i) { return i >= size; });
          bad = true;
        } else {
          for (int64_t i = 0; i < count; ++i) o[i] = dict[indices[i]];
        }
        o += count;
      });
  if (bad) return IndexError(bad_index);
  if (got != n) return RunError(got, n);
  left_ -= n;
  return Status::OK();
}

template <typename DType>
Status DictionaryDecoder<DType>::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  const int64_t got = indices_.Skip(n);
  if (got != n) return RunError(got, n);
  left_ -= n;
  return Status::OK();
}

template <typename DType>
Status DictionaryDecoder<DType>::DecodeIndices(int32_t* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  const int64_t got = indices_.GetBatch(out, n);
  const auto size = static_cast<uint32_t>(entries_->values.size());
  uint32_t max = 0;
  for (int64_t i = 0; i < got; ++i) max = std::max(max, static_cast<uint32_t>(out[i]));
  if (max >= size && got > 0) {
    const int32_t* bad =
        std::find_if(out, out + got, [&](int32_t i) { return static_cast<uint32_t>(i) >= size; });
    return IndexError(static_cast<uint32_t>(*bad));
  }
  if (got != n) return RunError(got, n);
  left_ -= n;
  return Status::OK();
}

#define PQSIFT_INSTANTIATE(DType) template class DictionaryDecoder<DType>;
PQSIFT_FOR_EACH_DTYPE(PQSIFT_INSTANTIATE)
#undef PQSIFT_INSTANTIATE

}  // namespace pqsift::encoding
