// Buffer builders, assembly of nested arrays and all-null arrays (builder.h).
#include "arrow/builder.h"

#include <string>

#include "arrow/layout.h"

namespace pqsift {

// ---- BitmapBuilder ----

void BitmapBuilder::GrowByte() {
  if (buffer_ == nullptr) buffer_ = std::make_shared<ArrowBuffer>();
  size_t old = buffer_->size();
  buffer_->Resize(old + 1);
  buffer_->data()[old] = 0;
}

void BitmapBuilder::Reserve(int64_t additional_bits) {
  if (buffer_ == nullptr) buffer_ = std::make_shared<ArrowBuffer>();
  buffer_->Reserve(static_cast<size_t>(bit_util::BytesForBits(length_ + additional_bits)));
}

void BitmapBuilder::AppendN(bool bit, int64_t n) {
  if (n <= 0) return;
  if (buffer_ == nullptr) buffer_ = std::make_shared<ArrowBuffer>();
  size_t old = buffer_->size();
  size_t bytes = static_cast<size_t>(bit_util::BytesForBits(length_ + n));
  buffer_->Resize(bytes);
  if (bytes > old) std::memset(buffer_->data() + old, 0, bytes - old);
  if (bit) bit_util::SetBitsTo(buffer_->data(), length_, n, true);
  if (!bit) false_count_ += n;
  length_ += n;
}

void BitmapBuilder::AppendBits(const uint8_t* bits, int64_t offset, int64_t n) {
  if (n <= 0) return;
  if (buffer_ == nullptr) buffer_ = std::make_shared<ArrowBuffer>();
  size_t old = buffer_->size();
  size_t bytes = static_cast<size_t>(bit_util::BytesForBits(length_ + n));
  buffer_->Resize(bytes);
  if (bytes > old) std::memset(buffer_->data() + old, 0, bytes - old);
  bit_util::CopyBits(bits, offset, n, buffer_->data(), length_);
  false_count_ += n - bit_util::CountSetBits(bits, offset, n);
  length_ += n;
}

std::shared_ptr<ArrowBuffer> BitmapBuilder::Finish() {
  auto out = buffer_ ? std::move(buffer_) : std::make_shared<ArrowBuffer>();
  buffer_ = nullptr;
  length_ = 0;
  false_count_ = 0;
  return out;
}

std::shared_ptr<ArrowBuffer> BitmapBuilder::FinishValidity() {
  bool all_valid = false_count_ == 0;
  auto out = Finish();
  return all_valid ? nullptr : out;
}

// ---- LargeBinaryBuilder ----

void LargeBinaryBuilder::Reserve(int64_t additional_values, int64_t additional_bytes) {
  offsets_.Reserve(additional_values);
  data_->Reserve(data_->size() + static_cast<size_t>(additional_bytes));
}

void LargeBinaryBuilder::Finish(std::shared_ptr<ArrowBuffer>* offsets,
                                std::shared_ptr<ArrowBuffer>* data) {
  *offsets = offsets_.Finish();
  *data = std::move(data_);
  data_ = std::make_shared<ArrowBuffer>();
  offsets_.Append(0);
}

// ---- leaf array builders ----

std::shared_ptr<Array> BinaryArrayBuilder::Finish() {
  auto out = std::make_shared<Array>();
  out->type = type_;
  out->length = validity_.length();
  out->null_count = validity_.null_count();
  std::shared_ptr<ArrowBuffer> offsets, data;
  values_.Finish(&offsets, &data);
  out->buffers = {validity_.FinishValidity(), std::move(offsets), std::move(data)};
  return out;
}

void FixedSizeBinaryArrayBuilder::Append(std::string_view v) {
  assert(static_cast<int64_t>(v.size()) == type_->byte_width);
  validity_.Append(true);
  values_->Append(v.data(), v.size());
}

void FixedSizeBinaryArrayBuilder::AppendNull() {
  validity_.Append(false);
  size_t old = values_->size();
  auto width = static_cast<size_t>(type_->byte_width);
  values_->Resize(old + width);
  if (width > 0) std::memset(values_->data() + old, 0, width);
}

std::shared_ptr<Array> FixedSizeBinaryArrayBuilder::Finish() {
  auto out = std::make_shared<Array>();
  out->type = type_;
  out->length = validity_.length();
  out->null_count = validity_.null_count();
  out->buffers = {validity_.FinishValidity(), std::move(values_)};
  values_ = std::make_shared<ArrowBuffer>();
  return out;
}

// ---- nested assembly ----

namespace {

Result<std::shared_ptr<Array>> Checked(std::shared_ptr<Array> array) {
  Status status = ValidateArrayLayout(*array);
  if (!status.ok()) return Status::InvalidArgument(status.message());
  return array;
}

std::shared_ptr<Array> Nested(std::shared_ptr<const DataType> type, int64_t length,
                              std::shared_ptr<ArrowBuffer> validity, int64_t null_count) {
  auto out = std::make_shared<Array>();
  out->type = std::move(type);
  out->length = length;
  out->null_count = null_count;
  out->buffers.push_back(std::move(validity));
  return out;
}

}  // namespace

Result<std::shared_ptr<Array>> MakeLargeListArray(
    std::shared_ptr<const DataType> type, int64_t length, std::shared_ptr<ArrowBuffer> validity,
    int64_t null_count, std::shared_ptr<ArrowBuffer> offsets, std::shared_ptr<Array> values) {
  if (type == nullptr || type->id != TypeId::kLargeList) {
    return Status::InvalidArgument("MakeLargeListArray needs a large_list type");
  }
  auto out = Nested(std::move(type), length, std::move(validity), null_count);
  out->buffers.push_back(std::move(offsets));
  out->children.push_back(std::move(values));
  return Checked(std::move(out));
}

Result<std::shared_ptr<Array>> MakeStructArray(std::shared_ptr<const DataType> type, int64_t length,
                                               std::shared_ptr<ArrowBuffer> validity,
                                               int64_t null_count,
                                               std::vector<std::shared_ptr<Array>> children) {
  if (type == nullptr || type->id != TypeId::kStruct) {
    return Status::InvalidArgument("MakeStructArray needs a struct type");
  }
  auto out = Nested(std::move(type), length, std::move(validity), null_count);
  out->children = std::move(children);
  return Checked(std::move(out));
}

Result<std::shared_ptr<Array>> MakeMapArray(std::shared_ptr<const DataType> type, int64_t length,
                                            std::shared_ptr<ArrowBuffer> validity,
                                            int64_t null_count,
                                            std::shared_ptr<ArrowBuffer> offsets,
                                            std::shared_ptr<Array> entries) {
  if (type == nullptr || type->id != TypeId::kMap) {
    return Status::InvalidArgument("MakeMapArray needs a map type");
  }
  auto out = Nested(std::move(type), length, std::move(validity), null_count);
  out->buffers.push_back(std::move(offsets));
  out->children.push_back(std::move(entries));
  return Checked(std::move(out));
}

namespace {

std::shared_ptr<ArrowBuffer> Zeros(size_t bytes) {
  auto buffer = std::make_shared<ArrowBuffer>();
  buffer->Resize(bytes);
  if (bytes > 0) std::memset(buffer->data(), 0, bytes);
  return buffer;
}

// `length` slots of `type`, every validity bit `valid` (no bitmap when valid).
std::shared_ptr<Array> Filled(const std::shared_ptr<const DataType>& type, int64_t length,
                              bool valid) {
  auto out = std::make_shared<Array>();
  out->type = type;
  out->length = length;
  auto n = static_cast<size_t>(length);
  if (type->id == TypeId::kNull) {
    out->null_count = length;
    return out;
  }
  out->null_count = valid ? 0 : length;
  out->buffers.push_back(valid ? nullptr
                               : Zeros(static_cast<size_t>(bit_util::BytesForBits(length))));
  switch (type->id) {
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      out->buffers.push_back(Zeros((n + 1) * sizeof(int64_t)));
      out->buffers.push_back(Zeros(0));
      break;
    case TypeId::kLargeList:
      out->buffers.push_back(Zeros((n + 1) * sizeof(int64_t)));
      out->children.push_back(Filled(type->children[0].type, 0, true));
      break;
    case TypeId::kMap:
      out->buffers.push_back(Zeros((n + 1) * sizeof(int32_t)));
      out->children.push_back(Filled(type->children[0].type, 0, true));
      break;
    case TypeId::kStruct:
      // Children are filled the same way (nulls under a null parent are allowed even for
      // non-nullable fields: no valid element reaches them).
      for (const Field& f : type->children) out->children.push_back(Filled(f.type, length, valid));
      break;
    case TypeId::kBoolean:
      out->buffers.push_back(Zeros(static_cast<size_t>(bit_util::BytesForBits(length))));
      break;
    case TypeId::kDictionary:
      // Indices 0 into an empty dictionary: never read, as `valid` is only true when empty.
      out->buffers.push_back(Zeros(n * sizeof(int32_t)));
      out->dictionary = Filled(type->value_type, 0, true);
      break;
    default:
      out->buffers.push_back(Zeros(n * static_cast<size_t>(layout::FixedByteWidth(*type))));
      break;
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<Array>> MakeAllNullArray(const std::shared_ptr<const DataType>& type,
                                                int64_t length) {
  if (type == nullptr) return Status::InvalidArgument("MakeAllNullArray: no type");
  PQSIFT_RETURN_IF_ERROR(ValidateType(*type));
  if (length < 0) return Status::InvalidArgument("MakeAllNullArray: negative length");
  return Filled(type, length, false);
}

Result<std::shared_ptr<Array>> MakeEmptyArray(const std::shared_ptr<const DataType>& type) {
  if (type == nullptr) return Status::InvalidArgument("MakeEmptyArray: no type");
  PQSIFT_RETURN_IF_ERROR(ValidateType(*type));
  return Filled(type, 0, true);
}

}  // namespace pqsift
