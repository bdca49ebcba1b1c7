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

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (a hang); it does
// not change reads of regular files.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;

// A file's identity when it was first opened: a reopened file must still be the same one.
struct Identity {
  dev_t device;
  ino_t inode;
  uint64_t size;
};

class LocalFile final : public RandomAccessFile {
 public:
  // fd < 0: the file is opened again for each read (OpenLocalFileOnDemand).
  LocalFile(std::string path, int fd, Identity identity)
      : RandomAccessFile(std::move(path), identity.size), fd_(fd), identity_(identity) {}
  ~LocalFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

 protected:
  Status DoRead(uint64_t offset, std::span<uint8_t> out) const override {
    if (fd_ >= 0) return ReadFrom(fd_, offset, out);
    int fd = ::open(name().c_str(), kOpenFlags);
    if (fd < 0) return Status::IOError(SystemError(name(), "open", errno));
    struct stat st {};
    Status status;
    if (::fstat(fd, &st) != 0) {
      status = Status::IOError(SystemError(name(), "stat", errno));
    } else if (st.st_dev != identity_.device || st.st_ino != identity_.inode ||
               static_cast<uint64_t>(st.st_size) != identity_.size) {
      status = Status::IOError(name() + ": the file changed during the scan (size " +
                               std::to_string(identity_.size) + " when opened, now " +
                               std::to_string(st.st_size) + ", or replaced)");
    } else {
      status = ReadFrom(fd, offset, out);
    }
    ::close(fd);
    return status;
  }

 private:
  Status ReadFrom(int fd, uint64_t offset, std::span<uint8_t> out) const {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n =
          ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
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

  int fd_;
  Identity identity_;
};

Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path, bool keep_open) {
  int fd = ::open(path.c_str(), kOpenFlags);
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
  Identity identity{st.st_dev, st.st_ino, static_cast<uint64_t>(st.st_size)};
  if (!keep_open) {
    ::close(fd);
    fd = -1;
  }
  return std::unique_ptr<RandomAccessFile>(std::make_unique<LocalFile>(path, fd, identity));
}

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> OpenLocalFile(const std::string& path) {
  return Open(path, true);
}

Result<std::unique_ptr<RandomAccessFile>> OpenLocalFileOnDemand(const std::string& path) {
  return Open(path, false);
}

}  // namespace pqsift
