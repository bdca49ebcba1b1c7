// Local files, read with pread so concurrent reads need no shared position or lock.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pqsift/io.h"

namespace pqsift {
namespace {

std::string SystemError(const std::string& path, const char* action, int err) {
  return path + ": cannot " + action + ": " + std::strerror(err);
}

class LocalFile final : public RandomAccessFile {
 public:
  LocalFile(std::string path, int fd, uint64_t size)
      : RandomAccessFile(std::move(path), size), fd_(fd) {}
  ~LocalFile() override { ::close(fd_); }

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n =
          ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError(SystemError(name(), "read", errno));
      }
      if (n == 0) {
        // The file shrank after it was opened.
        return Status::IOError(name() + ": unexpected end of file at offset " +
                               std::to_string(offset + done) + " (the file changed while open?)");
      }
      done += static_cast<size_t>(n);
    }
    return Status::OK();
  }

 private:
  int fd_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> OpenLocalFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (a hang); it
  // does not change reads of regular files.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::IOError(SystemError(path, "open", errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Status::IOError(SystemError(path, "stat", err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + ": is a directory, not a Parquet file");
  }
  if (!S_ISREG(st.st_mode)) {  // FIFOs, sockets, devices: no size, no pread
    ::close(fd);
    return Status::InvalidArgument(path + ": is not a regular file");
  }
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<LocalFile>(path, fd, static_cast<uint64_t>(st.st_size)));
}

}  // namespace pqsift
