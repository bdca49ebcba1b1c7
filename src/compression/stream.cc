#include "compression/stream.h"

#include <algorithm>
#include <cstring>

#include "compression/codec.h"
#include "compression/codecs.h"

namespace pqsift::compression {
namespace {

// Codecs whose library cannot stop and resume: the whole page at the first call.
class WholePage final : public PageStream {
 public:
  WholePage(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output)
      : PageStream(output), codec_(codec), input_(input) {}

 private:
  Status Produce(size_t /*target*/) override {
    PQSIFT_RETURN_IF_ERROR(Decompress(codec_, input_, output_));
    filled_ = size_;
    done_ = true;
    return Status::OK();
  }

  CompressionCodec codec_;
  std::span<const uint8_t> input_;
};

}  // namespace

bool StreamsPieceByPiece(CompressionCodec codec) {
  return codec == CompressionCodec::kZstd || codec == CompressionCodec::kGzip;
}

Result<std::unique_ptr<PageStream>> PageStream::Make(CompressionCodec codec,
                                                     std::span<const uint8_t> input,
                                                     std::span<uint8_t> output, Discards discards) {
  // An empty page goes through Decompress, which knows each codec's empty stream.
  if (!output.empty()) {
    if (codec == CompressionCodec::kZstd) {
      return MakeZstdStream(input, output, discards == Discards::kAllowed);
    }
    if (codec == CompressionCodec::kGzip) return MakeGzipStream(input, output);
  }
  if (codec == CompressionCodec::kLzo) {
    return Status::NotSupported("compression codec " + CodecName(codec) + " is not supported");
  }
  return std::unique_ptr<PageStream>(new WholePage(codec, input, output));
}

Status PageStream::FillTo(size_t want) {
  PQSIFT_RETURN_IF_ERROR(error_);
  if (done_ || (want <= filled_ && want < size_)) return Status::OK();
  // A step at least, so that a decoder asking for a few bytes at a time costs one call per step;
  // the whole page when the step would leave less than a step behind.
  size_t target = std::max(std::min(want, size_), std::min(size_, filled_ + kStep));
  if (size_ - target < kStep) target = size_;
  Status st = Produce(target);
  if (!st.ok()) error_ = st;
  return st;
}

Status PageStream::DiscardTo(size_t to) {
  PQSIFT_RETURN_IF_ERROR(error_);
  if (done_ || to <= filled_) return Status::OK();
  if (to >= size_) return FillTo(size_);  // the end is checked, so the last bytes are kept
  while (filled_ < to) {
    auto passed = OutToScratch(to);
    if (!passed.ok()) return passed.status();
    if (passed->empty()) break;  // a stream that cannot: the bytes go into the output
  }
  if (filled_ >= to) return Status::OK();
  Status st = Produce(to);
  if (!st.ok()) error_ = st;
  return st;
}

Result<std::span<const uint8_t>> PageStream::NextPiece(size_t to) {
  PQSIFT_RETURN_IF_ERROR(error_);
  if (done_ || to <= filled_ || to >= size_) return std::span<const uint8_t>();
  auto piece = OutToScratch(to);
  if (piece.ok()) piece_ = piece->size();
  return piece;
}

void PageStream::KeepRestOfPiece(size_t from) {
  if (from >= piece_) return;
  std::memcpy(output_.data() + filled_ - (piece_ - from), scratch_.get() + from, piece_ - from);
}

Result<bool> PageStream::ReadOut(std::span<uint8_t> into) {
  PQSIFT_RETURN_IF_ERROR(error_);
  // Not within a step of the end: FillTo takes the rest whole, as it would (the page then has
  // arrived, and its compressed bytes can go).
  if (done_ || into.empty() || into.size() + kStep >= size_ - filled_) return false;
  auto out = Out(into);
  if (!out.ok()) error_ = out.status();
  return out;
}

Result<std::span<const uint8_t>> PageStream::OutToScratch(size_t to) {
  piece_ = 0;
  if (scratch_ == nullptr) scratch_ = std::make_unique<uint8_t[]>(kPiece);
  const std::span<uint8_t> into(scratch_.get(), std::min(kPiece, to - filled_));
  auto out = Out(into);
  if (!out.ok()) {
    error_ = out.status();
    return out.status();
  }
  return *out ? std::span<const uint8_t>(into) : std::span<const uint8_t>();
}

}  // namespace pqsift::compression
