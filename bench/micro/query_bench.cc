// pqsift_query_bench FILE RUNS THREADS [WHERE [COLUMNS [LIMIT [ORDER_BY]]]]
// Runs one query RUNS times in this process, as the peers' benchmarks do (a DuckDB or Polars
// query in a process that is already up): each run opens the file, reads its footer, plans and
// decodes every batch, as a fresh query would. WHERE "" is no filter; COLUMNS is a comma list
// ("" for all); LIMIT -1 is none; ORDER_BY "" is file order (ScanOptions::order_by otherwise).
// Prints one line of JSON (wall and CPU time of this process, all threads, per run):
//   {"ms":[...],"cpu_ms":[...],"rows":R,"bytes_read":B}
// Used by bench/lib/pqsift.mjs for the "pqsift (library)" figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

#include "pqsift/scan.h"

namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  pqsift::TuneAllocatorForScans();  // as the CLI does
  if (argc < 4 || argc > 8) {
    std::fprintf(
        stderr,
        "usage: pqsift_query_bench FILE RUNS THREADS [WHERE [COLUMNS [LIMIT [ORDER_BY]]]]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int runs = std::max(1, std::atoi(argv[2]));
  pqsift::ScanOptions options;
  options.threads = std::atoi(argv[3]);
  if (argc > 4) options.filter = argv[4];
  if (argc > 5) options.columns = SplitList(argv[5]);
  if (argc > 6) options.limit = std::atoll(argv[6]);
  if (argc > 7) options.order_by = argv[7];

  std::vector<double> ms;
  std::vector<double> cpu_ms;
  int64_t rows = 0;
  uint64_t bytes_read = 0;
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();  // this process's CPU time, all threads
    auto scanner = pqsift::Scanner::Open({path}, options);
    if (!scanner.ok()) {
      std::fprintf(stderr, "%s\n", scanner.status().ToString().c_str());
      return 1;
    }
    rows = 0;
    for (;;) {
      auto batch = (*scanner)->Next();
      if (!batch.ok()) {
        std::fprintf(stderr, "%s\n", batch.status().ToString().c_str());
        return 1;
      }
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows;
    }
    bytes_read = (*scanner)->stats().bytes_read;
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    ms.push_back(elapsed.count());
    cpu_ms.push_back(1000.0 * static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
  }
  std::printf("{\"ms\":[");
  for (size_t i = 0; i < ms.size(); ++i) std::printf("%s%.3f", i ? "," : "", ms[i]);
  std::printf("],\"cpu_ms\":[");
  for (size_t i = 0; i < cpu_ms.size(); ++i) std::printf("%s%.3f", i ? "," : "", cpu_ms[i]);
  std::printf("],\"rows\":%lld,\"bytes_read\":%llu}\n", static_cast<long long>(rows),
              static_cast<unsigned long long>(bytes_read));
  return 0;
}
