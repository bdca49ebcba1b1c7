#include "encoding/rle_boolean.h"

#include <cstring>
#include <string>

#include "encoding/bit_util.h"
#include "encoding/decoder_util.h"

namespace pqsift::encoding {
namespace {
constexpr const char* kName = "RLE (BOOLEAN)";
}  // namespace

Status RleBooleanDecoder::SetData(std::span<const uint8_t> data, int64_t num_values) {
  left_ = 0;
  rle_.Reset({}, 1);
  if (num_values < 0) return Corrupt(kName, "negative value count " + std::to_string(num_values));
  if (data.empty()) return Status::OK();
  if (data.size() < 4) {
    return Corrupt(kName, "the 4-byte length prefix does not fit in " +
                              std::to_string(data.size()) + " bytes");
  }
  const uint32_t length = LoadLE32(data.data());
  if (length > data.size() - 4) {
    return Corrupt(kName, "length " + std::to_string(length) + " exceeds the " +
                              std::to_string(data.size() - 4) + " bytes after it");
  }
  rle_.Reset(data.subspan(4, length), 1);
  left_ = num_values;
  return Status::OK();
}

Status RleBooleanDecoder::Fail(int64_t got, int64_t n) {
  left_ = 0;
  return Corrupt(kName, std::string(rle_.ok() ? "the data ends" : "malformed run") + " after " +
                            std::to_string(got) + " of " + std::to_string(n) + " values");
}

Status RleBooleanDecoder::Decode(uint8_t* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  const int64_t got = rle_.GetBatch(out, n);
  if (got != n) return Fail(got, n);
  left_ -= n;
  return Status::OK();
}

Status RleBooleanDecoder::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckRequest(kName, n, left_));
  const int64_t got = rle_.Skip(n);
  if (got != n) return Fail(got, n);
  left_ -= n;
  return Status::OK();
}

void RleBooleanEncoder::Put(const uint8_t* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) rle_.Put(values[i] != 0 ? 1 : 0);
  num_values_ += n;
}

void RleBooleanEncoder::FinishInto(std::vector<uint8_t>& out) {
  const size_t at = out.size();
  out.resize(at + 4);
  rle_.FinishInto(out);
  const auto length = static_cast<uint32_t>(out.size() - at - 4);
  std::memcpy(out.data() + at, &length, 4);
  num_values_ = 0;
}

}  // namespace pqsift::encoding
