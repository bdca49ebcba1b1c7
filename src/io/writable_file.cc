// Local output files (write(2) behind a buffer) and memory output.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pqsift/io.h"

namespace pqsift {
namespace {

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(std::string path, int fd) : WritableFile(std::move(path)), fd_(fd) {
    buffer_.reserve(kBufferBytes);
  }
  ~LocalWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

 protected:
  Status DoAppend(std::span<const uint8_t> bytes) override {
    if (buffer_.size() + bytes.size() > kBufferBytes) {
      PQSIFT_RETURN_IF_ERROR(Flush());
      if (bytes.size() >= kBufferBytes) return WriteAll(bytes);
    }
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    return Status::OK();
  }

  Status DoClose() override {
    PQSIFT_RETURN_IF_ERROR(Flush());
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return Error("close");
    return Status::OK();
  }

 private:
  static constexpr size_t kBufferBytes = size_t{1} << 20;

  Status Flush() {
    Status st = WriteAll(buffer_);
    buffer_.clear();
    return st;
  }

  Status WriteAll(std::span<const uint8_t> bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Error("write");
      }
      done += static_cast<size_t>(n);
    }
    return Status::OK();
  }

  Status Error(const char* action) const {
    return Status::IOError(name() + ": cannot " + action + ": " + std::strerror(errno));
  }

  int fd_;
  std::vector<uint8_t> buffer_;
};

class MemoryWritableFile final : public WritableFile {
 public:
  MemoryWritableFile(std::string name, std::vector<uint8_t>* out)
      : WritableFile(std::move(name)), out_(out) {}

 protected:
  Status DoAppend(std::span<const uint8_t> bytes) override {
    out_->insert(out_->end(), bytes.begin(), bytes.end());
    return Status::OK();
  }
  Status DoClose() override { return Status::OK(); }

 private:
  std::vector<uint8_t>* out_;
};

}  // namespace

Result<std::unique_ptr<WritableFile>> OpenLocalWritableFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return Status::IOError(path + ": cannot open for writing: " + std::strerror(errno));
  }
  return std::unique_ptr<WritableFile>(new LocalWritableFile(path, fd));
}

std::unique_ptr<WritableFile> MakeMemoryWritableFile(std::string name, std::vector<uint8_t>* out) {
  return std::make_unique<MemoryWritableFile>(std::move(name), out);
}

}  // namespace pqsift
