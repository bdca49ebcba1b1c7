// The local store: paths on this machine, read with pread (local_file.cc), listed by walking
// folders.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "io/file_systems.h"

namespace pqsift::io {
namespace {

namespace fs = std::filesystem;

class LocalFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                 const FileOpenOptions& options) override {
    PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file,
                            options.on_demand ? OpenLocalFileOnDemand(path) : OpenLocalFile(path));
    if (options.expected != nullptr && options.expected->known &&
        options.expected->size != file->size()) {
      return Status::IOError(path + ": the file changed since it was listed (" +
                             std::to_string(options.expected->size) + " bytes then, " +
                             std::to_string(file->size()) + " now)");
    }
    file->ShareCounters(options.counters);
    return file;
  }

  bool IsFolder(const std::string& path) override {
    std::error_code ec;
    return fs::is_directory(path, ec);
  }

  Result<std::vector<FileInfo>> List(const std::string& folder) override {
    std::vector<FileInfo> out;
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::follow_directory_symlink,
                                        ec);
    if (ec) return Status::IOError(folder + ": " + ec.message());
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) return Status::IOError(folder + ": " + ec.message());
      if (!it->is_regular_file(ec)) continue;
      PQSIFT_ASSIGN_OR_RETURN(FileInfo info, Stat(it->path().string()));
      out.push_back(std::move(info));
    }
    if (ec) return Status::IOError(folder + ": " + ec.message());
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  Result<FileInfo> Stat(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Status::IOError(path + ": no such file or folder");
    FileInfo f;
    f.path = path;
    f.size = static_cast<uint64_t>(st.st_size);
    f.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    return f;
  }
};

}  // namespace

std::shared_ptr<FileSystem> MakeLocalFileSystem() { return std::make_shared<LocalFileSystem>(); }

}  // namespace pqsift::io
