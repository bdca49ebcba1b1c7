#include <cstring>
#include <string>

#include "pqsift/io.h"

#include "common/memory.h"

namespace pqsift {

Status CheckRange(uint64_t offset, uint64_t length, uint64_t file_size, std::string_view what) {
  if (offset > file_size || length > file_size - offset) {
    return Status::OutOfRange(std::string(what) + " [" + std::to_string(offset) + ", " +
                              std::to_string(offset) + "+" + std::to_string(length) +
                              ") lies outside the file of " + std::to_string(file_size) + " bytes");
  }
  return Status::OK();
}

Buffer::Buffer(size_t size) {
  memory::Block block = memory::Allocate(size);
  data_ = block.data;
  size_ = size;
  capacity_ = block.capacity;
}

Buffer::~Buffer() { memory::Free({data_, capacity_}); }

Buffer Buffer::CopyOf(std::span<const uint8_t> bytes) {
  Buffer b(bytes.size());
  if (!bytes.empty()) std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return b;
}

Result<Buffer> RandomAccessFile::Read(ByteRange range) const {
  Buffer out(range.length);
  PQSIFT_RETURN_IF_ERROR(ReadInto(range, {out.mutable_data(), out.size()}));
  return out;
}

Status RandomAccessFile::ReadInto(ByteRange range, std::span<uint8_t> out) const {
  PQSIFT_RETURN_IF_ERROR(CheckRange(range.offset, range.length, size_, "read").WithContext(name_));
  if (out.size() != range.length) {
    return Status::InvalidArgument(name_ + ": a read of " + std::to_string(range.length) +
                                   " bytes into " + std::to_string(out.size()));
  }
  CountRequest(range.length);
  return DoRead(range.offset, out);
}

Result<std::vector<Buffer>> RandomAccessFile::ReadRanges(std::span<const ByteRange> ranges) const {
  for (const ByteRange& r : ranges) {
    PQSIFT_RETURN_IF_ERROR(CheckRange(r.offset, r.length, size_, "read").WithContext(name_));
  }
  std::vector<Buffer> out;
  out.reserve(ranges.size());
  PQSIFT_RETURN_IF_ERROR(DoReadRanges(ranges, out));
  return out;
}

Status RandomAccessFile::DoReadRanges(std::span<const ByteRange> ranges,
                                      std::vector<Buffer>& out) const {
  for (const ByteRange& r : ranges) {
    Buffer b(r.length);
    CountRequest(r.length);
    PQSIFT_RETURN_IF_ERROR(DoRead(r.offset, {b.mutable_data(), b.size()}));
    out.push_back(std::move(b));
  }
  return Status::OK();
}

}  // namespace pqsift
