// A progress line on stderr for long scans: rows returned, bytes read of the files' bytes, files
// opened and the rate, redrawn in place at most five times a second and erased at the end. Only
// when stderr is a terminal: never on a pipe or a file (scripts and tests read a clean stderr).
//
// Thread safety: one thread (the one consuming the scan).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "pqsift/scan.h"

namespace pqsift::cli {

class Progress {
 public:
  Progress() : enabled_(isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_(start_) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }

  bool enabled() const { return enabled_; }

  // `rows`: returned (or counted) so far; `stats`: the scan's (Scanner::stats()).
  void Update(int64_t rows, const ScanStats& stats) {
    if (!enabled_) return;
    auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    double seconds = std::chrono::duration<double>(now - start_).count();
    constexpr double kMiB = 1 << 20;
    std::fprintf(stderr, "\r\033[K%lld rows, %.1f of %.1f MiB read, %llu files, %.0f rows/s",
                 static_cast<long long>(rows), static_cast<double>(stats.bytes_read) / kMiB,
                 static_cast<double>(stats.file_bytes) / kMiB,
                 static_cast<unsigned long long>(stats.files), static_cast<double>(rows) / seconds);
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

}  // namespace pqsift::cli
