#include "encoding/delta_byte_array.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "encoding/decoder_util.h"

namespace pqsift::encoding {
namespace {
constexpr const char* kName = "DELTA_BYTE_ARRAY";
constexpr int64_t kChunk = 1024;  // values decoded per step
}  // namespace

template <typename DType>
Status DeltaByteArrayDecoder<DType>::Fail(const std::string& what) {
  left_ = 0;
  return Corrupt(kName, what);
}

template <typename DType>
Status DeltaByteArrayDecoder<DType>::SetData(std::span<const uint8_t> data, int64_t num_values) {
  left_ = 0;
  previous_ = ByteView{};
  arena_.Reset();
  if (num_values < 0) return Fail("negative value count " + std::to_string(num_values));
  if (data.empty()) return Status::OK();
  PQSIFT_RETURN_IF_ERROR(prefixes_.Init(data));
  PQSIFT_ASSIGN_OR_RETURN(size_t prefixes_end, prefixes_.FindEnd());
  PQSIFT_RETURN_IF_ERROR(suffixes_.SetData(data.subspan(prefixes_end), prefixes_.left()));
  left_ = std::min(num_values, prefixes_.left());
  return Status::OK();
}

template <typename DType>
Status DeltaByteArrayDecoder<DType>::ReadChunk(int64_t k) {
  prefix_scratch_.resize(static_cast<size_t>(k));
  suffix_scratch_.resize(static_cast<size_t>(k));
  Status st = prefixes_.Read(prefix_scratch_.data(), k);
  if (st.ok()) st = suffixes_.Decode(suffix_scratch_.data(), k);
  if (!st.ok()) left_ = 0;
  return st;
}

template <typename DType>
Status DeltaByteArrayDecoder<DType>::CheckLength(size_t length, int64_t prefix) {
  if constexpr (std::is_same_v<DType, FixedLenByteArrayType>) {
    if (length != static_cast<size_t>(type_length_)) {
      return Fail("a value of " + std::to_string(length) + " bytes (prefix " +
                  std::to_string(prefix) + ") in a FIXED_LEN_BYTE_ARRAY(" +
                  std::to_string(type_length_) + ") column");
    }
  }
  // Values are built from suffix bytes of the page, so they are shorter than 2^31 unless the
  // data is malformed.
  if (length > static_cast<size_t>(INT32_MAX)) {
    return Fail("a value of " + std::to_string(length) + " bytes");
  }
  return Status::OK();
}

template <typename DType>
Status DeltaByteArrayDecoder<DType>::Decode(ByteView* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  for (int64_t done = 0; done < n;) {
    const int64_t k = std::min(n - done, kChunk);
    PQSIFT_RETURN_IF_ERROR(ReadChunk(k));
    for (int64_t i = 0; i < k; ++i) {
      const uint32_t prefix = prefix_scratch_[i];
      const ByteView suffix = suffix_scratch_[i];
      if (prefix > previous_.size) {
        return Fail("prefix length " + std::to_string(static_cast<int32_t>(prefix)) +
                    " exceeds the previous value's " + std::to_string(previous_.size) + " bytes");
      }
      const size_t length = size_t{prefix} + suffix.size;
      PQSIFT_RETURN_IF_ERROR(CheckLength(length, prefix));
      ByteView value;
      if (suffix.size == 0) {
        value = ByteView{previous_.data, prefix};
      } else if (prefix == 0) {
        value = suffix;
      } else {
        uint8_t* dst = arena_.Allocate(length);
        std::memcpy(dst, previous_.data, prefix);
        std::memcpy(dst + prefix, suffix.data, suffix.size);
        value = ByteView{dst, static_cast<uint32_t>(length)};
      }
      out[done + i] = value;
      previous_ = value;
    }
    done += k;
    left_ -= k;
  }
  return Status::OK();
}

template <typename DType>
Status DeltaByteArrayDecoder<DType>::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  if (n == 0) return Status::OK();
  skipped_.assign(previous_.str());
  for (int64_t done = 0; done < n;) {
    const int64_t k = std::min(n - done, kChunk);
    PQSIFT_RETURN_IF_ERROR(ReadChunk(k));
    for (int64_t i = 0; i < k; ++i) {
      const uint32_t prefix = prefix_scratch_[i];
      if (prefix > skipped_.size()) {
        return Fail("prefix length " + std::to_string(static_cast<int32_t>(prefix)) +
                    " exceeds the previous value's " + std::to_string(skipped_.size()) + " bytes");
      }
      PQSIFT_RETURN_IF_ERROR(CheckLength(size_t{prefix} + suffix_scratch_[i].size, prefix));
      skipped_.resize(prefix);
      skipped_.append(suffix_scratch_[i].str());
    }
    done += k;
    left_ -= k;
  }
  // The next value may share a prefix with the last skipped one: keep it in the storage.
  previous_ = ByteView{};
  if (!skipped_.empty()) {
    uint8_t* dst = arena_.Allocate(skipped_.size());
    std::memcpy(dst, skipped_.data(), skipped_.size());
    previous_ = ByteView{dst, static_cast<uint32_t>(skipped_.size())};
  }
  return Status::OK();
}

template <typename DType>
void DeltaByteArrayEncoder<DType>::Put(const ByteView* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const std::string_view v = values[i].str();
    const size_t max = std::min(previous_.size(), v.size());
    size_t prefix = 0;
    while (prefix < max && previous_[prefix] == v[prefix]) ++prefix;
    prefixes_.Put(static_cast<uint32_t>(prefix));
    const ByteView suffix{values[i].data + prefix, static_cast<uint32_t>(v.size() - prefix)};
    suffixes_.Put(&suffix, 1);
    previous_.assign(v);
  }
}

template <typename DType>
void DeltaByteArrayEncoder<DType>::FinishInto(std::vector<uint8_t>& out) {
  prefixes_.FinishInto(out);
  suffixes_.FinishInto(out);
  previous_.clear();
}

template class DeltaByteArrayDecoder<ByteArrayType>;
template class DeltaByteArrayDecoder<FixedLenByteArrayType>;
template class DeltaByteArrayEncoder<ByteArrayType>;
template class DeltaByteArrayEncoder<FixedLenByteArrayType>;

}  // namespace pqsift::encoding
