#include <cstring>

#include "pqsift/io.h"

namespace pqsift {
namespace {

class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(std::string name, Buffer bytes)
      : RandomAccessFile(std::move(name), bytes.size()), bytes_(std::move(bytes)) {}

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return Status::OK();
  }

 private:
  Buffer bytes_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> MakeMemoryFile(std::string name, std::span<const uint8_t> bytes) {
  return std::make_unique<MemoryFile>(std::move(name), Buffer::CopyOf(bytes));
}

}  // namespace pqsift
