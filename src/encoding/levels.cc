// Definition and repetition levels (LevelDecoder and the level encoders of rle_bit_packed.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "encoding/bit_pack.h"
#include "encoding/bit_util.h"
#include "encoding/rle_bit_packed.h"

namespace pqsift::encoding {

int LevelBitWidth(int16_t max_level) {
  return max_level <= 0 ? 0 : BitWidth(static_cast<uint64_t>(max_level));
}

Status LevelDecoder::Init(int16_t max_level, int64_t num_values) {
  if (max_level < 0) {
    return Status::InvalidArgument("levels: max level " + std::to_string(max_level) +
                                   " is negative");
  }
  if (num_values < 0) {
    return Status::Corruption("levels: negative level count " + std::to_string(num_values));
  }
  encoding_ = Encoding::kRle;
  max_level_ = max_level;
  bit_width_ = LevelBitWidth(max_level);
  left_ = num_values;
  rle_.Reset({}, bit_width_);
  packed_ = nullptr;
  packed_index_ = 0;
  return Status::OK();
}

Status LevelDecoder::InitV1(Encoding encoding, int16_t max_level, int64_t num_values,
                            std::span<const uint8_t> data, size_t* consumed) {
  *consumed = 0;
  left_ = 0;
  PQSIFT_RETURN_IF_ERROR(Init(max_level, num_values));
  if (max_level == 0) return Status::OK();  // nothing stored
  switch (encoding) {
    case Encoding::kRle: {
      if (data.size() < 4) {
        left_ = 0;
        return Status::Corruption("RLE levels: the 4-byte length prefix does not fit in the " +
                                  std::to_string(data.size()) + " bytes left in the page");
      }
      const uint32_t length = LoadLE32(data.data());
      if (length > data.size() - 4) {
        left_ = 0;
        return Status::Corruption("RLE levels: length " + std::to_string(length) + " exceeds the " +
                                  std::to_string(data.size() - 4) + " bytes left in the page");
      }
      rle_.Reset(data.subspan(4, length), bit_width_);
      *consumed = 4 + size_t{length};
      return Status::OK();
    }
    case Encoding::kBitPacked: {
      // Compare in bits first so num_values * bit_width cannot overflow.
      if (num_values > static_cast<int64_t>(data.size() * 8 / static_cast<size_t>(bit_width_))) {
        left_ = 0;
        return Status::Corruption("BIT_PACKED levels: " + std::to_string(num_values) +
                                  " levels of " + std::to_string(bit_width_) + " bits exceed the " +
                                  std::to_string(data.size()) + " bytes left in the page");
      }
      encoding_ = Encoding::kBitPacked;
      packed_ = data.data();
      *consumed = static_cast<size_t>(BytesForBits(num_values * bit_width_));
      return Status::OK();
    }
    default:
      left_ = 0;
      return Status::Corruption("levels: encoding " + EncodingName(encoding) +
                                " is not RLE or BIT_PACKED");
  }
}

Status LevelDecoder::InitV2(int16_t max_level, int64_t num_values, std::span<const uint8_t> data) {
  left_ = 0;
  PQSIFT_RETURN_IF_ERROR(Init(max_level, num_values));
  rle_.Reset(data, bit_width_);
  return Status::OK();
}

Status LevelDecoder::CheckCount(int64_t n) const {
  if (n < 0) return Status::InvalidArgument("levels: negative count " + std::to_string(n));
  if (n > left_) {
    return Status::Corruption("levels: asked for " + std::to_string(n) + " levels, the page has " +
                              std::to_string(left_) + " left");
  }
  return Status::OK();
}

Status LevelDecoder::Decode(int16_t* out, int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckCount(n));
  if (bit_width_ == 0) {
    std::fill_n(out, n, int16_t{0});
  } else if (encoding_ == Encoding::kBitPacked) {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<int16_t>(
          ExtractBitsMsb(packed_, (packed_index_ + i) * bit_width_, bit_width_));
    }
    packed_index_ += n;
  } else {
    const int64_t got = rle_.GetBatch(out, n);
    if (got != n) {
      left_ = 0;
      return Status::Corruption(
          std::string("RLE levels: ") + (rle_.ok() ? "the data ends" : "malformed run") +
          " after " + std::to_string(got) + " of " + std::to_string(n) + " requested levels");
    }
  }
  left_ -= n;
  // Values of bit_width_ <= 15 bits are never negative; only the upper bound needs a check.
  int16_t max_seen = 0;
  for (int64_t i = 0; i < n; ++i) max_seen = std::max(max_seen, out[i]);
  if (max_seen > max_level_) {
    const int64_t at = std::find_if(out, out + n, [&](int16_t l) { return l > max_level_; }) - out;
    left_ = 0;
    return Status::Corruption("levels: level " + std::to_string(out[at]) +
                              " exceeds the max level " + std::to_string(max_level_));
  }
  return Status::OK();
}

bool LevelDecoder::RestAllEqual(int16_t level) const {
  if (bit_width_ == 0) return level == 0;
  if (encoding_ == Encoding::kBitPacked) return false;
  RleBitPackedDecoder runs = rle_;  // a copy: the check must not consume
  bool equal = true;
  auto on_repeat = [&](uint32_t value, int64_t) { equal = equal && value == uint32_t(level); };
  auto on_literal = [&](const uint32_t*, int64_t) { equal = false; };
  // In steps, so that a page with nulls stops at its first bit-packed run.
  constexpr int64_t kStep = 4096;
  int64_t seen = 0;
  while (equal && seen < left_) {
    int64_t k = runs.Visit(std::min(kStep, left_ - seen), on_repeat, on_literal);
    if (k == 0) break;
    seen += k;
  }
  return equal && seen == left_ && runs.ok();
}

Status LevelDecoder::Skip(int64_t n) {
  PQSIFT_RETURN_IF_ERROR(CheckCount(n));
  if (bit_width_ != 0) {
    if (encoding_ == Encoding::kBitPacked) {
      packed_index_ += n;
    } else if (rle_.Skip(n) != n) {
      left_ = 0;
      return Status::Corruption(std::string("RLE levels: ") +
                                (rle_.ok() ? "the data ends" : "malformed run") + " within " +
                                std::to_string(n) + " skipped levels");
    }
  }
  left_ -= n;
  return Status::OK();
}

void AppendLevelsV1(Encoding encoding, int16_t max_level, const int16_t* levels, int64_t n,
                    std::vector<uint8_t>& out) {
  if (max_level == 0) return;
  const int bit_width = LevelBitWidth(max_level);
  if (encoding == Encoding::kBitPacked) {
    std::vector<uint32_t> values(levels, levels + n);
    AppendPackedMsb(out, values.data(), n, bit_width);
    return;
  }
  const size_t at = out.size();
  out.resize(at + 4);
  RleBitPackedEncoder encoder(bit_width);
  encoder.PutBatch(levels, n);
  encoder.FinishInto(out);
  const auto length = static_cast<uint32_t>(out.size() - at - 4);
  std::memcpy(out.data() + at, &length, 4);
}

void AppendLevelsV2(int16_t max_level, const int16_t* levels, int64_t n,
                    std::vector<uint8_t>& out) {
  if (max_level == 0) return;
  RleBitPackedEncoder encoder(LevelBitWidth(max_level));
  encoder.PutBatch(levels, n);
  encoder.FinishInto(out);
}

}  // namespace pqsift::encoding
