// The cost of memory's first touch, in 4 KiB pages and in transparent huge pages: why
// src/common/memory.cc does not advise MADV_HUGEPAGE (bench/results/memory.md).
//
// usage: pqsift_first_touch_bench MIB [huge|small]...
// Maps MIB MiB of anonymous memory for each mode named, in turn, advises MADV_HUGEPAGE for
// `huge`, writes one byte per 4 KiB page, unmaps it, and prints one line per mode: the mode,
// the seconds, GB/s. Run it after the machine has been idle a few seconds (cold: a virtual
// machine's free memory is reported to its host and taken back) and again at once (warm).
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t{2} << 20;

double TouchSeconds(size_t bytes, bool huge) {
  auto start = std::chrono::steady_clock::now();
  size_t mapped = bytes + kHugePage;
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  auto* base = static_cast<uint8_t*>(p);
  // Huge pages back only aligned 2 MiB ranges.
  const auto address = reinterpret_cast<uintptr_t>(base);
  uint8_t* data = base + (kHugePage - address % kHugePage) % kHugePage;
  if (huge) madvise(data, bytes, MADV_HUGEPAGE);
  for (size_t at = 0; at < bytes; at += kPage) data[at] = 1;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  munmap(base, mapped);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MIB [huge|small]...\n", argv[0]);
    return 2;
  }
  const size_t bytes = std::strtoull(argv[1], nullptr, 10) << 20;
  for (int i = 2; i < argc; ++i) {
    const std::string mode = argv[i];
    if (mode != "huge" && mode != "small") {
      std::fprintf(stderr, "mode %s: expected huge or small\n", argv[i]);
      return 2;
    }
    const double seconds = TouchSeconds(bytes, mode == "huge");
    std::printf("%s %zu MiB: %.3f s, %.2f GB/s\n", mode.c_str(), bytes >> 20, seconds,
                static_cast<double>(bytes) / seconds / 1e9);
  }
  return 0;
}
